"""Decide from the raw bytes whether a file can matter, before paying for a parse.

A file matters when an `import` or `from` line names a supported framework's top-level module.
The check is conservative: it may let through a file that only mentions the name in a string,
never drop one that imports it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from siblint.frameworks import import_roots


@lru_cache(maxsize=None)
def _pattern(roots: tuple[str, ...]) -> re.Pattern[bytes]:
    names = b"|".join(re.escape(r.encode()) for r in roots)
    # `import agents`, `import x, agents.tool`, `from agents import`, `from agents.mcp import`
    return re.compile(rb"^[ \t]*(?:from[ \t]+(?:" + names + rb")\b|import[ \t]+[^\n#]*\b(?:" + names + rb")\b)", re.M)


def may_matter(data: bytes, roots: tuple[str, ...] | None = None) -> bool:
    return _pattern(roots or import_roots()).search(data) is not None
