"""Colour for the text report on a terminal, and the summary line `--quiet` leaves out.

Colour is added to the rendered text (path and position bold, the code and severity red for an
error and yellow for a warning, related locations dim), so the report's words are the same with and
without it. `auto` colours a terminal on stdout, or any stdout when FORCE_COLOR is set and not empty
(https://force-color.org, as ruff), never when only NO_COLOR is (https://no-color.org); a report
written to a file is never coloured unless `--color always` says so.
"""

from __future__ import annotations

import os
import re
import sys

import click

# `path:line:col: CODE severity:` (concise, full) and `  line:col CODE severity:` (grouped).
_FINDING = re.compile(r"^(?P<loc>\S.*?:\d+:\d+:|  \d+:\d+) (?P<code>[A-Z]+[0-9]+ (?P<severity>error|warning):) ")
_SEVERITY_COLOUR = {"error": "red", "warning": "yellow"}
_RELATED = re.compile(r"^(?P<indent>\s+)(?P<rest>\S.*)$")
_SUMMARY = re.compile(r"^(Found \d+ findings? \([^)]*\)\.|All checks passed\.)$")


def wanted(choice: str, to_file: bool) -> bool:
    if choice != "auto":
        return choice == "always"
    if to_file:
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return not os.environ.get("NO_COLOR") and sys.stdout.isatty()


def _paint_line(line: str) -> str:
    if m := _FINDING.match(line):
        colour = _SEVERITY_COLOUR[m["severity"]]
        return (click.style(m["loc"], bold=True) + " " + click.style(m["code"], fg=colour, bold=True) + " "
                + line[m.end():])
    if _SUMMARY.match(line):
        return click.style(line, bold=True)
    if m := _RELATED.match(line):
        return m["indent"] + click.style(m["rest"], dim=True)
    return line


def paint(report: str) -> str:
    return "".join(_paint_line(line.rstrip("\n")) + "\n" for line in report.splitlines(keepends=True))


def without_summary(report: str) -> str:
    lines = report.splitlines(keepends=True)
    return "".join(lines[:-1] if lines and _SUMMARY.match(lines[-1].rstrip("\n")) else lines)
