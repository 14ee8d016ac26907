"""One escape for every untrusted string that reaches text output or a warning on stderr.

File and folder names, tool names and string literals come from the tree being checked, which in a
CI gate is the pull request's author's. Raw, a newline in one starts a line of their choosing (a
GitHub Actions runner acts on lines starting `::`, e.g. `::add-mask::`), and an ANSI escape
rewrites the terminal. JSON, SARIF and `--format github` escape by their own rules.
"""

from __future__ import annotations

import re

# C0 and C1 controls (newline, ESC, NEL...), DEL, Unicode line/paragraph separators and the
# bidirectional overrides that reorder what a terminal shows.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
UNSAFE = _UNSAFE  # for formats that escape these characters by their own rules (--format github)


def _one(match: re.Match[str]) -> str:
    ch = match.group()
    return _NAMED.get(ch) or (f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")


def escape_text(s: str) -> str:
    """`s` on one line with nothing a terminal or a CI runner acts on: controls become `\\n`,
    `\\x1b`, `\\u2028`..., and a leading `::` (workflow command) becomes `\\x3a:`."""
    if _UNSAFE.search(s) is not None:
        s = _UNSAFE.sub(_one, s)
    if s.lstrip(" ").startswith("::"):
        i = s.index(":")
        s = f"{s[:i]}\\x3a{s[i + 1:]}"
    return s
