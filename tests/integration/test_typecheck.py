"""The type checker is part of the test command: mypy, configured in pyproject.toml, must pass.

`linter/` installs as `siblint` and `rules/` as `siblint.rules`; mypy reads a copy laid out that way.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from support import ROOT


def test_mypy_passes_on_the_package(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "linter", tmp_path / "siblint", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "rules", tmp_path / "siblint" / "rules", ignore=shutil.ignore_patterns("__pycache__"))
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(tmp_path / ".mypy"),
         "-p", "siblint"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
