"""Module names for JS files, and import specifiers resolved to files.

The engine names modules with dots (`pkg.tools.charge`) and splits a resolved name at its last dot
into module and attribute. A JS module is a file, so its name is `js:` and the file's absolute
path with `%` and `.` escaped (`js:/app/tools%2Ets`): the name holds no dot of its own, and
`ProjectIndex` locates it by unescaping. A package import keeps the package's name
(`@openai/agents`, `axios`; a `node:` prefix is dropped: `node:fs` is `fs`, and so are Deno's and
a CDN's registry prefixes and versions: `npm:langchain@0.3/tools` is `langchain/tools`).

Relative specifiers resolve the way TypeScript's bundler/node16 resolution finds project files:
the path as written, `./x.js` that is really `x.ts` (TypeScript's own convention), `./x` with
each extension tried, and `./dir` as `dir/index.*`. A bare specifier that the nearest
`tsconfig.json` (or `jsconfig.json`) maps in `compilerOptions.paths` (`"@/*": ["./src/*"]`, a
Next.js app's `@/lib/db`) is the project file it maps to, when one exists; one that names a package
of the importer's own monorepo is that package's source (`siblint.js.workspaces`). Where no config
maps any alias, `@/x` and `~/x` are `x` under the nearest folder above the importer holding it, and
SvelteKit's `$lib/x` is `lib/x` there.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from functools import lru_cache

from .workspaces import unlisted_workspace_file, workspace_context, workspace_file

PREFIX = "js:"
_TRY = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
# What an import without an extension may name: a declaration file last (`./types/octokit` of
# `types/octokit.d.ts`, re-exporting a library's types), as TypeScript resolves it.
_RESOLVED = (*_TRY, ".d.ts")
# What a written extension may stand for in TypeScript sources.
_SWAPS = {".js": (".ts", ".tsx"), ".jsx": (".tsx",), ".mjs": (".mts",), ".cjs": (".cts",)}


def module_name(path: str) -> str:
    return PREFIX + os.path.abspath(path).replace("%", "%25").replace(".", "%2E")


def path_of(module: str) -> str:
    return module[len(PREFIX):].replace("%2E", ".").replace("%25", "%")


def locate(module: str) -> str | None:
    """The file a JS module name stands for, when it exists."""
    path = path_of(module)
    return path if os.path.isfile(path) else None


# A package fetched by Deno or a browser from a registry (`npm:langchain@0.3/tools`,
# `https://esm.sh/@langchain/core@0.3.0/tools`): the package as node names it (`langchain/tools`).
_REGISTRY = re.compile(r"^(?:npm:|https?://(?:esm\.sh|cdn\.skypack\.dev|esm\.run|cdn\.jsdelivr\.net/npm)/)"
                       r"(@[^/@]+/[^/@]+|[^/@]+)(?:@[^/]*)?(/.*)?$")


def resolve_specifier(spec: str, importer: str) -> str:
    """The module name an import specifier in file `importer` refers to."""
    registry = _REGISTRY.match(spec)
    if registry is not None:
        return registry.group(1) + (registry.group(2) or "")
    if not spec.startswith((".", "/")):
        if spec.startswith("node:"):
            return spec[5:]
        folder = os.path.dirname(os.path.abspath(importer))
        found = _aliased(spec, folder) or workspace_file(spec, folder) or _conventional_alias(spec, folder)
        if found is None and spec.partition("/")[0] not in _library_scopes():
            found = unlisted_workspace_file(spec, folder)
        return module_name(found) if found is not None else spec
    base = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(importer)), spec))
    found = find_file(base)
    if _GENERATED_PRISMA.search(spec) and (found is None or _prisma_output(os.path.dirname(found))):
        return "@prisma/client"  # a client `prisma generate` writes to an `output` folder (committed or not)
    return module_name(found or base)


# What `prisma generate` writes beside a client it outputs: the schema, and its runtime.
_PRISMA_OUTPUT = ("schema.prisma", "runtime/library.js", "runtime/library.d.ts", "runtime/client.js")


def _prisma_output(folder: str) -> bool:
    return any(os.path.isfile(os.path.join(folder, name)) for name in _PRISMA_OUTPUT)


@lru_cache(maxsize=1)
def _library_scopes() -> frozenset[str]:
    """npm scopes of the frameworks siblint knows (`@langchain`, `@openai`): never a package of the
    project's own monorepo. (A library's package is taken for a project folder only where the project
    has a folder of exactly that package's name under `packages/`, `libs/` or `apps/`.)"""
    from ..frameworks import import_roots

    return frozenset(root.partition("/")[0] for root in import_roots("js") if root.startswith("@"))


# `import { PrismaClient } from "../../generated/prisma/client"` (the `prisma-client` generator's output),
# or an `output = "../generated/client"` of the schema's generator (not committed, so not found).
_GENERATED_PRISMA = re.compile(r"(?:^|/)generated/(?:prisma(?:/client)?|client)(?:/index(?:\.[jt]s)?)?$")


# ---- tsconfig `paths` ---------------------------------------------------------------------------
_CONFIGS = ("tsconfig.json", "jsconfig.json")
_PROJECT_MARKERS = ("package.json", ".git")  # the search for a config stops at the folder holding one
_MAX_EXTENDS = 3
_MAX_CONFIG_BYTES = 1 << 20
# JSON with comments and trailing commas, as TypeScript reads it: strings kept, comments dropped.
_JSONC = re.compile(r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/|,(?=\s*[}\]])', re.S)


def resolution_context(path: str) -> str:
    """What resolving `path`'s imports depends on beyond its own bytes: a digest of the config files
    whose `paths` it reads ("" for other files). Part of the cache key of its facts."""
    if not path.lower().endswith(_TRY):
        return ""
    folder = os.path.dirname(os.path.abspath(path))
    parts = [data for _, data in _config_chain(folder)]
    workspace = workspace_context(folder)
    if workspace:
        parts.append(workspace)
    return hashlib.sha256(b"\0".join(parts)).hexdigest()[:16] if parts else ""


def _aliased(spec: str, folder: str) -> str | None:
    """The project file `spec` names through the nearest config's `paths`, if any."""
    for pattern, targets, base in _paths(folder):
        head, star, tail = pattern.partition("*")
        if not (spec == pattern if not star else spec.startswith(head) and spec.endswith(tail)
                and len(spec) >= len(head) + len(tail)):
            continue
        middle = spec[len(head):len(spec) - len(tail)] if star else ""
        for target in targets:
            found = find_file(os.path.normpath(os.path.join(base, target.replace("*", middle, 1))))
            if found is not None:
                return found
    return None


# Prefix -> what it stands for under some folder above the importer: Next.js's `@/` and `~/`
# (`"@/*": ["./src/*"]` or `["./*"]`), SvelteKit's `$lib` (`src/lib`, set by the generated
# `.svelte-kit/tsconfig.json` a checkout does not hold).
_CONVENTIONAL = {"@/": "", "~/": "", "$lib/": "lib/"}
_MAX_ALIAS_LEVELS = 8


def _conventional_alias(spec: str, folder: str) -> str | None:
    """`@/lib/db`, `~/lib/db` or `$lib/server/db` where no config maps any alias (a checkout without
    its tsconfig, or a config siblint cannot read): the file under the nearest folder above the
    importer holding it."""
    prefix = next((p for p in _CONVENTIONAL if spec.startswith(p)), None)
    if prefix is None or any(pattern != "*" for pattern, _, _ in _paths(folder)):  # a `baseUrl` alone maps none
        return None
    rest = _CONVENTIONAL[prefix] + spec[len(prefix):]
    for _ in range(_MAX_ALIAS_LEVELS):
        found = find_file(os.path.join(folder, rest))
        if found is not None:
            return found
        parent = os.path.dirname(folder)
        if parent == folder or os.path.exists(os.path.join(folder, ".git")):  # not above the repository
            break
        folder = parent
    return None


def _paths(folder: str) -> tuple[tuple[str, tuple[str, ...], str], ...]:
    """(pattern, targets, folder the targets are relative to) of the config governing `folder`."""
    return _paths_of(_config_chain(folder))


@lru_cache(maxsize=64)
def _paths_of(chain: tuple[tuple[str, bytes], ...]) -> tuple[tuple[str, tuple[str, ...], str], ...]:
    """`paths` and `baseUrl` through the `extends` chain, the nearest setting winning. A `baseUrl`
    also resolves any other bare specifier under it, as TypeScript does (`from 'src/prisma/prisma.service'`
    with `"baseUrl": "./"`): a last pattern `*` there (a package name finds no project file)."""
    paths: dict | None = None
    base = ""
    base_url: str | None = None
    for config_path, data in chain:
        options = _options(data)
        if base_url is None and isinstance(options.get("baseUrl"), str):
            base_url = os.path.join(os.path.dirname(config_path), options["baseUrl"])
        if paths is None and isinstance(options.get("paths"), dict):
            paths, base = options["paths"], os.path.dirname(config_path)
    root = base_url or base
    mapped = tuple((p, tuple(t for t in ts if isinstance(t, str)), root) for p, ts in (paths or {}).items()
                   if isinstance(p, str) and p.count("*") <= 1 and isinstance(ts, list))
    return mapped + ((("*", ("*",), base_url),) if base_url is not None else ())


def _config_chain(folder: str) -> tuple[tuple[str, bytes], ...]:
    """The nearest tsconfig/jsconfig at or above `folder` (not above the folder holding a
    package.json or .git), then the relative files it `extends`: (path, bytes) each. Read again
    when a file of it changes (the language server lives through edits)."""
    found = _nearest_config(folder)
    if found is None or not os.path.isfile(found) or os.path.islink(found):
        return ()  # a symlinked config may point anywhere on the machine: not read
    return _extended(found, _stamp(found))


@lru_cache(maxsize=1024)
def _nearest_config(folder: str) -> str | None:
    while True:
        for name in _CONFIGS:
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate):
                return candidate
        parent = os.path.dirname(folder)
        if parent == folder or any(os.path.exists(os.path.join(folder, m)) for m in _PROJECT_MARKERS):
            return None
        folder = parent


def _stamp(path: str) -> tuple[int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (0, 0)
    return (st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=256)
def _extended(config_path: str, stamp: tuple[int, int]) -> tuple[tuple[str, bytes], ...]:
    """`stamp` (the first file's mtime and size) keys the memo; a file it extends is read with it."""
    chain: list[tuple[str, bytes]] = []
    while config_path and len(chain) <= _MAX_EXTENDS and not os.path.islink(config_path):
        try:
            with open(config_path, "rb") as fh:
                data = fh.read(_MAX_CONFIG_BYTES)
        except OSError:
            break
        chain.append((config_path, data))
        parent = _load(data).get("extends")
        if not isinstance(parent, str) or not parent.startswith("."):
            break  # a package's config (`@tsconfig/next`) sets no paths of this project
        config_path = os.path.normpath(os.path.join(os.path.dirname(config_path), parent))
        if not config_path.endswith(".json"):
            config_path += ".json"
    return tuple(chain)


def _load(data: bytes) -> dict:
    try:
        text = _JSONC.sub(lambda m: m.group(1) or "", data.decode("utf-8-sig", "replace"))
        loaded = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _options(data: bytes) -> dict:
    options = _load(data).get("compilerOptions")
    return options if isinstance(options, dict) else {}


def find_file(base: str) -> str | None:
    if os.path.isfile(base):
        return base
    stem, ext = os.path.splitext(base)
    for other in _SWAPS.get(ext.lower(), ()):
        if os.path.isfile(stem + other):
            return stem + other
    for ext in _RESOLVED:
        if os.path.isfile(base + ext):
            return base + ext
    for ext in _RESOLVED:
        candidate = os.path.join(base, "index" + ext)
        if os.path.isfile(candidate):
            return candidate
    return None
