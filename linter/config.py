"""`[tool.siblint]` in pyproject.toml: rule selection, suppressions, excludes, rule options.

Every key is validated: an unknown key, a wrong type or an unknown code is a ConfigError, which the
CLI reports in one line with exit status 2.
"""

from __future__ import annotations

import fnmatch
import os
import re
import sys
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from siblint.reading import DEFAULT_MAX_FILE_SIZE, parse_size, read_bounded

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

# pyproject.toml is read before any cap is configured; no real one comes near this.
CONFIG_MAX_BYTES = 1_000_000
DEFAULT_EXCLUDE = (".git", ".venv", "venv", "build", "dist", "node_modules", "__pycache__", ".tox")


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
    # Files larger than this are not read (SIB900): memory and time grow with a module's size.
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    root: str = field(default_factory=os.getcwd)  # where the config was found (or the cwd)
    source: str = ""  # the pyproject.toml it came from

    # ---- rule selection (flake8's semantics: the longest matching prefix decides) -------------
    def enabled(self, code: str) -> bool:
        from siblint.registry import by_code

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
        rel = _relative(path, self.root)
        for pattern, codes in self.per_file_ignores:
            if _glob_match(rel, pattern) and code.startswith(codes):
                return True
        return False

    def is_excluded(self, path: str) -> bool:
        """A pattern matches the whole relative path, a folder prefix of it, or any one part."""
        whole, part = self._exclude_matchers
        rel = _relative(path, self.root)
        return whole.match(rel) is not None or any(part.match(p) for p in rel.split("/"))

    @cached_property
    def _exclude_matchers(self) -> tuple[re.Pattern[str], re.Pattern[str]]:
        # One compiled alternation instead of fnmatch per pattern and part: discovery asks for
        # every folder and file of the tree, and on a large tree this was a third of a clean run.
        patterns = [p.rstrip("/") for p in (*self.exclude, *self.extend_exclude)]
        if not patterns:
            never = re.compile("(?!)")
            return never, never
        whole = "|".join(f"(?:{fnmatch.translate(p)})|(?:{fnmatch.translate(p + '/*')})" for p in patterns)
        part = "|".join(f"(?:{fnmatch.translate(p)})" for p in patterns)
        return re.compile(whole), re.compile(part)

    def with_cli(self, select: tuple[str, ...] | None, ignore: tuple[str, ...], extend_select: tuple[str, ...],
                 max_file_size: int | None = None) -> "Config":
        for code in (*(select or ()), *ignore, *extend_select):
            _check_code(code, "command line")
        return replace(
            self,
            select=select if select is not None else self.select,
            ignore=self.ignore + ignore,
            extend_select=self.extend_select + extend_select,
            max_file_size=max_file_size if max_file_size is not None else self.max_file_size,
        )

    def key(self) -> str:
        """A stable text of everything that changes findings (for cache keys)."""
        return repr((self.select, self.ignore, self.extend_select, self.per_file_ignores,
                     self.extend_side_effect_calls, self.pure_calls))


def _relative(path: str, root: str) -> str:
    path = os.path.abspath(path)
    prefix = os.path.join(os.path.abspath(root), "")
    # The common case by slicing: discovery asks for every file and folder, and relpath is slow.
    if len(path) > len(prefix) and path.startswith(prefix):
        return path[len(prefix):].replace(os.sep, "/")
    try:
        return os.path.relpath(path, root).replace(os.sep, "/")
    except ValueError:  # another drive on Windows
        return path.replace(os.sep, "/")


def _glob_match(rel: str, pattern: str) -> bool:
    pattern = pattern.rstrip("/")
    return fnmatch.fnmatchcase(rel, pattern) or fnmatch.fnmatchcase(rel, pattern + "/*") or \
        fnmatch.fnmatchcase(os.path.basename(rel), pattern)


def _check_code(code: str, where: str) -> None:
    from siblint.registry import all_codes

    if not code or not any(c.startswith(code) for c in all_codes()):
        raise ConfigError(f"{where}: unknown rule code or prefix {code!r} (see `siblint rules`)")


def _str_list(value: object, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"[tool.siblint] {key}: expected a list of strings, got {value!r}")
    return tuple(value)


_KEYS = {
    "select", "ignore", "extend-select", "per-file-ignores", "exclude", "extend-exclude",
    "extend-side-effect-calls", "pure-calls", "max-file-size",
}


def from_table(table: dict, root: str, source: str = "") -> Config:
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        raise ConfigError(f"{source or 'config'}: unknown key(s) in [tool.siblint]: {', '.join(unknown)} "
                          f"(known: {', '.join(sorted(_KEYS))})")
    kw: dict[str, object] = {"root": root, "source": source}
    for key in ("select", "ignore", "extend-select"):
        if key in table:
            codes = _str_list(table[key], key)
            for c in codes:
                _check_code(c, f"{source} [tool.siblint] {key}")
            kw[key.replace("-", "_")] = codes
    for key in ("exclude", "extend-exclude", "extend-side-effect-calls", "pure-calls"):
        if key in table:
            kw[key.replace("-", "_")] = _str_list(table[key], key)
    if "max-file-size" in table:
        try:
            kw["max_file_size"] = parse_size(table["max-file-size"], "[tool.siblint] max-file-size")
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
    if "per-file-ignores" in table:
        pfi = table["per-file-ignores"]
        if not isinstance(pfi, dict):
            raise ConfigError(f"[tool.siblint] per-file-ignores: expected a table of glob = [codes], got {pfi!r}")
        pairs = []
        for glob, codes in pfi.items():
            codes_t = _str_list(codes, f"per-file-ignores.{glob}")
            for c in codes_t:
                _check_code(c, f"{source} [tool.siblint] per-file-ignores")
            pairs.append((glob, codes_t))
        kw["per_file_ignores"] = tuple(pairs)
    return Config(**kw)  # type: ignore[arg-type]


def _read_toml(path: Path) -> dict:
    return tomllib.loads(read_bounded(str(path), CONFIG_MAX_BYTES).decode("utf-8"))


def find_pyproject(start: str) -> Path | None:
    """The nearest pyproject.toml at or above `start` that has a [tool.siblint] table."""
    here = Path(os.path.abspath(start))
    if not here.is_dir():
        here = here.parent
    for folder in (here, *here.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                data = _read_toml(candidate)
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
                raise ConfigError(f"{candidate}: cannot read: {exc}") from None
            tool = data.get("tool", {})
            if isinstance(tool, dict) and "siblint" in tool:
                return candidate
    return None


def load(start: str, explicit: str | None = None) -> Config:
    path = Path(explicit) if explicit else find_pyproject(start)
    if path is None:
        return Config(root=os.path.abspath(start if os.path.isdir(start) else os.path.dirname(start) or "."))
    try:
        data = _read_toml(path)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    tool = data.get("tool", {})
    table = tool.get("siblint", {}) if isinstance(tool, dict) else None
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.siblint] must be a table")
    return from_table(table, str(path.parent.resolve()), str(path))
