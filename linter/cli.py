"""The `siblint` command: check, rules, explain.

Exit status: 0 no findings, 1 findings, 2 usage or configuration error, a missing path, or an
internal failure.
"""

from __future__ import annotations

import os
import sys
from collections import Counter

import click

from siblint import __version__
from siblint.config import Config, ConfigError, load
from siblint.diagnostics import Diagnostic
from siblint.discovery import discover
from siblint.registry import all_rules, by_code
from siblint.reporters import FORMATS

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _codes(value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(c.strip().upper() for c in value.split(",") if c.strip())


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="siblint")
def main() -> None:
    """Find agent tools whose side effects outlive a sibling tool's fatal failure.

    \b
    Examples:
      siblint check src/
      siblint check --format sarif -o siblint.sarif .
      siblint explain SIB301
    """


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@click.option("--format", "fmt", type=click.Choice(sorted(FORMATS)), default="text", show_default=True,
              help="Output format.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write the report to FILE.")
@click.option("--select", help="Comma-separated codes or prefixes to check (replaces the default set).")
@click.option("--ignore", help="Comma-separated codes or prefixes to skip.")
@click.option("--extend-select", help="Comma-separated codes or prefixes to add to the selection.")
@click.option("--stdin-filename", help="The path to report for source read from stdin (`-`).")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False),
              help="Use this pyproject.toml instead of searching upwards.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--statistics", is_flag=True, help="Print a count per code after the report.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Parallel worker processes  [default: number of CPUs]")
def check(paths: tuple[str, ...], fmt: str, output: str | None, select: str | None, ignore: str | None,
          extend_select: str | None, stdin_filename: str | None, config_path: str | None, exit_zero: bool,
          statistics: bool, jobs: int | None) -> None:
    """Check PATHS (files or folders; default `.`; `-` reads stdin)."""
    from siblint import runner

    paths_l = list(paths) or ["."]
    start = stdin_filename if paths_l == ["-"] and stdin_filename else paths_l[0]
    try:
        config = load(start if start != "-" else ".", config_path)
        config = config.with_cli(_codes(select), _codes(ignore) or (), _codes(extend_select) or ())
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None

    diagnostics: list[Diagnostic]
    if paths_l == ["-"]:
        data = click.get_binary_stream("stdin").read()
        name = stdin_filename or "-"
        from siblint.engine import new_project

        diagnostics = runner.check_file(name, config, new_project(config), data=data)
    else:
        found = discover(paths_l, config)
        for w in found.warnings:
            click.echo(f"siblint: warning: {w}", err=True)
        if found.missing:
            for m in found.missing:
                click.echo(f"siblint: error: {m}: no such file or directory", err=True)
            sys.exit(EXIT_ERROR)
        diagnostics = runner.run(found.files, config, jobs or runner.default_jobs()).diagnostics

    report = FORMATS[fmt](diagnostics, config.root)
    if statistics and fmt == "text":
        report += _statistics(diagnostics)
    if output:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(report)
    else:
        click.echo(report, nl=False)
    if statistics and fmt != "text":
        click.echo(_statistics(diagnostics), err=True, nl=False)
    sys.exit(EXIT_FINDINGS if diagnostics and not exit_zero else EXIT_CLEAN)


def _statistics(diagnostics: list[Diagnostic]) -> str:
    counts = Counter(d.code for d in diagnostics)
    rules = by_code()
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return "".join(f"{n}\t{code}\t{rules[code].name if code in rules else ''}\n" for code, n in rows)


@main.command("rules")
def list_rules() -> None:
    """List every rule: code, name, default on/off, one line."""
    for r in all_rules():
        state = "on" if r.default_enabled else "off"
        click.echo(f"{r.code}  {r.name:<40} {state:<4} {r.summary}")


@main.command()
@click.argument("code")
def explain(code: str) -> None:
    """Print the documentation of rule CODE (e.g. SIB201)."""
    rule = by_code().get(code.upper())
    if rule is None:
        raise click.UsageError(f"unknown rule {code!r}; `siblint rules` lists them")
    default = "on by default" if rule.default_enabled else "off by default (enable with --extend-select)"
    click.echo(f"# {rule.name} ({rule.code})\n\n{default}\n\n{rule.doc()}")


if __name__ == "__main__":  # pragma: no cover
    main()
