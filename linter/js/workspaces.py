"""Packages of the importer's own monorepo, imported by name.

A workspace (npm, yarn and bun's `workspaces` in the root package.json, or pnpm's
`pnpm-workspace.yaml`) lists folders of packages; an app imports one by its package.json `name`
(`@hypr/agent-core`, `@openswe/shared/open-swe/tools`), and the package manager links it. Nothing
is installed here, so the name is resolved the way the package's own package.json says: its
`exports` (a subpath, a `./*` pattern, condition objects), else `main`/`module`/`types`. Where that
points at build output the repository does not hold (`./dist/index.js`), the source beside it is
taken (`./src/index.ts`), as a bundler's source condition would. A checkout without any manifest (only
its sources) still has the layout: `@scope/name` is `packages/name/src/index.ts` (or `libs/`, `apps/`).

Only files inside the workspace root are returned; a symlinked package.json is not read.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import re
from functools import lru_cache

from ..common.reading import read_bounded

_MAX_BYTES = 1 << 20
_MAX_PACKAGES = 500
_CONDITIONS = ("source", "development", "import", "module", "default", "require", "node", "types")
_BUILD_DIRS = ("dist", "build", "lib", "out")
_EXTENSIONS = (".ts", ".tsx", ".mts", ".js", ".jsx", ".mjs")
_PNPM_ITEM = re.compile(r"""^\s*-\s*["']?([^"'#\s]+)""")


def workspace_file(spec: str, folder: str) -> str | None:
    """The source file a bare specifier names when it is a package of the workspace holding
    `folder`, else None."""
    root = _root(folder)
    if root is None:
        return None
    packages = _packages(root, _stamp(root))
    name = max((n for n in packages if spec == n or spec.startswith(n + "/")), key=len, default=None)
    if name is None:
        return None
    directory, manifest = packages[name]
    sub = "." + spec[len(name):]
    for target in _targets(manifest, sub):
        found = _source(os.path.normpath(os.path.join(directory, target)), directory)
        if found is not None and _inside(found, root):
            return found
    return None


_PACKAGE_FOLDERS = ("packages", "libs", "apps")
_MAX_LEVELS = 8


def unlisted_workspace_file(spec: str, folder: str) -> str | None:
    """`@scope/name` (or `@scope/name/sub`) where no workspace manifest is readable above `folder` (a
    checkout holding only sources): the source of `packages/name` (or `libs/`, `apps/`) in the
    nearest folder above that has one, `src/index.ts` or `index.ts`, as a monorepo lays it out."""
    scope, _, rest = spec.partition("/")
    name, _, sub = rest.partition("/")
    if not scope.startswith("@") or not name or _root(folder) is not None:
        return None
    for _ in range(_MAX_LEVELS):
        for kind in _PACKAGE_FOLDERS:
            directory = os.path.join(folder, kind, name)
            if os.path.isdir(directory) and not os.path.islink(directory):
                for base in (os.path.join(directory, "src", sub or "index"), os.path.join(directory, sub or "index")):
                    found = _file(base)
                    if found is not None:
                        return found
        parent = os.path.dirname(folder)
        if parent == folder or os.path.exists(os.path.join(folder, ".git")):  # not above the repository
            return None
        folder = parent
    return None


def workspace_context(folder: str) -> bytes:
    """What resolving workspace packages from `folder` depends on: each package's name and
    manifest (b"" outside a workspace). Part of the cache key of a JS file's facts."""
    root = _root(folder)
    if root is None:
        return b""
    packages = _packages(root, _stamp(root))
    return hashlib.sha256(json.dumps(sorted((n, m) for n, (_, m) in packages.items()), default=str)
                          .encode()).digest()


def _targets(manifest: dict, sub: str) -> list[str]:
    """Where the package's manifest sends `sub` ("." or "./x/y"): exports first, then the entry
    fields, then the source layout's guesses."""
    out: list[str] = []
    exports = manifest.get("exports")
    if isinstance(exports, (str, list)) or (isinstance(exports, dict) and not any(k.startswith(".") for k in exports)):
        exports = {".": exports}  # `"exports": "./index.js"` or a bare conditions object
    if isinstance(exports, dict):
        for key, value in exports.items():
            if not isinstance(key, str):
                continue
            if key == sub:
                out += _condition_targets(value)
            elif "*" in key:
                head, _, tail = key.partition("*")
                if sub.startswith(head) and sub.endswith(tail) and len(sub) >= len(head) + len(tail):
                    middle = sub[len(head):len(sub) - len(tail)]
                    out += [t.replace("*", middle) for t in _condition_targets(value)]
    if sub == ".":
        out += [v for k in ("source", "module", "main", "types", "typings") if isinstance(v := manifest.get(k), str)]
        out += ["src/index", "index"]
    else:
        out += [f"src/{sub[2:]}", sub[2:]]
    return out


def _condition_targets(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [t for v in value for t in _condition_targets(v)]
    if isinstance(value, dict):
        return [t for c in _CONDITIONS if c in value for t in _condition_targets(value[c])]
    return []


def _source(path: str, directory: str) -> str | None:
    """The project file `path` stands for: itself (with TypeScript's extension swaps), or for build
    output, the source file in `src/` of the same name."""
    found = _file(path)
    if found is not None:
        return found
    rel = os.path.relpath(path, directory).replace(os.sep, "/")
    first, _, rest = rel.partition("/")
    if first in _BUILD_DIRS and rest:
        return _file(os.path.join(directory, "src", rest))
    return None


def _file(path: str) -> str | None:
    for suffix in (".d.ts", ".d.mts", ".js", ".mjs", ".cjs", ".jsx"):
        if path.endswith(suffix):
            stem = path[: -len(suffix)]
            break
    else:
        stem = path
    candidates = [path] if os.path.isfile(path) and not path.endswith((".d.ts", ".d.mts")) else []
    candidates += [stem + ext for ext in _EXTENSIONS] + [os.path.join(stem, "index" + ext) for ext in _EXTENSIONS]
    return next((c for c in candidates if os.path.isfile(c) and not os.path.islink(c)), None)


def _inside(path: str, root: str) -> bool:
    real, top = os.path.realpath(path), os.path.realpath(root)
    return real == top or real.startswith(top + os.sep)


@lru_cache(maxsize=1024)
def _root(folder: str) -> str | None:
    """The nearest folder at or above `folder` that declares a workspace (not above the repository
    holding `folder`)."""
    while True:
        if _patterns(folder):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder or os.path.exists(os.path.join(folder, ".git")):
            return None
        folder = parent


def _patterns(root: str) -> tuple[str, ...]:
    """The package folder patterns the workspace root declares (`apps/*`), without negations."""
    found: list[str] = []
    pnpm = os.path.join(root, "pnpm-workspace.yaml")
    if os.path.isfile(pnpm) and not os.path.islink(pnpm):
        listing = False
        for line in _read(pnpm).decode("utf-8", "replace").splitlines():
            if re.match(r"^packages\s*:", line):
                listing = True
            elif listing and (m := _PNPM_ITEM.match(line)):
                found.append(m.group(1))
            elif listing and line.strip() and not line.startswith((" ", "\t", "#")):
                listing = False
    manifest = _manifest(os.path.join(root, "package.json"))
    declared = manifest.get("workspaces")
    if isinstance(declared, dict):
        declared = declared.get("packages")
    if isinstance(declared, list):
        found += [p for p in declared if isinstance(p, str)]
    return tuple(p.strip("/") for p in found if p and not p.startswith("!") and ".." not in p.split("/"))


def _stamp(root: str) -> tuple[int, ...]:
    """The mtime and size of the files declaring the workspace: a change reads its packages again."""
    out: list[int] = []
    for name in ("package.json", "pnpm-workspace.yaml"):
        try:
            st = os.stat(os.path.join(root, name))
            out += [st.st_mtime_ns, st.st_size]
        except OSError:
            out += [0, 0]
    return tuple(out)


@lru_cache(maxsize=16)
def _packages(root: str, stamp: tuple[int, ...]) -> dict[str, tuple[str, dict]]:
    """Package name -> (its folder, its manifest), for the packages the root's patterns list.
    `stamp` (of the files declaring the workspace) keys the memo."""
    out: dict[str, tuple[str, dict]] = {}
    for pattern in _patterns(root):
        for path in sorted(glob.glob(os.path.join(root, pattern, "package.json"), recursive="**" in pattern)):
            if "node_modules" in path.split(os.sep) or len(out) >= _MAX_PACKAGES:
                continue
            manifest = _manifest(path)
            name = manifest.get("name")
            if isinstance(name, str) and name and name not in out and _inside(path, root):
                out[name] = (os.path.dirname(path), manifest)
    return out


def _manifest(path: str) -> dict:
    if not os.path.isfile(path) or os.path.islink(path):
        return {}
    try:
        loaded = json.loads(_read(path).decode("utf-8-sig", "replace"))
    except (ValueError, RecursionError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _read(path: str) -> bytes:
    """A regular file's bytes (not a symlink's, a FIFO's or one over `_MAX_BYTES`), else nothing."""
    try:
        return read_bounded(path, _MAX_BYTES, follow_symlinks=False)
    except OSError:
        return b""
