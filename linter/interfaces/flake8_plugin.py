"""flake8 tree plugin: the same engine and the same answer as `siblint check`, one file at a time.

The plugin applies what `siblint check` applies before `# noqa`: the file's own `[tool.siblint]`
(nearest config per folder: select, ignore, extend-select, per-file-ignores), its excludes and
.gitignore (a file `siblint check .` would not walk into gets no findings; stdin is checked, as
`siblint check -` checks it). flake8 then applies `# noqa` and its own options on top, which can
only hide more. Default-off codes stay off unless siblint's config or flake8's `--select` /
`--extend-select` names them in full, so `flake8 --select SIB` shows what `siblint check` shows
(flake8's `extend_default_ignore` cannot do that: an explicit `--select SIB` overrides it).
Only `# siblint: noqa`, which flake8 does not know, is honoured here. Nothing goes to stdout.

Editors run flake8 in-process again and again, so nothing about a run lives in module globals or
on the class: `parse_options` hangs a `_RunState` on the options namespace flake8 creates for each
run, and every plugin instance receives that namespace (flake8 fills `__init__` parameters from
`FileProcessor` attributes by name, and `options` is one of them).
"""

from __future__ import annotations

import ast
import io
import os
import sys
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..common.escape import escape_text

if TYPE_CHECKING:  # flake8 and the engine stay out of import time
    from ..model.project import ProjectIndex
    from ..run.reuse import FileFindings
    from ..settings.config import Config

_STATE_ATTR = "_siblint_run_state"
# Imported by flake8's command line (`flake8`, `python -m flake8`, its -j workers), not by its API
# that editors and test runners call in-process: a process that ends with the run.
_COMMAND_LINE = "flake8.main.cli"


@dataclass
class _RunState:
    """What one flake8 run shares between files: options and one project index per config root."""

    extend_side_effect_calls: tuple[str, ...] = ()
    pure_calls: tuple[str, ...] = ()
    disable_noqa: bool = False
    named_off: tuple[str, ...] = ()  # default-off codes flake8's --select / --extend-select name in full
    reads_stdin: bool = False
    projects: dict["Config", tuple["Config", "ProjectIndex", "FileFindings | None"]] = field(default_factory=dict)
    reported_config_errors: set[str] = field(default_factory=set)
    resolver: Any = None  # siblint.settings.resolver.Resolver, made on first use
    skip: Any = None  # siblint.run.discovery.Skip
    held: Any = None  # siblint.model.project.HeldTree: module names, worked out once per run

    @classmethod
    def from_options(cls, options: Any) -> "_RunState":
        from ..rule_api.rule import catalog

        named = {c.strip().upper() for key in ("select", "extend_select") for c in (getattr(options, key, None) or ())
                 if isinstance(c, str)}
        return cls(
            extend_side_effect_calls=_as_tuple(getattr(options, "siblint_extend_side_effect_calls", None)),
            pure_calls=_as_tuple(getattr(options, "siblint_pure_calls", None)),
            disable_noqa=bool(getattr(options, "disable_noqa", False)),
            named_off=tuple(c for c in catalog().OFF_BY_DEFAULT if c in named),
            reads_stdin="-" in (getattr(options, "filenames", None) or ()),
        )

    def _warn(self, exc: Exception) -> None:
        # flake8 owns the run: warn once on stderr and carry on with the defaults.
        if str(exc) not in self.reported_config_errors:
            self.reported_config_errors.add(str(exc))
            print(escape_text(f"siblint: warning: {exc}; using defaults"), file=sys.stderr)

    def _lookup(self, folder: str) -> "Config":
        """The settings `siblint check` uses in `folder` (the nearest config at or above it)."""
        from ..settings.config import Config, ConfigError
        from ..settings.resolver import Resolver

        if self.resolver is None:
            self.resolver = Resolver(os.getcwd())
        try:
            return self.resolver.for_folder(folder)
        except ConfigError as exc:
            self._warn(exc)
            return Config(root=os.getcwd())

    def base_config(self, path: str) -> "Config":
        return self._lookup(os.path.dirname(os.path.abspath(path)))

    def skipped(self, path: str) -> bool:
        """Excluded or git-ignored, as a walk of the working folder would decide (not for stdin)."""
        if self.reads_stdin:
            return False
        if self.skip is None:
            from ..settings.excludes import Skip

            self.skip = Skip(self._lookup)
        return self.skip.walk_would_skip(path, os.getcwd())

    def prepare(self, names: list[str]) -> None:
        """What every file of the run needs, made once before flake8 forks its `-j` workers (they
        inherit it; each made its own before): the engine's per-file imports, the exclusion rules,
        and the project, with its scan, of each folder flake8 was given. Then retired from the
        collector (see `gctune.retire_survivors`). Best effort: anything that fails here is made
        again, and reported, on the first file that needs it."""
        from ..common.gctune import retire_survivors
        from ..lint import noqa  # noqa: F401 - imported here so that the workers inherit it
        from ..model.project import tree_held_still
        from ..syntax import prefilter  # noqa: F401

        try:
            with tree_held_still(self.held) as held:
                self.held = held
                for name in names:
                    folder = name if os.path.isdir(name) else os.path.dirname(name) or "."
                    _, project, findings = self.project_for(os.path.join(os.path.abspath(folder), "_.py"))
                    project.scan  # noqa: B018 - made now, in the process flake8 forks
                    if findings is not None:
                        _remember_scan(project)
        except Exception:  # noqa: BLE001, S110 - the first file that needs it makes it again
            pass
        retire_survivors()

    def project_for(self, path: str) -> tuple["Config", "ProjectIndex", "FileFindings | None"]:
        """The config (the file's settings, plus flake8's options), the shared index, and the
        cached findings of single files (None without a cache folder)."""
        base = self.base_config(path)
        if base not in self.projects:
            config = replace(
                base, extend_select=base.extend_select + self.named_off,
                extend_side_effect_calls=base.extend_side_effect_calls + self.extend_side_effect_calls,
                pure_calls=base.pure_calls + self.pure_calls,
            )
            self.projects[base] = (config, *_project(config))
        return self.projects[base]


def _project(config: "Config") -> tuple["ProjectIndex", "FileFindings | None"]:
    """The run's index and the findings of single files; both use the siblint cache when there is
    a place for one: $SIBLINT_CACHE_DIR, or `.siblint_cache` next to the pyproject.toml. A warm
    flake8 run (pre-commit's hook too) so parses nothing, like a warm `siblint check`."""
    from ..run import cache as cache_mod
    from ..run.reuse import FileFindings
    from ..run.runner import cached_project
    from ..run.scan_memo import ScanMemo

    if not (os.environ.get(cache_mod.ENV_VAR) or config.source):
        return cached_project(config, None), None
    folder = cache_mod.default_dir(config.source, config.root, None)
    cache = cache_mod.Cache(folder, cache_mod.config_key(config), max_size=config.cache_max_size)
    refusal = cache.refusal()
    if refusal:
        print(f"siblint: warning: {escape_text(refusal)}", file=sys.stderr)
        return cached_project(config, None), None
    project = cached_project(config, cache)
    project.scan_parts = ScanMemo(lambda: cache, project.roots)  # each flake8 process scans: from the cache
    # "flake8": these findings leave `# noqa` to flake8, unlike `siblint check`'s.
    return project, FileFindings(cache, project, config.max_file_size, "flake8")


def _remember_scan(project: "ProjectIndex") -> None:
    """Store the project scan's records once it is made (no-op afterwards: flake8 has no end-of-run hook)."""
    from ..run.scan_memo import ScanMemo

    if isinstance(project.scan_parts, ScanMemo):
        project.scan_parts.save()


def _as_tuple(value: object) -> tuple[str, ...]:
    if not value:
        return ()
    if isinstance(value, str):
        value = value.split(",")
    return tuple(v.strip() for v in value if isinstance(v, str) and v.strip())  # type: ignore[attr-defined]


def _source_bytes(text: str) -> bytes:
    """flake8 hands over decoded lines; re-encode them (joined) as their coding cookie says."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(text.encode("utf-8")).readline)
        return text.encode(encoding)
    except (SyntaxError, LookupError, UnicodeError):
        return text.encode("utf-8")


class Plugin:
    name = "siblint"
    version = __version__

    def __init__(self, tree: ast.AST, filename: str, lines: list[str], options: Any = None) -> None:
        self.tree = tree
        self.filename = filename
        self.lines = lines
        self.options = options

    @classmethod
    def add_options(cls, option_manager: Any) -> None:
        # Runs in every flake8 run, agent code or not: no rule (and nothing they import) loads here.
        option_manager.add_option(
            "--siblint-extend-side-effect-calls", default="", parse_from_config=True, comma_separated_list=True,
            help="Extra call names siblint treats as side effects (comma-separated).",
        )
        option_manager.add_option(
            "--siblint-pure-calls", default="", parse_from_config=True, comma_separated_list=True,
            help="Call names siblint treats as free of side effects (comma-separated).",
        )

    @classmethod
    def parse_options(cls, options: Any) -> None:
        # Stored on this run's options namespace, never on the class: the next run gets a new one.
        state = _RunState.from_options(options)
        setattr(options, _STATE_ATTR, state)
        if _COMMAND_LINE in sys.modules and not state.reads_stdin:
            state.prepare(getattr(options, "filenames", None) or ["."])

    def _state(self) -> _RunState:
        state = getattr(self.options, _STATE_ATTR, None)
        if state is None:  # parse_options did not run (a bare API call): this instance's own state
            state = _RunState.from_options(self.options)
        return state

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        from ..syntax import prefilter

        # The CLI's byte pre-filter, on flake8's lines: a file that imports no framework costs a
        # substring search and a look at the project's scan (made once per process: does agent code
        # import this module?); libcst, the engine and the rules are never imported for it.
        text = "".join(self.lines)
        matters = prefilter.may_matter_text(text)
        if not matters and self.filename in ("-", "stdin"):
            return
        from ..lint.noqa import SIBLINT_NOQA_FILE, file_codes, file_is_ignored, may_hold_directive

        state = self._state()
        silenced: tuple[str, ...] = ()
        if not state.disable_noqa and may_hold_directive(text):
            if file_is_ignored(self.lines, SIBLINT_NOQA_FILE):
                return
            # `# siblint: noqa: SIB101`: flake8 cannot know it, so the plugin drops those codes itself.
            silenced = file_codes(self.lines)
        path = self.filename if self.filename not in ("-", "stdin") else "stdin.py"
        try:
            diagnostics = self._diagnostics(state, path, text, matters)
        except Exception as exc:  # noqa: BLE001 - an exception here would make flake8 drop every result
            yield 1, 0, f"SIB901 internal error while analysing this file ({type(exc).__name__}: {exc})", type(self)
            return
        for d in sorted(set(diagnostics), key=lambda d: d.sort_key()):
            if d.code.startswith(silenced):
                continue
            yield d.loc.line, d.loc.col, f"{d.code} {escape_text(d.message)}", type(self)

    def _diagnostics(self, state: _RunState, path: str, text: str, matters: bool) -> list:
        """The file's findings before flake8's `# noqa`: from the cache, or analysed."""
        from ..model.project import tree_held_still

        # The tree holds still for the whole flake8 run, as for `siblint check`: module names are
        # worked out once per run, not once per file and lookup.
        with tree_held_still(state.held) as held:
            state.held = held
            if state.skipped(path):
                return []
            config, project, findings = state.project_for(path)
            data = _source_bytes(text)
            # The project decides, as for `siblint check`: agent code importing the module, a class
            # deriving a project tool base, a framework maker another module hands on.
            if not matters and not project.wants(path, data):
                return []
            diagnostics = findings.get(path, data) if findings else None
            if diagnostics is None:
                diagnostics = self._analyse(path, data, config, project, findings)
                if _COMMAND_LINE in sys.modules:
                    from ..common.gctune import retire_survivors

                    retire_survivors()  # the run keeps these facts; flake8's collections need not rescan them
            if findings is not None:
                _remember_scan(project)
            return diagnostics

    def _analyse(self, path: str, data: bytes, config: "Config", project: "ProjectIndex",
                 findings: "FileFindings | None") -> list:
        """As `siblint check` analyses a file: the relevance stage on flake8's tree (guarded once),
        then libcst only for a file that can report."""
        from ..common.gctune import analysis_thresholds
        from ..lint.engine import analyse, filter_findings
        from ..model import relevance
        from ..run.reuse import traced

        with analysis_thresholds():
            # flake8's own tree stands in for CPython's parse of the same lines.
            given = self.tree if isinstance(self.tree, ast.Module) else None
            tree = relevance.syntax_tree(path, data, given)
            if tree is not None:
                with traced(project) as trace:
                    reports = relevance.may_report(path, data, tree, project)
                if not reports:
                    diagnostics: list = []
                    if findings is not None:
                        findings.put(path, data, diagnostics, trace)
                    return diagnostics
            with traced(project) as trace:
                # A tree the guard refused (None) is the engine's to report: it gets flake8's again.
                result = analyse(path, data, config, project, tree=tree or given, guarded=tree is not None)
                diagnostics = filter_findings(result, config, honour_noqa=False)
        if findings is not None:
            findings.put(path, data, diagnostics, trace)
        return diagnostics
