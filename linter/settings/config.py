"""siblint's settings: `[tool.siblint]` in pyproject.toml, or the top level of siblint.toml /
.siblint.toml: rule selection, suppressions, excludes, rule options, `extend`.

Every key is validated: an unknown key, a wrong type (a string where a list is expected too) or an
unknown code is a ConfigError that names the file, which the CLI reports in one line with exit
status 2. Which file applies to which checked file is `siblint.settings.resolver`'s business.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

from ..common.pathmatch import Matcher, PatternError, rebase
from ..common.reading import DEFAULT_MAX_FILE_SIZE, parse_size, read_bounded

# A config file is read before any cap is configured; no real one comes near this.
CONFIG_MAX_BYTES = 1_000_000

DEFAULT_EXCLUDE = (".git", ".venv", "venv", "build", "dist", "node_modules", "__pycache__", ".tox", ".nox",
                   ".eggs", "__pypackages__", "site-packages", ".siblint_cache")
# In one folder, the first of these that holds siblint settings wins (ruff's order).
CONFIG_NAMES = (".siblint.toml", "siblint.toml", "pyproject.toml")


class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] | None = None  # None: the default rule set
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    # SIB1xx options: extra call names that write to the outside world, and names that never do.
    extend_side_effect_calls: tuple[str, ...] = ()
    pure_calls: tuple[str, ...] = ()
    respect_gitignore: bool = True
    notebooks: bool = True  # check Jupyter notebooks (`.ipynb`); ruff's `include` of `*.ipynb`
    # Codes not reported in test modules (`test_*.py`, `*_test.py`, `conftest.py`): a test sets a
    # failure handler to None, or makes a tool fail, on purpose, to exercise the SDK's failure path.
    test_file_ignores: tuple[str, ...] = ("SIB2", "SIB3")
    # Files larger than this are not read (SIB900): memory and time grow with a module's size.
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    # The cache folder's size cap in bytes (None: twice the source, see siblint.run.cache.Cache.size_cap).
    cache_max_size: int | None = None
    ignore_noqa: bool = False  # `--ignore-noqa`: report what `# noqa` comments would silence
    root: str = field(default_factory=os.getcwd)  # the config file's folder (patterns are relative to it)
    source: str = ""  # the file it came from ("" for the defaults)
    extends: tuple[str, ...] = ()  # the files it inherits from, nearest first

    # ---- rule selection (flake8's semantics: the longest matching prefix decides) -------------
    def enabled(self, code: str) -> bool:
        memo = self._enabled_codes
        if code not in memo:
            memo[code] = self._chosen(code)
        return memo[code]

    @cached_property
    def _enabled_codes(self) -> dict[str, bool]:
        """code -> `enabled(code)`, worked out once per code: the engine asks for each rule of each file."""
        return {}

    def _chosen(self, code: str) -> bool:
        from ..rule_api.registry import by_code

        rule = by_code().get(code)
        default_on = rule.default_enabled if rule else True
        chosen = self.select if self.select is not None else ()
        best_select = max((len(p) for p in (*chosen, *self.extend_select) if code.startswith(p)), default=-1)
        if self.select is None and default_on:
            best_select = max(best_select, 0)
        if not default_on:
            # A default-off rule must be named in full: `select = ["SIB"]` does not switch it on.
            best_select = len(code) if code in (*chosen, *self.extend_select) else -1
        best_ignore = max((len(p) for p in self.ignore if code.startswith(p)), default=-1)
        return best_select > best_ignore

    def ignored_for_file(self, code: str, path: str) -> bool:
        if self.test_file_ignores and code.startswith(self.test_file_ignores) and is_test_module(path):
            return True
        return any(code.startswith(codes) and matcher.matches(path) for matcher, codes in self._per_file_matchers)

    def is_excluded(self, path: str, is_dir: bool = False, absolute: bool = False) -> bool:
        """Matched by `exclude` / `extend-exclude` (gitignore patterns relative to `root`)."""
        return self._exclude_matcher.matches(path, is_dir, absolute)

    @cached_property
    def _exclude_matcher(self) -> Matcher:
        return Matcher([(self.root, (*self.exclude, *self.extend_exclude))])

    @cached_property
    def _per_file_matchers(self) -> tuple[tuple[Matcher, tuple[str, ...]], ...]:
        return tuple((Matcher([(self.root, [glob])]), codes) for glob, codes in self.per_file_ignores)

    def with_cli(self, select: tuple[str, ...] | None, ignore: tuple[str, ...], extend_select: tuple[str, ...],
                 respect_gitignore: bool | None = None, max_file_size: int | None = None,
                 ignore_noqa: bool = False) -> "Config":
        for code in (*(select or ()), *ignore, *extend_select):
            _check_code(code, "command line")
        return replace(
            self,
            select=select if select is not None else self.select,
            ignore=self.ignore + ignore,
            extend_select=self.extend_select + extend_select,
            respect_gitignore=self.respect_gitignore if respect_gitignore is None else respect_gitignore,
            max_file_size=max_file_size if max_file_size is not None else self.max_file_size,
            ignore_noqa=ignore_noqa or self.ignore_noqa,
        )

    def key(self) -> str:
        """A stable text of everything that changes findings (for cache keys)."""
        return repr((self.select, self.ignore, self.extend_select, self.per_file_ignores,
                     self.extend_side_effect_calls, self.pure_calls, self.root, self.ignore_noqa))

    def settings(self) -> dict[str, object]:
        """The resolved settings, as `siblint check --show-settings` prints them."""
        from ..rule_api.registry import all_codes

        return {
            "config": self.source or "(defaults: no config file found)",
            "extends": list(self.extends),
            "root": self.root,
            "select": list(self.select) if self.select is not None else "(the default rule set)",
            "ignore": list(self.ignore),
            "extend-select": list(self.extend_select),
            "per-file-ignores": {glob: list(codes) for glob, codes in self.per_file_ignores},
            "exclude": list(self.exclude),
            "extend-exclude": list(self.extend_exclude),
            "respect-gitignore": self.respect_gitignore,
            "notebooks": self.notebooks,
            "extend-side-effect-calls": list(self.extend_side_effect_calls),
            "pure-calls": list(self.pure_calls),
            "max-file-size": self.max_file_size,
            "cache-max-size": self.cache_max_size if self.cache_max_size is not None else "(twice the source, at least 32 MB)",
            "test-file-ignores": list(self.test_file_ignores),
            "enabled-rules": [c for c in all_codes() if self.enabled(c)],
        }


_JS_TEST = re.compile(r"\.(test|spec)\.[cm]?[jt]sx?$")


def is_test_module(path: str) -> bool:
    """A test module by its runner's default names: pytest's (`test_*.py`, `*_test.py`, `conftest.py`),
    and Jest's / Vitest's / Mocha's for TS/JS (`*.test.ts`, `*.spec.mjs`, any file under `__tests__/`)."""
    name = os.path.basename(path)
    if name.endswith(".py"):
        return name == "conftest.py" or name.startswith("test_") or name.endswith("_test.py")
    return bool(_JS_TEST.search(name)) or "__tests__" in os.path.normpath(path).split(os.sep)[:-1]


def _check_code(code: str, where: str) -> None:
    from ..rule_api.registry import declared_codes

    if not code or not any(c.startswith(code) for c in declared_codes()):
        raise ConfigError(f"{where}: unknown rule code or prefix {code!r} (see `siblint rules`)")


def _str_list(value: object, key: str, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where} {key}: expected a list of strings, got {value!r}")
    return tuple(value)


_KEYS = {
    "select", "ignore", "extend-select", "per-file-ignores", "exclude", "extend-exclude",
    "extend-side-effect-calls", "pure-calls", "respect-gitignore", "extend", "max-file-size", "test-file-ignores",
    "cache-max-size", "notebooks",
}
# Keys whose lists add to the inherited ones; every other key replaces what it inherits.
_ADDITIVE = ("extend_select", "extend_exclude", "extend_side_effect_calls")


def _where(source: str) -> str:
    """How error messages name a table: the file, and [tool.siblint] inside a pyproject.toml."""
    if not source:
        return "config"
    return f"{source}: [tool.siblint]" if os.path.basename(source) == "pyproject.toml" else f"{source}:"


def from_table(table: dict, root: str, source: str = "") -> Config:
    """The settings of one table, without `extend` (see `load_file`)."""
    where = _where(source)
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        import difflib

        hints = [m for u in unknown for m in difflib.get_close_matches(u, _KEYS, n=1)]
        hint = f"; did you mean {', '.join(hints)}?" if hints else ""
        raise ConfigError(f"{where} unknown key(s): {', '.join(unknown)}{hint} (known: {', '.join(sorted(_KEYS))})")
    kw: dict[str, object] = {"root": root, "source": source}
    for key in ("select", "ignore", "extend-select", "test-file-ignores"):
        if key in table:
            codes = _str_list(table[key], key, where)
            for c in codes:
                _check_code(c, f"{where} {key}")
            kw[key.replace("-", "_")] = codes
    for key in ("exclude", "extend-exclude", "extend-side-effect-calls", "pure-calls"):
        if key in table:
            kw[key.replace("-", "_")] = _str_list(table[key], key, where)
    for key in ("respect-gitignore", "notebooks"):
        if key in table:
            if not isinstance(table[key], bool):
                raise ConfigError(f"{where} {key}: expected true or false, got {table[key]!r}")
            kw[key.replace("-", "_")] = table[key]
    for key in ("max-file-size", "cache-max-size"):
        if key in table:
            try:
                kw[key.replace("-", "_")] = parse_size(table[key], f"{where} {key}")
            except ValueError as exc:
                raise ConfigError(str(exc)) from None
    if "extend" in table and not isinstance(table["extend"], str):
        raise ConfigError(f"{where} extend: expected the path of another config file, got {table['extend']!r}")
    if "per-file-ignores" in table:
        pfi = table["per-file-ignores"]
        if not isinstance(pfi, dict):
            raise ConfigError(f"{where} per-file-ignores: expected a table of glob = [codes], got {pfi!r}")
        pairs = []
        for glob, codes in pfi.items():
            codes_t = _str_list(codes, f"per-file-ignores.{glob}", where)
            for c in codes_t:
                _check_code(c, f"{where} per-file-ignores")
            pairs.append((glob, codes_t))
        kw["per_file_ignores"] = tuple(pairs)
    config = Config(**kw)  # type: ignore[arg-type]
    if {"exclude", "extend-exclude", "per-file-ignores"} & set(table):  # the defaults always compile
        try:  # compile now, so a bad pattern is reported with its file, not in the middle of a walk
            config._exclude_matcher, config._per_file_matchers  # noqa: B018
        except PatternError as exc:
            raise ConfigError(f"{where} bad pattern: {exc}") from None
    return config


def read_table(path: Path) -> dict | None:
    """siblint's table in `path` (None: the file has none), or a ConfigError naming the file."""
    try:
        raw = read_bounded(str(path), CONFIG_MAX_BYTES)
        data = tomllib.loads(raw.decode("utf-8"))
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        # Discovery reads every pyproject.toml of the tree; a broken one that never mentions
        # siblint (a test fixture, a vendored package) is none of siblint's business.
        if path.name == "pyproject.toml" and b"siblint" not in raw:
            return None
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    tool = data.get("tool", {})
    if not isinstance(tool, dict) or "siblint" not in tool:
        # siblint.toml holds the settings at the top level; a pyproject.toml without the table has none.
        return None if path.name == "pyproject.toml" else data
    if not isinstance(tool["siblint"], dict):
        raise ConfigError(f"{path}: [tool.siblint] must be a table")
    return tool["siblint"]


def _inherit(child: Config, parent: Config, set_keys: set[str]) -> Config:
    """`child` on top of `parent`: keys the child sets replace, extend-* keys add; the parent's
    patterns keep meaning what they meant in the parent's folder."""
    if parent.root != child.root:
        parent = replace(
            parent,
            exclude=tuple(rebase(p, parent.root, child.root) for p in parent.exclude),
            extend_exclude=tuple(rebase(p, parent.root, child.root) for p in parent.extend_exclude),
            per_file_ignores=tuple((rebase(g, parent.root, child.root), c) for g, c in parent.per_file_ignores),
        )
    merged = {}
    for f in ("select", "ignore", "extend_select", "per_file_ignores", "exclude", "extend_exclude",
              "extend_side_effect_calls", "pure_calls", "respect_gitignore", "max_file_size", "test_file_ignores", "cache_max_size",
              "notebooks"):
        mine, theirs = getattr(child, f), getattr(parent, f)
        if f.replace("_", "-") not in set_keys:
            merged[f] = theirs
        elif f in _ADDITIVE:
            merged[f] = theirs + mine
        else:
            merged[f] = mine
    return replace(child, extends=(parent.source, *parent.extends), **merged)


MAX_EXTEND_DEPTH = 64  # configs `extend`ing configs; a real chain is two or three long


def load_file(path: Path, _chain: tuple[str, ...] = ()) -> Config:
    """The settings in `path`, with what it `extend`s merged in."""
    path = Path(os.path.abspath(path))
    if str(path) in _chain:
        raise ConfigError(f"{path}: extend: a cycle ({' -> '.join((*_chain, str(path)))})")
    if len(_chain) >= MAX_EXTEND_DEPTH:
        raise ConfigError(f"{_chain[0]}: extend: a chain of more than {MAX_EXTEND_DEPTH} files (it reached {path})")
    table = read_table(path)
    if table is None:
        raise ConfigError(f"{path}: no [tool.siblint] table")
    config = from_table(table, str(path.parent.resolve()), str(path))
    if "extend" not in table:
        return config
    target = Path(os.path.expanduser(table["extend"]))
    target = target if target.is_absolute() else path.parent / target
    if not target.is_file():
        raise ConfigError(f"{_where(str(path))} extend: {table['extend']!r}: no such file")
    return _inherit(config, load_file(target, (*_chain, str(path))), set(table))


def config_in(folder: Path) -> Path | None:
    """The config file of `folder` itself, if it holds one with siblint settings."""
    for name in CONFIG_NAMES:
        candidate = folder / name
        if candidate.is_file() and (name != "pyproject.toml" or read_table(candidate) is not None):
            return candidate
    return None


def find_config(start: str) -> Path | None:
    """The nearest config file at or above `start` (a file or a folder)."""
    here = Path(os.path.abspath(start))
    if not here.is_dir():
        here = here.parent
    for folder in (here, *here.parents):
        found = config_in(folder)
        if found is not None:
            return found
    return None


def load(start: str, explicit: str | None = None) -> Config:
    """The settings for `start`: `explicit`, else the nearest config file, else the defaults."""
    path = Path(explicit) if explicit else find_config(start)
    if path is None:
        return Config(root=os.path.abspath(start if os.path.isdir(start) else os.path.dirname(start) or "."))
    return load_file(path)
