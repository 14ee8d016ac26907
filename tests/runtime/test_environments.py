"""The runtime tests' own environments: built once, reused while their pins stand, rebuilt when
half-built."""

from __future__ import annotations

import subprocess

import pytest

from . import environments
from .environments import MARKER, BuildFailed, python_env

PINS = ["iniconfig==2.0.0"]  # tiny, pure Python, already a pytest dependency elsewhere


@pytest.fixture
def envs_root(tmp_path, monkeypatch):
    monkeypatch.setattr(environments, "ROOT", tmp_path / "envs")
    return tmp_path / "envs"


def test_uv_is_installed_with_the_test_extras():
    assert environments.uv_binary() is not None  # else every venv is built with pip: minutes, not seconds


@pytest.mark.parametrize("use_uv", [True, False])
def test_built_once_and_reused(envs_root, use_uv):
    python = python_env("probe", PINS, use_uv=use_uv)
    config = (python.parent.parent / "pyvenv.cfg").read_text(encoding="utf-8")
    assert ("\nuv = " in config) is use_uv, config  # uv records itself there; the standard venv does not
    out = subprocess.run([str(python), "-c", "import iniconfig; print(iniconfig.__file__)"],
                         capture_output=True, text=True, check=True).stdout
    assert str(envs_root) in out
    marker = python.parent.parent / MARKER
    stamp = marker.stat().st_mtime_ns
    assert python_env("probe", PINS, use_uv=use_uv) == python
    assert marker.stat().st_mtime_ns == stamp  # reused, not rebuilt


def test_half_built_folder_is_rebuilt(envs_root):
    python = python_env("probe", PINS)
    folder = python.parent.parent
    (folder / MARKER).unlink()  # as if the build had been killed before its last step
    (folder / "leftover").write_text("x")
    assert python_env("probe", PINS) == python
    assert not (folder / "leftover").exists() and (folder / MARKER).is_file()


def test_a_failed_build_fails_loudly(envs_root):
    with pytest.raises(BuildFailed, match="exited"):
        python_env("broken", ["siblint-no-such-package-anywhere==0.0.1"])


def test_a_declared_environment_builds_in_the_background_and_waits(envs_root):
    from concurrent.futures import ThreadPoolExecutor

    from .environments import Declared

    env = Declared(lambda: python_env("probe", PINS))
    with ThreadPoolExecutor(max_workers=1) as pool:
        env.start(pool)
        env.start(pool)  # a second start does not build again
        assert env.python().name == "python" and env.python() == env.get()
    failing = Declared(lambda: python_env("broken", ["siblint-no-such-package-anywhere==0.0.1"]))
    with pytest.raises(BuildFailed):
        failing.get()
    with pytest.raises(BuildFailed):  # every test that needs it fails, not only the first
        failing.get()


def test_modules_that_name_the_same_venv_share_one_build(monkeypatch):
    from .environments import declare_python

    monkeypatch.setattr(environments, "DECLARED", [])
    monkeypatch.setattr(environments, "_BY_FOLDER", {})
    first = declare_python("shared", ["a==1", "b==2"])
    assert declare_python("shared", ["b==2", "a==1"]) is first  # the order of the pins does not matter
    assert declare_python("shared", ["a==1"]) is not first and declare_python("other", ["a==1", "b==2"]) is not first
    assert len(environments.DECLARED) == 3


def test_without_node_an_npm_folder_fails_with_a_clear_message(envs_root, monkeypatch):
    from .environments import node_env

    monkeypatch.setattr(environments.shutil, "which", lambda name: None)  # as on a machine without Node
    with pytest.raises(BuildFailed, match="need Node and npm on PATH"):
        node_env("probe-js", ["zod@4.6.7"])
    assert not envs_root.exists() or not any(envs_root.iterdir())  # nothing half-built is left
