"""The on-disk cache: per-module facts and per-file findings, so an unchanged tree re-parses nothing.

Layout, under the cache folder (`.siblint_cache/` next to the config, or `--cache-dir`,
`SIBLINT_CACHE_DIR`):

    CACHEDIR.TAG, .gitignore                  mark the folder as a cache (backup tools, git)
    v1/facts/ab/<key>.json                    facts of one module; key = sha256(code fingerprint,
                                              path, module name, file bytes)
    v1/findings-<config>.json                 one index per effective configuration:
                                              path -> content hash, findings, and the project
                                              modules the rules consulted with their hashes

Findings of a file are reused only when its bytes, siblint's code and the configuration are
unchanged *and* every module its rules looked up through the ProjectIndex still has the same
content (a module that was not found is not re-checked: creating it later needs `--no-cache` or an
edit of the importer). When only a dependency changed, the file's facts come from the
cache and only the rules run again.

Safety: everything is JSON (loading never runs code). Each file is a header line (format, schema,
siblint version, code fingerprint, key, sha256 of the payload) and a payload line; anything that
does not check out (truncated, edited, foreign, older schema) is ignored and rewritten, never an
error. Writes go to a temporary file in the same folder and are renamed into place, so concurrent
runs and worker processes never see half a file. siblint writes nowhere else.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sys
from functools import lru_cache
from typing import Any

from siblint import __version__

FORMAT = "siblint-cache"
SCHEMA = 1
DEFAULT_DIRNAME = ".siblint_cache"
ENV_VAR = "SIBLINT_CACHE_DIR"


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ---- the code fingerprint: siblint's version plus its own source files --------------------------
@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """Changes whenever siblint's code changes (a new version, an edited rule in a dev checkout)."""
    import siblint

    h = hashlib.sha256(f"{__version__}\0{sys.version_info[:2]}\0{SCHEMA}".encode())
    dirs = {os.path.dirname(os.path.abspath(siblint.__file__))}
    try:
        import siblint.rules as rules_pkg

        dirs.add(os.path.dirname(os.path.abspath(rules_pkg.__file__)))
    except ImportError:  # pragma: no cover
        pass
    for d in sorted(dirs):
        for folder, subdirs, files in os.walk(d):
            subdirs[:] = sorted(s for s in subdirs if s != "__pycache__")
            for name in sorted(files):
                if name.endswith(".py"):
                    p = os.path.join(folder, name)
                    try:
                        st = os.stat(p)
                    except OSError:
                        continue
                    h.update(f"{os.path.relpath(p, d)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:32]


# ---- a generic JSON codec for the facts and diagnostics dataclasses ------------------------------
# Tuples are JSON arrays (they are the common case in frozen facts); lists, dicts, bytes, sets and
# dataclasses are one-key objects. Dataclasses are named by class and carry their fields in
# declaration order; a field count that does not match the class is a decode error (cache miss).


class CodecError(Exception):
    pass


@lru_cache(maxsize=1)
def _classes() -> dict[str, type]:
    from siblint import diagnostics, facts

    found: dict[str, type] = {}
    for module in (facts, diagnostics):
        for obj in vars(module).values():
            if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == module.__name__:
                found[obj.__name__] = obj
    return found


@lru_cache(maxsize=None)
def _fields(cls: type) -> tuple[tuple[str, ...], bool]:
    fs = dataclasses.fields(cls)
    return tuple(f.name for f in fs), all(f.init for f in fs)


def encode(obj: Any) -> Any:
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, tuple):
        return [encode(v) for v in obj]
    if isinstance(obj, list):
        return {"l": [encode(v) for v in obj]}
    if isinstance(obj, dict):
        return {"d": [[encode(k), encode(v)] for k, v in obj.items()]}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        cls = type(obj)
        if _classes().get(cls.__name__) is not cls:
            raise CodecError(f"not a facts class: {cls.__qualname__}")
        names, _ = _fields(cls)
        return {"c": cls.__name__, "f": [encode(getattr(obj, n)) for n in names]}
    if isinstance(obj, bytes):
        return {"b": obj.decode("latin-1")}
    if isinstance(obj, frozenset):
        return {"s": [encode(v) for v in obj]}
    raise CodecError(f"cannot store a {type(obj).__name__}")


def decode(obj: Any) -> Any:
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, list):
        return tuple(decode(v) for v in obj)
    if isinstance(obj, dict) and len(obj) in (1, 2):
        if "c" in obj:
            cls = _classes().get(obj["c"])
            values = obj.get("f")
            if cls is None or not isinstance(values, list):
                raise CodecError(f"unknown class {obj.get('c')!r}")
            names, all_init = _fields(cls)
            if len(values) != len(names):
                raise CodecError(f"{cls.__name__}: {len(values)} fields stored, {len(names)} expected")
            args = [decode(v) for v in values]
            if all_init:
                return cls(*args)
            inst = object.__new__(cls)
            for n, v in zip(names, args):
                object.__setattr__(inst, n, v)
            return inst
        if "l" in obj:
            return [decode(v) for v in obj["l"]]
        if "d" in obj:
            return {decode(k): decode(v) for k, v in obj["d"]}
        if "b" in obj:
            return obj["b"].encode("latin-1")
        if "s" in obj:
            return frozenset(decode(v) for v in obj["s"])
    raise CodecError("malformed cache value")


def dumps(payload: Any, key: str) -> bytes:
    body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False, allow_nan=True).encode("utf-8")
    header = {"format": FORMAT, "schema": SCHEMA, "version": __version__, "fingerprint": code_fingerprint(),
              "key": key, "sha256": hashlib.sha256(body).hexdigest()}
    return json.dumps(header, separators=(",", ":")).encode() + b"\n" + body


def loads(blob: bytes, key: str) -> Any:
    """The payload of a cache file written by `dumps` for `key`; raises on anything else."""
    head, sep, body = blob.partition(b"\n")
    if not sep:
        raise CodecError("no header")
    header = json.loads(head)
    if not isinstance(header, dict) or header.get("format") != FORMAT or header.get("schema") != SCHEMA \
            or header.get("version") != __version__ or header.get("fingerprint") != code_fingerprint() \
            or header.get("key") != key or header.get("sha256") != hashlib.sha256(body).hexdigest():
        raise CodecError("foreign, stale or damaged cache file")
    return json.loads(body)


# ---- the cache folder ------------------------------------------------------------------------
def default_dir(config_source: str, config_root: str, first_path: str | None) -> str:
    """`SIBLINT_CACHE_DIR`, else `.siblint_cache` next to the config file, else next to the first path."""
    env = os.environ.get(ENV_VAR)
    if env:
        return os.path.abspath(env)
    if config_source:
        return os.path.join(os.path.dirname(os.path.abspath(config_source)), DEFAULT_DIRNAME)
    if first_path and first_path != "-":
        p = os.path.abspath(first_path)
        return os.path.join(p if os.path.isdir(p) else os.path.dirname(p), DEFAULT_DIRNAME)
    return os.path.join(os.path.abspath(config_root), DEFAULT_DIRNAME)


def _entry_key(path: str) -> str:
    """Findings carry the path as given, so the same file named another way is another entry."""
    return f"{os.path.abspath(path)}\0{path}"


@dataclasses.dataclass
class Dep:
    """A project module the rules looked up: where it resolved (None: nowhere) and its content hash."""

    module: str
    path: str | None
    sha: str | None


@dataclasses.dataclass
class Entry:
    sha: str
    diagnostics: list  # of Diagnostic, after filtering
    deps: list[Dep]


class Cache:
    """One cache folder, for one effective configuration. Never raises on I/O: it just stops caching."""

    def __init__(self, folder: str, config_key: str) -> None:
        self.folder = os.path.abspath(folder)
        self.base = os.path.join(self.folder, f"v{SCHEMA}")
        self.config_key = config_key
        self.index_key = hashlib.sha256(config_key.encode()).hexdigest()[:16]
        self.index_path = os.path.join(self.base, f"findings-{self.index_key}.json")
        self.entries: dict[str, Entry] = {}
        self.loaded = False
        self.dirty = False
        self.writable = True
        self.stats = {"facts_hit": 0, "facts_miss": 0, "findings_hit": 0, "findings_miss": 0}

    # ---- facts blobs ------------------------------------------------------------------------
    @staticmethod
    def facts_key(path: str, module: str, is_package: bool, sha: str) -> str:
        # The path as given too: facts (and so findings) carry it, relative or absolute.
        raw = f"{code_fingerprint()}\0{os.path.abspath(path)}\0{path}\0{module}\0{is_package}\0{sha}"
        return hashlib.sha256(raw.encode()).hexdigest()

    def _facts_path(self, key: str) -> str:
        return os.path.join(self.base, "facts", key[:2], key + ".json")

    def load_facts(self, key: str) -> Any | None:
        try:
            with open(self._facts_path(key), "rb") as fh:
                facts = decode(loads(fh.read(), key))
        except FileNotFoundError:
            self.stats["facts_miss"] += 1
            return None
        except Exception:  # noqa: BLE001 - damaged or foreign: a miss, rewritten after the parse
            self.stats["facts_miss"] += 1
            return None
        from siblint.facts import ModuleFacts

        if not isinstance(facts, ModuleFacts):
            self.stats["facts_miss"] += 1
            return None
        self.stats["facts_hit"] += 1
        return facts

    def store_facts(self, key: str, facts: Any) -> None:
        if not self.writable:
            return
        try:
            blob = dumps(encode(facts), key)
        except (CodecError, ValueError, RecursionError):
            return  # something the codec cannot store: simply not cached
        self._write(self._facts_path(key), blob)

    # ---- the findings index ---------------------------------------------------------------------
    def load_index(self) -> None:
        if self.loaded:
            return
        self.loaded = True
        try:
            with open(self.index_path, "rb") as fh:
                raw = loads(fh.read(), self.index_key)
            if raw.get("config") != self.config_key:
                raise CodecError("another configuration")
            entries: dict[str, Entry] = {}
            for path, e in raw["entries"].items():
                entries[path] = Entry(
                    sha=e["sha"],
                    diagnostics=list(decode(e["diags"])),
                    deps=[Dep(m, p, s) for m, p, s in e["deps"]],
                )
            self.entries = entries
        except Exception:  # noqa: BLE001 - missing, damaged or foreign index: start empty
            self.entries = {}

    def lookup(self, path: str, sha: str, validate) -> list | None:
        """Cached findings of `path` if its bytes and every dependency are unchanged."""
        self.load_index()
        entry = self.entries.get(_entry_key(path))
        if entry is None or entry.sha != sha or not validate(entry):
            self.stats["findings_miss"] += 1
            return None
        self.stats["findings_hit"] += 1
        return entry.diagnostics

    def record(self, path: str, entry: Entry) -> None:
        self.load_index()
        self.entries[_entry_key(path)] = entry
        self.dirty = True

    def forget_missing(self, keep: set[str]) -> None:
        """Drop entries of files under this run's paths that no longer exist (keeps the index small)."""
        for p in [p for p in self.entries if p not in keep and not os.path.exists(p.split("\0", 1)[0])]:
            del self.entries[p]
            self.dirty = True

    def save(self) -> None:
        if not self.dirty or not self.writable:
            return
        try:
            entries = {
                p: {"sha": e.sha, "diags": encode(tuple(e.diagnostics)), "deps": [[d.module, d.path, d.sha] for d in e.deps]}
                for p, e in self.entries.items()
            }
            blob = dumps({"config": self.config_key, "entries": entries}, self.index_key)
        except (CodecError, ValueError, RecursionError):
            return
        self._write(self.index_path, blob)
        self.dirty = False

    # ---- writing ------------------------------------------------------------------------------
    def _prepare(self) -> None:
        os.makedirs(self.base, exist_ok=True)
        tag = os.path.join(self.folder, "CACHEDIR.TAG")
        if not os.path.exists(tag):
            with open(tag, "w", encoding="ascii") as fh:
                fh.write("Signature: 8a477f597d28d172789f06886806bc55\n# siblint cache; safe to delete.\n")
            with open(os.path.join(self.folder, ".gitignore"), "w", encoding="ascii") as fh:
                fh.write("# Created by siblint automatically.\n*\n")

    def _write(self, target: str, blob: bytes) -> None:
        import tempfile

        try:
            if not os.path.isdir(self.base):
                self._prepare()
            os.makedirs(os.path.dirname(target), exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(blob)
                os.replace(tmp, target)
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except OSError:
            self.writable = False  # read-only or full disk: carry on without caching


def config_key(config: Any) -> str:
    """Everything about the effective configuration that can change findings.

    The dataclass repr covers every field (the root too: per-file-ignores match relative to it),
    including fields added later, so a new option can never be served stale findings."""
    return repr(config)
