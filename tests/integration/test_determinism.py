"""Issue 6, determinism: one tree, byte-identical JSON and SARIF output across runs, -j1 and -j2,
with no cache, a cold cache and a warm cache, and whatever the order the paths are given in."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest
from siblint.run import cache as cache_mod
from siblint.run import runner
from siblint.settings.config import Config
from support import CHECKOUT_TOOLS, run, script

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
