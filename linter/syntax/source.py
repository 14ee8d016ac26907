"""From bytes to a libcst module, or to one clear reason why not.

Three guards stand between a file and libcst's native parser, because a crash there (a stack
overflow in native code) kills the whole process, and editors run flake8 plugins inside theirs:

1. CPython's own parser (`ast.parse`, which never runs code) checks the text first. It rejects what
   CPython rejects (syntax errors, Python 2, brackets nested past 200) in a fraction of libcst's
   time, and so keeps `x = ((((...` 10,000 deep away from libcst (that input aborts libcst 1.9).
2. Valid Python can still nest deeper in libcst's tree than in CPython's: `a and b and c ...` and
   `import a.b.c...` are flat in CPython's AST but one level per term in libcst's, and 10,000 of
   them overflow libcst's native stack. `nesting_depth` measures the AST the way libcst will build
   it; past `MAX_DEPTH` the file is reported as valid Python that libcst cannot parse, before
   libcst sees it. The measure also bounds what CPython's parser accepted, whatever recursion
   limit the host process has set (CPython's own nesting limit scales with it). `guard` walks only
   what could nest that deep: a node whose lines are too short to (`LEVELS_PER_CHAR`) is skipped.
   A file CPython rejects may still be valid in a newer grammar than the host's (PEP 695 `type X =
   ...` and `def f[T]()`, PEP 701 f-strings on Python 3.10/3.11). Such a file is measured without
   CPython's tree (`newer_syntax.token_depth`), handed to libcst, and analysed when libcst parses
   it and the place CPython rejected holds newer syntax; anything else stays a syntax error.
3. Everything runs in a thread with a stack of known, ample size (`run_isolated`), not on the
   caller's stack, which may be a small editor worker thread. Valid code that nests deeper than
   Python's default recursion limit allows libcst's recursive code generation (500 chained `+`)
   is retried with a raised limit (`with_deep_recursion`).
"""

from __future__ import annotations

import ast
import io
import sys
import threading
import tokenize
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

import libcst as cst

from ..common.lines import line_starts
from . import identifiers, newer_syntax

T = TypeVar("T")

# The memory one module's analysis may take, and what it costs per syntax node, measured with
# `siblint check --no-cache -j1` peak RSS (CPython 3.11, libcst 1.9, tree-sitter 0.26):
# `f()` lines, 250 KB / 1 MB (0.25 M / 1 M CPython nodes): 658 MB / 2.36 GB; openai-agents' run.py
# repeated to 1 MB (74 k nodes): 259 MB; so ~2.3-3 KB per CPython node, whatever the bytes (a
# 5 MB generated module of one literal is a few thousand nodes). TS/JS: `[1,1,...]` of 1 MB
# (1 M tree-sitter nodes): 461 MB, the example repeated to 1 MB: 88 MB; ~0.45 KB per node.
MEMORY_BUDGET = 2_000_000_000
PY_BYTES_PER_NODE = 3_000
JS_BYTES_PER_NODE = 450


def over_budget(nodes: int, bytes_per_node: int) -> "SourceError | None":
    """SIB900's reason when analysing a tree of `nodes` would take more than MEMORY_BUDGET."""
    need = nodes * bytes_per_node
    if need <= MEMORY_BUDGET:
        return None
    return SourceError(f"too large to analyse within the memory budget: {nodes:,} syntax nodes would take about "
                       f"{need / 1e9:.1f} GB (the budget is {MEMORY_BUDGET / 1e9:.0f} GB)")


# Deepest nesting (in libcst's tree, as `nesting_depth` counts it) handed to libcst. CPython at its
# default recursion limit accepts expressions ~3,000 levels deep; libcst's native parser needs
# ~1.5 KB of stack per level for boolean-operator chains, so `_STACK` leaves a wide margin.
MAX_DEPTH = 4_000
_STACK = 256 * 1024 * 1024  # virtual size of the worker thread's stack; only touched pages count
_DEEP_LIMIT = 100_000  # recursion limit for the retry of a deeply nested (valid) file
_lock = threading.RLock()  # threading.stack_size and sys.setrecursionlimit are process-wide


class SourceError(Exception):
    """The file cannot be analysed; `reason` says why, `line` where (1 when unknown)."""

    def __init__(self, reason: str, line: int = 1, col: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = max(1, line)
        self.col = max(0, col)


def decode(data: bytes) -> str:
    """Decode as Python does: BOM, PEP 263 cookie, else UTF-8."""
    if b"\0" in data:
        raise SourceError("file contains NUL bytes", data[: data.index(b"\0")].count(b"\n") + 1)
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise SourceError(f"bad coding cookie: {exc}", getattr(exc, "lineno", None) or 1) from None
    try:
        return data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        line = data[: getattr(exc, "start", 0)].count(b"\n") + 1
        raise SourceError(f"not valid {encoding}: {exc}", line) from None


def run_isolated(work: Callable[[], T], recursion_limit: int | None = None) -> T:
    """Run `work` in a fresh thread with a `_STACK`-sized stack; its result or exception comes back.

    With `recursion_limit`, the process-wide recursion limit is raised while `work` runs (under a
    lock, restored after). When no such thread can be started (a platform limit), `work` runs on
    the caller's thread, and never with a raised limit: that could overflow the caller's stack.
    """
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:  # handed back to the caller's thread
            box["error"] = exc

    if recursion_limit is None:
        thread = _start(run)
        if thread is None:
            return work()
        thread.join()
    else:
        with _lock:
            old_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(old_limit, recursion_limit))
            try:
                thread = _start(run)
                if thread is None:
                    raise RecursionError("no thread with a large stack available for deep recursion")
                thread.join()
            finally:
                sys.setrecursionlimit(old_limit)
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]


def _start(target: Callable[[], None]) -> threading.Thread | None:
    thread = threading.Thread(target=target, name="siblint-parse", daemon=True)
    with _lock:
        old = threading.stack_size()
        try:
            threading.stack_size(_STACK)
            thread.start()
        except (ValueError, RuntimeError, MemoryError):
            return None
        finally:
            threading.stack_size(old)
    return thread


def check_syntax(text: str, filename: str, tree: ast.Module | None = None) -> ast.Module | None:
    """CPython's verdict on `text` (raises SourceError for anything it rejects), then the depth guard.
    None: this interpreter rejects `text`, but it is valid in a newer grammar that libcst parses.

    `tree`: CPython's parse of `text` when the caller has one (flake8 does); it is not parsed again."""

    def parse() -> ast.Module:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text, filename=filename)

    try:
        if tree is None:
            tree = run_isolated(parse)
    except SyntaxError as exc:
        error = SourceError(f"syntax error: {exc.msg}", exc.lineno or 1, (exc.offset or 1) - 1)
        if _newer_grammar(text, error.line):
            return None
        lines = text.splitlines()
        newer = newer_syntax.needs_newer_python(lines[error.line - 1]) if 0 < error.line <= len(lines) else None
        if newer is not None:
            error = SourceError(f"syntax error: {exc.msg} ({newer})", error.line, error.col)
        raise error from None
    except (RecursionError, MemoryError):
        raise SourceError("too deeply nested for CPython's parser") from None
    except ValueError as exc:
        raise SourceError(str(exc)) from None
    guard(tree, text)
    return tree


def guard(tree: ast.AST, text: str) -> None:
    """Raise SourceError when `tree`, CPython's parse of `text`, has more nodes than the memory
    budget allows or nests past MAX_DEPTH in libcst's tree. Nodes are counted only in a file too
    big for its size to rule the budget out (`NODES_PER_CHAR`)."""
    if NODES_PER_CHAR * len(text) + 2 > MEMORY_BUDGET // PY_BYTES_PER_NODE:
        depth, line, nodes = nesting_depth(tree)
        budget_error = over_budget(nodes, PY_BYTES_PER_NODE)
        if budget_error is not None:
            raise budget_error
    else:
        depth, line, _ = nesting_depth(tree, text)
    if depth > MAX_DEPTH:
        raise SourceError(
            f"valid Python that libcst cannot parse safely: nested {depth} levels deep in libcst's tree "
            f"(long `and`/`or` chains and dotted import names count one level per term; the limit is {MAX_DEPTH})",
            line,
        )


# Bounds that settle the guard without a walk of the whole tree. CPython's tree has at most two
# nodes per character of source (`~~~x`: a UnaryOp and an Invert per `~`; a `Load` per name), and
# a node's subtree reaches at most one level per character below it (a chain of `~`, `.b`, `()`,
# `[0]`) plus libcst's extra levels (`_EXTRA_DEPTH`: at most one per ` or b`, `.b`, ` for a in b`).
# The factors leave a margin; tests/engine/test_nesting_depth.py checks them on the densest shapes.
NODES_PER_CHAR = 3
LEVELS_PER_CHAR = 4


def nesting_depth(tree: ast.AST, text: str | None = None) -> tuple[int, int, int]:
    """(deepest nesting, its line, how many nodes) of `tree`, counted the way libcst builds its
    tree. Iterative; this loop sees every node, so each node type's shape is looked up once.

    With `text` (of which `tree` is CPython's parse), a node whose source (the whole lines it
    spans) is too short to reach past MAX_DEPTH below it is not walked: the depth is then exact
    when it exceeds MAX_DEPTH and may be smaller when it does not, and only walked nodes are
    counted. A file of ordinary statements walks only those. Always walked: a decorated definition
    (its decorators stand above its `def`) and what an f-string holds (before 3.12, CPython's
    positions inside one can be off)."""
    starts = line_starts(text) if text is not None else []
    lines = len(starts)
    starts.append(len(text or ""))  # the end of the last line
    best, best_line, nodes = 0, 1, 0
    stack: list[tuple[ast.AST, int, int, bool]] = [(tree, 0, 1, text is not None)]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        node, depth, line, bounded = pop()
        nodes += 1
        kind = type(node)
        line = getattr(node, "lineno", line)
        fields, has_context, extra = _SHAPES.get(kind) or _shape(kind)
        depth += 1 if extra is None else 1 + extra(node)
        if depth > best:
            best, best_line = depth, line
        if bounded:
            end = getattr(node, "end_lineno", None)
            if (end is not None and end <= lines and not getattr(node, "decorator_list", None)
                    and depth + LEVELS_PER_CHAR * (starts[end] - starts[line - 1]) <= MAX_DEPTH):
                continue
            bounded = kind is not ast.JoinedStr
        if has_context:  # `Load()`/`Store()`/`Del()`: a leaf one level down on the same line, counted here
            nodes += 1
            if depth + 1 > best:
                best, best_line = depth + 1, line
        for name in fields:
            value = getattr(node, name, None)
            if type(value) is list:
                extend([(child, depth, line, bounded) for child in value if isinstance(child, ast.AST)])
            elif isinstance(value, ast.AST):
                push((value, depth, line, bounded))
    return best, best_line, nodes


# Levels libcst's tree has beyond CPython's one per node.
_EXTRA_DEPTH: dict[type, Callable[[Any], int]] = {
    ast.BoolOp: lambda node: len(node.values) - 1,  # libcst: BooleanOperation(left, op, right), nested
    ast.alias: lambda node: node.name.count("."),  # libcst: Attribute(Attribute(...)) per dot
    ast.ImportFrom: lambda node: (node.module or "").count("."),
    # libcst: CompFor(inner_for_in=CompFor(...))
    **dict.fromkeys((ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp), lambda node: len(node.generators)),
}
# Node type -> (child fields but `ctx`, has a `ctx` field, extra depth or None).
_SHAPES: dict[type, tuple[tuple[str, ...], bool, Callable[[Any], int] | None]] = {}


def _shape(kind: type) -> tuple[tuple[str, ...], bool, Callable[[Any], int] | None]:
    fields = tuple(f for f in kind._fields if f != "ctx")  # type: ignore[attr-defined]
    shape = _SHAPES[kind] = (fields, len(fields) != len(kind._fields), _EXTRA_DEPTH.get(kind))  # type: ignore[attr-defined]
    return shape


def _newer_grammar(text: str, line: int) -> bool:
    """CPython rejected `text` at `line`; True when libcst parses it and that line lies in syntax
    newer than this interpreter's (a type alias, type parameters, an f-string)."""
    measured = newer_syntax.token_depth(text)
    if measured is None or measured[0] > MAX_DEPTH:
        return False
    try:
        spans = with_deep_recursion(lambda: newer_syntax.spans(parse(text)))
    except SourceError:
        return False
    return any(start <= line <= end for start, end in spans)


def parse(text: str) -> cst.Module:
    try:
        return cst.parse_module(identifiers.normalised(text))  # names as CPython reads them
    except cst.ParserSyntaxError as exc:
        raise SourceError(
            f"valid Python that libcst cannot parse: {exc.message}", exc.raw_line, exc.raw_column
        ) from None
    except cst.CSTValidationError as exc:  # `return* x`: CPython's parser takes it, its compiler does not
        raise _compiler_verdict(text) or SourceError(f"valid Python that libcst cannot parse: {exc}") from None


def _compiler_verdict(text: str) -> SourceError | None:
    """CPython's compiler's syntax error in `text`, if it has one (the rare case where only the
    compiler, not the parser, rejects code)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(text, "<siblint>", "exec", dont_inherit=True)
    except SyntaxError as err:
        return SourceError(f"syntax error: {err.msg}", err.lineno or 1, (err.offset or 1) - 1)
    except (ValueError, RecursionError, MemoryError):
        return None
    return None


def with_deep_recursion(work: Callable[[], T]) -> T:
    """Run `work` (a libcst parse and what follows) isolated; on RecursionError, again with room.

    Valid code can nest deeper than Python's default recursion limit allows libcst's recursive
    code generation (500 chained `+`); such files get a raised limit on the same ample stack.
    """
    try:
        return run_isolated(work)
    except RecursionError:
        pass
    try:
        return run_isolated(work, recursion_limit=_DEEP_LIMIT)
    except RecursionError:
        raise SourceError("valid Python that libcst cannot handle: nested too deeply for its code generation") from None
