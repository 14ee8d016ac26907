"""The on-disk cache: per-module facts and per-file findings, so an unchanged tree re-parses nothing.

Layout, under the cache folder (`.siblint_cache/` next to the config, or `--cache-dir`,
`SIBLINT_CACHE_DIR`):

    CACHEDIR.TAG, .gitignore                  mark the folder as a cache (backup tools, git)
    v2/facts/ab/<file>-<content>.json         facts of one module: <file> = sha256(path),
                                              <content> = sha256(code fingerprint, module name,
                                              file bytes); storing a file's new facts deletes its
                                              old ones
    v2/lint/ab/<file>-<content>.json          findings of one file for front ends that check one
                                              file at a time (flake8): <content> also covers the
                                              configuration; the same shape as an index entry
    v2/scan/ab/<root>-<code>.json             what each file under a project root adds to the
                                              project scan, by content hash (`siblint.run.scan_memo`)
    v2/pins/ab/<digest>.json                  the pins of one set of pin files, by a digest of
                                              their bytes (`siblint.run.pins_memo`)
    v2/fixes/ab/<folder>-<code>.json          how many fixes each file's findings have, by a hash
                                              of its bytes and findings (the --fix hint)
    v2/findings-<config>.json                 one index per effective configuration:
                                              path -> content hash, findings, and the project
                                              modules the rules consulted with their hashes

The cache is bounded (`siblint.run.cache_bounds`): at the end of a run that wrote to it, entries of
deleted files, other schemas' folders and stale temporary files are removed, then the least
recently used files until the folder fits `cache-max-size` (default: twice the source bytes of the
largest run it served, at least `DEFAULT_FLOOR`). Payloads are zlib-compressed JSON (facts are ~7x
smaller), so a full cache is about the size of the source it describes.

Findings of a file are reused only when its bytes, its module name, siblint's code and the
configuration are unchanged *and* every module its rules looked up through the ProjectIndex still
resolves to the same file with the same content, or is still not found: creating a module that
was missing, shadowing one from an earlier import root, or a run over another set of files (and so
other import roots) re-checks the importer. When only a dependency changed, the file's facts come
from the cache and only the rules run again.

Safety, for a CI gate where the pull request's author controls the tree (and so can commit a
`.siblint_cache/`):

- Everything is JSON (loading never runs code). Each file is a header line (format, schema,
  siblint version, code fingerprint, key, the module's path for facts, an HMAC of the payload) and
  the compressed payload; the HMAC is checked before anything is decompressed. The HMAC's
  key is random, made on first use in the user's cache folder outside any repository
  (`$XDG_CACHE_HOME/siblint/key`, mode 0600; see `machine_key`), so only what this machine wrote
  is trusted: a forged or copied entry costs a re-analysis, never a finding. Anything that does
  not check out (truncated, edited, foreign, older schema) is ignored and rewritten, never an error.
- A cache folder that is a symbolic link, or that git tracks, is not used (`Cache.refusal`, one
  warning); a link found inside it stops caching. Files are opened without following links, only
  regular files are read, each up to `MAX_BYTES`; CACHEDIR.TAG and .gitignore are created only
  where nothing is (never overwritten).
- Writes go to a temporary file in the same folder and are renamed into place, so concurrent runs
  and worker processes never see half a file. siblint writes nowhere else.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import os
import secrets
import stat
import subprocess
import sys
import tempfile
import zlib
from functools import lru_cache
from types import ModuleType
from typing import Any

from .. import __version__
from ..common.reading import read_bounded
from ..common.writing import replace_file, user_cache_root

FORMAT = "siblint-cache"
SCHEMA = 2
DEFAULT_DIRNAME = ".siblint_cache"
ENV_VAR = "SIBLINT_CACHE_DIR"
MAX_BYTES = 512_000_000  # one cache file (facts of a module at the default cap are far less)
DEFAULT_FLOOR = 32_000_000  # the smallest default size cap: a small project never evicts
MARKER = b"Signature: 8a477f597d28d172789f06886806bc55\n# siblint cache; safe to delete.\n"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ---- the code fingerprint: siblint's version plus its own source files --------------------------
@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """Changes whenever siblint's code changes (a new version, an edited rule in a dev checkout)."""
    from ..rule_api.rule import catalog

    h = hashlib.sha256(f"{__version__}\0{sys.version_info[:2]}\0{SCHEMA}".encode())
    dirs = {os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}  # the siblint package
    try:
        dirs.add(os.path.dirname(os.path.abspath(catalog().__file__ or "")))
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


# ---- the machine's key: what makes an entry trusted -----------------------------------------------
def key_path() -> str:
    """`$XDG_CACHE_HOME/siblint/key` (`~/.cache`), `%LOCALAPPDATA%\\siblint\\key` on Windows."""
    return os.path.join(user_cache_root(), "siblint", "key")


def _read_key(path: str) -> bytes:
    text = read_bounded(path, 1024, follow_symlinks=False).strip()
    if len(text) != 64 or any(c not in b"0123456789abcdef" for c in text):
        raise OSError("not a siblint key")
    return bytes.fromhex(text.decode())


@lru_cache(maxsize=1)
def machine_key() -> bytes | None:
    """This user's random cache key, created on first use (None when there is nowhere to keep one:
    then nothing is cached). Created atomically: written to a temporary file (0600) and linked to
    its name, so two first runs agree on one key and no run ever reads half of one."""
    path = key_path()
    try:
        return _read_key(path)
    except FileNotFoundError:
        pass
    except OSError:
        return None
    folder = os.path.dirname(path)
    tmp = None
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".key-")
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(secrets.token_hex(32) + "\n")
        try:
            os.link(tmp, path)
        except FileExistsError:  # another run made it first: use theirs
            pass
        except OSError:  # no hard links here (some filesystems): the last writer wins, still whole
            os.replace(tmp, path)
            tmp = None
        return _read_key(path)
    except OSError:
        return None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _mac(secret: bytes, key: str, body: bytes) -> str:
    return hmac.new(secret, f"{code_fingerprint()}\0{key}\0".encode() + body, hashlib.sha256).hexdigest()


# ---- a generic JSON codec for the facts and diagnostics dataclasses ------------------------------
# Tuples are JSON arrays (they are the common case in frozen facts); lists, dicts, bytes, sets and
# dataclasses are one-key objects. Dataclasses are named by class and carry their fields in
# declaration order; a field count that does not match the class is a decode error (cache miss).


class CodecError(Exception):
    pass


@lru_cache(maxsize=None)
def _dataclasses_of(which: str) -> dict[str, type]:
    if which == "diagnostics":
        from ..common import diagnostics

        module: ModuleType = diagnostics
    else:
        from ..syntax import facts

        module = facts
    return {obj.__name__: obj for obj in vars(module).values()
            if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == module.__name__}


def _class(name: str) -> type | None:
    """The codec's class of that name. The findings' module first: a warm run decodes findings
    only, and need not import the facts' (their ~100 dataclasses take ~30 ms to create)."""
    for which in ("diagnostics", "facts"):
        found = _dataclasses_of(which).get(name)
        if found is not None:
            return found
    return None


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
        if _class(cls.__name__) is not cls:
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
            cls = _class(obj["c"])
            values = obj.get("f")
            if cls is None or not isinstance(values, list):
                raise CodecError(f"unknown class {obj.get('c')!r}")
            names, all_init = _fields(cls)
            if len(values) != len(names):
                raise CodecError(f"{cls.__name__}: {len(values)} fields stored, {len(names)} expected")
            args = [decode(v) for v in values]
            if all_init:
                return cls(*args)
            inst: Any = object.__new__(cls)
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


def dumps(payload: Any, key: str, secret: bytes, path: str | None = None) -> bytes:
    """A header line (with `path`, the module a facts file describes) and the compressed payload."""
    raw = json.dumps(payload, separators=(",", ":"), ensure_ascii=False, allow_nan=True).encode("utf-8")
    body = zlib.compress(raw, 1)  # level 1: ~7x smaller at ~200 MB/s
    header = {"format": FORMAT, "schema": SCHEMA, "version": __version__, "fingerprint": code_fingerprint(),
              "key": key, "mac": _mac(secret, key, body)}
    if path is not None:
        header["path"] = path
    return json.dumps(header, separators=(",", ":")).encode() + b"\n" + body


def loads(blob: bytes, key: str, secret: bytes) -> Any:
    """The payload of a cache file written by `dumps` for `key` with `secret`; raises on anything else."""
    head, sep, body = blob.partition(b"\n")
    if not sep:
        raise CodecError("no header")
    header = json.loads(head)
    if not isinstance(header, dict) or header.get("format") != FORMAT or header.get("schema") != SCHEMA \
            or header.get("version") != __version__ or header.get("fingerprint") != code_fingerprint() \
            or header.get("key") != key or not isinstance(header.get("mac"), str) \
            or not hmac.compare_digest(header["mac"], _mac(secret, key, body)):
        raise CodecError("foreign, stale or damaged cache file")
    inflate = zlib.decompressobj()
    raw = inflate.decompress(body, MAX_BYTES)
    if inflate.unconsumed_tail:
        raise CodecError("payload larger than MAX_BYTES")
    return json.loads(raw)


def header_path(blob: bytes) -> str | None:
    """The module path a facts file's header names (None: no header, or no path in it)."""
    try:
        header = json.loads(blob.partition(b"\n")[0])
    except ValueError:
        return None
    path = header.get("path") if isinstance(header, dict) else None
    return path if isinstance(path, str) else None


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
    module: str = ""  # the file's dotted name when analysed (adding an `__init__.py` changes it)
    # Not analysed: the pre-filter rejected these bytes and the project's questions (`deps`) said
    # no module makes tools of it (`ProjectIndex.wanted_by_project`). Never findings.
    skipped: bool = False


class Cache:
    """One cache folder, for one effective configuration. Never raises on I/O: it just stops caching."""

    def __init__(self, folder: str, config_key: str, secret: bytes | None = None, max_size: int | None = None) -> None:
        """`secret`: the HMAC key; default `machine_key()` (without one, nothing is read or written).
        `max_size`: the folder's size cap in bytes (None: sized from the source, see `size_cap`)."""
        self.secret = secret if secret is not None else machine_key()
        self.folder = os.path.abspath(folder)
        self.base = os.path.join(self.folder, f"v{SCHEMA}")
        self.config_key = config_key
        self.index_key = hashlib.sha256(config_key.encode()).hexdigest()[:16]
        self.index_path = os.path.join(self.base, f"findings-{self.index_key}.json")
        self.entries: dict[str, Entry] = {}
        self._stored: dict[str, tuple[Entry, Any]] = {}  # key -> (the entry read, its stored form)
        self.loaded = False
        self.dirty = False
        self.max_size = max_size
        self.source_bytes = 0  # the largest run's source bytes this index has served (sizes the cap)
        self.visited: set[str] = set()  # entries this run looked up or recorded
        self.writable = self.secret is not None
        self._checked: set[str] = set()  # folders found to be real folders, not links
        self.stats = {"facts_hit": 0, "facts_miss": 0, "findings_hit": 0, "findings_miss": 0, "skipped_hit": 0,
                      "skipped_miss": 0}
        # Set by a caller that saves several configs' caches of one folder in one run: `save` leaves
        # the folder to `prune_once` (a prune per config walked the folder once per config).
        self.defer_prune = False
        self.wants_prune = False

    def refusal(self) -> str | None:
        """Why this folder must not be used at all (a symlink, or tracked by git), else None."""
        try:
            if stat.S_ISLNK(os.lstat(self.folder).st_mode):
                return f"{self.folder}: cache folder not used (it is a symbolic link)"
        except FileNotFoundError:
            return None
        except OSError:
            return None  # unreadable: the cache simply misses
        if _tracked_by_git(self.folder):
            return (f"{self.folder}: cache folder not used (git tracks files in it: "
                    "a cache must come from this machine; remove it from the repository)")
        return None

    def _chain(self, folder: str) -> list[str]:
        """The folders from the cache folder down to `folder`, top first."""
        chain = [folder]
        while folder != self.folder and len(folder) > len(self.folder):
            folder = os.path.dirname(folder)
            chain.append(folder)
        return chain[::-1]

    def _real_dirs(self, path: str, create: bool = False) -> bool:
        """Every folder from the cache folder down to `path`'s folder is a real folder, not a link
        (made when `create`)."""
        for f in self._chain(os.path.dirname(path)):
            if f in self._checked:
                continue
            if create:
                try:
                    os.mkdir(f)  # never follows a link in its place: that is EEXIST, then lstat below
                except FileExistsError:
                    pass
            try:
                st = os.lstat(f)
            except OSError:
                return False
            if not stat.S_ISDIR(st.st_mode):
                self.writable = False  # a planted link (or a file) in our folder: stop caching
                return False
            self._checked.add(f)
        return True

    def _read(self, path: str) -> bytes:
        if self.secret is None or not self._real_dirs(path):
            raise FileNotFoundError(path)
        return read_bounded(path, MAX_BYTES, follow_symlinks=False)

    # ---- facts blobs ------------------------------------------------------------------------
    @staticmethod
    def facts_key(path: str, module: str, is_package: bool, sha: str, context: str = "") -> str:
        """`<file>-<content>`: the file part is the same for every version of the file, so storing
        new facts finds the old ones. The path as given too: facts (and findings) carry it.
        `context`: whatever else the stored value depends on (a configuration)."""
        where = hashlib.sha256(f"{os.path.abspath(path)}\0{path}".encode()).hexdigest()[:24]
        what = hashlib.sha256(f"{code_fingerprint()}\0{module}\0{is_package}\0{sha}\0{context}".encode()).hexdigest()[:40]
        return f"{where}-{what}"

    def _blob_path(self, kind: str, key: str) -> str:
        return os.path.join(self.base, kind, key[:2], key + ".json")

    def _load_blob(self, kind: str, key: str) -> Any | None:
        """The decoded value stored under `key` (None: missing, damaged or foreign)."""
        path = self._blob_path(kind, key)
        try:
            value = decode(loads(self._read(path), key, self.secret))  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001 - missing, damaged or foreign: a miss, rewritten later
            return None
        _touch(path)
        return value

    def _store_blob(self, kind: str, key: str, value: Any, source: str) -> None:
        """Store `value` (about the file `source`) and delete what the same file had stored before."""
        if not self.writable:
            return
        try:
            blob = dumps(encode(value), key, self.secret, path=os.path.abspath(source))  # type: ignore[arg-type]
        except (CodecError, ValueError, RecursionError):
            return  # something the codec cannot store: simply not cached
        target = self._blob_path(kind, key)
        self._write(target, blob)
        if self.writable:
            from .cache_bounds import drop_older_versions

            drop_older_versions(target)

    def load_facts(self, key: str) -> Any | None:
        from ..syntax.facts import ModuleFacts

        facts = self._load_blob("facts", key)
        hit = isinstance(facts, ModuleFacts)
        self.stats["facts_hit" if hit else "facts_miss"] += 1
        return facts if hit else None

    def store_facts(self, key: str, facts: Any) -> None:
        """Store `facts` under `key` and delete the facts of the same file's earlier versions."""
        self._store_blob("facts", key, facts, facts.path)

    def load_findings(self, key: str) -> "Entry | None":
        """One file's findings stored by `store_findings` (the flake8 plugin's)."""
        raw = self._load_blob("lint", key)
        try:
            return _entry_from_json(raw)
        except Exception:  # noqa: BLE001 - not an entry: a miss
            return None

    def store_findings(self, key: str, path: str, entry: "Entry") -> None:
        self._store_blob("lint", key, _entry_to_json(entry), path)

    def load_scan(self, key: str) -> Any | None:
        """The project scan's per-file records (`siblint.run.scan_memo`)."""
        return self._load_blob("scan", key)

    def store_scan(self, key: str, records: dict, root: str) -> None:
        self._store_blob("scan", key, records, root)

    def load_pins(self, key: str) -> Any | None:
        """Pins read from a project's pin files (`siblint.run.pins_memo`)."""
        return self._load_blob("pins", key)

    def store_pins(self, key: str, rows: list, source: str) -> None:
        self._store_blob("pins", key, rows, source)

    def load_fix_counts(self, key: str) -> Any | None:
        """How many fixes each file's findings have (`siblint.interfaces.fix_counts`)."""
        return self._load_blob("fixes", key)

    def store_fix_counts(self, key: str, counts: dict, source: str) -> None:
        self._store_blob("fixes", key, counts, source)

    # ---- the findings index ---------------------------------------------------------------------
    def load_index(self) -> None:
        if self.loaded:
            return
        self.loaded = True
        try:
            raw = loads(self._read(self.index_path), self.index_key, self.secret)  # type: ignore[arg-type]
            if raw.get("config") != self.config_key:
                raise CodecError("another configuration")
            self.source_bytes = int(raw.get("source", 0))
            entries: dict[str, Entry] = {}
            for path, e in raw["entries"].items():
                entries[path] = _entry_from_json(e, decoded=False)
                self._stored[path] = (entries[path], e)
            self.entries = entries
            _touch(self.index_path)  # in use: the last to be evicted
        except Exception:  # noqa: BLE001 - missing, damaged or foreign index: start empty
            self.entries, self._stored = {}, {}

    def lookup(self, path: str, sha: str, validate) -> list | None:
        """Cached findings of `path` if its bytes and every dependency are unchanged."""
        entry = self._held(path, sha, False, validate)
        self.stats["findings_hit" if entry else "findings_miss"] += 1
        return entry.diagnostics if entry else None

    def changed_since_last_run(self, path: str, sha: str) -> bool:
        """An earlier run left findings here, and `path` is new or its bytes changed since."""
        self.load_index()
        entry = self.entries.get(_entry_key(path))
        return bool(self.entries) and (entry is None or entry.sha != sha)

    def skipped(self, path: str, sha: str, validate) -> bool:
        """Was `path` left unanalysed at these bytes, every dependency unchanged (`Entry.skipped`)?"""
        held = self._held(path, sha, True, validate) is not None
        self.stats["skipped_hit" if held else "skipped_miss"] += 1
        return held

    def _held(self, path: str, sha: str, skipped: bool, validate) -> Entry | None:
        self.load_index()
        self.visited.add(_entry_key(path))
        entry = self.entries.get(_entry_key(path))
        return entry if entry is not None and entry.skipped == skipped and entry.sha == sha and validate(entry) else None

    def record(self, path: str, entry: Entry) -> None:
        self.load_index()
        self.visited.add(_entry_key(path))
        self.entries[_entry_key(path)] = entry
        self.dirty = True

    def forget_missing(self) -> None:
        """Drop the entries of files that no longer exist (only those this run did not visit: the
        others were just read)."""
        for p in [p for p in self.entries if p not in self.visited and not os.path.exists(p.split("\0", 1)[0])]:
            del self.entries[p]
            self.dirty = True

    def size_cap(self) -> int:
        """`cache-max-size`, else twice the largest run's source bytes, at least DEFAULT_FLOOR."""
        return self.max_size if self.max_size is not None else max(DEFAULT_FLOOR, 2 * self.source_bytes)

    def save(self, source_bytes: int = 0) -> None:
        """Write the index, then bound the folder when this run changed it (`source_bytes`: the
        bytes of the files this run read, which size the default cap)."""
        if not self.writable:
            return
        self.load_index()
        if source_bytes > self.source_bytes:
            self.source_bytes = source_bytes
            self.dirty = True
        self.forget_missing()
        if not self.dirty:
            return  # a warm run changed nothing: nothing to prune either
        try:
            entries = {p: self._encoded(p, e) for p, e in self.entries.items()}
            blob = dumps({"config": self.config_key, "entries": entries, "source": self.source_bytes},
                         self.index_key, self.secret)  # type: ignore[arg-type]
        except (CodecError, ValueError, RecursionError):
            return
        self._write(self.index_path, blob)
        self.dirty = False
        self.wants_prune = True
        if not self.defer_prune:
            prune_once([self])

    def _encoded(self, key: str, entry: Entry) -> Any:
        """The entry as the index stores it: as read, when it is the entry that was read."""
        stored = self._stored.get(key)
        return stored[1] if stored is not None and stored[0] is entry else encode(_entry_to_json(entry))

    # ---- writing ------------------------------------------------------------------------------
    def _prepare(self) -> None:
        _create_new(os.path.join(self.folder, "CACHEDIR.TAG"), MARKER)
        _create_new(os.path.join(self.folder, ".gitignore"), b"# Created by siblint automatically.\n*\n")

    def _write(self, target: str, blob: bytes) -> None:
        try:
            if self.base not in self._checked:
                os.makedirs(os.path.dirname(self.folder), exist_ok=True)  # where the user put it
                if not self._real_dirs(os.path.join(self.base, ""), create=True):
                    raise OSError("the cache folder holds a link")
                self._prepare()
            if not self._real_dirs(target, create=True):
                raise OSError("the cache folder holds a link")
            replace_file(target, blob, mode=0o600, prefix=".tmp-")
        except OSError:
            self.writable = False  # read-only or full disk: carry on without caching


def _entry_to_json(e: Entry) -> dict[str, Any]:
    return {"sha": e.sha, "diags": tuple(e.diagnostics), "deps": [[d.module, d.path, d.sha] for d in e.deps],
            "module": e.module, "skipped": e.skipped}


def _entry_from_json(e: Any, decoded: bool = True) -> Entry:
    """An Entry from `_entry_to_json`'s value, decoded already (a blob) or still encoded (the index)."""
    if not decoded:
        e = decode(e)
    return Entry(sha=e["sha"], diagnostics=list(e["diags"]), deps=[Dep(m, p, s) for m, p, s in e["deps"]],
                 module=e["module"], skipped=bool(e.get("skipped", False)))


def _touch(path: str) -> None:
    """Mark a cache file as just used (eviction removes the least recently used first)."""
    try:
        os.utime(path, follow_symlinks=False)
    except (OSError, NotImplementedError):
        pass


def _create_new(path: str, data: bytes) -> None:
    """Create `path` with `data` unless something (a file, or a planted link) is already there."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644)
    except FileExistsError:
        return
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def _tracked_by_git(folder: str) -> bool:
    """Whether the repository around `folder` tracks any file in it (a committed cache)."""
    parent = os.path.dirname(folder)
    here = parent
    while not os.path.exists(os.path.join(here, ".git")):
        up = os.path.dirname(here)
        if up == here:
            return False  # not in a repository: no git process at all
        here = up
    try:
        # fsmonitor off: the repository's own config must not make git run a program.
        proc = subprocess.run(["git", "-c", "core.fsmonitor=false", "ls-files", "-z", "--", os.path.basename(folder)],
                              cwd=parent, capture_output=True, timeout=30, stdin=subprocess.DEVNULL,
                              env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"})
    except (OSError, subprocess.SubprocessError):
        return False
    return proc.returncode == 0 and bool(proc.stdout)


def prune_once(caches: list[Cache]) -> None:
    """Bound each folder that one of `caches` changed, once, with the largest of their caps (pruned
    at each save instead, a folder that N configs share was walked N times, and each prune used the
    cap sized from that config's own files)."""
    from .cache_bounds import prune

    folders: dict[str, list[Cache]] = {}
    for cache in caches:
        if cache.writable:
            folders.setdefault(cache.folder, []).append(cache)
    for group in folders.values():
        if not any(c.wants_prune for c in group):
            continue  # a warm run changed nothing: nothing to prune either
        stats = prune(group[0].folder, group[0].base, max(c.size_cap() for c in group),
                      keep={c.index_path for c in group})
        for cache in group:
            cache.stats.update(stats)
            cache.wants_prune = False


def config_key(config: Any) -> str:
    """Everything about the effective configuration that can change findings.

    The dataclass repr covers every field (the root too: per-file-ignores match relative to it),
    including fields added later, so a new option can never be served stale findings; the cache's
    own size cap changes no finding."""
    if dataclasses.is_dataclass(config) and not isinstance(config, type) and any(f.name == "cache_max_size" for f in dataclasses.fields(config)):
        config = dataclasses.replace(config, cache_max_size=None)
    return repr(config)
