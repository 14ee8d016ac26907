"""Identifiers as CPython reads them: NFKC-normalised (PEP 3131).

`def ﬁnd():` defines `find` (the ligature ﬁ is a compatibility character), and `tools=[find]` names
that same function; libcst keeps the source's spelling, so the two would be different names to the
analysis. String literals and comments keep their characters: only NAME tokens are normalised.
"""

from __future__ import annotations

import io
import re
import tokenize
import unicodedata

_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def normalised(text: str) -> str:
    """`text` with every identifier in NFKC form; `text` itself when none changes (almost always:
    only a non-ASCII run that NFKC changes is worth tokenizing for)."""
    if text.isascii() or not any(unicodedata.normalize("NFKC", m.group()) != m.group() for m in _NON_ASCII.finditer(text)):
        return text
    lines = io.StringIO(text).readlines()  # the lines tokenize numbers (split at "\n" only)
    try:
        tokens = [t for t in tokenize.generate_tokens(iter(lines).__next__)
                  if t.type == tokenize.NAME and not t.string.isascii()]
    except (tokenize.TokenError, SyntaxError):
        return text  # the parser reports what is wrong
    for tok in reversed(tokens):  # right to left: earlier columns on a line stay valid
        (row, start), (_, end) = tok.start, tok.end
        line = lines[row - 1]
        lines[row - 1] = line[:start] + unicodedata.normalize("NFKC", tok.string) + line[end:]
    return "".join(lines)
