"""Decide from the raw bytes whether a file can matter, before paying for a parse.

A file matters when it may import a supported framework's top-level module (or its dotted root:
`google.adk`, not all of `google`). The pre-filter may only drop a file that provably cannot:

1. A substring search for each root's name (memchr speed, ~1.5 GB/s) in the text as CPython
   decodes it (a UTF-7 or UTF-16 file is searched decoded). A file without any root name cannot
   import one: the engine resolves no import that is not spelled out in full (`__import__`,
   importlib and string arithmetic are not followed), so it would find nothing there either.
2. A plain `import`/`from` line naming a root lets the file through at once (the common case).
3. Anything else that names a root (a one-line `if`/`try` body, a `\\` continuation, CR-only line
   endings, a mention in a string) is decided by CPython's parser: the file passes when its tree
   imports a root, or when CPython cannot parse it (the engine then decides: a newer grammar is
   analysed, a real error is SIB900).

flake8 mode decides from the `ast` tree flake8 already built (`may_matter_ast`) or from its lines.
TS/JS files pass on the substring alone: a comment between `from` and the specifier is legal.

This module imports nothing heavy (no libcst, no rules): the CLI and the flake8 plugin call it
before they know whether they need the engine at all.
"""

from __future__ import annotations

import ast
import codecs
import io
import re
import tokenize
import warnings
from collections.abc import Iterator
from functools import lru_cache


@lru_cache(maxsize=None)
def _default_roots(language: str | None = None) -> tuple[str, ...]:
    from ..frameworks import import_roots

    return import_roots(language)


# siblint.js.EXTENSIONS, repeated here so that this module imports nothing of the engine.
JS_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
NOTEBOOK_SUFFIX = ".ipynb"  # siblint.syntax.notebook.SUFFIX, for the same reason


def may_matter_js(data: bytes, roots: tuple[str, ...] | None = None) -> bool:
    """A TS/JS file matters when it names a JS framework's package as a module specifier anywhere
    (`'ai'`, `"@openai/agents"`, `'langchain/tools'`, in an import, `require` or `import()`; the
    engine decides): the bare word `ai` is in nearly every file."""
    return _js_specifier(roots or _default_roots("js")).search(data) is not None


@lru_cache(maxsize=None)
def _js_specifier(roots: tuple[str, ...]) -> re.Pattern[bytes]:
    # Deno's `npm:` specifiers and CDN URLs name a package too, with a version after the package's
    # name (`npm:ai@4`, `https://esm.sh/@langchain/core@0.3.0/tools`).
    version = rb"(?:@[^\'\"`/\s]*)?"
    names = b"|".join(_versioned(r, version) for r in sorted(roots, key=len, reverse=True))
    registry = rb"(?:npm:|https?://(?:esm\.sh|cdn\.skypack\.dev|esm\.run|cdn\.jsdelivr\.net/npm)/)?"
    return re.compile(rb"[\'\"`]" + registry + rb"(?:" + names + rb")[\'\"`/]")


def _versioned(root: str, version: bytes) -> bytes:
    """`root` as a pattern with a version allowed after its package name (`@scope/name` or `name`)."""
    parts = root.split("/")
    size = 2 if root.startswith("@") else 1
    package, rest = "/".join(parts[:size]), "/".join(parts[size:])
    return re.escape(package.encode()) + version + (re.escape(f"/{rest}".encode()) if rest else b"")


@lru_cache(maxsize=None)
def _pattern(roots: tuple[str, ...]) -> re.Pattern[bytes]:
    names = b"|".join(re.escape(r.encode()) for r in roots)
    # `import agents`, `import x, agents.tool`, `from agents import`, `from agents.mcp import` at
    # the start of a line: a shortcut for the common case, never a reason to drop a file. One way
    # to split a line (one blank after `import`, `[^\n#]*` takes the rest), so the scan is linear.
    return re.compile(rb"^(?:\xef\xbb\xbf)?[ \t\f]*(?:from[ \t]+(?:" + names + rb")\b|import[ \t][^\n#]*\b(?:" + names + rb")\b)",
                      re.M)


@lru_cache(maxsize=None)
def _needles(roots: tuple[str, ...]) -> tuple[tuple[bytes, ...], ...]:
    # Each root as the parts every spelling of its import holds: a dotted root can be written
    # `from google import adk` or `google . adk`, so both `google` and `adk` must be present. A
    # name that contains another (`langchain_core` holds `langchain`) needs no search of its own.
    parts = {tuple(r.split(".")) for r in roots}
    kept = [p for p in parts if not any(o != p and len(o) == len(p) == 1 and o[0] in p[0] for o in parts)]
    return tuple(sorted(tuple(n.encode() for n in p) for p in kept))


_IMPORTERS = frozenset({"__import__", "import_module"})  # `__import__("agents")`, `importlib.import_module(...)`


_BLANKS = frozenset(b" \t\f\v\r\n\\")  # what may stand between `from`/`import`/`,` and the name
_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_QUOTES = frozenset(b"'\"")


def _where_imported(data: bytes, name: bytes) -> tuple[bool, bool]:
    """(a mention of `name` stands where an import names it, it stands quoted as `'name'` or
    `'name.`). Once blanks and `\\` line joins are skipped, only `from`, `import` or the `,` of
    `import os, agents` can stand before an imported name: no comment can sit there (a plain
    `import` takes no brackets, and a comment ends the statement). Each mention is found by
    `bytes.find` (memchr speed; a regex alternation tried at every byte ran at 14 MB/s) and looks
    back over its own blank run only, so the scan is linear."""
    quoted = False
    size = len(data)
    pos = data.find(name)
    while pos != -1:
        end = pos + len(name)
        after = data[end] if end < size else None
        if after is None or after not in _WORD:
            start = pos
            while start and data[start - 1] in _BLANKS:
                start -= 1
            if start and data[start - 1] == 44:  # ","
                return True, quoted
            for keyword in (b"from", b"import"):
                head = start - len(keyword)
                if head >= 0 and data.startswith(keyword, head) and (head == 0 or (
                        data[head - 1] not in _WORD and data[head - 1] != 46)):  # not `x.from`, `ximport`
                    return True, quoted
        if pos and data[pos - 1] in _QUOTES and after is not None and (after == 46 or after in _QUOTES):
            quoted = True
        pos = data.find(name, pos + 1)
    return False, quoted


def _could_import(data: bytes, roots: tuple[str, ...]) -> bool:
    """False only when no mention of a root stands where an import names it (a lexical proof). A
    dotted root's parts can be apart, with a comment between (`from google import (  # c` newline
    `adk)`): when they are all present, CPython decides. A quoted name is the literal of
    `__import__('agents')` when the file calls an importer."""
    if _names_a_root(data, _needles(tuple(r for r in roots if "." in r))):
        return True
    by_call = any(name.encode() in data for name in _IMPORTERS)
    for root in roots:
        if "." not in root:
            imported, quoted = _where_imported(data, root.encode())
            if imported or (by_call and quoted):
                return True
    return False


_UTF8 = "utf-8"
_HEAD = 4096
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def _declared_encoding(data: bytes) -> str | None:
    """The codec to search `data` in when its bytes are not the text (a UTF-16/32 BOM, or a PEP 263
    cookie for a codec other than UTF-8); None when the bytes can be searched as they are."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    if data.find(b"coding", 0, _HEAD) < 0 and data.count(b"\n", 0, _HEAD) + data.count(b"\r", 0, _HEAD) >= 2:
        return None  # the first two lines, where a cookie must sit, hold none
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:  # CPython refuses such a file: it imports nothing
        return None
    return None if codecs.lookup(encoding).name == _UTF8 else encoding


def _names_a_root(text: str | bytes, needles: tuple[tuple[bytes, ...], ...]) -> bool:
    if isinstance(text, str):
        return any(all(n.decode() in text for n in parts) for parts in needles)
    return any(all(n in text for n in parts) for parts in needles)


def _parser_says(source: str | bytes, roots: tuple[str, ...]) -> bool:
    """CPython's parse decides; a source it cannot parse passes (the engine reports or analyses it)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except Exception:  # noqa: BLE001 - SyntaxError, ValueError (NUL), RecursionError, MemoryError: not provably safe
        return True
    raw = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
    return may_matter_ast(tree, roots, calls=any(name.encode() in raw for name in _IMPORTERS))


def may_matter(data: bytes, roots: tuple[str, ...] | None = None, path: str = "") -> bool:
    """`path`, when it names a TS/JS file, selects the JS decision (`may_matter_js`); a notebook
    is decided on its code cells (one that cannot be read passes: the engine says why, SIB900)."""
    if path and path.lower().endswith(JS_EXTENSIONS):
        return may_matter_js(data, roots)
    if path and path.lower().endswith(NOTEBOOK_SUFFIX):
        return _notebook_matters(data, roots)
    roots = roots or _default_roots("python")
    encoding = _declared_encoding(data)
    if encoding is None:
        if not _names_a_root(data, _needles(roots)):
            return False
        if _pattern(roots).search(data) is not None:
            return True
        return _could_import(data, roots) and _parser_says(data, roots)
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return True  # the engine reports it as undecodable (SIB900)
    return _names_a_root(text, _needles(roots)) and _parser_says(data, roots)


def _notebook_matters(data: bytes, roots: tuple[str, ...] | None) -> bool:
    from .notebook import code_of

    code = code_of(data)
    return code is None or may_matter(code.encode("utf-8", "surrogatepass"), roots)


def may_matter_text(text: str, roots: tuple[str, ...] | None = None) -> bool:
    """The same decision over decoded text (flake8 gives the plugin `lines`: joined)."""
    roots = roots or _default_roots("python")
    if not _names_a_root(text, _needles(roots)):
        return False
    data = text.encode("utf-8", "surrogatepass")
    if _pattern(roots).search(data) is not None:
        return True
    return _could_import(data, roots) and _parser_says(text, roots)


def may_matter_ast(tree: ast.AST, roots: tuple[str, ...] | None = None, *, calls: bool = True) -> bool:
    """Exact for a parsed module: does any Import/ImportFrom (at any depth), or (`calls`) an
    `__import__` / `import_module` call with a literal name, name a root?"""
    wanted = tuple(roots or _default_roots("python"))
    for node in _statements(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module and (_under(node.module, wanted) or _dotted_by_from(node, wanted)):
                return True
        elif isinstance(node, ast.Import):
            if any(_under(a.name, wanted) for a in node.names):
                return True
    return calls and any(isinstance(node, ast.Call) and _imports_by_call(node, wanted) for node in ast.walk(tree))


_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")


def _statements(tree: ast.AST) -> Iterator[ast.AST]:
    """Every statement at any depth (imports are statements), without visiting expressions."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for field in _BODIES:
            children = getattr(node, field, None)
            if isinstance(children, list):
                stack.extend(children)


def _imports_by_call(node: ast.Call, roots: tuple[str, ...]) -> bool:
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    first = node.args[0] if node.args else None
    return (name in _IMPORTERS and isinstance(first, ast.Constant) and isinstance(first.value, str)
            and _under(first.value, roots))


def _dotted_by_from(node: ast.ImportFrom, roots: tuple[str, ...]) -> bool:
    """`from google import adk`: the module and a name together spell a dotted root."""
    return any(f"{node.module}.{a.name}" in roots for a in node.names)


def _under(module: str, roots: tuple[str, ...]) -> bool:
    """`module` is a root or inside one (a dotted root such as `google.adk` included)."""
    return any(module == r or module.startswith(r + ".") for r in roots)
