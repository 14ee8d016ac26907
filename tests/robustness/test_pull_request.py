"""Issue 12: siblint as a CI gate on a pull request whose author controls the tree.

Every attack is committed to a git repository as the pull request would commit it (symlinks,
forged cache files, hostile names), cloned the way CI checks it out, and checked there with the
installed console script. Each test shows that nothing outside the repository was written and
that the report is the honest one (what `--no-cache` reports for the same tree).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from siblint.run import cache as cache_mod
from siblint.run.cache import Cache, Entry
from siblint.settings.config import load
from support import ROOT, git, run, script

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink") or shutil.which("git") is None or sys.platform == "win32",
                                reason="needs git and POSIX symlinks")

EXAMPLE = (ROOT / "examples" / "checkout_agent.py").read_text()
PYPROJECT = '[tool.siblint]\nselect = ["SIB"]\n'
SECRET = "sk_live_SECRET_TOKEN_123"


def pull_request(tmp_path: Path, plant=None) -> Path:
    """The pull request's repository: the example agent, a config, and whatever `plant(repo)` adds."""
    repo = tmp_path / "pr"
    repo.mkdir()
    (repo / "pyproject.toml").write_text(PYPROJECT)
    (repo / "agent.py").write_text(EXAMPLE)
    if plant:
        plant(repo)
    git(["init", "-q", "-b", "main"], repo)
    git(["add", "-A", "-f"], repo)
    git(["commit", "-q", "-m", "pr"], repo)
    return repo


def checkout(tmp_path: Path, repo: Path, name: str = "ci") -> Path:
    git(["clone", "-q", str(repo), name], tmp_path)
    return tmp_path / name


def ci(args: list[str], cwd: Path, tmp_path: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`siblint` as CI runs it: its own home (and so its own cache key)."""
    home = tmp_path / "ci-home"
    home.mkdir(exist_ok=True)
    return run([script("siblint"), *args], cwd, env={"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")},
               timeout=timeout)


def honest(cwd: Path, tmp_path: Path) -> str:
    proc = ci(["check", "--no-cache", "--format", "json", "."], cwd, tmp_path)
    assert proc.returncode == 1, proc.stderr
    found = json.loads(proc.stdout)
    assert sorted(d["code"] for d in found) == ["SIB101", "SIB201", "SIB301"]
    return proc.stdout


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder outside the repository that the CI user can write, with one existing file."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "existing.txt").write_text("precious\n")
    return folder


# ---- S1: a symlink at the report's path ---------------------------------------------------------
def test_report_path_committed_as_a_symlink_is_refused(tmp_path, outside):
    def plant(repo: Path) -> None:
        os.symlink(outside / "existing.txt", repo / "siblint.sarif")
        os.symlink(outside / "created.pth", repo / "report.txt")  # dangling: open() would create it

    work = checkout(tmp_path, pull_request(tmp_path, plant))
    before = snapshot(outside)
    for fmt, out in (("sarif", "siblint.sarif"), ("text", "report.txt")):
        proc = ci(["check", "--format", fmt, "-o", out, "."], work, tmp_path)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr == f"siblint: error: cannot write the report to {out}: it is a symbolic link, " \
                              "and siblint does not write through links (remove it, or name another path)\n"
    assert snapshot(outside) == before and sorted(p.name for p in outside.iterdir()) == ["existing.txt"]
    # A regular file at the path is replaced whole, with the honest report.
    proc = ci(["check", "--format", "json", "-o", "fresh.json", "."], work, tmp_path)
    assert proc.returncode == 1 and (work / "fresh.json").read_text() == honest(work, tmp_path)
    assert not [p for p in work.iterdir() if p.name.startswith(".siblint-report-")]


def test_report_to_a_device_and_to_an_existing_file(tmp_path):
    (tmp_path / "agent.py").write_text(EXAMPLE)
    (tmp_path / "old.txt").write_text("x" * 10_000)  # longer than the report: nothing of it may remain
    proc = run([script("siblint"), "check", "--no-cache", "-o", os.devnull, "agent.py"], tmp_path)
    assert proc.returncode == 1 and proc.stdout == "" and proc.stderr == ""
    proc = run([script("siblint"), "check", "--no-cache", "-o", "old.txt", "agent.py"], tmp_path)
    assert proc.returncode == 1
    text = (tmp_path / "old.txt").read_text()
    assert text.endswith("Found 3 findings (1 error, 2 warnings).\n") and "xxxx" not in text


# ---- S2, S10: a committed cache folder ---------------------------------------------------------
CACHE_PLANTS = {
    "links_to_outside_files": lambda repo, out: (
        (repo / ".siblint_cache").mkdir(),
        os.symlink(out / "existing.txt", repo / ".siblint_cache" / ".gitignore"),
        os.symlink(out / "new-tag", repo / ".siblint_cache" / "CACHEDIR.TAG"),
    ),
    "folder_is_a_link": lambda repo, out: os.symlink(out, repo / ".siblint_cache"),
    "v1_is_a_link": lambda repo, out: ((repo / ".siblint_cache").mkdir(), os.symlink(out, repo / ".siblint_cache" / "v1")),
    "index_is_dev_zero": lambda repo, out: _planted_index(repo, lambda p: os.symlink("/dev/zero", p)),
    "index_is_a_fifo_link": lambda repo, out: (os.mkfifo(out / "fifo"), _planted_index(repo, lambda p: os.symlink(out / "fifo", p))),
}


def _index_name(ci_root: Path) -> str:
    """Where CI's run looks for its findings index: the clone's path is predictable."""
    from siblint.settings.config import from_table

    config = from_table({"select": ["SIB"]}, str(ci_root), str(ci_root / "pyproject.toml"))
    return os.path.relpath(Cache(str(ci_root / ".siblint_cache"), cache_mod.config_key(config)).index_path, ci_root)


def _planted_index(repo: Path, make) -> None:
    target = repo / _index_name(repo.parent / "ci")
    target.parent.mkdir(parents=True, exist_ok=True)
    make(target)


@pytest.mark.parametrize("attack", sorted(CACHE_PLANTS))
@pytest.mark.parametrize("layout", ["git clone", "archive without .git"])
def test_committed_cache_writes_nothing_outside_and_changes_nothing(tmp_path, outside, attack, layout):
    work = checkout(tmp_path, pull_request(tmp_path, lambda repo: CACHE_PLANTS[attack](repo, outside)))
    if layout != "git clone":
        shutil.rmtree(work / ".git")  # a CI that checks out a tarball: git cannot tell what is committed
    reference = honest(work, tmp_path)
    before = snapshot(outside)
    for _ in range(2):  # cold, then what would be warm
        proc = ci(["check", "--format", "json", "."], work, tmp_path, timeout=60)  # a FIFO read would hang
        assert proc.returncode == 1, proc.stderr
        assert proc.stdout == reference
        assert "Traceback" not in proc.stderr
    assert snapshot(outside) == before
    assert sorted(p.name for p in outside.iterdir()) == sorted(["existing.txt"] + (["fifo"] if "fifo" in attack else []))
    warnings = [line for line in proc.stderr.splitlines() if "cache folder not used" in line]
    assert all(line.startswith("siblint: warning: ") for line in proc.stderr.splitlines())
    if layout == "git clone" or attack == "folder_is_a_link":
        assert len(warnings) == 1, proc.stderr
    else:
        assert warnings == []
        if attack.startswith("index"):  # the planted name was the one CI used: now our own file
            index = work / _index_name(work)
            assert index.is_file() and not index.is_symlink()


# ---- S3: a forged cache entry -------------------------------------------------------------------
def _forge(repo: Path, ci_root: Path, secret: bytes) -> None:
    """The attacker's forgery, made with siblint's own writer: "no findings" for agent.py as CI
    names it, in the cache folder CI will use, under the key of CI's configuration."""
    config = load(str(ci_root))
    forged = Cache(str(repo / ".siblint_cache"), cache_mod.config_key(config), secret=secret)
    sha = cache_mod.content_hash((ci_root / "agent.py").read_bytes())
    for given in ("agent.py", "./agent.py"):
        forged.entries[f"{ci_root / 'agent.py'}\0{given}"] = Entry(sha, [], [], "agent")
    forged.loaded = forged.dirty = True
    forged.save()
    assert Path(forged.index_path).is_file()


@pytest.mark.parametrize("layout", ["git clone", "archive without .git"])
def test_forged_cache_entry_costs_a_reanalysis_never_a_finding(tmp_path, layout):
    repo = pull_request(tmp_path)
    work = checkout(tmp_path, repo)
    reference = honest(work, tmp_path)
    _forge(repo, work, secret=b"the attacker's own key")
    git(["add", "-A", "-f"], repo)
    git(["commit", "-q", "-m", "cache"], repo)
    git(["pull", "-q"], work)
    if layout != "git clone":
        shutil.rmtree(work / ".git")
    assert (work / ".siblint_cache").is_dir()
    for _ in range(2):
        proc = ci(["check", "--format", "json", "."], work, tmp_path)
        assert proc.returncode == 1 and proc.stdout == reference, proc.stdout + proc.stderr


def test_the_forgery_is_accepted_with_this_machines_key(tmp_path):
    """The control: the same forgery, made with the key CI holds, is served. So the key (which the
    pull request cannot know) is what stops it in the test above, not a mistake in the forgery."""
    repo = pull_request(tmp_path)
    work = checkout(tmp_path, repo)
    honest(work, tmp_path)
    shutil.rmtree(work / ".git")
    env_home = tmp_path / "ci-home" / ".cache"
    proc = run([sys.executable, "-c", "from siblint.run import cache; print(cache.machine_key().hex())"], work,
               env={"XDG_CACHE_HOME": str(env_home)})
    _forge(work, work, secret=bytes.fromhex(proc.stdout.strip()))
    proc = ci(["check", "."], work, tmp_path)
    assert (proc.returncode, proc.stdout) == (0, "All checks passed.\n"), proc.stdout + proc.stderr


# ---- S4: output injection -----------------------------------------------------------------------
HOSTILE_FILE = "x\n::add-mask::S\n::error file=evil.py,line=1::fake.py"
HOSTILE_DIR = "dir\n::notice::n"
HOSTILE_LINK = "dangling\n::error::e.py"
INJECTING_TOOL = EXAMPLE.replace(
    "@function_tool\ndef charge_card",
    '@function_tool(name_override="evil\\n::error file=x.py::INJECTED\\x1b[2J\\u2028::warning::w")\ndef charge_card')


def _no_runner_commands(text: str) -> None:
    assert not [line for line in text.splitlines() if line.lstrip().startswith("::")], text
    assert "\x1b" not in text and "\u2028" not in text


def test_hostile_names_and_strings_never_start_a_line(tmp_path):
    def plant(repo: Path) -> None:
        (repo / HOSTILE_FILE).write_text(EXAMPLE)
        (repo / HOSTILE_DIR).mkdir()
        (repo / HOSTILE_DIR / "agent\x1b[31m.py").write_text(EXAMPLE)
        (repo / "tools_agent.py").write_text(INJECTING_TOOL)
        os.symlink(repo / "gone.py", repo / HOSTILE_LINK)

    work = checkout(tmp_path, pull_request(tmp_path, plant))
    for args in (["check", "--no-cache", "."], ["check", "."], ["check", "--format", "github", "."],
                 ["check", "--statistics", "."]):
        proc = ci(args, work, tmp_path)
        assert proc.returncode == 1, proc.stderr
        _no_runner_commands(proc.stderr)
        if "github" not in args:
            _no_runner_commands(proc.stdout)
            assert proc.stdout.count(": SIB301 ") == 4  # one per agent file: nothing was lost to escaping
        else:  # the real annotations, each one line, names escaped GitHub's way
            lines = proc.stdout.split("\n")[:-1]  # the runner's line breaks (splitlines() knows more)
            assert lines and all(line.startswith(("::error ", "::warning ")) for line in lines)
    assert "dangling\\n::error::e.py: skipped" in proc.stderr
    proc = ci(["check", "-o", "report.txt", "."], work, tmp_path)
    text = (work / "report.txt").read_text()
    _no_runner_commands(text)
    assert "x\\n::add-mask::S\\n::error file=evil.py,line=1::fake.py:" in text
    assert "evil\\n::error file=x.py::INJECTED\\x1b[2J\\u2028::warning::w" in text
    # JSON keeps every name exactly (it escapes by its own rules).
    found = json.loads(ci(["check", "--format", "json", "."], work, tmp_path).stdout)
    assert {os.path.normpath(d["path"]) for d in found} >= {HOSTILE_FILE, f"{HOSTILE_DIR}/agent\x1b[31m.py"}


# ---- S7: symlinks that leave the repository -----------------------------------------------------
def test_links_out_of_the_repository_are_not_walked(tmp_path, outside):
    (outside / "agents_elsewhere").mkdir()
    (outside / "agents_elsewhere" / "secret_agent.py").write_text(
        EXAMPLE.replace("https://payments.example.com/charges", f"https://internal.corp/api?token={SECRET}"))

    def plant(repo: Path) -> None:
        os.symlink("/", repo / "root")
        (repo / "sub").mkdir()
        os.symlink(outside / "agents_elsewhere", repo / "sub" / "vendor")
        os.symlink(outside / "agents_elsewhere" / "secret_agent.py", repo / "leak.py")

    work = checkout(tmp_path, pull_request(tmp_path, plant))
    start = time.monotonic()
    proc = ci(["check", "--format", "json", "."], work, tmp_path, timeout=60)  # `root -> /` walked the filesystem
    assert proc.returncode == 1, proc.stderr
    assert SECRET not in proc.stdout + proc.stderr and "secret_agent" not in proc.stdout
    assert proc.stdout == honest(work, tmp_path)
    note = "skipped (symbolic link to outside the project; --follow-symlinks follows it)"
    assert sorted(proc.stderr.splitlines()) == [f"siblint: warning: {n}: {note}" for n in ("leak.py", "root", "sub/vendor")]
    assert time.monotonic() - start < 60
    assert ci(["check", "--format", "json", "sub"], work, tmp_path).stdout == "[]\n"
    # Asked for, folder links are followed.
    proc = ci(["check", "--follow-symlinks", "--format", "json", "sub"], work, tmp_path)
    assert proc.returncode == 1 and "sub/vendor/secret_agent.py" in proc.stdout


# ---- S9: workers die with their parent ------------------------------------------------------------
def _children(pid: int) -> set[int]:
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        out.update(int(c) for c in (task / "children").read_text().split())
    return out


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _signal_masks(pid: int | str = "self") -> str:
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return " ".join(line for line in lines if line.startswith(("SigBlk", "SigIgn")))


def _busy_pool(tmp_path: Path) -> tuple[subprocess.Popen, set[int]]:
    """A `-j2` run over enough work to keep two workers busy for a while, once both are up."""
    tools = "".join(f"C{i} = httpx.Client()\n@function_tool\ndef t{i}(a: int) -> str:\n    C{i}.post('https://x/{i}')\n"
                    f"    return ''\n" for i in range(150))
    # Each file takes about 0.3 s (2026-12): 160 of them keep two workers busy for ~25 s, wide enough
    # for a loaded CI machine to see both workers and signal the run before it ends (40 files took
    # ~6 s, and a busy run once ended before its SIGINT: exit 1, not 130). An interrupted run never
    # does the rest, so the size costs only the writing.
    for n in range(160):
        (tmp_path / f"m{n}.py").write_text("import httpx\nfrom agents import Agent, function_tool\n" + tools +
                                           "agent = Agent(name='a', tools=[" + ", ".join(f"t{i}" for i in range(150)) + "])\n")
    # The run starts as from a shell: Ctrl-C at its default, not blocked. A child inherits an ignored or
    # blocked SIGINT across exec, and the pytest worker that spawns it may hold one (a full CI run
    # saw the run finish through its SIGINT); the worker's own masks go into the failure message.
    proc = subprocess.Popen([script("siblint"), "check", "--no-cache", "-j", "2", "--format", "json", "."], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=_default_sigint)
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline and len(workers) < 2 and proc.poll() is None:
        time.sleep(0.2)
        workers = _children(proc.pid)
    assert len(workers) >= 2, "the pool never started"
    return proc, workers


def _gone(workers: set[int], seconds: float = 20) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(Path(f"/proc/{w}").exists() for w in workers):
        time.sleep(0.2)
    return [w for w in workers if Path(f"/proc/{w}").exists()]


PROC_TREE = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the process tree from /proc")


@PROC_TREE
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_pool_workers_exit_when_the_parent_dies(tmp_path, sig):
    """S9: after SIGTERM or SIGKILL of a -j2 run, its workers lived on holding stdout."""
    proc, workers = _busy_pool(tmp_path)
    try:
        proc.send_signal(sig)
        proc.wait(timeout=30)
        assert not _gone(workers), "orphaned workers"
        assert proc.stdout is not None and proc.stdout.read() == b""  # nobody holds the pipe
    finally:
        for w in workers:
            if Path(f"/proc/{w}").exists():
                os.kill(w, signal.SIGKILL)
        proc.kill()


@PROC_TREE
def test_ctrl_c_of_a_pool_run_is_exit_130(tmp_path):
    proc, workers = _busy_pool(tmp_path)
    try:
        masks = f"run: {_signal_masks(proc.pid)}; pytest worker: {_signal_masks()}"
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole process group
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, (masks, err)
        assert err.decode().splitlines()[-1] == "siblint: interrupted" and b"Traceback" not in err
        assert not _gone(workers)
    finally:
        for w in workers:
            if Path(f"/proc/{w}").exists():
                os.kill(w, signal.SIGKILL)
        proc.kill()
