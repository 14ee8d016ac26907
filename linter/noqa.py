"""Suppression comments, with flake8's exact semantics (flake8 7: defaults.py, violation.py, processor.py).

`# noqa` silences every code on the reported line, `# noqa: SIB101,SIB3` the listed codes and
codes starting with them. A finding on any line of a multi-line token (a triple-quoted string, a
backslash continuation) is matched against the text of all those lines, as flake8 does; a line
break inside brackets starts a new range, as in flake8. `# flake8: noqa` or `# siblint: noqa` at
the start of a line silences the whole file (flake8 itself only knows the first; the flake8 plugin
honours the second so both modes agree).
"""

from __future__ import annotations

import io
import re
import tokenize

NOQA_INLINE = re.compile(r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.IGNORECASE)
NOQA_FILE = re.compile(r"\s*# (?:flake8|siblint)[:=]\s*noqa", re.IGNORECASE)
SIBLINT_NOQA_FILE = re.compile(r"\s*# siblint[:=]\s*noqa", re.IGNORECASE)  # the part flake8 cannot know
_SPLIT = re.compile(r"[,\s]")


def physical_lines(text: str) -> list[str]:
    """Lines as flake8 reads them: split on \\n, \\r\\n and \\r only (not form feeds, unlike str.splitlines)."""
    return io.StringIO(text, newline="").readlines()


def file_is_ignored(lines: list[str], pattern: re.Pattern[str] = NOQA_FILE) -> bool:
    return any(pattern.match(line) for line in lines)


def _noqa_line_map(lines: list[str]) -> dict[int, str]:
    """Line number -> the text searched for `# noqa` (flake8's `_noqa_line_mapping`)."""
    mapping: dict[int, str] = {}
    lo, hi = len(lines) + 2, -1
    try:
        for tok in tokenize.generate_tokens(iter(lines).__next__):
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
        self.lines = physical_lines(text)
        self.whole_file = file_is_ignored(self.lines)
        self._map: dict[int, str] | None = None

    def suppressed(self, code: str, line: int) -> bool:
        if self.whole_file:
            return True
        if self._map is None:
            self._map = _noqa_line_map(self.lines)
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


# ---- writing a suppression (the language server's quick fix) --------------------------------------
def comment_line(lines: list[str], line: int) -> int:
    """The line (1-based) where a `# noqa` for a finding on `line` goes: the last line of the range
    that `Suppressions` searches, so the comment lands after a multi-line string or a backslash
    continuation ends, never inside it."""
    ranges = _noqa_line_map(lines)
    if line not in ranges or ranges[line] == lines[line - 1]:  # a range of one line
        return line
    last = line
    # The lines of one range share one joined string object (a fresh one, as it spans lines).
    while last + 1 in ranges and ranges[last + 1] is ranges[line]:
        last += 1
    return last


def with_code(line_text: str, code: str) -> str | None:
    """`line_text` (no line break) with `code` added to its `# noqa: ...` list, or a new
    `# noqa: CODE` comment appended; None when a bare `# noqa` already silences every code."""
    match = NOQA_INLINE.search(line_text)
    if match is None:
        return f"{line_text.rstrip()}  # noqa: {code}"
    if match.group("codes") is None:
        return None
    end = match.start("codes") + len(match.group("codes").rstrip(", \t"))
    return f"{line_text[:end]},{code}{line_text[end:]}"
