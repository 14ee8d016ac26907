"""libcst's `PositionProvider` ranges for every node a rule can ask about, at less cost.

libcst computes positions by generating the whole module's code again while tracking line and
column (anchors.md section 5: about 1.7x the parse). Three parts of that are cheap to avoid without
changing a single range:

- resolving a provider through `MetadataWrapper` also walks the whole tree with libcst's visitor
  (for batchable providers, of which there are none here); `positions()` runs the code generation
  alone.
- `_update_position` splits every token with a regular expression to count newlines; almost no
  token holds one, so a substring test comes first.
- every node gets a `CodeRange`, including whitespace and punctuation nodes (`SimpleWhitespace`,
  `Comma`, `Newline`, operators, ...), which are a large share of all nodes and which the collector
  never asks about. Those are skipped. (None of them is an anchor libcst hoists a statement's
  start or end from: those are statements, suites and closing brackets.)

`tests/test_positions.py` checks the ranges against libcst's provider node by node.
"""

from __future__ import annotations

import libcst as cst
from libcst._position import CodePosition, CodeRange
from libcst.metadata.position_provider import NEWLINE_RE, PositionProvidingCodegenState

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


class _State(PositionProvidingCodegenState):
    def _update_position(self, value: str) -> None:
        if "\n" in value or "\r" in value:
            segments = NEWLINE_RE.split(value)
            self.line += len(segments) - 1
            self.column = len(segments[-1])
        else:
            self.column += len(value)

    def before_codegen(self, node: cst.CSTNode) -> None:
        if type(node) not in SKIPPED:
            self._stack.append(CodePosition(self.line, self.column))

    def after_codegen(self, node: cst.CSTNode) -> None:
        if type(node) in SKIPPED:
            return
        start = self._stack.pop()
        computed = self.provider._computed
        if node not in computed:
            computed[node] = CodeRange(start, CodePosition(self.line, self.column))


class _Ranges:
    """Where the codegen state records ranges (it expects a provider with `_computed`)."""

    def __init__(self) -> None:
        self._computed: dict[cst.CSTNode, CodeRange] = {}


def positions(module: cst.Module) -> dict[cst.CSTNode, CodeRange]:
    """`PositionProvider`'s ranges (syntactic, whitespace excluded) for all but whitespace and
    punctuation nodes."""
    ranges = _Ranges()
    module._codegen(_State(default_indent=module.default_indent, default_newline=module.default_newline, provider=ranges))
    return ranges._computed
