"""Module names for JS files, and import specifiers resolved to files.

The engine names modules with dots (`pkg.tools.charge`) and splits a resolved name at its last dot
into module and attribute. A JS module is a file, so its name is `js:` and the file's absolute
path with `%` and `.` escaped (`js:/app/tools%2Ets`): the name holds no dot of its own, and
`ProjectIndex` locates it by unescaping. A package import keeps the package's name
(`@openai/agents`, `axios`; a `node:` prefix is dropped: `node:fs` is `fs`).

Relative specifiers resolve the way TypeScript's bundler/node16 resolution finds project files:
the path as written, `./x.js` that is really `x.ts` (TypeScript's own convention), `./x` with
each extension tried, and `./dir` as `dir/index.*`.
"""

from __future__ import annotations

import os

PREFIX = "js:"
_TRY = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
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


def resolve_specifier(spec: str, importer: str) -> str:
    """The module name an import specifier in file `importer` refers to."""
    if not spec.startswith((".", "/")):
        return spec[5:] if spec.startswith("node:") else spec
    base = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(importer)), spec))
    return module_name(find_file(base) or base)


def find_file(base: str) -> str | None:
    if os.path.isfile(base):
        return base
    stem, ext = os.path.splitext(base)
    for other in _SWAPS.get(ext.lower(), ()):
        if os.path.isfile(stem + other):
            return stem + other
    for ext in _TRY:
        if os.path.isfile(base + ext):
            return base + ext
    for ext in _TRY:
        candidate = os.path.join(base, "index" + ext)
        if os.path.isfile(candidate):
            return candidate
    return None
