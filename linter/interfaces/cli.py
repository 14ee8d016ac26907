"""The `siblint` command: check, rules, explain, server.

Exit status: 0 no findings (also when the paths hold no file to check: a warning says so), 1
findings, 2 usage or configuration error, a missing path, or an internal failure. An unexpected exception anywhere becomes one line on stderr and exit 2 (see
`SiblintGroup`), never a traceback.

To add an option to `check`: add a `click.option` to `check`, a field to `CheckOptions`, and use it
in `run_check`; the command function itself only converts arguments.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

import click

from .. import __version__
from ..common.diagnostics import Diagnostic
from ..common.escape import escape_text
from ..common.reading import parse_size
from ..common.writing import escaping_link, replace_file
from ..reporters import FORMATS, TEXT_FORMATS, canonical, report_base
from ..run.discovery import discover
from ..settings.config import Config, ConfigError
from ..settings.resolver import Resolver, project_root

if TYPE_CHECKING:
    from ..run.cache import Cache

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR, EXIT_INTERRUPTED = 0, 1, 2, 130
STDIN = "-"


class SiblintGroup(click.Group):
    """A click group that turns any unexpected exception into one line and exit status 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except BrokenPipeError:  # `siblint check | head`: the reader left, nothing to report
            _silence_stdout()
            ctx.exit(EXIT_ERROR)
        except KeyboardInterrupt:  # not "findings" (1): the conventional 128 + SIGINT
            click.echo("siblint: interrupted", err=True)
            ctx.exit(EXIT_INTERRUPTED)
        except Exception as exc:  # noqa: BLE001 - the one place every other exception ends up
            click.echo(escape_text(f"siblint: internal error: {type(exc).__name__}: {exc} "
                                   "(this is a bug in siblint; please report it)"), err=True)
            ctx.exit(EXIT_ERROR)


def _silence_stdout() -> None:
    # Python flushes stdout at exit; pointing it at /dev/null avoids a second BrokenPipeError.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


class SiblintError(click.ClickException):
    """A configuration or environment error: one line on stderr, exit 2."""

    exit_code = EXIT_ERROR

    def show(self, file: Any = None) -> None:
        click.echo(escape_text(f"siblint: error: {self.format_message()}"), err=True)


def _fail(message: str) -> NoReturn:
    raise SiblintError(message)


def warn(message: str) -> None:
    """`siblint: warning: ...` on stderr, escaped: messages carry names from the checked tree."""
    click.echo(f"siblint: warning: {escape_text(message)}", err=True)


def _codes(value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(c.strip().upper() for c in value.split(",") if c.strip())


@click.group(cls=SiblintGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="siblint")
def main() -> None:
    """Find agent tools whose side effects outlive a sibling tool's fatal failure.

    \b
    Exit status: 0 no findings, 1 findings, 2 usage, configuration or internal error.

    \b
    Examples:
      siblint check src/
      siblint check --output-format sarif -o siblint.sarif .
      cat agent.py | siblint check - --stdin-filename agent.py
      siblint rules
      siblint explain SIB201
      siblint server            (a language server on stdio, for editors)
    """


@dataclass(frozen=True)
class FixOptions:
    """`--fix`, `--unsafe-fixes`, `--diff`, `--show-fixes` (see `interfaces.fixing`)."""

    fix: bool = False
    unsafe: bool = False
    diff: bool = False
    show: bool = False


def fix_options(func: Any) -> Any:
    """The fix options of `check`, together (ruff's names and meanings)."""
    for option in reversed([
        click.option("--fix/--no-fix", "fix", default=False,
                     help="Apply the safe fixes, then report what is left."),
        click.option("--unsafe-fixes/--no-unsafe-fixes", "unsafe_fixes", default=False,
                     help="With --fix or --diff: also the unsafe fixes (they change behaviour the way the rule asks)."),
        click.option("--diff", is_flag=True,
                     help="Print the fixes as a unified diff and write nothing; exit 1 when there is one."),
        click.option("--show-fixes", is_flag=True, help="With --fix: list the fixes applied (on stderr)."),
    ]):
        func = option(func)
    return func


@dataclass(frozen=True)
class CheckOptions:
    """Everything `check` was asked to do, after argument parsing."""

    paths: tuple[str, ...]
    fmt: str = "concise"
    output: str | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    stdin_filename: str | None = None
    config_path: str | None = None
    exit_zero: bool = False
    statistics: bool = False
    jobs: int | None = None
    no_cache: bool = False
    cache_dir: str | None = None
    respect_gitignore: bool = True
    show_settings: bool = False
    show_files: bool = False
    quiet: bool = False
    color: str = "auto"
    add_noqa: bool = False
    write_baseline: str | None = None
    baseline: str | None = None
    max_file_size: int | None = None
    follow_symlinks: bool = False
    fail_on: str = "warning"
    started_ns: int = field(default_factory=time.time_ns)  # --add-noqa leaves files changed since alone
    fix: FixOptions = FixOptions()
    ignore_noqa: bool = False
    isolated: bool = False
    watch: bool = False

    @property
    def reads_stdin(self) -> bool:
        return self.paths == (STDIN,)


class _FormatChoice(click.Choice):
    """ruff's format names; older names (`text`) are accepted without being listed."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return super().convert(canonical(value) if isinstance(value, str) else value, param, ctx)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
# ---- output and suppression flags, as ruff spells them ----------------------------------------
@click.option("--output-format", "--format", "fmt", type=_FormatChoice(list(FORMATS)), default="concise",
              show_default=True, envvar="SIBLINT_OUTPUT_FORMAT", show_envvar=True,
              help="concise: a line per finding; full: with the explanation and related locations; "
                   "sarif: GitHub code scanning; github, gitlab, azure: CI annotations; rdjson: reviewdog.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=str),
              help="Write the report to FILE instead of stdout.")
@click.option("--ignore-noqa", is_flag=True, help="Report findings that `# noqa` comments would silence.")
@click.option("--isolated", is_flag=True, help="Read no configuration file: the defaults and these options only.")
@click.option("-w", "--watch", is_flag=True, help="Check again whenever a checked file or a config file changes.")
@click.option("--select", metavar="CODES", help="Comma-separated codes or prefixes to check, replacing the default set.")
@click.option("--ignore", metavar="CODES", help="Comma-separated codes or prefixes to skip.")
@click.option("--extend-select", metavar="CODES", help="Comma-separated codes or prefixes to add to the selection.")
@click.option("--stdin-filename", metavar="PATH",
              help="Path to report (and to match per-file-ignores) for source read from stdin (`-`).")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False, path_type=str),
              help="Use this config file for every checked file, instead of the nearest one above each.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--statistics", is_flag=True, help="Also print a count per code (stderr for non-text formats).")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Parallel worker processes  [default: number of CPUs]")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
@click.option("--cache-dir", type=click.Path(file_okay=False, path_type=str), metavar="DIR",
              help="Cache folder  [default: $SIBLINT_CACHE_DIR, else .siblint_cache in the project root]")
@click.option("--no-respect-gitignore", "no_respect_gitignore", is_flag=True,
              help="Check files that .gitignore (and .git/info/exclude) would skip.")
@click.option("--show-settings", is_flag=True, help="Print the resolved settings for the first path and exit.")
@click.option("--show-files", is_flag=True, help="Print the files that would be checked and exit.")
@click.option("-q", "--quiet", is_flag=True, help="Print the findings only: no summary line, no warnings.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="Colour the text report (auto: on a terminal, or when FORCE_COLOR is set; not when only NO_COLOR is).")
@click.option("--add-noqa", is_flag=True,
              help="Add `# noqa: CODE` comments that silence every current finding, and exit.")
@click.option("--write-baseline", metavar="FILE", type=click.Path(dir_okay=False, path_type=str),
              help="Record every current finding in FILE (JSON), and exit 0.")
@click.option("--baseline", metavar="FILE", type=click.Path(exists=True, dir_okay=False, path_type=str),
              help="Report (and fail on) only findings that are not in FILE.")
@click.option("--fail-on", "fail_on", type=click.Choice(["warning", "error"]), default="warning", show_default=True,
              help="Exit 1 on findings of this severity or worse (error: only certain losses such as SIB301).")
@click.option("--max-file-size", metavar="SIZE",
              help="Report files larger than SIZE (bytes, or e.g. 20MB) as SIB900 instead of reading them  [default: 2MB]")
@click.option("--follow-symlinks", is_flag=True,
              help="Follow symbolic links to folders, and links that lead outside the project, while walking folders.")
@fix_options
def check(paths: tuple[str, ...], fmt: str, output: str | None, select: str | None, ignore: str | None,
          extend_select: str | None, stdin_filename: str | None, config_path: str | None, exit_zero: bool,
          statistics: bool, jobs: int | None, no_cache: bool, cache_dir: str | None, no_respect_gitignore: bool,
          show_settings: bool, show_files: bool, quiet: bool, color: str, add_noqa: bool,
          write_baseline: str | None, baseline: str | None, fail_on: str, max_file_size: str | None,
          follow_symlinks: bool, ignore_noqa: bool, isolated: bool, watch: bool,
          fix: bool, unsafe_fixes: bool, diff: bool, show_fixes: bool) -> None:
    """Check PATHS: files or folders (default `.`); `-` reads stdin.

    \b
    Each file uses the nearest pyproject.toml with [tool.siblint] (or siblint.toml,
    .siblint.toml) at or above it; command-line options add to it.
    """
    if not paths and stdin_filename:
        paths = (STDIN,)
    if STDIN in paths and len(paths) > 1:
        raise click.UsageError("`-` (stdin) cannot be combined with other paths")
    if stdin_filename and paths != (STDIN,):
        raise click.UsageError("--stdin-filename only applies when the source is read from stdin (`-`)")
    if paths == (STDIN,) and (add_noqa or write_baseline or watch):
        raise click.UsageError("--add-noqa, --write-baseline and --watch need files, not stdin (`-`)")
    if isolated and config_path:
        raise click.UsageError("--isolated reads no configuration file, so it cannot be combined with --config")
    if watch and (add_noqa or write_baseline or show_settings or show_files or diff):
        raise click.UsageError("--watch reports findings; it cannot be combined with --add-noqa, --write-baseline, "
                               "--diff, --show-settings or --show-files")
    fixing = FixOptions(fix, unsafe_fixes, diff, show_fixes)
    _check_fix_options(fixing, add_noqa or bool(write_baseline))
    try:
        size = parse_size(max_file_size, "--max-file-size") if max_file_size is not None else None
    except ValueError as exc:
        raise click.BadParameter(str(exc).split(": ", 1)[1], param_hint="--max-file-size") from None
    opts = CheckOptions(
        paths=paths or (".",), fmt=fmt, output=output, select=_codes(select), ignore=_codes(ignore) or (),
        extend_select=_codes(extend_select) or (), stdin_filename=stdin_filename, config_path=config_path,
        exit_zero=exit_zero, statistics=statistics, jobs=jobs, no_cache=no_cache, cache_dir=cache_dir,
        respect_gitignore=not no_respect_gitignore, show_settings=show_settings, show_files=show_files,
        quiet=quiet, color=color, add_noqa=add_noqa, write_baseline=write_baseline, baseline=baseline,
        max_file_size=size, follow_symlinks=follow_symlinks, fail_on=fail_on, ignore_noqa=ignore_noqa,
        isolated=isolated, watch=watch, fix=fixing,
    )
    if watch:
        from .watch import watch_check

        click.get_current_context().exit(watch_check(opts))
    click.get_current_context().exit(run_check(opts))


def _default_root(opts: CheckOptions) -> str:
    """The root of the default settings (files with no config above them): the working folder when
    it holds every path, as under pre-commit, so what else is checked never changes it."""
    cwd = os.getcwd()
    given = [opts.stdin_filename or "stdin.py"] if opts.reads_stdin else list(opts.paths)
    absolute = [os.path.abspath(p) for p in given]
    try:
        if all(os.path.commonpath([cwd, p]) == cwd for p in absolute):
            return cwd
        common = os.path.commonpath(absolute)
    except ValueError:  # paths on different drives (Windows)
        return cwd
    folder = common if os.path.isdir(common) else os.path.dirname(common)
    # Paths with nothing in common but the filesystem's root (`tree /dev/null`): the project
    # would be the whole filesystem, every file of the machine scanned for imports.
    return cwd if os.path.dirname(folder) == folder else folder


def make_resolver(opts: CheckOptions) -> Resolver:
    def adjust(config: Config) -> Config:
        return config.with_cli(opts.select, opts.ignore, opts.extend_select,
                               None if opts.respect_gitignore else False, opts.max_file_size, opts.ignore_noqa)
    try:
        return Resolver(_default_root(opts), opts.config_path, adjust, isolated=opts.isolated)
    except ConfigError as exc:
        _fail(str(exc))


def discover_files(opts: CheckOptions, resolver: Resolver) -> list[str]:
    try:
        found = discover(list(opts.paths), resolver.for_folder, follow_symlinks=opts.follow_symlinks)
    except ConfigError as exc:
        _fail(str(exc))
    if not opts.quiet:
        for w in found.warnings:
            warn(w)
    if found.missing:
        for m in found.missing:
            click.echo(f"siblint: error: {escape_text(m)}: no such file or directory", err=True)
        raise click.exceptions.Exit(EXIT_ERROR)
    return found.files


def _jobs(requested: int | None) -> int:
    """`-j N`, at most the CPUs this process may use: more workers only add memory (each holds its
    own project index; `-j64` on 2 CPUs forked 30 workers, 2.0 GB, for the same time as `-j2`)."""
    from ..run.runner import default_jobs

    return min(requested or default_jobs(), default_jobs())


def collect_diagnostics(opts: CheckOptions, resolver: Resolver, opened: list | None = None) -> list[Diagnostic]:
    """`opened`: receives the caches the run opened (siblint.run.cache.Cache)."""
    from ..run import runner

    if opts.reads_stdin:
        from ..lint.engine import new_project

        config = _config_of(resolver, opts.stdin_filename or "stdin.py")
        data = sys.stdin.buffer.read(config.max_file_size + 1)  # one byte more tells "too large"
        from .fixing import remember_source

        remember_source(opts.stdin_filename or "stdin.py", data)  # fixes, and the JSON report's, are of it
        return runner.check_file(opts.stdin_filename or "stdin.py", config, new_project(config), data=data)
    files = discover_files(opts, resolver)
    if not files and not opts.quiet:
        warn("no Python files found under the given paths")
    groups: dict[Config, list[str]] = {}
    for f in files:
        groups.setdefault(resolver.for_file(f), []).append(f)  # discovery already loaded these configs
    caches: list = [] if opened is None else opened
    cache = _open_cache(opts, project_root(resolver.used()), caches)
    progress = None if opts.quiet else runner.Progress(len(files), live=runner.progress_wanted())
    diagnostics: list[Diagnostic] = []
    # One project index per config, as each file's own run would have; one pool for all of them.
    for result in runner.run_many([(group, config, cache and cache(config)) for config, group in groups.items()],
                                  _jobs(opts.jobs), progress):
        diagnostics += result.diagnostics
    if caches:
        from ..run.cache import prune_once

        prune_once(caches)  # once for the run, not once per config
    return sorted(diagnostics, key=Diagnostic.sort_key)


def _config_of(resolver: Resolver, path: str) -> Config:
    try:
        return resolver.config_for(path)
    except ConfigError as exc:
        _fail(str(exc))


def _open_cache(opts: CheckOptions, root: str, opened: list):  # -> config -> a Cache factory, or None
    if opts.no_cache:
        return None

    refused: dict[str, bool] = {}  # folder -> not to be used; one check (and one warning) per run

    def for_config(config: Config):
        def open_cache():  # called only once a file passes the pre-filter
            from ..run import cache

            folder = opts.cache_dir or cache.default_dir("", root, None)
            found = cache.Cache(folder, cache.config_key(config), max_size=config.cache_max_size)
            if found.folder not in refused:  # each config's run asks; a git process per ask was most of a warm run
                refused[found.folder] = _refused(found, folder, root)
            if refused[found.folder]:
                return None
            found.defer_prune = True  # collect_diagnostics prunes once, after every config's run
            opened.append(found)
            return found

        return open_cache

    return for_config


def _refused(found: Cache, folder: str, root: str) -> bool:
    """Whether the cache folder must not be used (a link leaving the tree, a link, tracked by git), warned once."""
    link = escaping_link(folder, [os.getcwd(), root], folder_itself=True)
    if link:
        warn(f"cache folder not used ({_leaves(link)})")
        return True
    refusal = found.refusal()
    if refusal:
        warn(refusal)
    return refusal is not None


def show_settings(opts: CheckOptions, resolver: Resolver) -> str:
    target = opts.stdin_filename if opts.reads_stdin else opts.paths[0]
    config = _config_of(resolver, target or ".")
    settings = {"file": target, **config.settings(), "framework-versions": _framework_versions(target or ".", config)}
    return json.dumps(settings, indent=2) + "\n"


def _framework_versions(target: str, config: Config) -> list[dict[str, str]]:
    """Which side of each version-dependent premise the checked project was taken to run, and why."""
    from ..model.project import ProjectIndex
    from ..model.versions import assumed_versions

    path = os.path.join(target, "_") if os.path.isdir(target) else target
    out: list[dict[str, str]] = []
    for a in assumed_versions(path, ProjectIndex([config.root or os.path.dirname(os.path.abspath(path))])):
        r = a.release
        side = f"{r.distribution} >= {r.since}" if a.current else f"{r.distribution} < {r.since}"
        out.append({
            "assumed": side,
            "behaviour": r.premise if a.current else r.before,
            "because": f"{a.pin.distribution}{a.pin.specifier or ' (no version)'} in {a.pin.source}" if a.pin
            else "no pin found: the newest release",
        })
    return out


def run_check(opts: CheckOptions) -> int:
    """Lint, write the report, and return the exit status."""
    resolver = make_resolver(opts)
    if opts.show_settings:
        write_report(show_settings(opts, resolver), opts.output, roots=_output_roots(opts))
        return EXIT_CLEAN
    if opts.show_files:
        from ..reporters.paths import shown_path

        write_report("".join(f"{escape_text(shown_path(f))}\n" for f in discover_files(opts, resolver)), opts.output,
                     roots=_output_roots(opts))
        return EXIT_CLEAN
    caches: list = []
    diagnostics = collect_diagnostics(opts, resolver, caches)
    if opts.reads_stdin and (opts.fix.fix or opts.fix.diff):
        return fix_stdin(opts, resolver, diagnostics)
    if opts.fix.diff:
        return print_diff(opts, resolver, diagnostics)
    if opts.fix.fix:
        diagnostics = apply_fixes(opts, resolver, diagnostics)
    if opts.write_baseline:
        return write_baseline(opts, diagnostics)
    if opts.baseline:
        diagnostics = apply_baseline(opts, diagnostics)
    if opts.add_noqa:
        return add_noqa(opts, diagnostics)
    report = FORMATS[opts.fmt](diagnostics, report_base())
    painted = False
    readable = opts.fmt in TEXT_FORMATS
    if readable:
        from ..common import colour

        if opts.quiet:
            report = colour.without_summary(report)
        painted = colour.wanted(opts.color, to_file=bool(opts.output))
        if painted:
            report = colour.paint(report)
    stats = statistics_table(diagnostics) if opts.statistics else ""
    if stats and readable:
        report, stats = report + stats, ""
    write_report(report, opts.output, color=True if painted else None, roots=_output_roots(opts))
    if stats:
        click.echo(stats, err=True, nl=False)
    if not opts.quiet and readable:
        fix_hint(opts, diagnostics, caches[0] if caches else None)
    failing = [d for d in diagnostics if opts.fail_on == "warning" or d.severity == "error"]
    return EXIT_FINDINGS if failing and not opts.exit_zero else EXIT_CLEAN


def _check_fix_options(fixing: FixOptions, edits_otherwise: bool) -> None:
    if not (fixing.fix or fixing.diff):
        return
    if edits_otherwise:
        raise click.UsageError("--fix and --diff cannot be combined with --add-noqa or --write-baseline")


# Each round fixes what the last one left (two edits of one node, a fix that exposes another);
# ruff stops after 100, siblint's fixes settle in one or two.
FIX_ROUNDS = 4


def _fix_scope(opts: CheckOptions, resolver: Resolver) -> set[str]:
    """The files `--fix` may edit: the checked files, as discovery names them."""
    try:
        return set(discover(list(opts.paths), resolver.for_folder, follow_symlinks=opts.follow_symlinks).files)
    except ConfigError as exc:
        _fail(str(exc))


def _report_skipped(skipped: list[str]) -> None:
    for reason in dict.fromkeys(skipped):
        warn(reason)


def apply_fixes(opts: CheckOptions, resolver: Resolver, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """`--fix`: write the fixes, check again, and return what is left to report."""
    from . import fixing

    files, roots = _fix_scope(opts, resolver), _output_roots(opts)
    outcome = fixing.Outcome()
    since: int | None = opts.started_ns
    for _ in range(FIX_ROUNDS):
        planned = fixing.plan(diagnostics, files, roots, opts.fix.unsafe, outcome, since)
        before = len(outcome.written)
        fixing.write(planned, outcome)
        if len(outcome.written) == before:
            break
        since = None  # next round: this round's own writes, read again by the check below
        diagnostics = collect_diagnostics(opts, resolver)
    _report_skipped(outcome.skipped)
    if opts.fix.show:
        click.echo(fixing.show_fixes(outcome.written), err=True, nl=False)
    return diagnostics


def print_diff(opts: CheckOptions, resolver: Resolver, diagnostics: list[Diagnostic]) -> int:
    """`--diff`: the fixes as a unified diff on stdout; nothing is written. Exit 1 when there is one."""
    from . import fixing

    outcome = fixing.Outcome()
    planned = fixing.plan(diagnostics, _fix_scope(opts, resolver), _output_roots(opts), opts.fix.unsafe, outcome,
                          opts.started_ns)
    _report_skipped(outcome.skipped)
    write_report("".join(ff.diff() for ff in planned), opts.output, roots=_output_roots(opts))
    n = sum(len(ff.fixes) for ff in planned)
    if not opts.quiet:
        click.echo(f"Would fix {n} finding{'s' if n != 1 else ''}." if n else "No fixes available.", err=True)
    return EXIT_FINDINGS if planned else EXIT_CLEAN


def fix_stdin(opts: CheckOptions, resolver: Resolver, diagnostics: list[Diagnostic]) -> int:
    """`--fix -` (ruff's way): the fixed source on stdout, the findings left on stderr (or `-o`);
    `--diff -`: the diff on stdout, exit 1 when there is one."""
    from ..lint.engine import new_project
    from ..run import runner
    from . import fixing

    path = opts.stdin_filename or "stdin.py"
    config = _config_of(resolver, path)
    fixed, left = fixing.FileFix(path, fixing.given_source(path), fixing.given_source(path), []), diagnostics
    outcome = fixing.Outcome()
    if len(fixed.before) <= config.max_file_size:  # a larger one was not checked: nothing to fix
        fixed, left = fixing.fix_source(
            path, fixed.before, diagnostics, opts.fix.unsafe,
            lambda data: runner.check_file(path, config, new_project(config), data=data),
            1 if opts.fix.diff else FIX_ROUNDS, outcome)
    _report_skipped(outcome.skipped)
    if opts.fix.diff:
        write_report(fixed.diff() if fixed.fixes else "", opts.output, roots=_output_roots(opts))
        return EXIT_FINDINGS if fixed.fixes else EXIT_CLEAN
    sys.stdout.buffer.write(fixed.after)
    shutil.copyfileobj(sys.stdin.buffer, sys.stdout.buffer)  # what was past the size limit, unread
    sys.stdout.buffer.flush()
    if opts.fix.show:
        click.echo(fixing.show_fixes([fixed] if fixed.fixes else []), err=True, nl=False)
    report = FORMATS[opts.fmt](left, report_base())
    if opts.output:
        write_report(report, opts.output, roots=_output_roots(opts))
    elif not opts.quiet or left:
        click.echo(report, err=True, nl=False)
    failing = [d for d in left if opts.fail_on == "warning" or d.severity == "error"]
    return EXIT_FINDINGS if failing and not opts.exit_zero else EXIT_CLEAN


def fix_hint(opts: CheckOptions, diagnostics: list[Diagnostic], cache: Any = None) -> None:
    """ruff's hint: how many of the findings left a fix could remove, and with which flag (the unsafe
    ones only when `--unsafe-fixes` was given). `cache`: the run's, which remembers the counts."""
    if not diagnostics or opts.reads_stdin:
        return  # nothing to load; stdin cannot be read twice
    from .fix_counts import fixable_counts

    safe, unsafe = fixable_counts(diagnostics, cache)
    if safe:
        warn(f"{safe} finding{'s' if safe != 1 else ''} fixable with --fix")
    if unsafe and opts.fix.unsafe:  # asked for: a plain run's stderr stays quiet (CI logs, editors)
        more = " more" if safe else ""
        warn(f"{unsafe}{more} fixable with --fix --unsafe-fixes (unsafe: they change behaviour the way the "
             "rule asks; `siblint explain CODE` says how)")


def write_baseline(opts: CheckOptions, diagnostics: list[Diagnostic]) -> int:
    from . import baseline

    assert opts.write_baseline
    _refuse_escaping_link(opts.write_baseline, "the baseline", _output_roots(opts))
    try:
        n = baseline.write(opts.write_baseline, diagnostics)
    except OSError as exc:
        _fail(f"cannot write the baseline to {opts.write_baseline}: {exc.strerror or exc}")
    if not opts.quiet:
        click.echo(f"siblint: wrote {n} finding{'s' if n != 1 else ''} to the baseline {opts.write_baseline}", err=True)
    return EXIT_CLEAN


def apply_baseline(opts: CheckOptions, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    from . import baseline

    assert opts.baseline
    try:
        fresh, matched = baseline.new_findings(opts.baseline, diagnostics)
    except baseline.BaselineError as exc:
        _fail(str(exc))
    if matched and not opts.quiet:
        click.echo(f"siblint: {matched} finding{'s' if matched != 1 else ''} in the baseline not shown", err=True)
    return fresh


def add_noqa(opts: CheckOptions, diagnostics: list[Diagnostic]) -> int:
    from .add_noqa import add_noqa as edit_files

    outcome = edit_files(diagnostics, opts.started_ns)
    for reason in outcome.skipped:
        warn(reason)
    n = outcome.added
    click.echo(f"Added {n} noqa directive{'s' if n != 1 else ''} in {outcome.files} file{'s' if outcome.files != 1 else ''}.",
               err=True)
    return EXIT_FINDINGS if outcome.skipped else EXIT_CLEAN


def _output_roots(opts: CheckOptions) -> list[str]:
    """The folders a pull request may control: the working folder and the paths being checked."""
    named = [os.path.abspath(p) for p in opts.paths if p != STDIN]
    return [os.getcwd(), *(p if os.path.isdir(p) else os.path.dirname(p) for p in named)]


def _leaves(link: str) -> str:
    # No escaping here: warn() and _fail() escape the whole message once.
    return (f"{link} is a symbolic link to {os.path.realpath(link)}, outside the project, "
            "and siblint does not write outside it through a link in the checked tree")


def _refuse_escaping_link(path: str, what: str, roots: list[str]) -> None:
    link = escaping_link(path, roots)
    if link:
        _fail(f"cannot write {what} to {path}: {_leaves(link)} (name a path outside the tree, or remove the link)")


def write_report(report: str, output: str | None, color: bool | None = None, roots: list[str] | None = None) -> None:
    """To stdout, or to `output` without ever writing through a symlink (a pull request can commit
    one at the report's path, or at a folder above it): a symlink is refused, and so is a folder
    link inside `roots` that leads outside them; a regular file is replaced by a complete new one
    (a temporary file in the same folder, renamed over it), and a device such as /dev/null is
    written in place."""
    if not output:
        click.echo(report, nl=False, color=color)  # color=True: click keeps ANSI codes on a pipe
        return
    _refuse_escaping_link(output, "the report", roots if roots is not None else [os.getcwd()])
    data = report.encode("utf-8")
    try:
        st = os.lstat(output)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        _fail(f"cannot write the report to {output}: {exc.strerror or exc}")
    if st is not None and stat.S_ISLNK(st.st_mode):
        _fail(f"cannot write the report to {output}: it is a symbolic link, and siblint does not write "
              "through links (remove it, or name another path)")
    try:
        if st is not None and not stat.S_ISREG(st.st_mode):
            fd = os.open(output, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0))
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
        else:
            replace_file(output, data, prefix=".siblint-report-")
    except OSError as exc:
        _fail(f"cannot write the report to {output}: {exc.strerror or exc}")


def statistics_table(diagnostics: list[Diagnostic]) -> str:
    """`count<TAB>CODE<TAB>name` per code, most frequent first (ruff's --statistics layout)."""
    from ..rule_api.registry import (
        by_code,  # the rules load only when a command needs them
    )

    counts = Counter(d.code for d in diagnostics)
    rules = by_code()
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return "".join(f"{n}\t{code}\t{rules[code].name if code in rules else ''}\n" for code, n in rows)


def rules_markdown() -> str:
    """The rule table of the README (`siblint rules --format markdown`)."""
    from ..rule_api.registry import all_rules

    rows = ["| Code | Name | Default | What it finds |", "| --- | --- | --- | --- |"]
    for r in all_rules():
        rows.append(f"| `{r.code}` | `{r.name}` | {'on' if r.default_enabled else 'off'} | {r.summary} |")
    return "\n".join(rows) + "\n"


@main.command("rules")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json", "docs"]), default="text", show_default=True,
              help="markdown: the README's rule table; docs: one page per rule, written to --output.")
@click.option("--output", "output_dir", type=click.Path(file_okay=False, path_type=str), metavar="DIR",
              help="With --format docs: the folder for the pages (docs/rules in this repository).")
def list_rules(fmt: str, output_dir: str | None) -> None:
    """List every rule: code, name, default on/off, one line."""
    from ..rule_api.registry import all_rules

    if (fmt == "docs") != (output_dir is not None):
        raise click.UsageError("--format docs and --output DIR go together")
    if fmt == "docs":
        from .docs import write_pages

        assert output_dir is not None
        changed = write_pages(output_dir)
        click.echo(f"{output_dir}: {len(changed)} page(s) written or removed" if changed else f"{output_dir}: up to date")
    elif fmt == "markdown":
        click.echo(rules_markdown(), nl=False)
    elif fmt == "json":
        click.echo(json.dumps([{"code": r.code, "name": r.name, "default_enabled": r.default_enabled,
                                "severity": r.severity, "summary": r.summary} for r in all_rules()], indent=2))
    else:
        for r in all_rules():
            state = "on" if r.default_enabled else "off"
            click.echo(f"{r.code}  {r.name:<40} {state:<4} {r.summary}")


@main.command()
@click.argument("code")
def explain(code: str) -> None:
    """Print the documentation of rule CODE, such as SIB201."""
    from ..rule_api.registry import by_code

    rule = by_code().get(code.upper())
    if rule is None:
        raise click.UsageError(f"unknown rule {code!r}; `siblint rules` lists them")
    default = "on by default" if rule.default_enabled else "off by default (enable with --extend-select)"
    click.echo(f"# {rule.name} ({rule.code})\n\n{default}\n\n{rule.doc()}")


@main.command(short_help="Remove the cache that `siblint check PATH` uses.")
@click.argument("path", required=False, default=".", type=click.Path(path_type=str))
@click.option("--cache-dir", type=click.Path(file_okay=False, path_type=str), metavar="DIR",
              help="The cache folder to remove  [default: as `siblint check PATH` would use]")
def clean(path: str, cache_dir: str | None) -> None:
    """Remove the cache that `siblint check PATH` uses (only a folder siblint made)."""
    from ..run import cache, cache_bounds

    if cache_dir is None:
        opts = CheckOptions(paths=(path,))
        resolver = make_resolver(opts)
        _config_of(resolver, path)
        cache_dir = cache.default_dir("", project_root(resolver.used()), None)
    try:
        freed, left = cache_bounds.clean(cache_dir)
    except cache_bounds.NotACache as exc:
        if str(exc) == "no such folder":
            click.echo(escape_text(f"siblint: no cache at {cache_dir}"), err=True)
            return
        _fail(f"{cache_dir} not removed: {exc}")
    kept = f"; kept what siblint did not write: {', '.join(sorted(left))}" if left else ""
    click.echo(escape_text(f"siblint: removed the cache at {cache_dir} ({freed / 1e6:.1f} MB){kept}"), err=True)


@main.command(short_help="Run the language server on stdio, for editors.")
@click.option("--stdio", is_flag=True, help="Talk over stdin/stdout (the default and only transport; accepted for editors that pass it).")
def server(stdio: bool) -> None:
    """Run the language server (diagnostics, rule docs on hover, a noqa quick fix) on stdio."""
    try:
        from .server import serve
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").split(".")[0]
        if missing not in ("pygls", "lsprotocol"):
            raise
        _fail(f"`siblint server` needs {missing}, which is not installed: pip install 'siblint[server]'")
    serve()


def console() -> NoReturn:
    """The `siblint` command: `main`, then out without tearing the interpreter down (its heap of
    imported modules and of the run's facts: about 0.1 s after a run of a small tree that nothing
    needs, as mypy does). Output is flushed first; a status that is not a number is printed, as
    `sys.exit` does. The run already closed its files, its cache and its worker processes."""
    try:
        main()
        status: object = EXIT_CLEAN  # click's standalone mode exits; kept for clarity
    except SystemExit as exc:
        status = exc.code
    if status is None:
        status = EXIT_CLEAN
    elif not isinstance(status, int):
        click.echo(status, err=True)
        status = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader that left (`| head`), a stream already closed
            pass
    os._exit(status)


if __name__ == "__main__":  # pragma: no cover
    console()
