"""Syntax newer than the host interpreter's: where it sits, and how deep a file nests without `ast`.

On Python 3.10/3.11, CPython's parser rejects PEP 695 (`type X = ...`, `def f[T]()`) and PEP 701
f-strings, which libcst parses. `source.check_syntax` uses `token_depth` as the depth guard for such
files (CPython's tree is missing) and `spans` to check that the place CPython rejected is one of them.
"""

from __future__ import annotations

import io
import re
import sys
import tokenize

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider


def spans(module: cst.Module) -> list[tuple[int, int]]:
    """Line spans of the nodes whose syntax an older CPython may reject."""
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    finder = _Finder()
    wrapper.visit(finder)
    return finder.spans


class _Finder(cst.CSTVisitor):
    """Collects `spans`: type aliases, type parameter lists, and f-strings (outermost only)."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self) -> None:
        super().__init__()
        self.spans: list[tuple[int, int]] = []

    def _add(self, node: cst.CSTNode) -> None:
        pos = self.get_metadata(PositionProvider, node)
        self.spans.append((pos.start.line, pos.end.line))

    def visit_TypeAlias(self, node: cst.TypeAlias) -> None:
        self._add(node)

    def visit_TypeParameters(self, node: cst.TypeParameters) -> None:
        self._add(node)

    def visit_FormattedString(self, node: cst.FormattedString) -> bool:
        self._add(node)
        return False  # nested f-strings lie inside this span


_OPENERS, _CLOSERS, _RESETS = frozenset("([{"), frozenset(")]}"), frozenset({",", ";", ":"})
_OPERATOR_WORDS = frozenset({"and", "or", "not", "in", "is", "if", "else", "lambda", "await", "for", "async", "yield"})
_CODE_CHARS = frozenset(".+-*/%&|^~<>=!@")


def token_depth(text: str) -> tuple[int, int] | None:
    """An upper bound on how deep libcst's tree nests (deepest, its line), from tokens alone, for
    text this interpreter's `ast` cannot parse; None when it cannot be tokenized.

    Per statement, each open bracket is a level, and each operator, attribute dot or closed bracket
    (a call or subscript trailer) since the last comma at that level is one more; indentation adds
    its levels. String tokens are counted by their characters too: on 3.10/3.11 a PEP 701 f-string
    reaches the tokenizer as several strings with code between and inside them."""
    stack: list[int] = []  # per open bracket: operators in its current segment
    base = indent = total = 0  # `total` = indent + len(stack) + all segment counts, kept incrementally
    best, best_line = 0, 1
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            kind, string, line = tok.type, tok.string, tok.start[0]
            extra = 0
            if kind == tokenize.OP and string in _OPENERS:
                stack.append(0)
                total += 1
            elif kind == tokenize.OP and string in _CLOSERS:
                if stack:
                    total -= 1 + stack.pop()
                total += 1
                if stack:
                    stack[-1] += 1
                else:
                    base += 1
            elif kind == tokenize.OP and string in _RESETS:
                if stack:
                    total -= stack[-1]
                    stack[-1] = 0
                else:
                    total -= base
                    base = 0
            elif (kind == tokenize.OP) or (kind == tokenize.NAME and string in _OPERATOR_WORDS):
                total += 1
                if stack:
                    stack[-1] += 1
                else:
                    base += 1
            elif kind == tokenize.STRING:
                extra = _string_depth(string)
            elif kind == tokenize.NEWLINE:
                stack.clear()
                total, base = indent, 0
            elif kind == tokenize.INDENT:
                indent += 1
                total += 1
            elif kind == tokenize.DEDENT:
                indent -= 1
                total -= 1
            if total + extra > best:
                best, best_line = total + extra, line
    except (tokenize.TokenError, SyntaxError):  # IndentationError included
        return None
    return best, best_line


def _string_depth(string: str) -> int:
    nesting = deepest = operators = 0
    for ch in string:
        if ch in _OPENERS:
            nesting += 1
            deepest = max(deepest, nesting)
        elif ch in _CLOSERS:
            nesting = max(0, nesting - 1)
            operators += 1
        elif ch in _CODE_CHARS:
            operators += 1
    return deepest + operators


# Python 3.14 syntax that libcst parses but the analysis does not know yet: named in the SIB900
# CPython's syntax error becomes, so the user learns which Python the file needs (issue 22 L16).
_PY314 = (
    (re.compile(r"(?<![\w.'\"])(?:[tT][rR]?|[rR][tT])['\"]"), 't-strings (t"...", PEP 750)'),
    (re.compile(r"^\s*except\*?\s+[^:(\[]*,"), "`except A, B:` without parentheses (PEP 758)"),
)


def needs_newer_python(line: str) -> str | None:
    """What on the line CPython rejected is newer syntax than this interpreter's, and the version
    that has it; None when nothing is recognised."""
    if sys.version_info >= (3, 14):
        return None
    for pattern, what in _PY314:
        if pattern.search(line):
            here = f"{sys.version_info.major}.{sys.version_info.minor}"
            return f"{what} is Python 3.14 syntax; siblint runs on Python {here} here, run it on 3.14 to analyse this file"
    return None
