"""The project index: module names for paths, and facts of other modules parsed on demand.

A group's tools often live in another module. The index maps `pkg.tools.charge_card` to the module
that defines it, parses that module only when asked (once), and follows re-exports such as
`from .tools import charge_card` in a package's `__init__.py`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..js import modules as js_modules
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
_CLASS = re.compile(rb"^[ \t]*class[ \t]+\w+[ \t]*(?:\(([^)]*)\))?", re.M)
# The same scan indexes which files import which modules (`from a.b import c`, `from .b import c`,
# `import a.b`): "who imports this module" is how a plain function becomes a tool in a module that
# never names a framework (`Agent(tools=[imported_fn])` elsewhere). Recorded in a trace as
# `IMPORT_INDEX + " " + module`, with a digest of that module's importers.
IMPORT_INDEX = "<import index>"
_IMPORT = re.compile(rb"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import\b|import[ \t]+([\w.]+))", re.M)
_DEF = re.compile(rb"^[ \t]*(?:async[ \t]+)?def[ \t]+(\w+)", re.M)


def module_name_for(path: str) -> tuple[str, bool, str]:
    """(dotted module name, is_package, import root) for a file, from its `__init__.py` chain."""
    p = Path(os.path.abspath(path))
    is_package = p.name in ("__init__.py", "__init__.pyi")
    parts: list[str] = [] if is_package else [p.stem]
    folder = p.parent
    while (folder / "__init__.py").exists() or (folder / "__init__.pyi").exists():
        parts.append(folder.name)
        if folder.parent == folder:
            break
        folder = folder.parent
    return ".".join(reversed(parts)), is_package, str(folder)


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
    out = [folder] if _MAIN_GUARD.search(data) else []
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
    """Facts of every module seen in this run, keyed by absolute path and by module name."""

    def __init__(self, roots: list[str] | None = None, loader: Callable[[str], ModuleFacts | None] | None = None) -> None:
        self.roots: list[str] = []
        for r in roots or []:
            self.add_root(r)
        self._by_path: dict[str, ModuleFacts | None] = {}
        self._by_module: dict[str, str] = {}
        self._loader = loader  # parses a file into facts (None when it cannot be analysed)
        # When a dict, every module looked up is recorded here (name -> path found, or None, for a
        # module that was not found): the cache keys a file's findings on the modules its rules
        # consulted, and on the ones they looked for in vain (siblint.run.cache).
        self.trace: dict[str, str | None] | None = None
        # Answers of the semantic model that hold for the whole run (siblint.model.semantic).
        self.memo: dict[str, Any] = {}
        self._class_index: list[tuple[str, frozenset[str], frozenset[str]]] | None = None
        self._import_index: dict[str, list[str]] | None = None
        self._located: dict[tuple[str, int], str | None] = {}
        self._listings: dict[str, frozenset[str]] = {}

    def add_root(self, root: str) -> None:
        root = os.path.abspath(root)
        if root not in self.roots:
            self.roots.append(root)
            src = os.path.join(root, "src")
            if os.path.isdir(src) and src not in self.roots:
                self.roots.append(src)

    def add(self, facts: ModuleFacts) -> None:
        key = os.path.abspath(facts.path)
        self._by_path[key] = facts
        if facts.module:
            self._by_module.setdefault(facts.module, key)

    def forget(self, path: str) -> None:
        """Drop a module's facts from memory (its name still maps to its file): the next lookup
        loads it again through the loader. The runner uses this to keep memory flat."""
        self._by_path.pop(os.path.abspath(path), None)

    def locate(self, module: str) -> str | None:
        """The file `module` resolves to (None: not found), as a lookup would; nothing is parsed
        or recorded. The cache re-checks a file's recorded lookups with this. For `CLASS_INDEX`,
        a digest of the class index stands in for a path."""
        if module == CLASS_INDEX:
            return self._index_digest()
        if module.startswith(IMPORT_INDEX + " "):
            return self._importers_digest(module[len(IMPORT_INDEX) + 1:])
        return self._file_for(module)

    def _index_digest(self) -> str:
        import hashlib

        h = hashlib.sha256()
        for path, bases, defs in sorted(self._index()):  # the roots' order must not matter
            h.update(f"{path}\0{sorted(bases)}\0{sorted(defs)}\n".encode("utf-8", "surrogateescape"))
        return f"{CLASS_INDEX} {h.hexdigest()[:32]}"

    def _file_for(self, module: str) -> str | None:
        if module in self._by_module:
            return self._by_module[module]
        # The tree does not change during a run: each name is looked for under the roots once.
        key = (module, len(self.roots))
        if key not in self._located:
            self._located[key] = self._search(module)
        return self._located[key]

    def _search(self, module: str) -> str | None:
        if module.startswith(js_modules.PREFIX):  # a TS/JS module is named by its file (siblint.js.modules)
            found = js_modules.locate(module)
            return os.path.abspath(found) if found is not None else None
        rel = module.replace(".", os.sep)
        head = module.partition(".")[0]
        for root in self.roots:
            names = self._listing(root)
            if head not in names and f"{head}.py" not in names:
                continue  # most names are libraries: one set lookup per root instead of two stats
            for candidate in (os.path.join(root, rel + ".py"), os.path.join(root, rel, "__init__.py")):
                if os.path.isfile(candidate):
                    return os.path.abspath(candidate)
        return None

    def _listing(self, root: str) -> frozenset[str]:
        """The names in a root folder, read once per run."""
        if root not in self._listings:
            try:
                self._listings[root] = frozenset(os.listdir(root))
            except OSError:
                self._listings[root] = frozenset()
        return self._listings[root]

    def module(self, module: str) -> ModuleFacts | None:
        """Facts of a project module by dotted name, parsing it on first use."""
        path = self._file_for(module)
        if self.trace is not None:
            self.trace.setdefault(module, path)
        if path is None:
            return None
        if path not in self._by_path:
            self._by_path[path] = None  # guards against import cycles while loading
            facts = self._loader(path) if self._loader else None
            if facts is not None:
                self.add(facts)
            else:
                self._by_path[path] = None
        return self._by_path.get(path)

    def resolve(self, dotted_name: str) -> tuple[ModuleFacts, str] | None:
        """The module defining `dotted_name` and the name inside it, following re-exports."""
        for _ in range(MAX_REEXPORT_HOPS):
            head, _, attr = dotted_name.rpartition(".")
            if not head:
                return None
            facts = self.module(head)
            if facts is None:
                # `pkg.sub.name` where `pkg.sub` is not a module: try a shorter module prefix.
                return None
            target = facts.imports.get(attr)
            defined = attr in facts.functions or any(a.target == attr for a in facts.assignments)
            if target is None and not defined:
                target = self._star_source(facts, attr)
            if target is None or defined:
                return facts, attr
            dotted_name = target
        return None

    def _star_source(self, facts: ModuleFacts, attr: str) -> str | None:
        """`export * from './tools'` (a star re-export): the first such module that has `attr`."""
        for star in facts.star_imports:
            other = self.module(star)
            if other is not None and other is not facts and (
                    attr in other.imports or attr in other.functions or any(a.target == attr for a in other.assignments)):
                return f"{star}.{attr}"
        return None

    # ---- which modules may subclass or implement a class ---------------------------------------
    def _importers_digest(self, module: str) -> str:
        import hashlib

        paths = sorted(self._importer_paths(module))
        return f"{IMPORT_INDEX} {hashlib.sha256(chr(0).join(paths).encode('utf-8', 'surrogateescape')).hexdigest()[:32]}"

    def _importer_paths(self, module: str) -> list[str]:
        self._index()
        assert self._import_index is not None
        return self._import_index.get(module, [])

    def importers_of(self, module: str, mentioning: tuple[str, ...] = ()) -> list[ModuleFacts]:
        """Facts of the project modules that import `module` (or a name from it), from the text scan;
        with `mentioning`, only those whose text names one of these import roots (checked on the
        bytes, before any parse)."""
        if self.trace is not None:
            self.trace.setdefault(f"{IMPORT_INDEX} {module}", self._importers_digest(module))
        out: list[ModuleFacts] = []
        for path in self._importer_paths(module):
            if mentioning and not _mentions(path, mentioning):
                continue
            facts = self.facts_for_path(path)
            if facts is not None:
                out.append(facts)
        return out

    def _index(self) -> list[tuple[str, frozenset[str], frozenset[str]]]:
        """(path, base-class words, function names) for every Python file under the roots, from a
        cheap text scan; built once per run, on the first question."""
        if self._class_index is None:
            found: list[tuple[str, frozenset[str], frozenset[str]]] = []
            imports: dict[str, list[str]] = {}
            seen: set[str] = set()
            for root in self.roots:
                for folder, dirs, files in os.walk(root):
                    dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS and not d.startswith("."))
                    for name in sorted(files):
                        path = os.path.join(folder, name)
                        if not name.endswith(".py") or path in seen or len(found) >= MAX_INDEXED_FILES:
                            continue
                        seen.add(path)
                        try:
                            if os.path.getsize(path) > MAX_INDEXED_BYTES or not os.path.isfile(path):
                                continue
                            with open(path, "rb") as fh:
                                data = fh.read(MAX_INDEXED_BYTES)
                        except OSError:
                            continue
                        self._index_imports(os.path.abspath(path), data, imports)
                        classes = list(_CLASS.finditer(data))
                        bases = frozenset(w.rpartition(b".")[2].decode("ascii", "replace")
                                          for m in classes for w in re.findall(rb"[\w.]+", m.group(1) or b""))
                        if classes:
                            defs = frozenset(m.group(1).decode("ascii", "replace") for m in _DEF.finditer(data))
                            found.append((os.path.abspath(path), bases, defs))
            self._class_index = found
            self._import_index = imports
        return self._class_index

    def _index_imports(self, path: str, data: bytes, into: dict[str, list[str]]) -> None:
        for name in imported_modules(path, data):
            into.setdefault(name, []).append(path)

    def modules_mentioning(self, base: str, *methods: str) -> list[ModuleFacts]:
        """Facts of the project modules that define a class with `base` among its bases (`base`
        empty: any class), and functions named `methods` (all of them)."""
        if self.trace is not None:
            self.trace.setdefault(CLASS_INDEX, self._index_digest())
        out: list[ModuleFacts] = []
        wanted = set(methods)
        for path, bases, defs in self._index():
            if (base and base not in bases) or not wanted <= defs:
                continue
            facts = self.facts_for_path(path)
            if facts is not None:
                out.append(facts)
        return out

    def facts_for_path(self, path: str) -> ModuleFacts | None:
        """Facts of a file by path, loading it on first use."""
        path = os.path.abspath(path)
        if path not in self._by_path:
            self._by_path[path] = None
            facts = self._loader(path) if self._loader else None
            if facts is not None:
                self.add(facts)
                if self.trace is not None and facts.module:
                    self.trace.setdefault(facts.module, path)
        return self._by_path.get(path)


def imported_modules(path: str, data: bytes) -> set[str]:
    """The modules a file's source imports from, relative imports resolved (a text scan)."""
    out: set[str] = set()
    package: str | None = None
    for m in _IMPORT.finditer(data):
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
    return out


def _mentions(path: str, roots: tuple[str, ...]) -> bool:
    """The file imports one of `roots` (the pre-filter's byte check)."""
    from ..syntax.prefilter import may_matter

    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_INDEXED_BYTES)
    except OSError:
        return False
    return may_matter(data, roots)
