"""What code-review formats need beyond a finding's position: the text of its source line, and a
fingerprint that follows the finding when lines above it move (SARIF, GitLab Code Quality)."""

from __future__ import annotations

import hashlib
import os
from collections import Counter

from ..common.diagnostics import Diagnostic
from ..syntax.notebook import cell_lines


class SourceLines:
    """Source lines of the reported files, read once each; an unreadable file, or one that is not
    a regular file (`--stdin-filename` may name anything, a FIFO would block), has none."""

    def __init__(self) -> None:
        self._files: dict[str, list[str]] = {}
        self._cells: dict[str, tuple[tuple[str, ...], ...]] = {}

    def get(self, path: str, line: int, cell: int = 0) -> str:
        """Line `line` of `path`, or of its `cell` when it is a Jupyter notebook."""
        if cell:
            if path not in self._cells:
                self._cells[path] = cell_lines(_bytes(path))
            cells = self._cells[path]
            lines: list[str] | tuple[str, ...] = cells[cell - 1] if 0 < cell <= len(cells) else ()
        else:
            if path not in self._files:
                self._files[path] = _bytes(path).decode("utf-8", "replace").splitlines()
            lines = self._files[path]
        return lines[line - 1].rstrip("\r\n") if 0 < line <= len(lines) else ""


def _bytes(path: str) -> bytes:
    try:
        if os.path.isfile(path):
            with open(path, "rb") as fh:
                return fh.read()
    except OSError:
        pass
    return b""


def _context_hash(uri: str, code: str, source_line: str) -> str:
    """Rule, path and the finding's line without its whitespace (a reformat or re-indent keeps the
    fingerprint): not the line number."""
    normalised = "".join(source_line.split())
    return hashlib.sha256("\0".join((code, uri, normalised)).encode("utf-8")).hexdigest()[:32]


def fingerprints(diagnostics: list[Diagnostic], uris: list[str], lines: SourceLines | None = None) -> list[str]:
    """One fingerprint per finding (`uris`: how the report names each finding's file); equal ones
    (same rule and file, identical lines) are told apart by their order in the file, as CodeQL's
    `hash:n` does."""
    lines = lines or SourceLines()
    seen: Counter[str] = Counter()
    out = []
    for d, uri in zip(diagnostics, uris):
        h = _context_hash(uri, d.code, lines.get(d.path, d.loc.line, d.cell))
        seen[h] += 1
        out.append(f"{h}:{seen[h]}")
    return out
