"""Environments the runtime tests build for themselves, for what cannot share the test venv.

A framework whose pins conflict with the `test` extras (google-adk, crewai, llama-index, ...) gets a
venv of its own, and the JS SDK an npm folder. Each is built once under `.runtime-envs/` at the
repository's top (ignored by git) in a folder named after a digest of its pins, and reused while
those pins stand: changing a pin builds a new one. A folder is only reused when its marker, written
last, holds the same pins; a half-built folder is removed and built again. A file lock keeps two
test sessions from building the same environment at once.

A venv is built with `uv` (a test extra: parallel downloads into one cache that the venvs hardlink,
so a build takes seconds to a minute where pip took 2-10, and a file is on disk once however many
venvs hold it), and with the standard `venv` and `pip` where uv is not installed. Suites whose pins resolve together share one
venv (`venvs.py`); `declare_python` hands every module that names the same venv the same build.

When an environment cannot be built (no network to the registry, no Node), the test that asked for
it fails with the builder's output; it is never skipped.

Test modules declare what they need at import (`ADK = declare_python(*venvs.SHARED)`); once
collection ends, `tests/runtime/conftest.py` starts building every declared environment in the
background, so the builds overlap each other and the tests that need none. `ADK.python()` waits for
its own build.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / ".runtime-envs"
MARKER = "siblint-env.json"
UV_CACHE = ".uv-cache"
BUILD_TIMEOUT = 900


class BuildFailed(AssertionError):
    """An environment could not be built; the message holds the command and its output."""


def _folder(kind: str, name: str, pins: Sequence[str]) -> Path:
    digest = hashlib.sha256(json.dumps([kind, sys.version_info[:2], sorted(pins)]).encode()).hexdigest()[:12]
    return ROOT / f"{name}-{digest}"


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    ROOT.mkdir(exist_ok=True)
    with open(ROOT / f"{folder.name}.lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _ready(folder: Path, pins: Sequence[str]) -> bool:
    marker = folder / MARKER
    if folder.is_symlink() or marker.is_symlink() or not marker.is_file():
        return False
    try:
        return json.loads(marker.read_text(encoding="utf-8")) == sorted(pins)
    except (OSError, ValueError):
        return False


def _run(cmd: Sequence[str], cwd: Path) -> None:
    # uv's cache (`UV_CACHE_DIR`, else beside the venvs: hardlinks need one filesystem), never under
    # the session's own XDG_CACHE_HOME (tests/conftest.py), which is removed when the session ends.
    env = dict(os.environ, UV_CACHE_DIR=os.environ.get("UV_CACHE_DIR") or str(ROOT / UV_CACHE))
    try:
        proc = subprocess.run(list(cmd), cwd=cwd, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BuildFailed(f"{' '.join(cmd)}: {exc}") from exc
    if proc.returncode != 0:
        raise BuildFailed(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}")


def _build(kind: str, name: str, pins: Sequence[str], steps: Sequence[Sequence[str]]) -> Path:
    folder = _folder(kind, name, pins)
    with _locked(folder):
        if not _ready(folder, pins):
            if folder.is_symlink():
                folder.unlink()
            elif folder.exists():
                shutil.rmtree(folder)
            folder.mkdir(parents=True)
            for step in steps:
                _run([str(folder) if part == "{folder}" else part for part in step], cwd=folder)
            (folder / MARKER).write_text(json.dumps(sorted(pins)), encoding="utf-8")
    return folder


def uv_binary() -> str | None:
    """The uv executable installed beside this python (the `uv` test extra), or None."""
    try:
        from uv import find_uv_bin
        return str(find_uv_bin())
    except (ImportError, FileNotFoundError):
        return None


def _install_steps(python: Path, pins: Sequence[str], uv: str | None) -> list[list[str]]:
    if uv is None:
        return [[sys.executable, "-m", "venv", "{folder}"],
                [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *pins]]
    return [[uv, "venv", "-q", "--python", sys.executable, "{folder}"],
            [uv, "pip", "install", "-q", "--python", str(python), *pins]]


def python_env(name: str, pins: Sequence[str], use_uv: bool = True) -> Path:
    """The python of a venv holding exactly `pins` (pip requirement strings), built when missing:
    with uv when it is installed (and `use_uv`), with venv and pip otherwise."""
    python = _folder("python", name, pins) / "bin" / "python"
    _build("python", name, pins, _install_steps(python, pins, uv_binary() if use_uv else None))
    return python


def node_env(name: str, packages: Sequence[str]) -> Path:
    """A folder whose `node_modules` holds exactly `packages` (npm specs such as `zod@4.1.5`)."""
    npm = shutil.which("npm")
    if shutil.which("node") is None or npm is None:
        raise BuildFailed("the JS runtime tests need Node and npm on PATH (node 20 or newer)")
    return _build("node", name, packages, [
        [npm, "init", "-y"],
        [npm, "install", "--no-audit", "--no-fund", "--save-exact", *packages],
    ])


def node_env_vars(folder: Path) -> dict[str, str]:
    """The environment that lets a script outside `folder` `require` what it installed."""
    return dict(os.environ, NODE_PATH=str(folder / "node_modules"))


@dataclass
class Declared:
    """An environment a test module needs; `start()` begins its build, `get()` waits for it."""

    build: Callable[[], Path]
    _future: Future[Path] | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def start(self, pool: ThreadPoolExecutor | None = None) -> None:
        with self._lock:
            if self._future is None:
                if pool is None:
                    self._future = Future()
                    try:
                        self._future.set_result(self.build())
                    except BaseException as exc:  # kept for every test that waits on it
                        self._future.set_exception(exc)
                else:
                    self._future = pool.submit(self.build)

    def get(self) -> Path:
        self.start()
        assert self._future is not None
        return self._future.result()

    # Spelled for what the environment is: a venv's python, or an npm folder.
    python = get
    folder = get


DECLARED: list[Declared] = []
_BY_FOLDER: dict[Path, Declared] = {}


def declare_python(name: str, pins: Sequence[str]) -> Declared:
    """A venv holding `pins`, built in the background once collection ends; modules that declare
    the same venv (name and pins) share one build."""
    folder = _folder("python", name, pins)
    if folder not in _BY_FOLDER:
        _BY_FOLDER[folder] = Declared(lambda: python_env(name, pins))
        DECLARED.append(_BY_FOLDER[folder])
    return _BY_FOLDER[folder]


def declare_node(name: str, packages: Sequence[str]) -> Declared:
    """An npm folder holding `packages`, built in the background once collection ends."""
    env = Declared(lambda: node_env(name, packages))
    DECLARED.append(env)
    return env
