"""libcst's `PositionProvider` ranges for every node a rule can ask about, at less cost.

libcst computes positions by generating the whole module's code again while tracking line and
column (anchors.md section 5: about 1.7x the parse). Three parts of that are cheap to avoid without
changing a single range:

- resolving a provider through `MetadataWrapper` also walks the whole tree with libcst's visitor
  (for batchable providers, of which there are none here); `positions()` runs the code generation
  alone, records plain tuples instead of `CodeRange` objects, and enters a plain context manager
  where libcst enters a generator-based one.
- libcst splits every token with a regular expression to count newlines; almost no token holds
  one, so `add_token` tests for a newline first.
- every node gets a `CodeRange`, including whitespace and punctuation nodes (`SimpleWhitespace`,
  `Comma`, `Newline`, operators, ...), which are a large share of all nodes and which the collector
  never asks about. Those are skipped. (None of them is an anchor libcst hoists a statement's
  start or end from: those are statements, suites and closing brackets.)

`tests/engine/test_positions.py` checks the ranges against libcst's provider node by node.
"""

from __future__ import annotations

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst.metadata.position_provider import NEWLINE_RE

# Node types that never carry a location worth reporting. (`__mro__` membership, not issubclass:
# libcst's bases are ABCs, and 2,000 first-time ABC checks cost ~40 ms of import time.)
_SKIPPED_BASES = (cst.BaseParenthesizableWhitespace, cst.BaseBinaryOp, cst.BaseBooleanOp, cst.BaseCompOp,
                  cst.BaseUnaryOp, cst.BaseAugOp)
SKIPPED: frozenset[type] = frozenset(
    t
    for t in vars(cst).values()
    if isinstance(t, type)
    and (
        any(b in _SKIPPED_BASES for b in t.__mro__)
        # Not brackets: a parenthesised `from x import (...)` ends at its `)` (libcst hoists it).
        or t in (cst.Newline, cst.EmptyLine, cst.TrailingWhitespace, cst.Comma, cst.Dot, cst.Colon, cst.Semicolon,
                 cst.AssignEqual)
    )
)


Range = tuple[int, int, int, int]  # start line (1-based), start column, end line, end column


class _State(CodegenState):
    """libcst's `PositionProvidingCodegenState`, recording plain tuples keyed by `id(node)` (a
    CSTNode's `__hash__` is a Python-level call)."""

    def __init__(self, module: cst.Module) -> None:
        super().__init__(default_indent=module.default_indent, default_newline=module.default_newline)
        self.line = 1
        self.column = 0
        self.starts: list[tuple[int, int]] = []
        self.ranges: dict[int, Range] = {}

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.add_token(token)

    def add_token(self, value: str) -> None:
        self.tokens.append(value)  # `Module` looks at them to place a final newline
        if "\n" in value or "\r" in value:
            segments = NEWLINE_RE.split(value)
            self.line += len(segments) - 1
            self.column = len(segments[-1])
        else:
            self.column += len(value)

    def before_codegen(self, node: cst.CSTNode) -> None:
        if type(node) not in SKIPPED:
            self.starts.append((self.line, self.column))

    def after_codegen(self, node: cst.CSTNode) -> None:
        if type(node) in SKIPPED:
            return
        line, column = self.starts.pop()
        key = id(node)
        if key not in self.ranges:  # a syntactic range recorded inside wins, as in libcst
            self.ranges[key] = (line, column, self.line, self.column)

    def record_syntactic_position(  # type: ignore[override]  # a plain context manager, same protocol
        self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None, end_node: cst.CSTNode | None = None
    ) -> _Syntactic:
        return _Syntactic(self, node, start_node, end_node)


class _Syntactic:
    """The context manager behind `record_syntactic_position`, as a plain class (contextlib's
    generator-based one costs several times more, and libcst enters one per expression)."""

    __slots__ = ("state", "node", "start_node", "end_node", "start")

    def __init__(self, state: _State, node: cst.CSTNode, start_node: cst.CSTNode | None,
                 end_node: cst.CSTNode | None) -> None:
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node

    def __enter__(self) -> None:
        self.start = (self.state.line, self.state.column)

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is not None:
            # Unwinding (a RecursionError in deep code): the inner ranges may be missing, and a
            # KeyError here would replace the error `with_deep_recursion` retries on.
            return
        state = self.state
        start = self.start if self.start_node is None else state.ranges[id(self.start_node)][:2]
        end = (state.line, state.column) if self.end_node is None else state.ranges[id(self.end_node)][2:]
        state.ranges[id(self.node)] = (*start, *end)


class Spans(_State):
    """Also, for every node: its whole span (all its own code generation wrote, its parentheses and
    the whitespace it owns included: what a fix replaces), its parent, and its place in the order
    of the code (the order of a walk of the tree). libcst's `children` costs a visit per node."""

    def __init__(self, module: cst.Module) -> None:
        super().__init__(module)
        self.opened: list[tuple[cst.CSTNode, int, int]] = []
        self.spans: dict[int, Range] = {}
        self.parents: dict[int, cst.CSTNode] = {}
        self.walk: list[cst.CSTNode] = []

    def before_codegen(self, node: cst.CSTNode) -> None:
        super().before_codegen(node)
        if self.opened:
            self.parents[id(node)] = self.opened[-1][0]
        self.walk.append(node)
        self.opened.append((node, self.line, self.column))

    def after_codegen(self, node: cst.CSTNode) -> None:
        super().after_codegen(node)
        _, line, column = self.opened.pop()
        self.spans[id(node)] = (line, column, self.line, self.column)


def spans(module: cst.Module) -> Spans:
    """`positions(module)` (`.ranges`), and every node's span, parent and order (see `Spans`), in
    one code generation."""
    state = Spans(module)
    module._codegen(state)
    return state


def positions(module: cst.Module) -> dict[int, Range]:
    """`PositionProvider`'s ranges (syntactic, whitespace excluded) for all but whitespace and
    punctuation nodes, keyed by `id(node)` (valid while `module` is alive)."""
    state = _State(module)
    module._codegen(state)
    return state.ranges
