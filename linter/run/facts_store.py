"""Facts parsed during one run, kept on disk so that no module is parsed twice.

Without the cache, a module's facts were parsed again wherever they were asked for: by each pool
worker whose files look the module up (the importers a group lists, the class index), and by the
same worker after it had forgotten them to keep its memory flat (pydantic-ai: 240 of 845 parses).
Each parse is pickled into a folder private to the run (0700, made by the parent before the pool
forks, removed when the run ends), named by the file's absolute path and content hash; any process
of the run that needs those facts again unpickles them, about a tenth of the parse's time.

Facts carry the path they were parsed under and nothing else of it (a module's name is worked out
from its absolute path), so Python facts are stored under the absolute path and handed back under
the path asked for. A TypeScript/JavaScript file's facts come back only under the path they were
stored with. The folder holds only what this run wrote; nothing in the checked tree is read as a
pickle.
"""

from __future__ import annotations

import copy
import gc
import hashlib
import os
import pickle
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..syntax.facts import ModuleFacts


PREFIX = "siblint-facts-"


def sweep_orphans(where: str | None = None) -> None:
    """Remove the facts folders of runs that no longer exist: `siblint-facts-<pid>-*` folders this
    user owns (not links) whose process is gone. Another user's folder, or a live run's, stays."""
    where = where or tempfile.gettempdir()
    try:
        entries = list(os.scandir(where))
    except OSError:
        return
    for entry in entries:
        pid = entry.name[len(PREFIX):].split("-", 1)[0]
        if not entry.name.startswith(PREFIX) or not pid.isdigit() or _alive(int(pid)):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid():
            shutil.rmtree(entry.path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, but another user's (EPERM)
        return True
    return True


class RunFacts:
    def __init__(self, folder: str) -> None:
        self.folder = folder

    @classmethod
    @contextmanager
    def opened(cls) -> Iterator["RunFacts | None"]:
        """A store for one run, or None where no temporary folder can be made (modules are then
        parsed again where they are needed, as before)."""
        sweep_orphans()
        try:
            # Mode 0700: no other user reads or plants a pickle. The pid lets a later run remove the
            # folder of a run that was killed before its `finally` (SIGKILL, SIGTERM).
            folder = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")
        except OSError:
            yield None
            return
        try:
            yield cls(folder)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def _file(self, path: str, sha: str) -> str:
        name = hashlib.sha256(f"{_stored_path(path)}\0{sha}".encode("utf-8", "surrogateescape")).hexdigest()[:32]
        return os.path.join(self.folder, name + ".pickle")

    def load(self, path: str, sha: str) -> "ModuleFacts | None":
        """The facts some process of this run stored for this file's content, under `path`; None
        when none did (or the file is unreadable: the caller parses)."""
        try:
            with open(self._file(path, sha), "rb") as fh:
                blob = fh.read()
        except OSError:
            return None
        was_enabled = gc.isenabled()
        gc.disable()  # unpickling makes many objects that are all kept: no collection pays off
        try:
            facts: ModuleFacts = pickle.loads(blob)
        except Exception:  # noqa: BLE001 - a damaged entry is a miss
            return None
        finally:
            if was_enabled:
                gc.enable()
        if facts.path != path:
            facts.path = path
        return facts

    def store(self, path: str, sha: str, facts: "ModuleFacts") -> None:
        """Store freshly parsed facts; an existing entry (another process's) is left as it is.
        Written whole and renamed, so a reader never sees half a file."""
        target = self._file(path, sha)
        if os.path.exists(target):
            return
        plain = copy.copy(facts)
        plain.__dict__.pop("_views", None)  # views computed by rules are rebuilt on demand
        plain.path = _stored_path(path)
        try:
            blob = pickle.dumps(plain, protocol=pickle.HIGHEST_PROTOCOL)
        except (RecursionError, pickle.PicklingError):  # facts nested too deep to pickle: parsed again if asked
            return
        try:
            fd, temp = tempfile.mkstemp(dir=self.folder, suffix=".part")
            with os.fdopen(fd, "wb") as fh:
                fh.write(blob)
            os.replace(temp, target)
        except OSError:  # a full disk only costs a parse later
            pass


def _stored_path(path: str) -> str:
    """The path a file's facts are stored under: the absolute one for Python (the same facts under
    any spelling), the path as given for a TypeScript/JavaScript file."""
    from ..js import is_js

    return path if is_js(path) else os.path.abspath(path)
