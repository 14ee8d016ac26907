"""From bytes to a tree-sitter tree, or one clear reason why not.

tree-sitter never fails on bad input: it builds a tree with ERROR and MISSING nodes where the text
does not fit the grammar. A file is analysed when its errors are few and local (the measured case
on openai-agents-js: `typeof import('x')` as a type argument, one ERROR node in an intact tree);
it is reported as unparsable (SIB900) when the root itself is an error or errors cover much of the
file, because facts read from such a tree would be guesses.
"""

from __future__ import annotations

import codecs
from functools import lru_cache

import tree_sitter as ts

from ..syntax.source import JS_BYTES_PER_NODE, SourceError, over_budget

# A tree whose ERROR/MISSING nodes cover more than this share of the file's bytes is not analysed.
MAX_ERROR_SHARE = 0.2
# tree-sitter's own nesting guard is generous; our collector recurses per level (on a big stack).
MAX_DEPTH = 2_000


@lru_cache(maxsize=None)
def language_for(path: str) -> ts.Language:
    """The grammar for a file: TSX for .tsx, TypeScript for .ts/.mts/.cts, JavaScript (with JSX) otherwise."""
    lower = path.lower()
    if lower.endswith(".tsx"):
        import tree_sitter_typescript as tst

        return ts.Language(tst.language_tsx())
    if lower.endswith((".ts", ".mts", ".cts")):
        import tree_sitter_typescript as tst

        return ts.Language(tst.language_typescript())
    import tree_sitter_javascript as tsj

    return ts.Language(tsj.language())


def _suffix(path: str) -> str:
    lower = path.lower()
    for ext in (".tsx", ".mts", ".cts", ".ts"):
        if lower.endswith(ext):
            return ext
    return ".js"


@lru_cache(maxsize=None)
def _parser(kind: str) -> ts.Parser:
    return ts.Parser(language_for("x" + kind))


def decode(data: bytes) -> str:
    """UTF-8 (a BOM is dropped), as Node and tsc read source files."""
    if b"\0" in data:
        raise SourceError("file contains NUL bytes", data[: data.index(b"\0")].count(b"\n") + 1)
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceError(f"not valid utf-8: {exc}", data[: exc.start].count(b"\n") + 1) from None


def parse(text: str, path: str) -> ts.Tree:
    """The tree of `text`; raises SourceError when it is too broken to analyse."""
    data = text.encode("utf-8", "surrogatepass")
    tree = _parser(_suffix(path)).parse(data)
    root = tree.root_node
    budget_error = over_budget(root.descendant_count, JS_BYTES_PER_NODE)
    if budget_error is not None:
        raise budget_error
    if root.has_error:
        first, covered = _errors(root)
        if root.is_error or (data and covered > MAX_ERROR_SHARE * len(data)):
            line, col = first if first is not None else (1, 0)
            raise SourceError(f"syntax error: not valid {_grammar_name(path)} (tree-sitter could not parse this part)",
                              line, col)
    return tree


def _grammar_name(path: str) -> str:
    return {".tsx": "TSX", ".js": "JavaScript"}.get(_suffix(path), "TypeScript")


def _errors(root: ts.Node) -> tuple[tuple[int, int] | None, int]:
    """(line and column of the first error, bytes covered by error nodes), without recursion."""
    first: tuple[int, int] | None = None
    covered = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            if first is None or (node.start_point[0] + 1, node.start_point[1]) < first:
                first = (node.start_point[0] + 1, node.start_point[1])
            covered += max(1, node.end_byte - node.start_byte)
            continue
        if node.has_error:
            stack.extend(node.children)
    return first, covered
