"""Helpers for tests that drive siblint through real processes (console scripts, flake8, pip, git)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner
from siblint.settings.config import Config

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent  # the venv whose siblint/flake8/pre-commit the tests drive
# What a build or a pre-commit hook install needs; copying only these keeps builds out of the
# shared working tree and independent of unrelated files.
PROJECT_FILES = ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml", "linter", "rules")

HAZARD = """\
from agents import function_tool


@function_tool(failure_error_function=None)
async def lookup_tax(region: str) -> str:
    raise RuntimeError("tax service down")
"""
CLEAN = """\
from agents import function_tool


@function_tool
async def lookup_tax(region: str) -> str:
    return "0.2"
"""


# A sync tool that POSTs beside a tool whose failure handler is disabled: the SIB301 seed, as a
# `tools.py` module for tests that build small projects around it.
CHECKOUT_TOOLS = """\
import requests
from agents import function_tool

@function_tool
def charge_card(amount: int) -> str:
    requests.post("https://payments.example.com/charges", json={"amount": amount})
    return "charged"

@function_tool(failure_error_function=None)
async def lookup_tax(region: str) -> str:
    return "0.2"
"""


# The same tools in one module with the agent that groups them: SIB101, SIB201 and SIB301.
CHECKOUT_AGENT = (CHECKOUT_TOOLS.replace("from agents import function_tool", "from agents import Agent, function_tool")
                  + '\nagent = Agent(name="checkout", tools=[charge_card, lookup_tax])\n')


def cli_runner() -> CliRunner:
    """A click test runner that keeps stderr apart from stdout, on every click >= 8.1."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        return CliRunner()  # click >= 8.2 always captures stderr separately


def script(name: str) -> str:
    path = BIN / name
    assert path.exists(), f"{name} is not installed next to {sys.executable}"
    return str(path)


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")


def run(args: list[str], cwd: Path, stdin: str | None = None, env: dict[str, str] | None = None,
        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def siblint(args: list[str], cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The installed console script, in a real process."""
    return run([script("siblint"), *args], cwd, stdin)


def cli_findings(paths: list[str], cwd: Path, extra: list[str] | None = None) -> list[tuple[str, int, int, str, str]]:
    """(path, line, column, code, message) from `siblint check --format json`."""
    proc = siblint(["check", "--format", "json", *(extra or []), *paths], cwd)
    assert proc.returncode in (0, 1), proc.stderr
    return [(os.path.normpath(d["path"]), d["line"], d["column"], d["code"], d["message"]) for d in json.loads(proc.stdout)]


FLAKE8_FORMAT = "%(path)s\t%(row)d\t%(col)d\t%(code)s\t%(text)s"


def flake8_findings(args: list[str], cwd: Path, stdin: str | None = None) -> list[tuple[str, int, int, str, str]]:
    """(path, line, column, code, message) of SIB codes from a real flake8 process."""
    proc = run([script("flake8"), "--isolated", "--select", "SIB", f"--format={FLAKE8_FORMAT}", *args], cwd, stdin)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    out = []
    for line in proc.stdout.splitlines():
        path, row, col, code, text = line.split("\t", 4)
        out.append((os.path.normpath(path), int(row), int(col), code, text))
    return sorted(out)


def copy_project(dest: Path) -> Path:
    """A copy of the files a build needs, without caches or build leftovers."""
    dest.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")
    for name in PROJECT_FILES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore)
        elif src.exists():
            shutil.copy2(src, dest / name)
    return dest


GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def git(args: list[str], cwd: Path) -> None:
    proc = run(["git", *args], cwd, env=GIT_ENV)
    assert proc.returncode == 0, proc.stderr


def git_repo(path: Path) -> Path:
    """Make `path` a git repository with everything in it committed."""
    git(["init", "-q", "-b", "main"], path)
    git(["add", "-A"], path)
    git(["commit", "-q", "-m", "snapshot"], path)
    return path


# ---- one answer everywhere: a corpus where every rule fires, and every entry point's findings ----
# Valid Python that libcst cannot parse: SIB900 from every entry point (a syntax error would be
# flake8's own E999 instead: flake8 runs no plugin on a file CPython rejects).
LIBCST_REJECTS = "from agents import function_tool\nx = " + " ".join(['"a"'] * 5_000) + "\n"


# Each example folder is a project of its own (examples reuse module names such as `tools`), whose
# config extends the corpus's `siblint.toml`: tests put the settings under comparison there.
EXAMPLE_CONFIG = '[tool.siblint]\nextend = "../siblint.toml"\n'


def every_rule_corpus(root: Path, per_rule: int | None = None) -> set[str]:
    """Write one folder per INVALID example of every rule (default-off ones included) under `root`,
    plus a file libcst rejects; returns the codes the corpus must produce (SIB901 needs a crash).
    `per_rule`: at most that many examples of each rule, those spread over several files first
    (where one entry point could see less than another)."""
    import ast

    from siblint.rule_api.registry import all_rules

    codes = set()
    for rule in all_rules():
        examples = list(enumerate(rule.INVALID))
        if per_rule is not None:
            examples = sorted(examples, key=lambda e: not e[1].files)[:per_rule]
        for i, example in examples:
            if example.filename != "main.py":
                continue  # TS/JS examples: flake8, one of the entry points compared, is Python-only
            try:
                ast.parse(example.code)
            except SyntaxError:
                continue  # see LIBCST_REJECTS
            folder = root / f"{rule.code.lower()}_{i}"
            write(folder, {**example.files, "main.py": example.code, "pyproject.toml": EXAMPLE_CONFIG})
            codes.add(rule.code)
    write(root, {"sib900_libcst/main.py": LIBCST_REJECTS, "sib900_libcst/pyproject.toml": EXAMPLE_CONFIG,
                 "siblint.toml": ""})
    return codes | {"SIB900"}


def findings_by_entry_point(root: Path, paths: list[str], args: list[str] | None = None) -> dict[str, list]:
    """Sorted (path, line, column, code, message) of each entry point run on `paths` from `root`,
    with the same selection options (`--select`, `--ignore`, `--extend-select` mean the same in all).
    An entry point added later (a language server) adds its own key here."""
    return {
        "siblint check": sorted(cli_findings(paths, root, args)),
        "flake8": flake8_findings([*(args or []), *paths], root),
    }


def code_lines(lint, root: Path, select: tuple[str, ...]) -> Callable[..., list[tuple[str, int]]]:
    """`run(text, files=None, select=select)` -> sorted (code, line) of the findings for `main.py`."""

    def run(text: str, files: dict[str, str] | None = None, select: tuple[str, ...] = select) -> list[tuple[str, int]]:
        return sorted((d.code, d.loc.line) for d in lint(text, files, Config(root=str(root), select=select)))

    return run


def sibling_packages(root: Path, count: int = 30, padding: int = 0) -> dict[str, str]:
    """A tree like bytedance/deer-flow's: `count` sibling packages, each with a module named
    `tools.py` holding the same tool names and a `Client` class with the same method names; half of
    them really write (requests.post, a file), half are stubs. Three shapes in turn: namespace folders
    inside a regular package (no `__init__.py`), regular packages, and script-style folders whose
    agent does `from tools import save` (Python's sys.path[0]) and lists a plain function of a module
    that imports no framework. Returns what was written (relative path -> text)."""
    pad = "".join(f"# padding {i:05d} {'x' * 60}\n" for i in range(padding))
    files = {"app/__init__.py": "", "app/community/__init__.py": ""}
    for i in range(count):
        writes = i % 2 == 0
        search = f"requests.post('https://p{i}.example/orders', json={{'q': q}})" if writes else "{'q': q}"
        if i % 3 == 2:
            folder = f"scripts/p{i:02d}"
            files[f"{folder}/tools.py"] = (
                "def save(text):\n"
                + ("    with open('notes.txt', 'a') as fh:\n        fh.write(text)\n" if writes else "    return 'saved: ' + text\n")
                + pad)
            files[f"{folder}/agent.py"] = (
                "from google.adk.agents import Agent\nfrom tools import save\n\n"
                "root_agent = Agent(name='notes', model='gemini-2.0-flash', tools=[save])\n")
            continue
        folder = f"app/community/p{i:02d}"
        if i % 3 == 1:
            files[f"{folder}/__init__.py"] = ""
        files[f"{folder}/client.py"] = (
            "import requests\n\n\nclass Client:\n    def search(self, q):\n"
            f"        return {search}\n" + pad)
        files[f"{folder}/tools.py"] = (
            "from langchain.tools import tool\n\nfrom .client import Client\n\n\n"
            "@tool('web_search')\ndef web_search_tool(q: str) -> str:\n    return str(Client().search(q))\n" + pad)
    write(root, files)
    return files
