"""Writing a file without ever writing through what is already at its path.

A pull request controls the tree siblint runs in: a symbolic link committed where siblint writes
(the report, the baseline, a source file for `--add-noqa`, a cache entry) must not redirect the
write. A complete new file is written beside the target and renamed over it; the rename replaces a
link instead of following it, and a reader never sees half a file.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import tempfile
from collections.abc import Iterator


def replace_file(path: str, data: bytes, mode: int | None = None, prefix: str = ".siblint-") -> None:
    """Put `data` at `path` through a temporary file in the same folder and a rename. `mode`: the
    new file's permissions (default: what `open(path, "w")` would create under the umask).

    SIGTERM and SIGINT wait until the rename is done (a cancelled CI job sends them): a kill in
    the middle left a partial `.siblint-report-*` beside the report."""
    with _signals_held():
        _replace(path, data, mode, prefix)


def replace_source(path: str, data: bytes, prefix: str) -> None:
    """An edited source file in place of `path` (`replace_file`), keeping its permissions."""
    replace_file(path, data, mode=stat.S_IMODE(os.stat(path).st_mode), prefix=prefix)


def through_a_link(path: str) -> bool:
    """Is `path`, or a folder on the way to it from the working folder, a symbolic link?"""
    cwd = os.getcwd()
    full = os.path.abspath(path)
    rel = os.path.relpath(full, cwd)
    base, parts = (cwd, rel.split(os.sep)) if not rel.startswith(os.pardir) else (os.sep, full.split(os.sep)[1:])
    for part in parts:
        base = os.path.join(base, part)
        if os.path.islink(base):
            return True
    return False


# File times come from a coarse kernel clock (a tick behind the real one): a change this close
# before a run began counts as during it.
_CLOCK_SLACK_NS = 50_000_000


def why_not_replaced(path: str, since_ns: int | None) -> str | None:
    """Why an edited copy must not replace the source file `path` (`--add-noqa`, `--fix`), or None:
    it changed after `since_ns` (the findings' lines may have moved), a replace would do what an
    edit in place would not (a read-only file, a hard link)."""
    st = os.stat(path)
    if since_ns is not None and max(st.st_mtime_ns, st.st_ctime_ns) >= since_ns - _CLOCK_SLACK_NS:
        return "changed after the run began (its findings may be on other lines now), not edited; run again"
    if not stat.S_IMODE(st.st_mode) & 0o222 or not os.access(path, os.W_OK):
        return "read-only, not edited"
    if st.st_nlink > 1:
        return f"has {st.st_nlink} hard links, which a rewrite would separate; not edited"
    return None


def round_trips(data: bytes, text: str, encoding: str) -> bool:
    """Does `encoding` give back the bytes it decoded? (`unicode_escape` writes every newline as
    `\\n`: the edited file would be one physical line.)"""
    try:
        return text.encode(encoding) == data
    except UnicodeError:
        return False


_HELD = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP") if hasattr(signal, name))


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)  # a held signal is delivered here


def _replace(path: str, data: bytes, mode: int | None, prefix: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=prefix)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def user_cache_root() -> str:
    """`$XDG_CACHE_HOME` (`~/.cache`), `%LOCALAPPDATA%` on Windows: where a user's caches live."""
    base = os.environ.get("XDG_CACHE_HOME") or (os.environ.get("LOCALAPPDATA") if os.name == "nt" else None) \
        or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.abspath(base)


def _within(path: str, folder: str) -> bool:
    try:
        return os.path.commonpath([path, folder]) == folder
    except ValueError:  # different drives (Windows)
        return False


def escaping_link(path: str, roots: list[str], *, folder_itself: bool = False) -> str | None:
    """The symbolic link, inside one of `roots`, through which writing `path` would land outside all
    of them and outside the user's cache root; None when there is none.

    A pull request can commit `reports -> /elsewhere`: `-o reports/x.sarif` must not follow it.
    A path named outside the project is the caller's choice and is taken as given, and so are links
    above the project (the project itself may sit under a linked folder). `folder_itself`: `path`
    is a folder to write into (a cache), so it is checked too."""
    target = os.path.abspath(path)
    folder = target if folder_itself else os.path.dirname(target)
    homes = [os.path.abspath(r) for r in roots if _within(folder, os.path.abspath(r))]
    if not homes:
        return None
    real = os.path.realpath(folder)
    allowed = [os.path.realpath(r) for r in roots] + [os.path.realpath(user_cache_root())]
    if any(_within(real, a) for a in allowed):
        return None
    home = max(homes, key=len)
    current = home
    for part in os.path.relpath(folder, home).split(os.sep):
        current = os.path.join(current, part)
        if os.path.islink(current):
            return current
    return folder  # reached through a link in `roots` itself; name the folder
