"""Shared fixtures: a throw-away project folder and helpers to lint text in it."""

from __future__ import annotations

import os
import tempfile
import textwrap
from pathlib import Path

import pytest
from siblint.common.diagnostics import Diagnostic
from siblint.lint.engine import analyse, filter_findings, new_project
from siblint.settings.config import Config


def lint_files(root: Path, files: dict[str, str], target: str, config: Config | None = None) -> list[Diagnostic]:
    """Write `files` under `root` and lint `target` among them, as one project."""
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")
    config = config or Config(root=str(root))
    path = root / target
    return filter_findings(analyse(str(path), path.read_bytes(), config, new_project(config)), config)


@pytest.fixture
def lint(tmp_path: Path):
    """lint(text, **other_files) -> findings for `main.py` (or `filename`) holding `text`."""

    def run(text: str, files: dict[str, str] | None = None, config: Config | None = None,
            filename: str = "main.py") -> list[Diagnostic]:
        all_files = dict(files or {})
        all_files[filename] = text
        return lint_files(tmp_path, all_files, filename, config)

    return run


@pytest.fixture
def scanned(monkeypatch) -> list[str]:
    """Files whose bytes the project scan worked through (not answered by the memo)."""
    seen: list[str] = []
    from siblint.model import project as project_mod

    real = project_mod.scan_part

    def counting(path: str, data: bytes, package: str):
        seen.append(os.path.basename(path))
        return real(path, data, package)

    monkeypatch.setattr(project_mod, "scan_part", counting)
    return seen


@pytest.fixture(autouse=True, scope="session")
def _own_cache_key_folder():
    """The cache's machine key (`$XDG_CACHE_HOME/siblint/key`) goes to a folder of this session, for
    the tests and every process they start, never to the home of whoever runs them."""
    with tempfile.TemporaryDirectory(prefix="siblint-xdg-") as folder:
        old = os.environ.get("XDG_CACHE_HOME")
        os.environ["XDG_CACHE_HOME"] = folder
        try:
            yield folder
        finally:
            if old is None:
                os.environ.pop("XDG_CACHE_HOME", None)
            else:
                os.environ["XDG_CACHE_HOME"] = old


def pytest_configure(config: pytest.Config) -> None:
    """The suite starts hundreds of siblint and flake8 processes. Where the machine forbids writing
    bytecode (`PYTHONDONTWRITEBYTECODE`, set on the CI machine) and siblint is installed editable,
    each would compile the whole package from source again (~0.25 s a process): compile it once here,
    in the controlling process, before any worker starts."""
    if hasattr(config, "workerinput"):
        return
    import compileall

    import siblint
    import siblint.rules

    for package in (siblint, siblint.rules):
        compileall.compile_dir(str(Path(package.__file__).parent), quiet=1)


# ---- heavier budgets (issue 6): fuzzing, the full smoke test, the big inputs --------------------
def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-slow", action="store_true", default=False,
        help="Run the heavier budgets: more fuzz examples, the whole standard library and site-packages "
             "in the smoke test, the bigger generated inputs, and tests marked `slow`.",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="heavier budget: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def run_slow(request: pytest.FixtureRequest) -> bool:
    """True under `--run-slow`: tests scale their budget up instead of being skipped."""
    return bool(request.config.getoption("--run-slow"))


@pytest.fixture
def parsed_names(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The base names of the files the engine parses with libcst, in order (issue 24's tests)."""
    from siblint.lint import engine

    seen: list[str] = []
    real = engine.facts_from_text

    def counting(text: str, path: str, *rest: object, **options: object):
        seen.append(os.path.basename(path))
        return real(text, path, *rest, **options)

    monkeypatch.setattr(engine, "facts_from_text", counting)
    return seen
