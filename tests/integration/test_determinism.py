"""Issue 6, determinism: one tree, byte-identical JSON and SARIF output across runs, -j1 and -j2,
with no cache, a cold cache and a warm cache, and whatever the order the paths are given in.

Issue 21: the same on trees where same-named modules and methods cross packages (a generated tree of
30 sibling packages in the default run; every development-corpus tree under `--run-slow`), with
-j1/-j2/-j4, the file list shuffled and reversed, cold and warm; and each file checked alone gets
exactly the findings it gets in the whole-tree run."""

from __future__ import annotations

import difflib
import json
import os
import random
from pathlib import Path

import pytest
from siblint.run import cache as cache_mod
from siblint.run import runner
from siblint.settings.config import Config
from support import CHECKOUT_TOOLS, run, script, sibling_packages

TOOLS = CHECKOUT_TOOLS
AGENT = """\
from agents import Agent
from app.tools import charge_card, lookup_tax

agent = Agent(name="a", tools=[charge_card, lookup_tax])
"""
# Enough bytes that -j2 really starts a pool (the runner keeps small runs inline).
PADDING = "".join(f"# padding line {i:05d} " + "x" * 60 + "\n" for i in range(200))


def _tree(root: Path) -> list[str]:
    files = {
        "app/__init__.py": "",
        "app/tools.py": TOOLS,
        "app/agent.py": AGENT,
        "broken.py": "from agents import function_tool\ndef broken(:\n",
        "deep.py": "from agents import function_tool\nx = " + " and ".join(["a"] * 10_000) + "\n",
        "ignored.py": "import os\n",
    }
    for i in range(12):
        files[f"svc/m{i:02d}.py"] = (
            "from agents import function_tool\n\n"
            f"@function_tool(failure_error_function=None)\nasync def tool_{i}() -> str:\n    return 'x'\n" + PADDING
        )
    files["svc/__init__.py"] = ""
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return sorted(files)


def _check(root: Path, args: list[str]) -> bytes:
    proc = run([script("siblint"), "check", *args], root, timeout=600)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.stdout.encode()


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_output_is_byte_identical_across_jobs_cache_and_path_order(tmp_path, fmt):
    rels = _tree(tmp_path)
    base = ["--format", fmt]
    reference = _check(tmp_path, [*base, "--no-cache", "-j", "1", "."])
    assert b"SIB201" in reference and b"SIB301" in reference and b"SIB900" in reference
    variants = {
        "again": [*base, "--no-cache", "-j", "1", "."],
        "-j2": [*base, "--no-cache", "-j", "2", "."],
        "cold cache -j2": [*base, "--cache-dir", "c1", "-j", "2", "."],
        "warm cache -j2": [*base, "--cache-dir", "c1", "-j", "2", "."],
        "warm cache -j1": [*base, "--cache-dir", "c1", "-j", "1", "."],
        "files, reversed": [*base, "--no-cache", "-j", "2", *(f"./{r}" for r in reversed(rels))],
        "folders, reversed": [*base, "--no-cache", "-j", "1", "./svc", "./broken.py", "./app", "./deep.py", "./ignored.py"],
    }
    if fmt == "sarif":  # same code path after the reporter; fewer runs keep the suite fast
        variants = {k: v for k, v in variants.items() if k in ("-j2", "cold cache -j2", "warm cache -j2", "files, reversed")}
    outputs = {name: _check(tmp_path, args) for name, args in variants.items()}
    # Paths given as `./x` vs `x` name the same file but print differently; every variant above
    # spells them the same way as the reference, so the bytes must match exactly.
    for name, out in outputs.items():
        if out != reference:
            diff = difflib.unified_diff(reference.decode().splitlines(), out.decode().splitlines(), lineterm="", n=1)
            pytest.fail(f"{fmt} output differs for: {name}\n" + "\n".join(list(diff)[:40]))


def test_the_variants_really_differ_in_how_they_ran(tmp_path):
    """The comparison above means something only if -j2 used a pool and the warm run used the cache."""
    _tree(tmp_path)
    files = sorted(str(p) for p in tmp_path.rglob("*.py"))
    config = Config(root=str(tmp_path))
    pooled = runner.run(files, config, jobs=2)
    assert pooled.jobs_used == 2
    inline = runner.run(files, config, jobs=1)
    assert inline.diagnostics == pooled.diagnostics
    c = cache_mod.Cache(str(tmp_path / "cache"), cache_mod.config_key(config))
    cold = runner.run(files, config, jobs=1, cache=c)
    warm = runner.run(files, config, jobs=1, cache=cache_mod.Cache(str(tmp_path / "cache"), cache_mod.config_key(config)))
    assert cold.files_analysed > 0 and warm.files_analysed == 0
    assert cold.diagnostics == warm.diagnostics == inline.diagnostics
    assert os.listdir(tmp_path / "cache")


# ---- issue 21: a function of the project, never of arrival order ------------------------------
# The development corpora, each repository exported at its labelled commit into one folder (README
# "Heavier budgets"); a --run-slow run without it fails, never skips.
CORPORA = Path(os.environ.get("SIBLINT_CORPUS_TREES", "corpus-trees")).resolve()


def _json_check(root: Path, args: list[str]) -> bytes:
    proc = run([script("siblint"), "check", "--format", "json", *args], root, timeout=3600)
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.stdout.encode()


def _python_files(root: Path) -> list[str]:
    """The files `siblint check .` walks, as it prints them (`./rel`)."""
    proc = run([script("siblint"), "check", "--show-files", "."], root, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return sorted(line for line in proc.stdout.splitlines() if line.endswith(".py"))


def _same_bytes_everywhere(root: Path, files: list[str], cache: Path) -> tuple[bytes, int]:
    """The whole-tree answer, asserting every variant prints the same bytes; (bytes, runs made)."""
    reference = _json_check(root, ["--no-cache", "-j", "1", "."])
    shuffled = list(files)
    random.Random(21).shuffle(shuffled)
    variants = {
        "-j2": ["--no-cache", "-j", "2", "."],
        "-j4": ["--no-cache", "-j", "4", "."],
        "files shuffled -j2": ["--no-cache", "-j", "2", *shuffled],
        "files reversed -j4": ["--no-cache", "-j", "4", *reversed(files)],
        "cold cache -j2": ["--cache-dir", str(cache), "-j", "2", "."],
        "warm cache -j1": ["--cache-dir", str(cache), "-j", "1", "."],
        "warm cache -j4, reversed": ["--cache-dir", str(cache), "-j", "4", *reversed(files)],
    }
    for name, args in variants.items():
        out = _json_check(root, args)
        if out != reference:
            diff = difflib.unified_diff(reference.decode().splitlines(), out.decode().splitlines(), lineterm="", n=1)
            pytest.fail(f"{root.name}: output differs for {name}\n" + "\n".join(list(diff)[:40]))
    return reference, 1 + len(variants)


def _each_file_alone(root: Path, files: list[str], whole: list[dict]) -> None:
    """`siblint check FILE` (in-process, one fresh run per file, from the tree's root) finds what
    the whole-tree run found in that file, no more, no less."""
    by_file: dict[str, list[tuple]] = {}
    for d in whole:
        by_file.setdefault(os.path.normpath(d["path"]), []).append((d["line"], d["column"], d["code"], d["message"]))
    here = os.getcwd()
    os.chdir(root)
    try:
        for rel in files:
            result = runner.run([rel], Config(root=str(root)), jobs=1)
            alone = sorted((d.loc.line, d.loc.col + 1, d.code, d.message) for d in result.diagnostics)
            assert alone == sorted(by_file.get(os.path.normpath(rel), [])), rel
    finally:
        os.chdir(here)


def test_thirty_sibling_packages_give_the_same_bytes_and_the_same_answer_alone(tmp_path):
    """deer-flow's shape: 30 packages each with a `tools.py` of the same tool and method names."""
    written = sibling_packages(tmp_path, 30, padding=24)  # enough bytes that -j2/-j4 start a pool
    files = sorted(f"./{rel}" for rel in written)
    out, _ = _same_bytes_everywhere(tmp_path, files, tmp_path.parent / f"{tmp_path.name}-cache")
    found = json.loads(out)
    # Each finding names its own package's endpoint, and exactly the packages that write have one.
    web = {(d["path"], d["message"].partition(":")[0] + ":" + d["message"].partition(":")[2].partition(":")[0])
           for d in found if d["code"] == "SIB101"}
    assert web == {(f"app/community/p{i:02d}/tools.py",
                    f"web_search is sync and performs POST to https://p{i}.example/orders via requests in Client.search")
                   for i in range(30) if i % 2 == 0 and i % 3 != 2}
    notes = {d["path"] for d in found if d["code"] == "SIB103"}
    assert notes == {f"scripts/p{i:02d}/tools.py" for i in range(30) if i % 2 == 0 and i % 3 == 2}
    _each_file_alone(tmp_path, files, found)


@pytest.mark.slow
@pytest.mark.parametrize("tree", sorted(p.name for p in CORPORA.iterdir()) if CORPORA.is_dir() else ["(none)"])
def test_every_corpus_tree_gives_the_same_bytes(tree, tmp_path):
    """Every repository of both development corpora: 8 runs each (-j1/-j2/-j4, shuffled, reversed,
    cold and warm cache), byte-identical; then every file with findings checked alone."""
    assert CORPORA.is_dir(), f"{CORPORA}: set SIBLINT_CORPUS_TREES to the exported corpus repositories (README)"
    root = CORPORA / tree
    files = _python_files(root)
    out, _ = _same_bytes_everywhere(root, files, tmp_path / "cache")
    found = json.loads(out)
    with_findings = sorted({f"./{os.path.normpath(d['path'])}" for d in found})
    _each_file_alone(root, with_findings, found)


def test_a_related_location_has_one_spelling_however_its_module_was_reached(tmp_path, monkeypatch):
    """deer-flow with -j1 printed `./backend/x.py` for a related location the process had analysed
    itself, and `backend/x.py` when a worker had loaded it through an import (absolute path)."""
    from siblint.reporters.paths import shown_path

    monkeypatch.chdir(tmp_path)
    assert shown_path("./backend/x.py") == shown_path(str(tmp_path / "backend/x.py")) == os.path.join("backend", "x.py")
    outside = str(tmp_path.parent / "other.py")
    assert shown_path(outside) == outside


# ---- two notebooks of one folder that `%%writefile` the same module --------------------------------
def _notebook(*cells: str) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "source": c.splitlines(True), "outputs": [],
                                  "execution_count": None} for c in cells],
                       "metadata": {"language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5})


WRITTEN = """\
%%writefile tools.py
import requests
from agents import Agent, function_tool

@function_tool
def charge(n: int) -> str:
    requests.post("https://pay.example.com", json={"n": n})
    return "ok"

"""


def test_notebooks_writing_one_module_path_get_their_own_answers_whatever_the_jobs(tmp_path):
    """a.ipynb's `tools.py` has an agent running `charge`; b.ipynb's, the same tool at the same
    place, has none. The run's answers are keyed by path and position: b's module must not get
    a's (it did in a process that had analysed a.ipynb first, so -j1 and -j2 differed)."""
    (tmp_path / "a.ipynb").write_text(_notebook(WRITTEN + 'agent = Agent(name="a", tools=[charge])\n'))
    # Big enough that -j2 starts a pool and b.ipynb is a batch of its own.
    (tmp_path / "b.ipynb").write_text(_notebook(WRITTEN, "print('deploy')\n" + "# padding\n" * 12_000))
    config = Config(root=str(tmp_path))
    files = [str(tmp_path / "a.ipynb"), str(tmp_path / "b.ipynb")]
    inline = runner.run(files, config, jobs=1)
    pooled = runner.run(files, config, jobs=2)
    assert pooled.jobs_used == 2
    alone = {f: runner.run([f], config, jobs=1).diagnostics for f in files}
    assert inline.diagnostics == pooled.diagnostics == alone[files[0]] + alone[files[1]]
    (b,) = alone[files[1]]
    assert "no agent of this project was found running it" in b.message
