"""Line breaks as CPython, libcst and tree-sitter count them: `\\r\\n`, `\\r` and `\\n` (str.splitlines
also breaks at `\\x0b`, `\\x0c`, `\\x1c`-`\\x1e`, `\\x85` and `\\u2028`, where none of them does)."""

from __future__ import annotations

import re

NEWLINE = re.compile(r"\r\n?|\n")


def line_starts(text: str) -> list[int]:
    """The character offset where each line starts (index 0: line 1)."""
    return [0] + [m.end() for m in NEWLINE.finditer(text)]
