"""Suppression comments, with flake8's exact semantics (flake8 7: defaults.py, violation.py, processor.py).

`# noqa` silences every code on the reported line, `# noqa: SIB101,SIB3` the listed codes and
codes starting with them. A finding on any line of a multi-line token (a triple-quoted string, a
backslash continuation) is matched against the text of all those lines, as flake8 does; a line
break inside brackets starts a new range, as in flake8. `# flake8: noqa` or `# siblint: noqa` at
the start of a line silences the whole file (flake8 itself only knows the first; the flake8 plugin
honours the second so both modes agree). `# siblint: noqa: SIB101,SIB2` silences only those codes
in the whole file, as ruff's `# ruff: noqa: F401` does; `# flake8: noqa: X` stays flake8's
directive, which skips the whole file whatever follows it.
"""

from __future__ import annotations

import io
import re
import tokenize

from ..syntax.prefilter import JS_EXTENSIONS

NOQA_INLINE = re.compile(r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.IGNORECASE)
NOQA_FILE = re.compile(r"\s*# (?:flake8|siblint)[:=]\s*noqa", re.IGNORECASE)
# TS/JS: `// noqa: SIB101` on the reported line, `// siblint-disable-next-line SIB101` on the line
# above it (no codes: every code), `// siblint: noqa` on a line of its own for the whole file.
JS_NOQA_INLINE = re.compile(r"//\s*noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.IGNORECASE)
JS_NEXT_LINE = re.compile(r"//\s*siblint-disable-next-line(?:[\s]+(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.IGNORECASE)
JS_NOQA_FILE = re.compile(r"\s*//\s*siblint[:=]\s*noqa", re.IGNORECASE)
SIBLINT_NOQA_FILE = re.compile(r"\s*# siblint[:=]\s*noqa", re.IGNORECASE)  # the part flake8 cannot know
# `# siblint: noqa: SIB101, SIB2` (`//` in TS/JS): codes for the whole file, ruff's file-level form.
_FILE_CODES = r"[:=]\s*noqa\s*:\s*(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*)"
SIBLINT_FILE_CODES = re.compile(r"\s*# siblint" + _FILE_CODES, re.IGNORECASE)
JS_FILE_CODES = re.compile(r"\s*//\s*siblint" + _FILE_CODES, re.IGNORECASE)
_SPLIT = re.compile(r"[,\s]")


def physical_lines(text: str) -> list[str]:
    """Lines as flake8 reads them: split on \\n, \\r\\n and \\r only (not form feeds, unlike str.splitlines)."""
    return io.StringIO(text, newline="").readlines()


_DIRECTIVE_WORD = re.compile("noqa", re.IGNORECASE)  # in every Python directive, under the same flags


def may_hold_directive(text: str) -> bool:
    """False when no line of `text` can be a `# noqa` directive: one search of the whole text, so
    the per-line matching below is paid only by files that mention `noqa`."""
    return _DIRECTIVE_WORD.search(text) is not None


def file_is_ignored(lines: list[str], pattern: re.Pattern[str] = NOQA_FILE,
                    codes: re.Pattern[str] = SIBLINT_FILE_CODES) -> bool:
    """A bare file-level directive on some line (one that lists codes silences only those)."""
    return any(pattern.match(line) and not codes.match(line) for line in lines)


def file_codes(lines: list[str], pattern: re.Pattern[str] = SIBLINT_FILE_CODES) -> tuple[str, ...]:
    """The codes and prefixes that `# siblint: noqa: CODES` lines silence in the whole file."""
    return tuple(c for line in lines if (m := pattern.match(line)) for c in listed_codes(m) or ())


def _noqa_ranges(lines: list[str]) -> dict[int, tuple[int, int]]:
    """Line number -> the first and last line searched for its `# noqa` (flake8's `_noqa_line_mapping`)."""
    mapping: dict[int, tuple[int, int]] = {}
    lo, hi = len(lines) + 2, -1
    try:
        for tok in tokenize.generate_tokens(iter(lines).__next__):
            if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            lo, hi = min(lo, tok.start[0]), max(hi, tok.end[0])
            if tok.type in (tokenize.NL, tokenize.NEWLINE):
                mapping.update(dict.fromkeys(range(lo, hi + 1), (lo, min(hi, len(lines)))))
                lo, hi = len(lines) + 2, -1
    except (tokenize.TokenError, SyntaxError):
        return {}
    return mapping


def listed_codes(match: re.Match[str]) -> tuple[str, ...] | None:
    """The codes of a `# noqa: ...` match; None for a bare `# noqa` (every code)."""
    codes_str = match.group("codes")
    if codes_str is None:
        return None
    return tuple(c for c in (s.strip() for s in _SPLIT.split(codes_str)) if c)


def _covers(codes: tuple[str, ...], code: str) -> bool:
    return code in codes or code.startswith(codes)


class Suppressions:
    """Answers `is this code silenced on this line` for one file."""

    def __init__(self, text: str, path: str = "") -> None:
        self.text = text
        self.lines = physical_lines(text)
        self.js = path.lower().endswith(JS_EXTENSIONS)
        if self.js:
            self.whole_file = file_is_ignored(self.lines, JS_NOQA_FILE, JS_FILE_CODES)
            self.file_codes = file_codes(self.lines, JS_FILE_CODES)
        else:
            self.whole_file = file_is_ignored(self.lines)
            self.file_codes = file_codes(self.lines)
        # TS/JS is not tokenized as Python: a finding's span is its own line.
        self._ranges: dict[int, tuple[int, int]] | None = {} if self.js else None

    def _matches(self, line: int) -> list[re.Match[str]]:
        """The suppression comments that apply to a finding on `line`."""
        found = NOQA_INLINE.search(self._text(line)) if not self.js else JS_NOQA_INLINE.search(self._text(line))
        out = [found] if found is not None else []
        if self.js and 1 < line <= len(self.lines) + 1:
            above = JS_NEXT_LINE.search(self.lines[line - 2])
            if above is not None:
                out.append(above)
        return out

    def span(self, line: int) -> tuple[int, int]:
        """The lines whose text is searched for the `# noqa` of a finding on `line`."""
        if self._ranges is None:
            self._ranges = _noqa_ranges(self.lines)
        return self._ranges.get(line, (line, line))

    def _text(self, line: int) -> str:
        lo, hi = self.span(line)
        return "".join(self.lines[max(lo, 1) - 1 : hi]) if 0 < line <= len(self.lines) else ""

    def suppressed(self, code: str, line: int) -> bool:
        if self.whole_file or _covers(self.file_codes, code):
            return True
        for match in self._matches(line):
            codes = listed_codes(match)
            if codes is None or _covers(codes, code):
                return True
        return False

    def comment_line(self, line: int) -> int:
        """Where a `# noqa` for a finding on `line` goes: the last line of its span (after the
        closing quotes of a multi-line string, after the last line of a backslash continuation)."""
        return self.span(line)[1]

    def unused(self, findings: list[tuple[str, int]]) -> list[tuple[int, int, tuple[str, ...]]]:
        """(line, column, codes) of each `# noqa: SIB...` comment whose listed SIB codes silence
        none of `findings` ((code, line) pairs, before suppression). Bare `# noqa` and other tools'
        codes are never reported: siblint cannot know what they are for."""
        if self.whole_file:
            return []
        by_span: dict[tuple[int, int], list[str]] = {}
        for code, line in findings:
            by_span.setdefault(self.span(line), []).append(code)
        out = []
        if self.js:
            return self._unused_js(findings)
        for number, physical in enumerate(self.lines, start=1):
            match = NOQA_INLINE.search(physical)
            if match is None or self.span(number)[0] != number and NOQA_INLINE.search(self._before(number)):
                continue  # no comment, or an earlier one in the same span is the one flake8 reads
            codes = listed_codes(match) or ()
            here = by_span.get(self.span(number), [])
            stale = tuple(c for c in codes if c.upper().startswith("SIB") and not any(_covers((c,), f) for f in here))
            if stale:
                out.append((number, match.start(), stale))
        return out

    def _unused_js(self, findings: list[tuple[str, int]]) -> list[tuple[int, int, tuple[str, ...]]]:
        by_line: dict[int, list[str]] = {}
        for code, line in findings:
            by_line.setdefault(line, []).append(code)
        out = []
        for number, physical in enumerate(self.lines, start=1):
            for pattern, target in ((JS_NOQA_INLINE, number), (JS_NEXT_LINE, number + 1)):
                match = pattern.search(physical)
                if match is None:
                    continue
                here = by_line.get(target, [])
                codes = listed_codes(match) or ()
                stale = tuple(c for c in codes if c.upper().startswith("SIB") and not any(_covers((c,), f) for f in here))
                if stale:
                    out.append((number, match.start(), stale))
        return out

    def _before(self, line: int) -> str:
        """The text of `line`'s span up to, not including, `line`."""
        lo, _ = self.span(line)
        return "".join(self.lines[max(lo, 1) - 1 : line - 1])


def comment_columns(text: str) -> dict[int, int] | None:
    """Line number -> the column where the line's comment starts (tokenize's COMMENT), for the
    lines that have one; None when the text does not tokenize."""
    out: dict[int, int] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                out[tok.start[0]] = tok.start[1]
    except (tokenize.TokenError, SyntaxError):
        return None
    return out


def with_codes(line: str, codes: list[str], comment: int | None = None) -> str:
    """`line` with `codes` added to its `# noqa: ...` comment, or a new comment at its end (what
    `--add-noqa` and the language server's quick fix write). `comment`: where the line's comment
    starts (`comment_columns`; -1: it has none), so that a `# noqa` inside a string literal is
    never edited; None: unknown, the whole line is searched."""
    body = line.rstrip("\r\n")
    ending = line[len(body):]
    if comment is not None and comment >= 0:
        return body[:comment] + with_codes(body[comment:], codes) + ending
    match = NOQA_INLINE.search(body) if comment is None else None
    if match is not None and listed_codes(match):
        have = list(listed_codes(match) or ())
        merged = have + [c for c in codes if c not in have]
        return body[: match.start()] + "# noqa: " + ",".join(merged) + body[match.end():] + ending
    return body.rstrip() + "  # noqa: " + ",".join(codes) + ending



def without_codes(line: str, column: int, stale: set[str], js: bool = False) -> tuple[int, int, str] | None:
    """The edit (start, end, new text) of `line` that removes the `stale` codes from the noqa comment
    starting at `column` (SIB902's fix); the whole comment (its line, when alone on it) when no code
    is left. None when the comment is not there, lists none of them, or has text after its codes."""
    patterns = (JS_NOQA_INLINE, JS_NEXT_LINE) if js else (NOQA_INLINE,)
    match = next((m for m in (p.match(line, column) for p in patterns) if m is not None), None)
    codes = listed_codes(match) if match is not None else None
    if match is None or not codes:
        return None
    keep = [c for c in codes if c.upper() not in stale]
    if len(keep) == len(codes):
        return None
    listed = match.group("codes")
    if keep:
        separator = ", " if ", " in listed else ","
        return match.start("codes"), match.end(), separator.join(keep) + listed[len(listed.rstrip()):]
    body = line.rstrip("\r\n")
    if body[match.end():].strip():
        return None  # `# noqa: SIB101 because ...`: the reason would be left as a bare comment
    if not body[:column].strip():
        return 0, len(line), ""  # a comment alone on its line: the line goes
    return len(body[:column].rstrip()), len(body), ""
