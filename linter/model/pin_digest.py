"""A digest of the pin files that govern a folder: what a cache entry records in place of the pins
it read (`siblint.model.versions`). A warm run re-checks entries by it; it reads the files' bytes,
not what they pin, so it imports neither `packaging` nor the frameworks' data."""

from __future__ import annotations

import hashlib
import os
from typing import TYPE_CHECKING

from ..settings.pin_files import pin_bytes, pin_folder, pin_sources
from .project import PINS

if TYPE_CHECKING:
    from .project import ProjectIndex


def pins_digest(folder: str, project: "ProjectIndex") -> str:
    """A digest of the pin files that govern `folder` (what a cache entry records in place of a
    path): their paths and bytes, so a warm run re-checks it without parsing a large lock file.
    Equal bytes read as equal pins; any edit, even one that pins the same, re-checks."""
    memo: dict[str, str] = project.memo.setdefault("versions.digests", {})
    if folder not in memo:
        found = governing_folder(folder, project) or ""
        by_pin_folder: dict[str, str] = project.memo.setdefault("versions.pin_digests", {})
        if found not in by_pin_folder:  # a large lock file governs many folders: hashed once
            h = hashlib.sha256(os.fsencode(found))
            for name in pin_sources(found) if found else ():
                data = pin_bytes(os.path.join(found, name))
                h.update(b"\0%s\0%d\0" % (os.fsencode(name), -1 if data is None else len(data)))
                h.update(data or b"")
            by_pin_folder[found] = f"{PINS} {h.hexdigest()[:32]}"
        memo[folder] = by_pin_folder[found]
    return memo[folder]


def governing_folder(folder: str, project: "ProjectIndex") -> str | None:
    """The folder whose pin files govern `folder` (within its root), once per folder for the run."""
    memo: dict[str, str | None] = project.memo.setdefault("versions.folders", {})
    if folder not in memo:
        top = next((r for r in project.roots if folder == r or folder.startswith(r.rstrip(os.sep) + os.sep)), folder)
        memo[folder] = pin_folder(folder, top)
    return memo[folder]
