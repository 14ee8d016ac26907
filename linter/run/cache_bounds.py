"""Keeping the cache folder bounded, and removing it (`siblint clean`).

Only what siblint wrote is ever deleted: files inside a folder that carries siblint's CACHEDIR.TAG
(or the schema folders under it), found without following a link; a link met anywhere stops the
sweep. Deleting never raises: a file another run removed first, or an unwritable folder, is skipped.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import time
from collections.abc import Collection
from dataclasses import dataclass

from ..common.reading import read_bounded

HEADER_BYTES = 8192  # a facts file's header line (the module's path is in it) fits in this
STALE_TEMP_SECONDS = 3600  # a `.tmp-*` this old is a write that was killed half-way
_SCHEMA_DIR = re.compile(r"v\d+")


@dataclass
class _File:
    path: str
    size: int
    used: float  # mtime: written, or last read (see cache._touch)


def drop_older_versions(target: str) -> None:
    """Delete the facts files of the same source file as `target` (`<file>-<content>.json`) but of
    another content: the file was edited, or siblint changed, since they were written."""
    folder, name = os.path.split(target)
    prefix = name.split("-", 1)[0] + "-"
    try:
        with os.scandir(folder) as found:
            old = [e.path for e in found if e.name.startswith(prefix) and e.name != name
                   and e.is_file(follow_symlinks=False)]
    except OSError:
        return
    for path in old:
        _unlink(path)


def prune(folder: str, base: str, cap: int, keep: Collection[str]) -> dict[str, int]:
    """Bound the cache `folder` whose current schema lives in `base`: remove other schemas' folders,
    stale temporary files, the facts of source files that no longer exist, then the least recently
    used files until the total is at most `cap` bytes (`keep`, the indexes just written, stay).
    Returns sizes for the run's statistics."""
    for entry in _entries(folder):
        if _SCHEMA_DIR.fullmatch(entry.name) and entry.path != base and entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)  # rmtree never follows links inside
    files = _files(base)
    before = sum(f.size for f in files)
    files = [f for f in files if not _gone(f)]
    files.sort(key=lambda f: f.used)
    total = sum(f.size for f in files)
    for f in files:
        if total <= cap:
            break
        if f.path not in keep and _unlink(f.path):
            total -= f.size
    return {"cache_bytes_before": before, "cache_bytes_after": total, "cache_cap": cap}


def _gone(f: _File) -> bool:
    """A temporary file of a write killed long ago: removed."""
    return os.path.basename(f.path).startswith(".tmp-") and time.time() - f.used > STALE_TEMP_SECONDS \
        and _unlink(f.path)


def _files(base: str) -> list[_File]:
    """Every regular file under `base` (the index files and the facts shards); facts of deleted
    source files are removed on the way."""
    out: list[_File] = []
    for entry in _entries(base):
        if entry.is_file(follow_symlinks=False):
            out.append(_stat(entry))
        elif entry.name == "facts" and entry.is_dir(follow_symlinks=False):
            for shard in _entries(entry.path):
                if shard.is_dir(follow_symlinks=False):
                    out.extend(_facts_of_existing(shard.path))
    return out


def _facts_of_existing(shard: str) -> list[_File]:
    """The facts files of one shard whose source file still exists (one header read per source
    file); the others are deleted."""
    from .cache import header_path

    kept: list[_File] = []
    alive: dict[str, bool] = {}
    for entry in _entries(shard):
        if not entry.is_file(follow_symlinks=False):
            continue
        owner = entry.name.split("-", 1)[0]
        if entry.name.endswith(".json") and owner not in alive:
            source = header_path(_head(entry.path))
            alive[owner] = source is None or os.path.exists(source)
        if entry.name.endswith(".json") and not alive[owner]:
            _unlink(entry.path)
        else:
            kept.append(_stat(entry))
    return kept


def _head(path: str) -> bytes:
    """The first HEADER_BYTES of a file, without following a link (b"" when unreadable)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return b""
    try:
        return os.read(fd, HEADER_BYTES)
    except OSError:
        return b""
    finally:
        os.close(fd)


def _stat(entry: os.DirEntry) -> _File:
    try:
        st = entry.stat(follow_symlinks=False)
        return _File(entry.path, st.st_size, st.st_mtime)
    except OSError:
        return _File(entry.path, 0, 0.0)


def _entries(folder: str) -> list[os.DirEntry]:
    try:
        with os.scandir(folder) as found:
            return list(found)
    except OSError:
        return []


def _unlink(path: str) -> bool:
    try:
        os.unlink(path)  # removes a link itself, never what it points to
        return True
    except OSError:
        return False


# ---- siblint clean -------------------------------------------------------------------------------
class NotACache(Exception):
    """The folder is not one siblint made (no marker of ours, or a link): nothing was deleted."""


def is_siblint_cache(folder: str) -> str | None:
    """Why `folder` must not be deleted as siblint's cache (None: it is one)."""
    from .cache import MARKER

    try:
        st = os.lstat(folder)
    except FileNotFoundError:
        return "no such folder"
    except OSError as exc:
        return exc.strerror or str(exc)
    if stat.S_ISLNK(st.st_mode):
        return "it is a symbolic link"
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a folder"
    try:
        tag = read_bounded(os.path.join(folder, "CACHEDIR.TAG"), 4096, follow_symlinks=False)
    except OSError:
        return "it holds no CACHEDIR.TAG of siblint's"
    if tag != MARKER:
        return "its CACHEDIR.TAG was not written by siblint"
    return None


def clean(folder: str) -> tuple[int, list[str]]:
    """Delete siblint's cache `folder`: its schema folders, the marker files, then the folder itself
    when nothing else is left. Returns the bytes freed and what was left (anything siblint did not
    write). Raises NotACache, deleting nothing, when the folder is not siblint's."""
    why = is_siblint_cache(folder)
    if why:
        raise NotACache(why)
    freed = 0
    left: list[str] = []
    for entry in _entries(folder):
        if _SCHEMA_DIR.fullmatch(entry.name) and entry.is_dir(follow_symlinks=False):
            freed += _tree_bytes(entry.path)
            shutil.rmtree(entry.path, ignore_errors=True)
        elif entry.name.startswith(".tmp-") and entry.is_file(follow_symlinks=False):
            freed += _stat(entry).size
            _unlink(entry.path)
        elif entry.name not in ("CACHEDIR.TAG", ".gitignore"):
            left.append(entry.name)
    if not left:
        for name in (".gitignore", "CACHEDIR.TAG"):
            _unlink(os.path.join(folder, name))
        try:
            os.rmdir(folder)
        except OSError:
            pass
    return freed, left


def _tree_bytes(folder: str) -> int:
    total = 0
    for here, _, names in os.walk(folder):  # os.walk does not descend into links
        for name in names:
            try:
                total += os.lstat(os.path.join(here, name)).st_size
            except OSError:
                pass
    return total
