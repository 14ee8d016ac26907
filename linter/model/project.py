"""The project index: module names for paths, and facts of other modules parsed on demand.

A group's tools often live in another module. The index maps `pkg.tools.charge_card` to the module
that defines it, parses that module only when asked (once), and follows re-exports such as
`from .tools import charge_card` in a package's `__init__.py`.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..common.reading import DEFAULT_MAX_FILE_SIZE, read_bounded
from ..js import modules as js_modules
from ..settings.config import Config

if TYPE_CHECKING:  # a plain file's run (the flake8 plugin on every file) never loads the facts' types
    from ..settings.excludes import Skip
    from ..syntax.facts import ModuleFacts

# How many `from x import y` hops a name may take before we give up (re-export chains, cycles).
MAX_REEXPORT_HOPS = 8
# The class index reads at most this many files, each up to this size: it answers "which modules
# subclass or implement this interface", and a repository is not an unbounded search space.
MAX_INDEXED_FILES = 5000
MAX_INDEXED_BYTES = 1_000_000
_SKIPPED_DIRS = frozenset({".git", ".hg", ".venv", "venv", "env", "node_modules", "__pycache__", "build", "dist", ".tox",
                           "site-packages", ".mypy_cache", ".pytest_cache", ".siblint_cache"})
# The trace key under which a run that consulted the class index records it: a cached result that
# relied on "which classes implement X" is re-checked when the index says something else.
CLASS_INDEX = "<class index>"
# The same for TypeScript: which TS/JS files declare a class that `implements` an interface, read
# only when a value typed by an interface is resolved (`store: OpsStore`), once per scan.
JS_CLASS_INDEX = "<js class index>"
# And which TS/JS files import which (a relative, tsconfig-aliased or workspace specifier): read only
# when a TS/JS tool's groups are looked for in other files, once per scan.
JS_IMPORT_INDEX = "<js import index>"
# The same for the files the scan calls agent code: an answer that asked whether an importer is
# agent code is re-checked when that set changes (the importer's bytes may not be in the trace).
AGENT_INDEX = "<agent index>"
# And the project's copies of a framework's own package (`ProjectIndex.framework_source`): a file the
# run skipped as the framework's code is re-checked when that set changes.
FRAMEWORK_SOURCES = "<framework sources>"
# And which TS/JS files are an app's own route handlers (`app/api/x/route.ts`), read only when a tool
# requests a path of its own app (`siblint.model.routes`), once per scan.
ROUTE_INDEX = "<route index>"
# Each run bounded and no two runs matching the same characters: linear on any bytes.
_JS_SPECIFIER = re.compile(rb"""(?:\bfrom|\bimport|\brequire[ \t]{0,8}\()[ \t]{0,8}\(?[ \t]{0,8}['"]([^'"\n]{1,500})['"]""")
_IMPLEMENTS = re.compile(rb"\bimplements\b([^{};()=]{1,200})\{")
# A TS/JS class's base (`class A<T> extends Base<T> {`), and what an import statement binds from where.
_JS_EXTENDS = re.compile(rb"\bclass[ \t]+[\w$]{1,200}(?:<[^>{]{0,200}>)?[ \t]+extends[ \t]+([\w$]{1,200})")
_JS_IMPORT = re.compile(rb"\bimport[ \t]+(?:type[ \t]+)?(?:\{([^}]{0,2000})\}|([\w$]{1,200})(?:[ \t]*,[ \t]*\{[^}]{0,2000}\})?)"
                        rb"[ \t]*from[ \t]*['\"]([^'\"\n]{1,500})['\"]")
_CLASS = re.compile(rb"^[ \t]*class[ \t]+\w+[ \t]*(?:\(([^)]*)\))?", re.M)
_CLASS_NAMED = re.compile(rb"^[ \t]*class[ \t]+(\w+)[ \t]*(?:\(([^)]*)\))?", re.M)
# The same scan indexes which files import which modules (`from a.b import c`, `from .b import c`,
# `import a.b`): "who imports this module" is how a plain function becomes a tool in a module that
# never names a framework (`Agent(tools=[imported_fn])` elsewhere). Recorded in a trace as
# `IMPORT_INDEX + " " + module`, with a digest of that module's importers.
IMPORT_INDEX = "<import index>"
# `PINS + " " + folder`: the dependency pins that govern a folder's files (`siblint.model.versions`),
# with a digest of them, so that a changed pin re-checks the files whose findings relied on it.
PINS = "<pins>"
# One way to split each line (the module is never empty), so the scan is linear: `\.*[\w.]*` was
# quadratic on `from ` + dots (issue 22 N4).
_IMPORT = re.compile(rb"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import\b|import[ \t]+([\w.]+))", re.M)
_DEF = re.compile(rb"^[ \t]*(?:async[ \t]+)?def[ \t]+(\w+)", re.M)
_NAME_LIST = re.compile(rb"\b([A-Za-z_]\w*)\b(?:\s+as\s+\w+)?")
# What a module hands on to agent code: its top-level functions, the lists it gathers them in
# (`FILE_TOOLS: list[Callable] = [read_file, ...]`, re-exported by a package and listed by the agent),
# and its plain aliases of them (`create_ticket_tool = create_ticket`).
# A name handed to a call as an argument, not called: `mcp.tool()(tools.cancel)`, `function_tool(send)`,
# `FunctionTool(func=tickets.create)`, `tools=[lookup, book]` (its last dotted part).
_PASSED = re.compile(rb"[(,=\[][ \t\r\n]{0,8}(?:[A-Za-z_]\w*\.){0,4}([A-Za-z_]\w*)[ \t\r\n]{0,8}(?=[),\]])")
_TOP_DEF = re.compile(rb"^(?:async[ \t]+)?def[ \t]+(\w+)|^(\w+)[ \t]*(?::[^\n=]*)?=[ \t]*[\[(]"
                      rb"|^(\w+)[ \t]*=[ \t]*[A-Za-z_]\w*[ \t]*\r?$", re.M)
_STAR_IMPORT = re.compile(rb"^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]+\*", re.M)  # `from .tools import *`
# How far "who imports this module" looks for the agent code that lists a module's plain functions:
# through importers of importers (a package's `__init__` re-exporting `from .mail import send`, a
# `tools.py` gathering other modules' functions into a list), this many hops and, per hop, this many
# modules that are not agent code followed further.
MAX_IMPORT_HOPS = 3
MAX_IMPORTERS_FOLLOWED = 64
# How many folders without `__init__.py` may stand between a package and a module (PEP 420 portions).
MAX_NAMESPACE_DEPTH = 3
# Trace keys of a lookup made from an importer's folder (`FROM folder module`) and of a file read by path.
FROM = "<from>"
FILE = "<file>"
_VCS_MARKERS = (".git", ".hg", ".svn")
_T = TypeVar("_T")


@dataclass
class HeldTree:
    """What a run holding the tree still works out once: module names by absolute path, and
    whether a folder is a package (one answer for every file in it and below it)."""

    names: dict[str, tuple[str, bool, str]] = field(default_factory=dict)
    packages: dict[str, bool] = field(default_factory=dict)


# Set while a batch run holds the tree still (`tree_held_still`); None otherwise: the editor's tree
# changes under it.
_HELD: HeldTree | None = None


@contextmanager
def tree_held_still(held: HeldTree | None = None) -> Iterator[HeldTree]:
    """While the block runs, the tree does not change (a `siblint check` or flake8 run): the module
    name of a path is worked out once (a dozen `stat` calls up its folders) and remembered. `held`
    carries that memory from one block of a run to the next (the flake8 plugin enters one per
    file); a nested block shares the outer one's."""
    global _HELD
    outer = _HELD
    _HELD = held if held is not None else outer if outer is not None else HeldTree()
    try:
        yield _HELD
    finally:
        _HELD = outer


def module_name_for(path: str) -> tuple[str, bool, str]:
    """(dotted module name, is_package, import root) for a file, from its `__init__.py` chain.

    Folders without `__init__.py` right under a package are namespace portions of it (PEP 420:
    `deerflow/community/exa/tools.py` under a regular `deerflow` is `deerflow.community.exa.tools`),
    so same-named modules of sibling folders get distinct names."""
    absolute = os.path.abspath(path)
    held = _HELD
    if held is None:
        return _module_name(absolute)
    if absolute not in held.names:
        held.names[absolute] = _module_name(absolute)
    return held.names[absolute]


def _module_name(path: str) -> tuple[str, bool, str]:
    p = Path(path)
    is_package = p.name in ("__init__.py", "__init__.pyi")
    parts: list[str] = [] if is_package else [p.stem]
    folder = p.parent
    while True:
        if _is_package(folder):
            parts.append(folder.name)
            folder = folder.parent
            continue
        portions: list[str] = []
        above = folder
        while len(portions) < MAX_NAMESPACE_DEPTH and above.parent != above and above.name.isidentifier() \
                and not _is_package(above):
            portions.append(above.name)
            above = above.parent
        if not portions or not _is_package(above):
            return ".".join(reversed(parts)), is_package, str(folder)
        parts.extend(portions)
        folder = above


def _is_package(folder: Path) -> bool:
    held = _HELD
    if held is None:
        return _holds_init(folder)
    key = str(folder)
    if key not in held.packages:
        held.packages[key] = _holds_init(folder)
    return held.packages[key]


def _holds_init(folder: Path) -> bool:
    return folder.parent != folder and ((folder / "__init__.py").exists() or (folder / "__init__.pyi").exists())


@dataclass(frozen=True)
class ProjectScan:
    """What a cheap text scan of every Python file under the project's roots says: which files bear
    which module name, which classes and functions they define, what they import, and which of
    them import a framework that lists plain functions as tools. Built once per process from the
    sorted file list, so every process (the parent, each worker, the editor) has the same one."""

    names: dict[str, tuple[str, ...]]  # module name -> the files bearing it, sorted
    classes: tuple[tuple[str, frozenset[str], frozenset[str]], ...]  # (path, base words, function names)
    imports: dict[str, tuple[str, ...]]  # module name -> the files importing it, sorted
    agent_files: frozenset[str]  # files that import a framework making tools of plain functions
    # Folders a process of the project may import from beside the package roots (application_roots):
    # an app folder with its own pyproject/requirements, an entry script's folder. Sorted.
    app_roots: tuple[str, ...] = ()

    @classmethod
    def of(cls, roots: list[str], skip: Skip | None = None, part_of: "PartOf | None" = None) -> "ProjectScan":
        """`part_of`: what one file contributes (`scan_part`), or a memo standing in for it."""
        names: dict[str, list[str]] = {}
        classes: list[tuple[str, frozenset[str], frozenset[str]]] = []
        imports: dict[str, list[str]] = {}
        agents: set[str] = set()
        part_of = part_of or scan_part
        packages: dict[str, str] = {}  # folder -> the package its files are in ("" for none)
        marked: dict[str, bool] = {}  # folder -> holds a project file (application_roots)
        app_roots: set[str] = set()
        for path, data in _indexed_files(roots, skip, (".py",)):
            app_roots.update(application_roots(path, next(r for r in roots if _within(path, r)), data, marked))
            folder, file = os.path.split(path)
            if folder not in packages:
                packages[folder] = module_name_for(os.path.join(folder, "__init__.py"))[0]
            package = packages[folder]
            stem = file[:-3]
            names.setdefault(package if stem == "__init__" else f"{package}.{stem}".lstrip("."), []).append(path)
            part = part_of(path, data, package)
            for name in part.imports:
                imports.setdefault(name, []).append(path)
            if part.agent:
                agents.add(path)
            if part.classes is not None:
                classes.append((path, *part.classes))
        return cls({k: tuple(sorted(v)) for k, v in names.items()}, tuple(sorted(classes)),
                   {k: tuple(sorted(v)) for k, v in imports.items()}, frozenset(agents), tuple(sorted(app_roots)))


@dataclass(frozen=True)
class ScanPart:
    """What one file's bytes add to the scan (a function of its bytes and its package alone)."""

    imports: tuple[str, ...]  # the modules it imports, sorted
    agent: bool  # imports a framework that makes tools of plain functions
    classes: tuple[frozenset[str], frozenset[str]] | None  # (base words, function names) when it defines a class


PartOf = Callable[[str, bytes, str], ScanPart]


def scan_part(path: str, data: bytes, package: str) -> ScanPart:
    """What `data`, the bytes of `path` in `package`, adds to the scan."""
    from ..syntax.prefilter import may_matter

    found = list(line_matches(_CLASS, data, b"class"))
    classes = None
    if found:
        words = set(re.findall(rb"[\w.]+", b" ".join(m.group(1) or b"" for m in found)))
        bases = frozenset(w.rpartition(b".")[2].decode("ascii", "replace") for w in words)
        defs = frozenset(m.group(1).decode("ascii", "replace") for m in line_matches(_DEF, data, b"def"))
        classes = (bases, defs)
    return ScanPart(tuple(sorted(imported_modules(path, data, package))), may_matter(data, _plain_roots()), classes)


@lru_cache(maxsize=1)
def _plain_roots() -> tuple[str, ...]:
    from ..frameworks import plain_function_roots

    return plain_function_roots()


def _decorates_with_a_maker_name(data: bytes) -> bool:
    """A bare `@function_tool` or `@tool(...)` in a file importing no framework: a maker another
    project module hands on (`from app.common import *`; `siblint.model.tools._reexported_maker`);
    or `@mcp.tool()` on a server another module builds (`from app.server import mcp`;
    `siblint.model.tools.registered_from_imports`)."""
    return next(line_matches(_maker_decorator(), data, b"@"), None) is not None


@lru_cache(maxsize=1)
def _maker_decorator() -> re.Pattern[bytes]:
    from ..frameworks import maker_words, method_maker_words

    words = b"|".join(re.escape(w.encode()) for w in sorted(maker_words()))
    methods = b"|".join(re.escape(w.encode()) for w in sorted(method_maker_words()))
    return re.compile(rb"^[ \t]*@(?:(?:" + words + rb")|[A-Za-z_]\w*\.(?:" + methods + rb"))\b", re.M)


def line_matches(pattern: re.Pattern[bytes], data: bytes, literal: bytes) -> Iterator[re.Match[bytes]]:
    """`pattern.finditer(data)` for a line-anchored pattern (`^...`, re.M) whose matches all contain
    `literal` on their first line: only lines holding it are tried. The same matches, several times
    faster, since CPython's `re` tries an anchored pattern at every byte."""
    end = 0
    pos = data.find(literal)
    while pos != -1:
        start = data.rfind(b"\n", 0, pos) + 1
        if start >= end:
            found = pattern.match(data, start)
            if found:
                yield found
                end = found.end()
        newline = data.find(b"\n", pos)
        if newline == -1:
            return
        pos = data.find(literal, max(end, newline + 1))


def framework_module(module: str) -> bool:
    """Is `module` part of a framework's own package (`agents.tool`, `pydantic_ai._utils` in their
    repositories)?"""
    from ..frameworks import import_roots

    return any(module == root or module.startswith(root + ".") for root in import_roots() if "/" not in root)


def _within(path: str, root: str) -> bool:
    return path.startswith(root.rstrip(os.sep) + os.sep)


def _indexed_files(roots: list[str], skip: Skip | None, suffixes: tuple[str, ...]) -> Iterator[tuple[str, bytes]]:
    """(absolute path, bytes) of the files under `roots` whose names end with `suffixes`, in a fixed
    order, within the limits; nothing `skip` excludes is read (`siblint.settings.excludes`)."""
    for path in _indexed_paths(roots, skip, suffixes):
        try:
            if os.path.getsize(path) > MAX_INDEXED_BYTES or not os.path.isfile(path):
                continue
            with open(path, "rb") as fh:
                data = fh.read(MAX_INDEXED_BYTES)
        except OSError:
            continue
        yield path, data


def _indexed_paths(roots: list[str], skip: Skip | None, suffixes: tuple[str, ...]) -> Iterator[str]:
    """The absolute paths `_indexed_files` reads, in its order and within its count, unread."""
    seen: set[str] = set()
    for root in roots:
        for folder, files in _walk(root, skip):
            for name in files:
                path = os.path.abspath(os.path.join(folder, name))
                if not name.lower().endswith(suffixes) or path in seen or (skip and skip(path, False)):
                    continue
                if len(seen) >= MAX_INDEXED_FILES:
                    return
                seen.add(path)
                yield path


def _walk(root: str, skip: Skip | None) -> Iterator[tuple[str, list[str]]]:
    """(folder, its file names sorted) under `root`, depth first in sorted order, without recursion
    (Python 3.11's `os.walk` recurses: a tree deeper than the recursion limit would crash) and
    without following links to folders."""
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        dirs = [e.path for e in entries if e.is_dir(follow_symlinks=False) and e.name not in _SKIPPED_DIRS
                and not e.name.startswith(".") and not (skip and skip(e.path, True))]
        yield folder, [e.name for e in entries if not e.is_dir(follow_symlinks=False)]
        stack.extend(reversed(dirs))


def project_root(config: Config) -> str:
    """The folder whose files make up the project of a file with settings `config`: the folder of
    its config file, else the nearest version-control root above the default root, else that
    root. One rule for every entry point, so a file checked alone sees the project a tree run sees."""
    return marked_root(config) or os.path.abspath(config.root)


def marked_root(config: Config) -> str | None:
    """The project root a config file or a version-control folder marks; None for a file in no
    project (the language server lints such a document alone rather than walk its folder)."""
    if config.source:
        return os.path.abspath(config.root)
    folder = os.path.abspath(config.root)
    while True:
        if any(os.path.exists(os.path.join(folder, marker)) for marker in _VCS_MARKERS):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


# A folder holding one of these is where a process of the project starts (its imports resolve there).
PROJECT_FILES = ("pyproject.toml", "setup.cfg", "setup.py", "requirements.txt")
_MAIN_GUARD = re.compile(rb"^if[ \t]+__name__[ \t]*==[ \t]*['\"]__main__['\"]", re.M)


def application_roots(path: str, top: str, data: bytes = b"", marked: dict[str, bool] | None = None) -> list[str]:
    """Folders a Python process of this project may import from, beside the `__init__.py` chain's
    root: the file's own folder when it is an entry script (`if __name__ == "__main__":`, run as
    `python path/to/script.py`, so `from tools import x` finds its neighbour), and each folder from
    the file's up to `top` holding a `pyproject.toml`, `setup.cfg`, `setup.py` or `requirements.txt`
    (an app in `python-backend/` or `apps/api/` of a larger repository; `add_root` adds its `src/`).
    `marked` remembers, across the files of a run, which folders hold one."""
    marked = {} if marked is None else marked
    folder = os.path.dirname(os.path.abspath(path))
    out = [folder] if b"__main__" in data and _MAIN_GUARD.search(data) else []
    top = os.path.abspath(top)
    current = folder
    while current == top or current.startswith(top.rstrip(os.sep) + os.sep):
        if current not in marked:
            marked[current] = any(os.path.isfile(os.path.join(current, name)) for name in PROJECT_FILES)
        if marked[current] and current not in out:
            out.append(current)
        if current == top:
            break
        current = os.path.dirname(current)
    return out


def names_from_roots(path: str, roots: list[str]) -> list[str]:
    """The dotted names a file is imported by from each of `roots` that holds it (`app.tools.billing`
    from an app's root, `billing` from its own folder), its `__init__.py` chain's name first."""
    name = module_name_for(path)[0]
    stem = os.path.splitext(os.path.abspath(path))[0]
    if stem.endswith(os.sep + "__init__"):
        stem = os.path.dirname(stem)
    names = [name] if name else []
    for root in roots:
        if stem.startswith(root.rstrip(os.sep) + os.sep):
            names.append(os.path.relpath(stem, root).replace(os.sep, "."))
    return list(dict.fromkeys(names))


class ProjectIndex:
    """Facts of the project's modules, parsed on demand and found by name through the scan.

    A name is resolved from the importing file's import root first, then its own folder (a
    script's `sys.path[0]`), then under the project's roots, then by the scan's name table when
    exactly one file bears it; a name several files bear is unknown. Nothing depends on the order in which
    modules were analysed: `add` and `forget` only cache facts."""

    def __init__(self, roots: list[str] | None = None, loader: Callable[[str], ModuleFacts | None] | None = None,
                 scan: ProjectScan | None = None, skip: Skip | None = None,
                 max_bytes: int = DEFAULT_MAX_FILE_SIZE) -> None:
        self.roots: list[str] = []
        self.max_bytes = max_bytes  # the run's max-file-size: a larger file is never analysed
        for r in roots or []:
            r = os.path.abspath(r)
            for candidate in (r, os.path.join(r, "src")):
                if candidate not in self.roots and (candidate == r or os.path.isdir(candidate)):
                    self.roots.append(candidate)
        self._by_path: dict[str, ModuleFacts | None] = {}
        self._loader = loader  # parses a file into facts (None when it cannot be analysed)
        # When a dict, every module looked up is recorded here (name -> path found, or None, for a
        # module that was not found): the cache keys a file's findings on the modules its rules
        # consulted, and on the ones they looked for in vain (siblint.run.cache).
        self.trace: dict[str, str | None] | None = None
        # Answers of the semantic model that hold for the whole run (siblint.model.semantic).
        self.memo: dict[str, Any] = {}
        self._scan = scan
        self.scan_parts: PartOf | None = None  # a memo of the scan's per-file work (the cache's)
        self.prefilter: Callable[[str, bytes], bool] | None = None  # a memo of `may_matter` (the cache's)
        self._skip = skip  # what the run excludes: the scan never reads it
        self._located: dict[tuple[str, str], str | None] = {}
        self._listings: dict[str, frozenset[str]] = {}
        self._import_roots: dict[str, str] = {}

    @property
    def scan(self) -> ProjectScan:
        """The scan of the roots, made on the first question (or handed over by the runner)."""
        if self._scan is None:
            self._scan = ProjectScan.of(self.roots, self._skip, self.scan_parts)
        return self._scan

    def remembered(self, key: tuple[str, ...], compute: Callable[[], _T]) -> _T:
        """An answer that holds for the whole run (it reads the project, not the file being
        analysed), computed once. The lookups it made are recorded again in the trace of every
        file that asks, so the cache keys that file's findings on them as if it had computed it.
        Keep answers small: they outlive `forget`, and facts they held would stay in memory."""
        answers: dict[tuple[str, ...], tuple[Any, dict[str, str | None]]] = self.memo.setdefault("remembered", {})
        if key not in answers:
            outer = self.trace
            lookups: dict[str, str | None] = {}
            self.trace = lookups
            try:
                answers[key] = (compute(), lookups)
            finally:
                self.trace = outer
        value, lookups = answers[key]
        if self.trace is not None:
            for name, path in lookups.items():
                self.trace.setdefault(name, path)
        return value

    def add(self, facts: ModuleFacts) -> None:
        path = os.path.abspath(facts.path)
        self._by_path.pop(path, None)  # the most recently used (see `held`)
        self._by_path[path] = facts

    def forget(self, path: str) -> None:
        """Drop a module's facts from memory: the next lookup loads it again through the loader.
        The runner uses this to keep memory flat, the editor when a document changes."""
        self._by_path.pop(os.path.abspath(path), None)

    def refresh(self) -> None:
        """Forget the scan and every lookup (files were created or deleted: the editor)."""
        self._scan = None
        self._located.clear()
        self._listings.clear()
        self._import_roots.clear()

    def scans(self, path: str) -> bool:
        """Is the file at `path` in the scan (under the roots, within the limits)?"""
        path = os.path.abspath(path)
        return path in self.scan.names.get(module_name_for(path)[0], ())

    def locate(self, key: str) -> str | None:
        """What a recorded lookup (a trace key) finds now, as the lookup would; nothing is parsed
        or recorded. The cache re-checks a file's recorded lookups with this. For `CLASS_INDEX`
        and `IMPORT_INDEX`, a digest of the scan's answer stands in for a path."""
        if key == CLASS_INDEX:
            return self._index_digest()
        if key == JS_CLASS_INDEX:
            return self._js_implementing()[1]
        if key == JS_IMPORT_INDEX:
            return self._js_importing()[1]
        if key == ROUTE_INDEX:
            return self._routes()[1]
        if key == AGENT_INDEX:
            return self._agents_digest()
        if key == FRAMEWORK_SOURCES:
            return self._framework_sources()[1]
        if key.startswith(IMPORT_INDEX + " "):
            return self._importers_digest(key[len(IMPORT_INDEX) + 1:])
        if key.startswith(PINS + " "):
            from .pin_digest import pins_digest

            return pins_digest(key[len(PINS) + 1:], self)
        if key.startswith(FILE + " "):
            path = key[len(FILE) + 1:]
            return path if os.path.isfile(path) else None
        if key.startswith(FROM + " "):
            folder, _, module = key[len(FROM) + 1:].rpartition(" ")
            return self._file_for(module, folder)
        return self._file_for(module=key)

    def _index_digest(self) -> str:
        """A digest of the scan's class index, once per scan (every class-index answer records it)."""
        scan = self.scan
        held = self.memo.get("project.index_digest")
        if held is None or held[0] is not scan:
            h = hashlib.sha256()
            for path, bases, defs in scan.classes:
                h.update(f"{path}\0{sorted(bases)}\0{sorted(defs)}\n".encode("utf-8", "surrogateescape"))
            held = self.memo["project.index_digest"] = (scan, f"{CLASS_INDEX} {h.hexdigest()[:32]}")
        return held[1]

    def _agents_digest(self) -> str:
        """A digest of the scan's agent files, once per scan."""
        scan = self.scan
        held = self.memo.get("project.agents_digest")
        if held is None or held[0] is not scan:
            joined = chr(0).join(sorted(scan.agent_files)).encode("utf-8", "surrogateescape")
            held = self.memo["project.agents_digest"] = (scan, f"{AGENT_INDEX} {hashlib.sha256(joined).hexdigest()[:32]}")
        return held[1]

    def _import_root(self, folder: str) -> str:
        """The folder a module in `folder` imports from: above its top package, or `folder`."""
        if folder not in self._import_roots:
            self._import_roots[folder] = module_name_for(os.path.join(folder, "_.py"))[2]
        return self._import_roots[folder]

    def _file_for(self, module: str, importer_folder: str = "") -> str | None:
        """From an importer's folder: its import root, then the folder itself (a script's
        `sys.path[0]`), then as without one: the roots, then the one file bearing the name; last,
        the nearest folder above the importer that holds it (`src/` put on PYTHONPATH by a
        Dockerfile or a launcher, with no packaging file to say so)."""
        key = (module, importer_folder)
        if key not in self._located:  # the tree does not change during a run
            found = None
            if importer_folder:
                found = self._under(self._import_root(importer_folder), module) or self._under(importer_folder, module)
            if found is None:
                found = self._file_for(module) if importer_folder else self._search(module)
            if found is None and importer_folder:
                found = self._above(importer_folder, module)
            self._located[key] = found
        return self._located[key]

    def _above(self, folder: str, module: str) -> str | None:
        """`module` under the nearest folder above `folder`, within the project root holding it."""
        root = next((r for r in self.roots if _within(folder, r)), None)
        # The filesystem's root holds every folder and is its own parent: the walk stops there.
        while root is not None and _within(folder, root) and os.path.dirname(folder) != folder:
            folder = os.path.dirname(folder)
            found = self._under(folder, module)
            if found is not None:
                return found
        return None

    def _search(self, module: str) -> str | None:
        if module.startswith(js_modules.PREFIX):  # a TS/JS module is named by its file (siblint.js.modules)
            found = js_modules.locate(module)
            return os.path.abspath(found) if found is not None else None
        for root in self.roots:
            found = self._under(root, module)
            if found is not None:
                return found
        # An application's own root (`python-backend/` with its requirements): only when one bears it.
        in_apps = {f for root in self.scan.app_roots if root not in self.roots and (f := self._under(root, module))}
        if in_apps:
            return in_apps.pop() if len(in_apps) == 1 else None
        bearers = self.scan.names.get(module, ())
        return bearers[0] if len(bearers) == 1 else None  # several files bear it: unknown

    def _under(self, root: str, module: str) -> str | None:
        """`module` as a file under one import root, or None."""
        if module.startswith(js_modules.PREFIX):
            return None
        rel = module.replace(".", os.sep)
        head = module.partition(".")[0]
        names = self._listing(root)
        if head not in names and f"{head}.py" not in names:
            return None  # most names are libraries: one set lookup per root instead of two stats
        # A regular package before a module of the same name, as CPython's path finder looks.
        for candidate in (os.path.join(root, rel, "__init__.py"), os.path.join(root, rel + ".py")):
            if os.path.isfile(candidate):
                return os.path.abspath(candidate) if self._stays_inside(candidate, root) else None
        return None

    def _stays_inside(self, path: str, root: str) -> bool:
        """Is `path`, links resolved, under `root` or a project root? A link out of the project
        (a pull request's `tools.py -> /home/ci/secrets.py`) is never read, as discovery skips it."""
        real = os.path.realpath(path)
        return any(os.path.commonpath([real, os.path.realpath(r)]) == os.path.realpath(r) for r in (root, *self.roots))

    def _listing(self, root: str) -> frozenset[str]:
        """The names in a root folder, read once per run."""
        if root not in self._listings:
            try:
                self._listings[root] = frozenset(os.listdir(root))
            except OSError:
                self._listings[root] = frozenset()
        return self._listings[root]

    def _record(self, key: str, path: str | None) -> None:
        if self.trace is not None:
            self.trace.setdefault(key, path)

    def module(self, module: str, importer: str = "") -> ModuleFacts | None:
        """Facts of a project module by dotted name as `importer` (a path) imports it, parsing it
        on first use; without an importer, only a name one file bears (or a root holds) is found."""
        if importer and not module.startswith(js_modules.PREFIX):
            folder = os.path.dirname(os.path.abspath(importer))
            path = self._file_for(module, folder)
            self._record(f"{FROM} {folder} {module}", path)
        else:
            path = self._file_for(module)
            self._record(module, path)
        return self._load(path) if path is not None else None

    def _load(self, path: str) -> ModuleFacts | None:
        if path not in self._by_path:
            self._by_path[path] = None  # guards against import cycles while loading
            facts = self._loader(path) if self._loader else None
            if facts is not None:
                self.add(facts)
        else:  # a hit: the most recently used now (see `held`)
            self._by_path[path] = self._by_path.pop(path)
        return self._by_path.get(path)

    def held(self) -> list[str]:
        """Paths whose facts are in memory, the least recently looked up first: what a runner
        bounding its memory forgets first (the loader brings them back when asked again)."""
        return [path for path, facts in self._by_path.items() if facts is not None]

    def resolve(self, dotted_name: str, importer: str = "") -> tuple[ModuleFacts, str] | None:
        """The module defining `dotted_name` (as `importer` imports it) and the name inside it,
        following re-exports, each from the re-exporting module."""
        for _ in range(MAX_REEXPORT_HOPS):
            head, _, attr = dotted_name.rpartition(".")
            if not head:
                return None
            facts = self.module(head, importer)
            if facts is None:
                # `pkg.sub.name` where `pkg.sub` is not a module: try a shorter module prefix.
                return None
            target = facts.imports.get(attr)
            # A class is defined here too, also when the module imports its own names (a
            # function-local `from this.module import Cls`, made to dodge a circular import).
            defined = attr in facts.functions or attr in facts.classes or any(a.target == attr for a in facts.assignments)
            if target is None and not defined:
                target = self.star_source(facts, attr)
            if target is None or defined:
                return facts, attr
            dotted_name, importer = target, facts.path
        return None

    def library_name(self, dotted_name: str, importer: str = "") -> str | None:
        """The library's name for what a project module hands on under `dotted_name` (`agents.function_tool`
        for `app.common.function_tool` of `from agents import function_tool` in app/common.py), following
        re-exports; None when a project module defines it or nothing does."""
        for hop in range(MAX_REEXPORT_HOPS):
            head, _, attr = dotted_name.rpartition(".")
            facts = self.module(head, importer) if head else None
            if facts is None:
                return dotted_name if hop and head else None
            if attr in facts.functions or attr in facts.classes or any(a.target == attr for a in facts.assignments):
                return None
            target = facts.imports.get(attr) or self.star_source(facts, attr)
            if target is None:
                return None
            dotted_name, importer = target, facts.path
        return None

    def star_source(self, facts: ModuleFacts, attr: str) -> str | None:
        """`export * from './tools'` (a star re-export): the first such module that has `attr`."""
        for star in facts.star_imports:
            other = self.module(star, facts.path)
            if other is not None and other is not facts and (
                    attr in other.imports or attr in other.functions or attr in other.classes
                    or any(a.target == attr for a in other.assignments)):
                return f"{star}.{attr}"
        return None

    # ---- which files are analysed; who imports a module; who may implement a class ------------
    def wants(self, path: str, data: bytes) -> bool:
        """Is this file analysed at all? When its bytes may import a framework, or when the
        project's agent code imports it (its plain functions may be tools there). The project
        decides, not which files a command named: a tree run, `siblint check FILE`, flake8 and the
        editor agree."""
        return self.passes_prefilter(path, data) or self.wanted_by_project(path, data)

    def passes_prefilter(self, path: str, data: bytes) -> bool:
        """May these bytes import a framework (`may_matter`, or the cache's memo of it)?"""
        from ..syntax.prefilter import may_matter

        return self.prefilter(path, data) if self.prefilter is not None else may_matter(data, path=path)

    def wanted_by_project(self, path: str, data: bytes) -> bool:
        """`wants` for a file the pre-filter rejects: the project's modules decide. Its answer is a
        function of the bytes and of the lookups it records in the trace (a run's cache keeps it,
        `siblint.run.runner`)."""
        from ..syntax.prefilter import JS_EXTENSIONS, NOTEBOOK_SUFFIX

        # Nothing imports a notebook: only its own imports can make it matter. A module defining no
        # function (prompts, constants) holds no tool however agent code imports it.
        if path.lower().endswith(JS_EXTENSIONS):
            return self._extends_a_framework_module_class(path, data)
        if path.lower().endswith(NOTEBOOK_SUFFIX):
            return False
        return (next(line_matches(_DEF, data, b"def"), None) is not None
                and (self.imported_by_agent_code(path) or self.handed_to_a_framework_importer(path))) \
            or self.derives_a_project_tool_base(path) or _decorates_with_a_maker_name(data)

    def handed_to_a_framework_importer(self, path: str) -> bool:
        """Does a module importing the one at `path`, and a framework, hand one of its functions to a
        call (`mcp.tool()(tools.cancel_order)`, `function_tool(send)`)? It may make a tool of it, whose
        findings go to the `def` here (`siblint.model.groups.wrapped_by_importers`). Byte checks."""
        from ..syntax.prefilter import may_matter

        path = os.path.abspath(path)
        if framework_module(module_name_for(path)[0]):
            return False  # a framework's own module is used by its importers, not wrapped into their tools
        names = self._defined_functions(path)
        passed: dict[str, frozenset[bytes]] = self.memo.setdefault("project.passed", {})
        for importer in self.importer_paths(path):
            if importer == path:
                continue
            self.noted(importer)  # the answer reads its bytes: a cached one is re-checked when they change
            if importer not in passed:
                data = _read(importer)
                passed[importer] = frozenset(m.group(1) for m in _PASSED.finditer(data)) \
                    if self.passes_prefilter(importer, data) else frozenset()
            if passed[importer] & names:
                return True
        return False

    def _extends_a_framework_module_class(self, path: str, data: bytes) -> bool:
        """Does a TS/JS class of this file extend a class it imports from a project module that
        imports a framework (`class CreatePlaylist extends SpotifyTool`, whose module derives
        `DynamicStructuredTool`)? Then its classes may be tools (`siblint.model.tools._super_tool_subclass`)."""
        from ..js import modules as js
        from ..syntax.prefilter import may_matter

        if b"extends" not in data:
            return False
        bases = {m.group(1) for m in _JS_EXTENDS.finditer(data)}
        for m in _JS_IMPORT.finditer(data):
            names = {n.split()[-1] for n in re.findall(rb"[\w$]+(?:\s+as\s+[\w$]+)?", m.group(1) or m.group(2) or b"")}
            if not names & bases:
                continue
            module = js.resolve_specifier(m.group(3).decode("utf-8", "replace"), path)
            other = js.locate(module) if module.startswith(js.PREFIX) else None
            if other is not None and other != os.path.abspath(path):
                self.noted(other)
                if may_matter(_read(other), path=other):
                    return True
        return False

    def noted(self, path: str) -> None:
        """Record in the trace that an answer read the file at `path` without its facts (the
        cache re-checks its content, `siblint.model.relevance`)."""
        self._record(f"{FILE} {os.path.abspath(path)}", os.path.abspath(path))

    def derives_a_project_tool_base(self, path: str) -> bool:
        """Does a class of the file at `path` derive a class of a module it imports that is a
        framework's tool class (`class TurnOnLights(HABaseTool)`, `class HABaseTool(BaseTool)` in
        `base.py`; bases followed `MAX_IMPORT_HOPS` modules deep)? Then its classes may be tools
        whatever the file itself imports."""
        path = os.path.abspath(path)
        own = self._class_bases().get(path)
        if not own:
            return False

        def compute() -> bool:
            self._record(CLASS_INDEX, self._index_digest())
            return not own.isdisjoint(self._imported_tool_classes(path, MAX_IMPORT_HOPS))

        return self.remembered(("project.tool_subclass", path), compute)

    def _imported_tool_classes(self, path: str, hops: int) -> frozenset[str]:
        """The tool classes (see `_tool_classes`) of the project modules the file at `path` imports."""
        found: set[str] = set()
        folder = os.path.dirname(path)
        stems = self._class_file_stems()
        for name in self._imported_by().get(path, ()):
            if name.rpartition(".")[2] not in stems:
                continue  # no file of the class index bears that name: no lookup (most imports are libraries)
            other = self._file_for(name, folder)  # as a process of the project imports it (app roots too)
            if other is not None and other != path and other in self._class_bases():
                found |= self._tool_classes(other, hops - 1)
        return frozenset(found)

    def _tool_classes(self, path: str, hops: int) -> frozenset[str]:
        """Names of the classes the file at `path` defines that derive a framework's tool base class
        (`tool_base_words`), directly, through its own classes, or through the tool classes of the
        modules it imports (`hops` more modules deep). A byte scan of its class lines, once per run."""
        from ..frameworks import tool_base_words

        memo: dict[str, frozenset[str]] = self.memo.setdefault("project.tool_classes", {})
        if path in memo:
            return memo[path]
        memo[path] = frozenset()  # an import cycle ends here
        self.noted(path)
        pairs = [(m.group(1).decode("ascii", "replace"),
                  {w.rpartition(b".")[2].decode("ascii", "replace") for w in re.findall(rb"[\w.]+", m.group(2) or b"")})
                 for m in line_matches(_CLASS_NAMED, _read(path), b"class")]
        bases = set(tool_base_words()) | (self._imported_tool_classes(path, hops) if hops > 0 else set())
        tools: set[str] = set()
        while True:  # a class deriving one of this file's tool classes is one too
            more = {name for name, words in pairs if name not in tools and not words.isdisjoint(bases | tools)}
            if not more:
                break
            tools |= more
        memo[path] = frozenset(tools)
        return memo[path]

    def framework_source(self, path: str) -> bool:
        """Is the file at `path` in a copy of a framework's own package (its repository: under a
        `pydantic_ai/` folder holding three or more of the modules the frameworks' data names,
        `agent.py`, `tools.py`, ...; a namespace package's too, `libs/langgraph/langgraph/graph/`)?
        That code is the library an application uses, not an application. (In 110 snapshots of
        applications, an application's own `agents` package held at most one; the frameworks'
        repositories 6 to 12.)"""
        folders, digest = self._framework_sources()
        self._record(FRAMEWORK_SOURCES, digest)
        path = os.path.abspath(path)
        return any(_within(path, folder) for folder in folders)

    def _framework_sources(self) -> tuple[tuple[str, ...], str]:
        """The project's folders holding a copy of a framework's package, and a digest of them, once per scan."""
        from ..frameworks import framework_modules

        scan = self.scan
        held = self.memo.get("project.framework_sources")
        if held is None or held[0] is not scan:
            subs: dict[str, set[str]] = {}
            for known in framework_modules():
                root, _, sub = known.partition(".")
                subs.setdefault(root, set()).add(sub.replace(".", "/"))
            # A folder below a project root named like a framework's root -> the paths of the files under
            # it (not the root itself, nor above it: a checkout in a folder named `agents` is an application).
            below: dict[str, set[str]] = {}
            roots = [os.path.abspath(r) for r in self.roots]
            for paths in scan.names.values():
                for path in paths:
                    folder = os.path.dirname(path)
                    while any(_within(folder, root) for root in roots):
                        if os.path.basename(folder) in subs:
                            below.setdefault(folder, set()).add(os.path.relpath(path, folder).replace(os.sep, "/"))
                        folder = os.path.dirname(folder)
            found = tuple(sorted(folder for folder, files in below.items()
                                 if sum(1 for sub in subs[os.path.basename(folder)]
                                        if f"{sub}.py" in files or any(f.startswith(sub + "/") for f in files)) >= 3))
            digest = hashlib.sha256("\n".join(found).encode("utf-8", "surrogateescape")).hexdigest()[:32]
            held = self.memo["project.framework_sources"] = (scan, found, f"{FRAMEWORK_SOURCES} {digest}")
        return held[1], held[2]

    def package_names(self) -> frozenset[str]:
        """The last part of the name of every package of the project (`agents` of `app/agents/`),
        but a package holding a module the frameworks' data names (`agents/tool.py`): that is the
        framework's own code, whose names stay the framework's."""
        from ..frameworks import framework_modules

        found: frozenset[str] | None = self.memo.get("project.package_names")
        if found is None:
            names = self.scan.names
            packages = [name for name, paths in names.items() if any(os.path.basename(p) == "__init__.py" for p in paths)]
            copies = {root for root, _, sub in (m.partition(".") for m in framework_modules())
                      for name in packages if name.rpartition(".")[2] == root and f"{name}.{sub}" in names}
            found = self.memo["project.package_names"] = frozenset(name.rpartition(".")[2] for name in packages) - copies
        return found

    def _class_bases(self) -> dict[str, frozenset[str]]:
        """file -> the base words of the classes it defines (the scan's class index), for the run."""
        table: dict[str, frozenset[str]] | None = self.memo.get("project.class_bases")
        if table is None:
            table = self.memo["project.class_bases"] = {path: bases for path, bases, _ in self.scan.classes}
        return table

    def _class_file_stems(self) -> frozenset[str]:
        """The module names (last part) of the class index's files: `sub` for `pkg/sub.py` and for
        `pkg/sub/__init__.py`."""
        stems: frozenset[str] | None = self.memo.get("project.class_file_stems")
        if stems is None:
            stems = self.memo["project.class_file_stems"] = frozenset(
                os.path.basename(os.path.dirname(p)) if os.path.basename(p) == "__init__.py" else os.path.basename(p)[:-3]
                for p in self._class_bases())
        return stems

    def imported_by_agent_code(self, path: str) -> bool:
        """Does a project module importing a framework that lists plain functions as tools import
        the module at `path` (directly or as `agent_code_near` says)? Then its plain functions may
        be tools, whatever the file imports."""
        return bool(self.agent_code_near(path))

    def agent_code_near(self, path: str) -> tuple[str, ...]:
        """The agent code (`ProjectScan.agent_files`: only a group of a framework that makes tools
        of plain functions can list one) that may list the plain functions of the module at `path`:
        among its importers, its importers' importers through modules that are not agent code (a
        package re-exporting it, a registry gathering its functions; `MAX_IMPORT_HOPS`), and what
        those other modules import (`factory.py` imports the toolkit and passes it to `react.py`'s
        builder, which makes the agent). Nearest first, at most `MAX_IMPORTERS_FOLLOWED`. A
        framework's own module is used by its importers, never listed: only they are asked."""
        path = os.path.abspath(path)
        agents = self.scan.agent_files

        def compute() -> tuple[str, ...]:
            # Which importers are agent code is read from the scan, not from files the trace notes.
            self._record(AGENT_INDEX, self._agents_digest())
            seen, frontier = {path}, [path]
            found: list[str] = []
            hops = 1 if framework_module(module_name_for(path)[0]) else MAX_IMPORT_HOPS
            names = self._defined_functions(path)
            for _ in range(hops):
                hop = sorted({p for module in frontier for p in self.importer_paths(module)} - seen)
                seen.update(hop)
                found.extend(p for p in hop if p in agents)
                if hops == 1:
                    break  # a framework's own module: its importers alone are asked, none of their bytes read
                # Followed further only through a module that names one of its functions (re-exports,
                # lists or calls it) or re-exports all of them (`from .user_tools import *`): one that
                # imports its constants hands no tool on.
                frontier = [p for p in hop if p not in agents and (self.spells_any(p, names) or self._star_imports(p))
                            ][:MAX_IMPORTERS_FOLLOWED]
                for glue in frontier:  # what a module that is not agent code hands its imports to
                    found.extend(p for name in self._imported_by().get(glue, ())
                                 for p in self.scan.names.get(name, ()) if p in agents)
            return tuple(p for p in dict.fromkeys(found) if p != path)[:MAX_IMPORTERS_FOLLOWED]

        return self.remembered(("project.agent_code_near", path), compute)

    def names_a_function_of(self, path: str, other: str) -> bool:
        """Does the file at `path` spell one of the top-level functions (or lists of them) of the file
        at `other` as a word? A byte check, recorded in the trace."""
        return self.spells_any(path, self._defined_functions(other))

    def _defined_functions(self, path: str) -> frozenset[bytes]:
        """The names of the module-level functions (and lists of them) the file at `path` defines (a
        byte scan, once per file and run: `_wrapper_candidates` asks it for each importer)."""
        self.noted(path)
        defined: dict[str, frozenset[bytes]] = self.memo.setdefault("project.defined", {})
        if path not in defined:
            defined[path] = frozenset(m.group(1) or m.group(2) or m.group(3) for m in _TOP_DEF.finditer(_read(path)))
        return defined[path]

    def spells_any(self, path: str, names: frozenset[bytes]) -> bool:
        """Does the file at `path` spell one of `names` as a word (a byte scan)?"""
        if not names:
            return False
        self.noted(path)  # the answer read its bytes: a cached one is re-checked when they change
        words: dict[str, frozenset[bytes] | int] = self.memo.setdefault("project.words", {})
        held = words.get(path, 0)
        if isinstance(held, int):
            # Asked twice, the file's words are gathered once (a cold run asks about a file for many
            # modules); asked once (a warm run re-asking for one edited file), a few finds cost less.
            if held < 2 and len(names) <= _FEW_NAMES:
                words[path] = held + 1
                data = _read(path)
                return any(_spells(data, name) for name in names)
            held = words[path] = frozenset(re.findall(rb"\w+", _read(path)))
        return not names.isdisjoint(held)

    def _star_imports(self, path: str) -> bool:
        """Does the file at `path` star-import a module (a byte scan)?"""
        self.noted(path)
        stars: dict[str, bool] = self.memo.setdefault("project.stars", {})
        if path not in stars:
            stars[path] = _STAR_IMPORT.search(_read(path)) is not None
        return stars[path]

    def _imported_by(self) -> dict[str, tuple[str, ...]]:
        """file -> the module names it imports (the import index read the other way), for the run."""
        table: dict[str, tuple[str, ...]] | None = self.memo.get("project.imported_by")
        if table is None:
            lists: dict[str, list[str]] = {}
            for name, importers in self.scan.imports.items():
                for importer in importers:
                    lists.setdefault(importer, []).append(name)
            table = self.memo["project.imported_by"] = {k: tuple(sorted(v)) for k, v in lists.items()}
        return table

    def importer_paths(self, path: str) -> list[str]:
        """The project files that import the module at `path`, by any name a process of the project
        has for it: from its package root, the project and application roots, and by its bare name
        from a script in the same folder (`from tools import x`: the script's sys.path[0])."""
        path = os.path.abspath(path)
        folder, stem = os.path.split(os.path.splitext(path)[0])
        found: set[str] = set()
        for name in (*names_from_roots(path, [*self.roots, *self.scan.app_roots]), stem):
            if self.trace is not None:  # the cache's key; a digest per name, so only when recorded
                self._record(f"{IMPORT_INDEX} {name}", self._importers_digest(name))
            found.update(p for p in self.scan.imports.get(name, ()) if name != stem or os.path.dirname(p) == folder)
        return sorted(found)

    def _importers_digest(self, module: str) -> str:
        paths = self.scan.imports.get(module, ())
        return f"{IMPORT_INDEX} {hashlib.sha256(chr(0).join(paths).encode('utf-8', 'surrogateescape')).hexdigest()[:32]}"

    def importers_of(self, module: str, mentioning: tuple[str, ...] = (),
                     keep: Callable[[str], bool] | None = None) -> list[ModuleFacts]:
        """Facts of the project modules that import `module` (or a name from it), from the text scan;
        with `mentioning`, only those whose text names one of these import roots (checked on the
        bytes, before any parse)."""
        self._record(f"{IMPORT_INDEX} {module}", self._importers_digest(module))
        out: list[ModuleFacts] = []
        for path in self.scan.imports.get(module, ()):
            if (mentioning and not _mentions(path, mentioning)) or (keep is not None and not keep(path)):
                continue
            facts = self.facts_for_path(path)
            if facts is not None:
                out.append(facts)
        return out

    def modules_mentioning(self, base: str, *methods: str) -> list[ModuleFacts]:
        """Facts of the project modules that define a class with `base` among its bases (`base`
        empty: any class), and functions named `methods` (all of them), in path order."""
        self._record(CLASS_INDEX, self._index_digest())
        out: list[ModuleFacts] = []
        wanted = set(methods)
        for path, bases, defs in self.scan.classes:
            if (base and base not in bases) or not wanted <= defs:
                continue
            facts = self.facts_for_path(path)
            if facts is not None:
                out.append(facts)
        return out

    def js_implementers(self, interface: str) -> list[ModuleFacts]:
        """Facts of the TS/JS modules that declare a class implementing an interface named
        `interface` (its last name; `implements Store<T>, M.Other`), in path order."""
        table, digest = self._js_implementing()
        self._record(JS_CLASS_INDEX, digest)
        return [facts for path in table.get(interface, ()) if (facts := self.facts_for_path(path)) is not None]

    def _js_implementing(self) -> tuple[dict[str, tuple[str, ...]], str]:
        """interface name -> the TS/JS files with a class implementing it, and a digest of that
        table: a byte scan of the project's TS/JS files, once per scan."""
        from ..syntax.prefilter import JS_EXTENSIONS

        scan = self.scan  # a refreshed scan (the editor: files came or went) reads them again
        held = self.memo.get("project.js_implementing")
        if held is None or held[0] is not scan:
            table: dict[str, list[str]] = {}
            for path, data in _indexed_files(self.roots, self._skip, JS_EXTENSIONS):
                if b"implements" not in data:
                    continue
                for m in _IMPLEMENTS.finditer(data):
                    for name in re.findall(rb"[\w$.]+", re.sub(rb"<[^<>]*>", b"", m.group(1))):
                        table.setdefault(name.rpartition(b".")[2].decode("ascii", "replace"), []).append(path)
            found = {name: tuple(sorted(set(paths))) for name, paths in sorted(table.items())}
            digest = hashlib.sha256(repr(sorted(found.items())).encode("utf-8", "surrogateescape")).hexdigest()[:32]
            held = self.memo["project.js_implementing"] = (scan, found, f"{JS_CLASS_INDEX} {digest}")
        return held[1], held[2]

    def js_importers(self, path: str) -> list[str]:
        """The TS/JS files of the project that import the one at `path`, in path order."""
        table, digest = self._js_importing()
        self._record(JS_IMPORT_INDEX, digest)
        return list(table.get(os.path.abspath(path), ()))

    def js_imports_of(self, path: str) -> list[str]:
        """The TS/JS files of the project that the one at `path` imports, in path order (the same
        byte scan as `js_importers`, read the other way)."""
        table, digest = self._js_importing()
        self._record(JS_IMPORT_INDEX, digest)
        held = self.memo.get("project.js_imports_of")
        if held is None or held[0] is not table:
            forward: dict[str, list[str]] = {}
            for target, importers in table.items():
                for importer in importers:
                    forward.setdefault(importer, []).append(target)
            held = self.memo["project.js_imports_of"] = (table, forward)
        return sorted(held[1].get(os.path.abspath(path), ()))

    def _js_importing(self) -> tuple[dict[str, tuple[str, ...]], str]:
        """TS/JS file -> the TS/JS files importing it, and a digest of that table: a byte scan of the
        project's TS/JS files, once per scan (as `_js_implementing`)."""
        from ..js import modules as js
        from ..syntax.prefilter import JS_EXTENSIONS

        scan = self.scan
        held = self.memo.get("project.js_importing")
        if held is None or held[0] is not scan:
            table: dict[str, set[str]] = {}
            for path, data in _indexed_files(self.roots, self._skip, JS_EXTENSIONS):
                for m in _JS_SPECIFIER.finditer(data):
                    module = js.resolve_specifier(m.group(1).decode("utf-8", "replace"), path)
                    target = js.locate(module) if module.startswith(js.PREFIX) else None
                    if target is not None and target != path:
                        table.setdefault(target, set()).add(path)
            found = {target: tuple(sorted(paths)) for target, paths in sorted(table.items())}
            digest = hashlib.sha256(repr(sorted(found.items())).encode("utf-8", "surrogateescape")).hexdigest()[:32]
            held = self.memo["project.js_importing"] = (scan, found, f"{JS_IMPORT_INDEX} {digest}")
        return held[1], held[2]

    def served_routes(self) -> dict[str, str]:
        """URL path pattern -> the route file the App Router serves it from (`/api/lists/[id]/words`),
        the first such file in path order when several claim one."""
        table, digest = self._routes()
        self._record(ROUTE_INDEX, digest)
        return table

    def _routes(self) -> tuple[dict[str, str], str]:
        from ..syntax.prefilter import JS_EXTENSIONS
        from .routes import route_pattern

        scan = self.scan
        held = self.memo.get("project.routes")
        if held is None or held[0] is not scan:
            found: dict[str, str] = {}
            for path in _indexed_paths(self.roots, self._skip, JS_EXTENSIONS):  # names decide: no bytes read
                pattern = route_pattern(path)
                if pattern is not None:
                    found.setdefault(pattern, path)
            table = dict(sorted(found.items()))
            digest = hashlib.sha256(repr(sorted(table.items())).encode("utf-8", "surrogateescape")).hexdigest()[:32]
            held = self.memo["project.routes"] = (scan, table, f"{ROUTE_INDEX} {digest}")
        return held[1], held[2]

    def facts_for_path(self, path: str) -> ModuleFacts | None:
        """Facts of a file by path, loading it on first use."""
        path = os.path.abspath(path)
        self._record(f"{FILE} {path}", path)
        return self._load(path)


def imported_modules(path: str, data: bytes, package: str | None = None) -> set[str]:
    """The modules a file's source imports from, relative imports resolved (a text scan);
    `package`, when known, is the package the file is in."""
    out: set[str] = set()
    for m in line_matches(_IMPORT, data, b"import"):
        name = (m.group(1) or m.group(2) or b"").decode("ascii", "replace")
        if name.startswith("."):
            if package is None:
                module, is_package, _ = module_name_for(path)
                package = module if is_package else module.rpartition(".")[0]
            dots = len(name) - len(name.lstrip("."))
            base = package.split(".")
            base = base[:len(base) - (dots - 1)] if dots > 1 else base
            name = ".".join([*base, name.lstrip(".")]).strip(".")
        if name:
            out.add(name)
            if m.group(1):  # `from tools import mail`: `mail` may be a module of the package
                out.update(f"{name}.{n.decode('ascii', 'replace')}" for n in _imported_names(data, m.end()))
    return out


def _imported_names(data: bytes, start: int) -> list[bytes]:
    """The names after `from X import` (one line, or the parenthesised list), aliases dropped."""
    end = data.find(b"\n", start)
    rest = data[start:end if end != -1 else len(data)]
    if rest.lstrip().startswith(b"("):
        close = data.find(b")", start)
        rest = data[start:close if close != -1 else len(data)]
    return _NAME_LIST.findall(rest.partition(b"#")[0] if b"(" not in rest else rest)


def _mentions(path: str, roots: tuple[str, ...]) -> bool:
    """The file imports one of `roots` (the pre-filter's byte check)."""
    from ..syntax.prefilter import may_matter

    return may_matter(_read(path), roots)


_FEW_NAMES = 32  # finds of up to this many names cost less than splitting a file into words


def _spells(data: bytes, word: bytes) -> bool:
    r"""Does `data` hold `word` as a whole word (as `re.findall(rb"\w+")` would split it)?"""
    at = data.find(word)
    while at >= 0:
        end = at + len(word)
        if (at == 0 or not _is_word_byte(data[at - 1])) and (end == len(data) or not _is_word_byte(data[end])):
            return True
        at = data.find(word, at + 1)
    return False


def _is_word_byte(byte: int) -> bool:
    return byte == 95 or 48 <= byte <= 57 or 65 <= byte <= 90 or 97 <= byte <= 122  # bytes `\w` is ASCII


def _read(path: str) -> bytes:
    """The file's bytes where the scan reads them (a regular file within `MAX_INDEXED_BYTES`), else
    nothing: never a FIFO's (`--stdin-filename` may name one), whose open would wait for a writer."""
    try:
        return read_bounded(path, MAX_INDEXED_BYTES)
    except OSError:
        return b""
