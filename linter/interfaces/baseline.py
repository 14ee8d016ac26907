"""Baselines: record today's findings (`--write-baseline FILE`), then fail only on new ones
(`--baseline FILE`).

A finding is matched by its code, its file (relative to the baseline file's folder, so the
baseline works from any working folder) and a fingerprint of the code it points at: the text of
its line without surrounding whitespace, plus which occurrence of that (code, file, text) it is.
Moving code up or down, or editing other lines, keeps the match; editing the line itself, or
adding another copy of the same hazard, is a new finding. Messages are stored for people to read
and never compared, so rewording a rule does not invalidate a baseline.

The file is JSON, sorted, with one finding per entry, so it diffs well in review.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from dataclasses import dataclass

from ..common.diagnostics import Diagnostic
from ..common.reading import read_bounded
from ..common.writing import replace_file
from ..lint.noqa import physical_lines
from ..reporters.fingerprints import SourceLines

FORMAT = "siblint-baseline"
VERSION = 1
# About 1.3 million findings; reading 92 MB took 369 MB of memory. Larger is not a baseline.
MAX_BYTES = 200_000_000


class BaselineError(Exception):
    pass


@dataclass(frozen=True, order=True)
class Key:
    code: str
    path: str
    fingerprint: str


def _relative(path: str, folder: str) -> str:
    try:
        return os.path.relpath(os.path.abspath(path), folder).replace(os.sep, "/")
    except ValueError:  # another drive (Windows)
        return os.path.abspath(path).replace(os.sep, "/")


def _line_texts(path: str, cache: dict[str, list[str]]) -> list[str]:
    if path not in cache:
        try:
            with open(path, "rb") as fh:
                cache[path] = physical_lines(fh.read().decode("utf-8", "replace"))
        except OSError:
            cache[path] = []
    return cache[path]


def _line_text(d: Diagnostic, cache: dict[str, list[str]], cells: SourceLines) -> str:
    """The finding's line without surrounding blanks (in a Jupyter notebook, its cell's line)."""
    if d.cell:
        return cells.get(d.path, d.loc.line, d.cell).strip()
    lines = _line_texts(d.path, cache)
    return lines[d.loc.line - 1].strip() if 0 < d.loc.line <= len(lines) else ""


def keys(findings: list[Diagnostic], folder: str) -> list[tuple[Key, Diagnostic]]:
    """Each finding's key, in the findings' order."""
    texts: dict[str, list[str]] = {}
    cells = SourceLines()
    seen: Counter[tuple[str, str, str]] = Counter()
    out = []
    for d in sorted(findings, key=Diagnostic.sort_key):
        text = _line_text(d, texts, cells)
        rel = _relative(d.path, folder)
        seen[(d.code, rel, text)] += 1
        digest = hashlib.sha256(f"{d.code}\0{text}\0{seen[(d.code, rel, text)]}".encode()).hexdigest()[:16]
        out.append((Key(d.code, rel, digest), d))
    return out


def write(path: str, findings: list[Diagnostic]) -> int:
    folder = os.path.dirname(os.path.abspath(path))
    entries = sorted(
        ({"code": k.code, "path": k.path, "fingerprint": k.fingerprint, "message": d.message} for k, d in keys(findings, folder)),
        key=lambda e: (e["path"], e["code"], e["fingerprint"]),
    )
    document = {"format": FORMAT, "version": VERSION, "findings": entries}
    blob = (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    # A new file renamed into place: a symbolic link at `path` is replaced, never written through.
    replace_file(path, blob, mode=0o644, prefix=".siblint-baseline-")
    return len(entries)


def load(path: str) -> Counter[Key]:
    # Read like a source file (the path may be a link the pull request committed): a regular file
    # only (a FIFO or /dev/zero is refused at once), and never more than MAX_BYTES.
    try:
        data = read_bounded(path, MAX_BYTES)
    except OSError as exc:
        raise BaselineError(f"{path}: cannot read the baseline: {exc.strerror or exc}") from None
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise BaselineError(f"{path}: cannot read the baseline: not JSON ({exc})") from None
    except RecursionError:
        raise BaselineError(f"{path}: cannot read the baseline: its JSON is nested too deeply") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT or document.get("version") != VERSION \
            or not isinstance(document.get("findings"), list):
        raise BaselineError(f"{path}: not a siblint baseline (version {VERSION}); write one with --write-baseline")
    found: Counter[Key] = Counter()
    for entry in document["findings"]:
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in ("code", "path", "fingerprint")):
            raise BaselineError(f"{path}: a finding without code, path and fingerprint: {entry!r:.80}")
        found[Key(entry["code"], entry["path"], entry["fingerprint"])] += 1
    return found


def new_findings(path: str, findings: list[Diagnostic]) -> tuple[list[Diagnostic], int]:
    """The findings not in the baseline at `path`, and how many were matched."""
    known = load(path)
    folder = os.path.dirname(os.path.abspath(path))
    fresh = []
    for key, d in keys(findings, folder):
        if known[key] > 0:
            known[key] -= 1
        else:
            fresh.append(d)
    return sorted(fresh, key=Diagnostic.sort_key), len(findings) - len(fresh)
