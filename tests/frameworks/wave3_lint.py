"""What the framework tests share (strands, the wave-3 frameworks): lint one file, with its project,
into sorted (code, line) pairs."""

from __future__ import annotations

import pytest
from siblint.settings.config import Config

ALL = ("SIB101", "SIB102", "SIB103", "SIB104", "SIB105", "SIB201", "SIB202", "SIB203", "SIB204", "SIB206", "SIB301")


@pytest.fixture
def found(lint, tmp_path):
    def run(text: str, files: dict[str, str] | None = None, select: tuple[str, ...] = ALL) -> list[tuple[str, int]]:
        return sorted((d.code, d.loc.line) for d in lint(text, files, Config(root=str(tmp_path), select=select)))

    return run


def lines(found: list[tuple[str, int]], code: str) -> list[int]:
    return [line for c, line in found if c == code]


def line_of(text: str, needle: str) -> int:
    """The 1-based line of the first occurrence of `needle`."""
    return text.count("\n", 0, text.index(needle)) + 1
