"""Packaging: the wheel holds only `siblint`, and installs (regular and editable) into a fresh venv
beside django-rules' top-level `rules` package without either shadowing the other."""

from __future__ import annotations

import configparser
import sys
import zipfile
from pathlib import Path

import pytest
from support import HAZARD, ROOT, copy_project, run, write

PIP_ENV = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_COMPILE": "1"}

# Runs inside the fresh venv: which module each import name resolves to, and what sits in site-packages.
PROBE = """
import importlib, importlib.metadata as md, json, os, site, sys
import siblint, siblint.rules, siblint.interfaces.cli, siblint.interfaces.flake8_plugin, siblint.reporters, siblint.frameworks
import rules
out = {"siblint": siblint.__file__, "siblint.rules": siblint.rules.__file__, "rules": rules.__file__,
       "rules_is_django_rules": hasattr(rules, "add_rule") and hasattr(rules, "predicate")}
for name in ("linter",):
    try:
        importlib.import_module(name)
        out[name] = "importable"
    except ImportError:
        out[name] = None
sp = site.getsitepackages()[0]
out["site_packages"] = sorted(os.listdir(sp))
out["siblint_files"] = sorted({str(f).split("/")[0] for f in md.files("siblint")})
out["rules_owner"] = [d.metadata["Name"] for d in md.distributions() if any(str(f) == "rules/__init__.py" for f in d.files or ())]
print(json.dumps(out))
"""


def pip(venv_python: Path, *args: str, cwd: Path) -> None:
    proc = run([sys.executable, "-m", "pip", "--python", str(venv_python), *args], cwd, env=PIP_ENV, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]


def probe(venv_python: Path, cwd: Path) -> dict:
    import json

    proc = run([str(venv_python), "-c", PROBE], cwd)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> tuple[Path, Path]:
    """(source snapshot, built wheel)."""
    base = tmp_path_factory.mktemp("packaging")
    src = copy_project(base / "src")
    proc = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(base / "dist"), str(src)], base,
               env=PIP_ENV, timeout=300)
    assert proc.returncode == 0, proc.stderr
    [wheel] = (base / "dist").glob("siblint-*.whl")
    return src, wheel


def test_wheel_holds_only_siblint_and_every_module(build):
    src, wheel = build
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names} == {"siblint", wheel.name.split("-py")[0] + ".dist-info"}
    expected = {f"siblint/{p.relative_to(src / 'linter').as_posix()}" for p in (src / "linter").rglob("*.py")}
    expected |= {f"siblint/rules/{p.relative_to(src / 'rules').as_posix()}" for p in (src / "rules").rglob("*.py")}
    missing = expected - set(names)
    assert not missing, f"modules missing from the wheel (list new subpackages in pyproject.toml): {sorted(missing)}"
    entry_points = configparser.ConfigParser()
    entry_points.read_string(zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt"))).decode())
    assert entry_points["console_scripts"]["siblint"] == "siblint.interfaces.cli:console"
    assert entry_points["flake8.extension"]["SIB"] == "siblint.interfaces.flake8_plugin:Plugin"


def test_fresh_venv_install_beside_django_rules(build, tmp_path):
    src, wheel = build
    venv = tmp_path / "venv"
    proc = run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    python = venv / "bin" / "python"
    write(tmp_path / "work", {"bad.py": HAZARD})
    work = tmp_path / "work"  # not the checkout: its `linter/` and `rules/` folders must not be on sys.path

    pip(python, "install", "-q", str(wheel), "rules", cwd=work)
    found = probe(python, work)
    site_packages = str(venv)
    assert found["siblint"].startswith(site_packages) and found["siblint.rules"].startswith(site_packages)
    assert found["siblint.rules"].endswith("/siblint/rules/__init__.py")
    assert found["rules"].endswith("/site-packages/rules/__init__.py") and found["rules_is_django_rules"]
    assert found["rules_owner"] == ["rules"]  # only django-rules ships a top-level `rules`
    assert found["linter"] is None and "linter" not in found["site_packages"]
    # Everything siblint installed: its package, its metadata, and `../../../bin/siblint`.
    assert found["siblint_files"] == ["..", "siblint", wheel.name.split("-py")[0] + ".dist-info"]

    script = run([str(venv / "bin" / "siblint"), "check", "bad.py"], work)
    assert script.returncode == 1 and script.stdout.startswith("bad.py:4:39: SIB201 "), script.stdout + script.stderr
    flake8 = run([str(venv / "bin" / "flake8"), "--select", "SIB", "bad.py"], work)
    assert flake8.returncode == 1 and flake8.stdout.startswith("bad.py:4:39: SIB201 "), flake8.stdout + flake8.stderr

    # The editable install maps the same import names onto the source folders.
    pip(python, "install", "-q", "--no-deps", "-e", str(src), cwd=work)
    found = probe(python, work)
    assert found["siblint"] == str(src / "linter" / "__init__.py")
    assert found["siblint.rules"] == str(src / "rules" / "__init__.py")
    assert found["rules"].endswith("/site-packages/rules/__init__.py") and found["rules_is_django_rules"]
    assert found["linter"] is None and "linter" not in found["site_packages"] and "rules" in found["site_packages"]
    script = run([str(venv / "bin" / "siblint"), "check", "bad.py"], work)
    assert script.returncode == 1 and script.stdout.startswith("bad.py:4:39: SIB201 ")


def test_pyproject_maps_both_folders_under_siblint():
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = data["tool"]["setuptools"]
    assert setuptools["package-dir"] == {"siblint": "linter", "siblint.rules": "rules"}
    assert all(p == "siblint" or p.startswith("siblint.") for p in setuptools["packages"])
