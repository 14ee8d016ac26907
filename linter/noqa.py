"""Suppression comments, with flake8's exact semantics (flake8 7: defaults.py, violation.py).

`# noqa` silences every code on the reported line, `# noqa: SIB101,SIB3` the listed codes and
codes starting with them. A comment anywhere in a multi-line statement covers all its lines, as in
flake8. `# flake8: noqa` or `# siblint: noqa` on a line of its own silences the whole file.
"""

from __future__ import annotations

import io
import re
import tokenize

NOQA_INLINE = re.compile(r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.IGNORECASE)
NOQA_FILE = re.compile(r"\s*# (?:flake8|siblint)[:=]\s*noqa", re.IGNORECASE)
_SPLIT = re.compile(r"[,\s]")


def file_is_ignored(lines: list[str]) -> bool:
    return any(NOQA_FILE.match(line) for line in lines)


def _logical_line_map(text: str, lines: list[str]) -> dict[int, str]:
    """Line number -> the joined text of the statement it belongs to (flake8's mapping)."""
    mapping: dict[int, str] = {}
    lo, hi = len(lines) + 2, -1
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            lo, hi = min(lo, tok.start[0]), max(hi, tok.end[0])
            if tok.type in (tokenize.NL, tokenize.NEWLINE):
                joined = "".join(lines[lo - 1 : hi])
                mapping.update(dict.fromkeys(range(lo, hi + 1), joined))
                lo, hi = len(lines) + 2, -1
    except (tokenize.TokenError, SyntaxError):
        return {}
    return mapping


class Suppressions:
    """Answers `is this code silenced on this line` for one file."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.splitlines(keepends=True)
        self.whole_file = file_is_ignored(self.lines)
        self._map: dict[int, str] | None = None

    def suppressed(self, code: str, line: int) -> bool:
        if self.whole_file:
            return True
        if self._map is None:
            self._map = _logical_line_map(self.text, self.lines)
        physical = self._map.get(line)
        if physical is None:
            physical = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        match = NOQA_INLINE.search(physical)
        if match is None:
            return False
        codes_str = match.group("codes")
        if codes_str is None:
            return True
        codes = tuple(c for c in (s.strip() for s in _SPLIT.split(codes_str)) if c)
        return code in codes or code.startswith(codes)
