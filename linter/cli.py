"""The `siblint` command: check, rules, explain, server.

Exit status: 0 no findings, 1 findings, 2 usage or configuration error, a missing path, or an
internal failure. An unexpected exception anywhere becomes one line on stderr and exit 2 (see
`SiblintGroup`), never a traceback.

To add an option to `check`: add a `click.option` to `check`, a field to `CheckOptions`, and use it
in `run_check`; the command function itself only converts arguments.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from dataclasses import dataclass
from typing import Any, NoReturn

import click

from siblint import __version__
from siblint.config import Config, ConfigError, load
from siblint.diagnostics import Diagnostic
from siblint.discovery import discover
from siblint.reporters import FORMATS, report_base

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
            click.echo(f"siblint: internal error: {type(exc).__name__}: {exc} "
                       "(this is a bug in siblint; please report it)", err=True)
            ctx.exit(EXIT_ERROR)


def _silence_stdout() -> None:
    # Python flushes stdout at exit; pointing it at /dev/null avoids a second BrokenPipeError.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


class SiblintError(click.ClickException):
    """A configuration or environment error: one line on stderr, exit 2."""

    exit_code = EXIT_ERROR

    def show(self, file: Any = None) -> None:
        click.echo(f"siblint: error: {self.format_message()}", err=True)


def _fail(message: str) -> NoReturn:
    raise SiblintError(message)


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
      siblint check --format sarif -o siblint.sarif .
      cat agent.py | siblint check - --stdin-filename agent.py
      siblint rules
      siblint explain SIB201
      siblint server            (a language server on stdio, for editors)
    """


@dataclass(frozen=True)
class CheckOptions:
    """Everything `check` was asked to do, after argument parsing."""

    paths: tuple[str, ...]
    fmt: str = "text"
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

    @property
    def reads_stdin(self) -> bool:
        return self.paths == (STDIN,)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@click.option("--format", "fmt", type=click.Choice(list(FORMATS)), default="text", show_default=True,
              help="Output format (sarif: for GitHub code scanning; github: workflow annotations).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=str),
              help="Write the report to FILE instead of stdout.")
@click.option("--select", metavar="CODES", help="Comma-separated codes or prefixes to check, replacing the default set.")
@click.option("--ignore", metavar="CODES", help="Comma-separated codes or prefixes to skip.")
@click.option("--extend-select", metavar="CODES", help="Comma-separated codes or prefixes to add to the selection.")
@click.option("--stdin-filename", metavar="PATH",
              help="Path to report (and to match per-file-ignores) for source read from stdin (`-`).")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False, path_type=str),
              help="Use this pyproject.toml instead of searching upwards from PATHS.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--statistics", is_flag=True, help="Also print a count per code (stderr for non-text formats).")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Parallel worker processes  [default: number of CPUs]")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
@click.option("--cache-dir", type=click.Path(file_okay=False, path_type=str), metavar="DIR",
              help="Cache folder  [default: $SIBLINT_CACHE_DIR, else .siblint_cache next to the config or the first path]")
def check(paths: tuple[str, ...], fmt: str, output: str | None, select: str | None, ignore: str | None,
          extend_select: str | None, stdin_filename: str | None, config_path: str | None, exit_zero: bool,
          statistics: bool, jobs: int | None, no_cache: bool, cache_dir: str | None) -> None:
    """Check PATHS: files or folders (default `.`); `-` reads stdin.

    \b
    Configuration comes from [tool.siblint] in the nearest pyproject.toml above PATHS;
    command-line options add to it.
    """
    if not paths and stdin_filename:
        paths = (STDIN,)
    if STDIN in paths and len(paths) > 1:
        raise click.UsageError("`-` (stdin) cannot be combined with other paths")
    if stdin_filename and paths != (STDIN,):
        raise click.UsageError("--stdin-filename only applies when the source is read from stdin (`-`)")
    opts = CheckOptions(
        paths=paths or (".",), fmt=fmt, output=output, select=_codes(select), ignore=_codes(ignore) or (),
        extend_select=_codes(extend_select) or (), stdin_filename=stdin_filename, config_path=config_path,
        exit_zero=exit_zero, statistics=statistics, jobs=jobs, no_cache=no_cache, cache_dir=cache_dir,
    )
    click.get_current_context().exit(run_check(opts))


def _config_start(opts: CheckOptions) -> str:
    """Where the search for pyproject.toml starts: the folder that holds every checked path."""
    if opts.reads_stdin:
        return opts.stdin_filename or "."
    try:
        return os.path.commonpath([os.path.abspath(p) for p in opts.paths])
    except ValueError:  # paths on different drives (Windows)
        return opts.paths[0]


def load_config(opts: CheckOptions) -> Config:
    try:
        config = load(_config_start(opts), opts.config_path)
        return config.with_cli(opts.select, opts.ignore, opts.extend_select)
    except ConfigError as exc:
        _fail(str(exc))


def collect_diagnostics(opts: CheckOptions, config: Config) -> list[Diagnostic]:
    from siblint import runner

    if opts.reads_stdin:
        from siblint.engine import new_project

        data = sys.stdin.buffer.read()
        return runner.check_file(opts.stdin_filename or "stdin.py", config, new_project(config), data=data)
    found = discover(list(opts.paths), config)
    for w in found.warnings:
        click.echo(f"siblint: warning: {w}", err=True)
    if found.missing:
        for m in found.missing:
            click.echo(f"siblint: error: {m}: no such file or directory", err=True)
        raise click.exceptions.Exit(EXIT_ERROR)
    progress = runner.Progress(len(found.files)) if runner.progress_wanted() else None
    return runner.run(found.files, config, opts.jobs or runner.default_jobs(), cache=_open_cache(opts, config),
                      progress=progress).diagnostics


def _open_cache(opts: CheckOptions, config: Config):  # -> a factory of siblint.cache.Cache, or None
    if opts.no_cache:
        return None

    def open_cache():  # called only once a file passes the pre-filter
        from siblint import cache

        folder = opts.cache_dir or cache.default_dir(config.source, config.root, opts.paths[0])
        return cache.Cache(folder, cache.config_key(config))

    return open_cache


def run_check(opts: CheckOptions) -> int:
    """Lint, write the report, and return the exit status."""
    config = load_config(opts)
    diagnostics = collect_diagnostics(opts, config)
    report = FORMATS[opts.fmt](diagnostics, report_base())
    stats = statistics_table(diagnostics) if opts.statistics else ""
    if stats and opts.fmt == "text":
        report, stats = report + stats, ""
    write_report(report, opts.output)
    if stats:
        click.echo(stats, err=True, nl=False)
    return EXIT_FINDINGS if diagnostics and not opts.exit_zero else EXIT_CLEAN


def write_report(report: str, output: str | None) -> None:
    if not output:
        click.echo(report, nl=False)
        return
    try:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(report)
    except OSError as exc:
        _fail(f"cannot write the report to {output}: {exc.strerror or exc}")


def statistics_table(diagnostics: list[Diagnostic]) -> str:
    """`count<TAB>CODE<TAB>name` per code, most frequent first (ruff's --statistics layout)."""
    from siblint.registry import by_code  # the rules load only when a command needs them

    counts = Counter(d.code for d in diagnostics)
    rules = by_code()
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return "".join(f"{n}\t{code}\t{rules[code].name if code in rules else ''}\n" for code, n in rows)


def rules_markdown() -> str:
    """The rule table of the README (`siblint rules --format markdown`)."""
    from siblint.registry import all_rules

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
    from siblint.registry import all_rules

    if (fmt == "docs") != (output_dir is not None):
        raise click.UsageError("--format docs and --output DIR go together")
    if fmt == "docs":
        from siblint.docs import write_pages

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
    """Print the documentation of rule CODE (e.g. SIB201)."""
    from siblint.registry import by_code

    rule = by_code().get(code.upper())
    if rule is None:
        raise click.UsageError(f"unknown rule {code!r}; `siblint rules` lists them")
    default = "on by default" if rule.default_enabled else "off by default (enable with --extend-select)"
    click.echo(f"# {rule.name} ({rule.code})\n\n{default}\n\n{rule.doc()}")


@main.command()
@click.option("--stdio", is_flag=True, help="Talk over stdin/stdout (the default and only transport; accepted for editors that pass it).")
def server(stdio: bool) -> None:
    """Run the language server (diagnostics, rule docs on hover, a noqa quick fix) on stdio."""
    try:
        from siblint.server import serve
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        _fail(f"`siblint server` needs {exc.name.split('.')[0]}, which is not installed: "
              "pip install 'siblint[server]'")
    serve()


if __name__ == "__main__":  # pragma: no cover
    main()
