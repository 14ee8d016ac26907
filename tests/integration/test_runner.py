"""The runner: same output for any -j, a pool only when there is work for one, progress only on a
terminal, and nothing written outside the cache folder and the report."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from siblint.run import runner
from siblint.settings.config import Config

TOOL = """\
from agents import function_tool

@function_tool(failure_error_function=None)
async def tool_{n}(region: str) -> str:
    return "0.2"
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    for i in range(12):
        d = root / f"pkg{i % 3}"
        d.mkdir(parents=True, exist_ok=True)
        (d / "__init__.py").write_text("")
        (d / f"mod{i}.py").write_text(TOOL.format(n=i) * (1 + i % 4))
        (d / f"plain{i}.py").write_text("import os\n")
    (root / "broken.py").write_text("from agents import x\ndef f(:\n")
    return root


def files_of(root: Path) -> list[str]:
    return sorted(str(p) for p in root.rglob("*.py") if ".siblint_cache" not in p.parts)


def test_output_identical_for_any_jobs(tree: Path, monkeypatch) -> None:
    monkeypatch.setattr(runner, "POOL_MIN_BYTES", 0)  # force a real pool on a small tree
    monkeypatch.setattr(runner, "BATCH_FILES", 2)
    config = Config(root=str(tree))
    one = runner.run(files_of(tree), config, 1)
    two = runner.run(files_of(tree), config, 2)
    assert one.jobs_used == 1 and two.jobs_used == 2
    assert one.diagnostics == two.diagnostics
    assert one.files_passed == two.files_passed == 13
    assert {d.code for d in one.diagnostics} >= {"SIB201", "SIB900"}


def test_configs_too_small_for_a_pool_alone_share_one(tmp_path: Path, monkeypatch) -> None:
    """A tree of sub-projects with their own configs: each config's files as if run alone (its own
    project index), but one pool for all; run one by one, none was work enough to start one."""
    from siblint.run.cache import Cache, config_key

    monkeypatch.setattr(runner, "BATCH_FILES", 2)
    tool = "import requests\n" + TOOL + "\n@function_tool\ndef pay_{n}(x: str) -> str:\n" \
        "    requests.post('https://pay.example.com', json={{'x': x}})\n    return 'ok'\n" + "# pad\n" * 2000
    groups = []
    for i in range(4):
        sub = tmp_path / f"app{i}"
        for n in range(3):
            (sub / "app").mkdir(parents=True, exist_ok=True)
            (sub / "app" / f"tools{n}.py").write_text(tool.format(n=n))
        (sub / "app" / "agent.py").write_text("from agents import Agent\nfrom .tools0 import tool_0, pay_0\n\n"
                                             "agent = Agent(name='a', tools=[tool_0, pay_0])\n")
        config = Config(root=str(sub), source=str(sub / "pyproject.toml"))
        groups.append((sorted(str(p) for p in sub.rglob("*.py")), config))
    assert all(sum(os.path.getsize(f) for f in files) < runner.POOL_MIN_BYTES for files, _ in groups)
    alone = [runner.run(files, config, 2) for files, config in groups]
    assert {r.jobs_used for r in alone} == {1}
    for cached in (False, True):
        caches = [Cache(str(tmp_path / ".cache"), config_key(c)) if cached else None for _, c in groups]
        together = runner.run_many([(files, c, cache) for (files, c), cache in zip(groups, caches)], 2)
        assert {r.jobs_used for r in together} == {2}
        assert [r.diagnostics for r in together] == [r.diagnostics for r in alone]
    assert {d.code for r in alone for d in r.diagnostics} >= {"SIB101", "SIB201", "SIB301"}
    # a warm run answers every config from the cache the pool's workers filled
    warm = runner.run_many([(files, c, Cache(str(tmp_path / ".cache"), config_key(c))) for files, c in groups], 2)
    assert [r.files_analysed for r in warm] == [0] * 4 and [r.diagnostics for r in warm] == [r.diagnostics for r in alone]


def test_no_pool_for_little_work(tree: Path) -> None:
    result = runner.run(files_of(tree), Config(root=str(tree)), 8)
    assert result.jobs_used == 1  # a dozen small files do not pay for starting processes


def test_a_pool_for_many_files_however_small(tmp_path: Path) -> None:
    for n in range(runner.POOL_MIN_FILES):
        (tmp_path / f"mod{n}.py").write_text(TOOL.format(n=n))
    files = files_of(tmp_path)
    assert sum(os.path.getsize(f) for f in files) < runner.POOL_MIN_BYTES
    two = runner.run(files, Config(root=str(tmp_path)), 2)
    assert two.jobs_used == 2
    assert two.diagnostics == runner.run(files, Config(root=str(tmp_path)), 1).diagnostics
    assert len(two.diagnostics) == runner.POOL_MIN_FILES


def test_nothing_passes_nothing_analysed(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("import os\n")
    result = runner.run([str(tmp_path / "a.py")], Config(root=str(tmp_path)), 4)
    assert result.files_passed == 0 and result.files_analysed == 0 and result.diagnostics == []


def test_unreadable_file_is_reported(tmp_path: Path) -> None:
    missing = str(tmp_path / "gone.py")
    result = runner.run([missing], Config(root=str(tmp_path)), 1)
    assert [d.code for d in result.diagnostics] == ["SIB900"]


def test_batches_put_big_files_first_and_group_small_ones() -> None:
    sizes = {"big": 10 * runner.BATCH_BYTES, **{f"s{i}": 100 for i in range(40)}}
    batches = runner._batches(list(sizes), sizes)
    assert batches[0] == ["big"]
    assert all(len(b) <= runner.BATCH_FILES for b in batches)
    assert sorted(p for b in batches for p in b) == sorted(sizes)


def test_progress_only_after_delay_and_erased() -> None:
    out = io.StringIO()
    p = runner.Progress(3, stream=out, after=0.0)
    p.advance()
    p.advance(2)
    p.close()
    text = out.getvalue()
    assert "siblint: 3/3 files" in text and text.endswith("\r\033[K")
    quiet = io.StringIO()
    q = runner.Progress(3, stream=quiet, after=3600)
    q.advance(3)
    q.close()
    assert quiet.getvalue() == ""


def test_progress_never_when_piped_or_in_ci(monkeypatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("CI", raising=False)
    assert runner.progress_wanted(Tty())
    assert not runner.progress_wanted(io.StringIO())
    monkeypatch.setenv("CI", "true")
    assert not runner.progress_wanted(Tty())


def _siblint(args: list[str], cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "siblint", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env={**os.environ, **(env or {})})


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_cli_writes_only_its_cache_and_report(tree: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "SIBLINT_CACHE_DIR"}
    before = snapshot(tree)
    r1 = subprocess.run([sys.executable, "-m", "siblint", "check", str(tree), "-o", str(tmp_path / "r.txt")],
                        cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)
    assert r1.returncode == 1, r1.stderr
    assert r1.stderr == ""  # no progress when not on a terminal
    # No config file: the project root is the working folder, which holds the tree.
    assert snapshot(tree) == before
    assert (tmp_path / ".siblint_cache" / "CACHEDIR.TAG").exists()
    # Warm: the same report.
    r2 = subprocess.run([sys.executable, "-m", "siblint", "check", str(tree)], cwd=tmp_path, capture_output=True,
                        text=True, timeout=120, env=env)
    assert r2.stdout == (tmp_path / "r.txt").read_text()


def test_cli_no_cache_and_cache_dir(tree: Path, tmp_path: Path) -> None:
    r = _siblint(["check", str(tree), "--no-cache"], tmp_path)
    assert r.returncode == 1 and not (tree / ".siblint_cache").exists()
    r = _siblint(["check", str(tree), "--cache-dir", str(tmp_path / "c")], tmp_path)
    assert r.returncode == 1 and (tmp_path / "c" / "v2").is_dir() and not (tree / ".siblint_cache").exists()
    r = _siblint(["check", str(tree)], tmp_path, env={"SIBLINT_CACHE_DIR": str(tmp_path / "e")})
    assert r.returncode == 1 and (tmp_path / "e" / "v2").is_dir() and not (tree / ".siblint_cache").exists()


def test_ctrl_c_while_workers_fork_is_held_not_lost():
    """A Ctrl-C during the pool's forks is held (no KeyboardInterrupt in a half-forked pool) and
    then reported to the caller, which stops the run (it was ignored before: exit 1, not 130)."""
    import os
    import signal

    from siblint.run.runner import _sigint_deferred

    before = signal.getsignal(signal.SIGINT)
    with _sigint_deferred() as interrupted:
        os.kill(os.getpid(), signal.SIGINT)
        assert interrupted == [signal.SIGINT]
    assert interrupted and signal.getsignal(signal.SIGINT) is before
    with _sigint_deferred() as quiet:
        pass
    assert quiet == []


def test_a_tool_two_agent_modules_register_is_reported_once(tmp_path):
    """evalX1's irrigation agent: two agent modules wrap one tool in `FunctionTool`; the tool's module
    is reached by a relative path (the command line's) and an absolute one (an import's), and its
    related locations spelled both ways made one finding print twice."""
    from support import cli_findings, write

    write(tmp_path, {
        "app/__init__.py": "from .agent import root_agent\n",
        "app/sub/__init__.py": "",
        "app/tools/__init__.py": "from .notify import send_notification  # noqa: F401\n",
        "app/tools/notify.py": "import requests\n\n\ndef send_notification(text: str) -> str:\n    return _post(text)\n\n\n"
                               "def _post(text: str) -> str:\n"
                               "    requests.post('https://chat.example.com/messages', json={'text': text})\n    return 'sent'\n",
        "app/sub/alerts.py": "from google.adk.agents import Agent\nfrom google.adk.tools import FunctionTool\n\n"
                             "from ..tools import send_notification\n\n"
                             "alerts = Agent(name='alerts', model='m', tools=[FunctionTool(send_notification)])\n",
        "app/agent.py": "from google.adk.agents import Agent\nfrom google.adk.tools import FunctionTool\n\n"
                        "from .sub.alerts import alerts\nfrom .tools import send_notification\n\n"
                        "root_agent = Agent(name='root', model='m', tools=[FunctionTool(send_notification)], sub_agents=[alerts])\n",
    })
    for jobs in ("1", "2"):
        found = cli_findings(["."], tmp_path, ["--no-cache", "-j", jobs])
        assert [(path, line, code) for path, line, _, code, _ in found] == [("app/tools/notify.py", 4, "SIB103")], jobs
