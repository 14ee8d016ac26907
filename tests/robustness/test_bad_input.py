"""Issue 6: no input file can crash, hang or abort a run, and every other file's findings come out.

Hostile inputs get exactly one SIB900 naming the reason; odd but valid inputs are linted as usual.
Inputs that once crashed the process (libcst's native parser overflows its stack on 10,000 nested
brackets or a 10,000-term `and` chain) only ever run in a subprocess here, so a regression fails a
test instead of killing pytest. Heavier sizes run with `--run-slow`.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from siblint.lint.engine import analyse, filter_findings, new_project
from siblint.rule_api.registry import all_rules
from siblint.settings.config import Config
from siblint.syntax import source
from support import HAZARD, run, script

H = "from agents import function_tool\n"
# A real SIB201 finding on line 3 of any file that starts with HAZARD_HEAD.
HAZARD_HEAD = H + "\n@function_tool(failure_error_function=None)\nasync def lookup_tax(region: str) -> str:\n    return 'x'\n"
SUBPROCESS_TIMEOUT = 600  # a hang detector, not a speed assertion


def nested(n: int) -> str:
    return "x = " + "(" * n + "1" + ")" * n + "\n"


def chain(n: int, op: str = "+", term: str = "1") -> str:
    return "x = " + f" {op} ".join([term] * n) + "\n"


# name -> (bytes, substring of the SIB900 message). Every one of them imports the framework, so the
# pre-filter lets it through and the guard, not the pre-filter, decides.
HOSTILE: dict[str, tuple[bytes, str]] = {
    "syntax_error.py": ((H + "def broken(:\n    pass\n").encode(), "syntax error"),
    "python2.py": ((H + 'print "hello"\nexec "x = 1"\n').encode(), "syntax error"),
    "bad_utf8.py": (H.encode() + b"\nx = '\xff\xfe caf\xe9'\n", "not valid utf-8"),
    "wrong_cookie.py": (b"# -*- coding: ascii -*-\n" + H.encode() + "x = 'café'\n".encode(), "not valid ascii"),
    "unknown_cookie.py": (b"# coding: klingon\n" + H.encode(), "bad coding cookie"),
    "nul_bytes.py": (H.encode() + b"x = 1\0\n", "NUL bytes"),
    "nested_1000.py": ((H + nested(1_000)).encode(), "too many nested parentheses"),
    "nested_10000.py": ((H + nested(10_000)).encode(), "too many nested parentheses"),
    "nested_100000.py": ((H + nested(100_000)).encode(), "too many nested parentheses"),
    "mixed_brackets_10000.py": ((H + "x = " + "[{(" * 3_334 + "1" + ")}]" * 3_334 + "\n").encode(),
                                "too many nested parentheses"),
    "binop_10000.py": ((H + chain(10_000)).encode(), "nested"),
    # Valid Python (CPython accepts it) that libcst cannot take: the message says so.
    "and_chain_10000.py": ((H + chain(10_000, "and", "a")).encode(), "valid Python that libcst cannot parse"),
    "dotted_import_10000.py": ((H + "import " + ".".join(["a"] * 10_000) + "\n").encode(),
                               "valid Python that libcst cannot parse"),
    "implicit_concat_5000.py": ((H + "x = " + " ".join(['"a"'] * 5_000) + "\n").encode(),
                                "valid Python that libcst cannot parse"),
}
# Inputs that crashed libcst (and so the process) before the guard: subprocess only.
CRASHERS = {"nested_10000.py", "nested_100000.py", "mixed_brackets_10000.py", "and_chain_10000.py",
            "dotted_import_10000.py"}


def _valid_cases(slow: bool) -> dict[str, tuple[bytes, int]]:
    """name -> (bytes, line of the SIB201 the file must still report)."""
    hazard_lines = HAZARD_HEAD.splitlines(keepends=True)
    crlf = "".join(line.replace("\n", "\r\n") for line in hazard_lines)
    mixed = "".join(line.replace("\n", "\r\n") if i % 2 else line for i, line in enumerate(hazard_lines))
    # A generated module of 50,000 lines: prompt tables, as agent code has them (fast to parse);
    # with --run-slow, 50,000 lines of statements.
    if slow:
        body50k = "".join(f"v{i} = {i}\n" for i in range(50_000))
    else:
        block = 'PROMPT_{} = """\n' + "line of a long system prompt for the agent\n" * 48 + '"""\n'
        body50k = "".join(block.format(i) for i in range(1_000)) + "".join(f"v{i} = {i}\n" for i in range(500))
    # A 5 MB generated file: a serialized descriptor, as protobuf's *_pb2.py has it; with
    # --run-slow, 5 MB of a data table (one tuple per line).
    if slow:
        body5mb = "DATA = [\n" + "".join(f"    ('name{i}', {i}, 'some text value'),\n" for i in range(5_000_000 // 38)) + "]\n"
    else:
        body5mb = "DESCRIPTOR = b'" + "\\x0a\\x12agents" * (5_000_000 // 14) + "'\n" + "".join(
            f"_M{i} = DESCRIPTOR[{i}:{i + 7}]\n" for i in range(2_000))
    return {
        "bom.py": (b"\xef\xbb\xbf" + HAZARD_HEAD.encode(), 3),
        "latin1_cookie.py": (b"# -*- coding: latin-1 -*-\n" + HAZARD_HEAD.encode() + "x = 'café'\n".encode("latin-1"), 4),
        "crlf.py": (crlf.encode(), 3),
        "mixed_endings.py": (mixed.encode(), 3),
        # A form feed resets the indentation count (CPython's tokenizer), so it leads a line.
        "form_feed.py": (("\f" + H + "\f\n@function_tool(failure_error_function=None)\nasync def f():\n"
                          "\f    x = 1\n\f\n    return 'x'\n\f\n\fy = 2\n").encode(), 3),
        "nested_200.py": ((HAZARD_HEAD + nested(200)).encode(), 3),
        "plus_500.py": ((HAZARD_HEAD + chain(500)).encode(), 3),
        "and_500.py": ((HAZARD_HEAD + chain(500, "and", "a")).encode(), 3),
        "lines_50000.py": ((HAZARD_HEAD + body50k).encode(), 3),
        "generated_5mb.py": ((HAZARD_HEAD + body5mb).encode(), 3),
    }


def _analyse(tmp_path: Path, name: str, data: bytes, prefiltered: bool = True):
    path = tmp_path / name
    path.write_bytes(data)
    config = Config(root=str(tmp_path))
    return filter_findings(analyse(str(path), data, config, new_project(config), prefiltered=prefiltered), config)


# ---- in process: every hostile input that never reached libcst's crash --------------------------
@pytest.mark.parametrize("name", sorted(set(HOSTILE) - CRASHERS))
def test_hostile_input_is_one_sib900_naming_the_reason(name, tmp_path):
    data, reason = HOSTILE[name]
    found = _analyse(tmp_path, name, data)
    assert [d.code for d in found] == ["SIB900"], found
    assert reason in found[0].message, found[0].message


def test_binop_10000_never_reaches_libcst(monkeypatch):
    """CPython rejects 10,000 chained operators; libcst must not even be tried."""

    def boom(text: str):
        raise AssertionError("libcst was asked to parse a file CPython rejects")

    monkeypatch.setattr(source, "parse", boom)
    with pytest.raises(source.SourceError) as err:
        source.check_syntax(H + chain(10_000), "x.py")
    assert "nested" in err.value.reason


def test_guard_holds_whatever_recursion_limit_the_host_set(monkeypatch):
    """CPython's own nesting limit scales with sys.getrecursionlimit(); the depth guard does not."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(200_000)
    try:
        with pytest.raises(source.SourceError) as err:
            source.check_syntax(H + chain(20_000), "x.py")
    finally:
        sys.setrecursionlimit(old)
    assert "nested" in err.value.reason


def test_deep_but_valid_code_is_parsed_with_the_deep_retry(tmp_path, monkeypatch):
    """500 chained `+` overflow libcst's code generation at the default limit: the retry must run."""
    calls: list[int | None] = []
    real = source.run_isolated

    def spy(work, recursion_limit=None):
        calls.append(recursion_limit)
        return real(work, recursion_limit)

    monkeypatch.setattr(source, "run_isolated", spy)
    found = _analyse(tmp_path, "plus.py", (HAZARD_HEAD + chain(500)).encode())
    assert [(d.code, d.loc.line) for d in found] == [("SIB201", 3)]
    assert any(limit is not None for limit in calls), "the file did not need the deep retry; the test proves nothing"


@pytest.mark.parametrize("block", ["def t():", "if x:", "with x:"])
def test_deep_statement_beside_another_in_a_block_gets_the_retry_not_a_keyerror(tmp_path, block):
    """S11: the RecursionError of the deep statement must reach the retry through the enclosing
    block's position recording, which used to raise KeyError on the way out."""
    body = f"{block}\n    y = {' + '.join(['1'] * 600)}\n    x = 1\n"
    found = _analyse(tmp_path, "deep.py", (HAZARD_HEAD + body).encode())
    assert [(d.code, d.loc.line) for d in found] == [("SIB201", 3)], found


def test_valid_python_libcst_rejects_says_so_in_process(tmp_path):
    found = _analyse(tmp_path, "concat.py", HOSTILE["implicit_concat_5000.py"][0])
    assert [d.code for d in found] == ["SIB900"]
    assert "valid Python that libcst cannot parse" in found[0].message


def test_parser_bug_becomes_sib900_not_a_crash(tmp_path, monkeypatch):
    def broken(text: str):
        raise IndexError("bug in the parser")

    monkeypatch.setattr(source, "parse", broken)
    found = _analyse(tmp_path, "ok.py", HAZARD_HEAD.encode())
    assert [d.code for d in found] == ["SIB900"]
    assert "internal error while parsing (IndexError: bug in the parser)" in found[0].message


# ---- in process: odd but valid inputs are linted normally ---------------------------------------
@pytest.mark.parametrize("name", ["bom.py", "latin1_cookie.py", "crlf.py", "mixed_endings.py", "form_feed.py",
                                  "nested_200.py", "plus_500.py", "and_500.py", "lines_50000.py", "generated_5mb.py"])
def test_valid_input_is_linted_normally(name, tmp_path, request):
    data, line = _valid_cases(request.config.getoption("--run-slow"))[name]
    found = _analyse(tmp_path, name, data)
    assert [(d.code, d.loc.line) for d in found] == [("SIB201", line)], found


@pytest.mark.parametrize("text", ["", "# only a comment\n# from agents import function_tool\n", "\n\n\n", "\f\n"])
def test_empty_and_comment_only_files_parse_cleanly(text, tmp_path):
    # prefiltered=False: make the parser see them (the pre-filter alone would skip them).
    assert _analyse(tmp_path, "empty.py", text.encode(), prefiltered=False) == []
    assert _analyse(tmp_path, "empty.py", text.encode()) == []


# ---- a rule's bug: SIB901 for that file and rule, everything else still reports -----------------
def test_rule_bug_is_sib901_for_that_rule_and_file_only(tmp_path, monkeypatch):
    from siblint.run import runner

    victim = next(r for r in all_rules() if r.code == "SIB203")

    def explode(self, ctx):
        if ctx.path.endswith("bad.py"):
            raise KeyError("rule bug")
        return iter(())

    monkeypatch.setattr(victim, "check", explode)
    (tmp_path / "bad.py").write_text(HAZARD_HEAD)
    (tmp_path / "good.py").write_text(HAZARD_HEAD)
    config = Config(root=str(tmp_path))
    result = runner.run([str(tmp_path / "bad.py"), str(tmp_path / "good.py")], config, jobs=1)
    got = sorted((Path(d.path).name, d.code, d.loc.line) for d in result.diagnostics)
    assert got == [("bad.py", "SIB201", 3), ("bad.py", "SIB901", 1), ("good.py", "SIB201", 3)]
    sib901 = next(d for d in result.diagnostics if d.code == "SIB901")
    assert "SIB203" in sib901.message and "KeyError" in sib901.message


# ---- the real CLI, in a subprocess: crashers, a normal file beside them, exactly one SIB900 each --
def _cli_json(paths: list[str], cwd: Path, extra: tuple[str, ...] = ()) -> tuple[subprocess.CompletedProcess, list]:
    proc = run([script("siblint"), "check", "--format", "json", "--no-cache", *extra, *paths], cwd,
               timeout=SUBPROCESS_TIMEOUT)
    assert proc.returncode in (0, 1), f"exit {proc.returncode}\n{proc.stderr}"
    return proc, json.loads(proc.stdout)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_cli_survives_every_hostile_file_and_reports_the_rest(tmp_path, jobs):
    tree = tmp_path / "tree"
    tree.mkdir()
    for name, (data, _) in HOSTILE.items():
        (tree / name).write_bytes(data)
    (tree / "normal.py").write_text(HAZARD)
    proc, found = _cli_json(["tree"], tmp_path, ("-j", jobs))
    by_file: dict[str, list] = {}
    for d in found:
        by_file.setdefault(os.path.basename(d["path"]), []).append(d)
    for name, (_, reason) in HOSTILE.items():
        got = by_file.get(name, [])
        assert [d["code"] for d in got] == ["SIB900"], (name, got)
        assert reason in got[0]["message"], (name, got[0]["message"])
    assert [(d["code"], d["line"]) for d in by_file["normal.py"]] == [("SIB201", 4)]
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("name", sorted(CRASHERS))
def test_each_former_crasher_alone_in_a_subprocess(name, tmp_path):
    """One process per input: a native crash shows as a negative exit status, never as a pass."""
    data, reason = HOSTILE[name]
    (tmp_path / name).write_bytes(data)
    proc, found = _cli_json([name], tmp_path)
    assert proc.returncode == 1
    assert [d["code"] for d in found] == ["SIB900"] and reason in found[0]["message"]


def test_flake8_survives_hostile_files_and_reports_the_normal_one(tmp_path):
    """flake8 aborts its whole run when a plugin raises; and editors run it in-process.

    (Not binop_10000.py: flake8 7 itself dies with RecursionError in its own `ast.parse` of that
    file before any plugin runs; siblint cannot help there.)
    """
    for name in ("and_chain_10000.py", "dotted_import_10000.py", "bad_utf8.py", "syntax_error.py"):
        (tmp_path / name).write_bytes(HOSTILE[name][0])
    (tmp_path / "normal.py").write_text(HAZARD)
    proc = run([script("flake8"), "--isolated", "--select", "SIB,E999,E902", "-j", "1", "."], tmp_path,
               timeout=SUBPROCESS_TIMEOUT)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stdout.splitlines()
    assert any(line.startswith("./normal.py:4:") and "SIB201" in line for line in lines), proc.stdout
    for name in ("and_chain_10000.py", "dotted_import_10000.py"):
        mine = [line for line in lines if line.startswith(f"./{name}:")]
        assert len(mine) == 1 and "SIB900" in mine[0] and "libcst cannot parse" in mine[0], (name, mine)


# ---- paths ---------------------------------------------------------------------------------------
def test_symlink_loops_are_skipped_with_a_warning(tmp_path):
    tree = tmp_path / "tree"
    (tree / "pkg").mkdir(parents=True)
    (tree / "pkg" / "tools.py").write_text(HAZARD)
    os.symlink("b.py", tree / "a.py")
    os.symlink("a.py", tree / "b.py")  # a file-level loop
    os.symlink("..", tree / "pkg" / "up")  # a directory loop
    proc, found = _cli_json(["tree", "tree/a.py"], tmp_path)
    assert [(os.path.normpath(d["path"]), d["code"]) for d in found] == [(os.path.join("tree", "pkg", "tools.py"), "SIB201")]
    assert "a.py: skipped" in proc.stderr and "pkg/up" not in proc.stderr, proc.stderr  # folder links: not followed
    proc, found = _cli_json(["--follow-symlinks", "tree", "tree/a.py"], tmp_path)
    assert [(os.path.normpath(d["path"]), d["code"]) for d in found] == [(os.path.join("tree", "pkg", "tools.py"), "SIB201")]
    assert "a.py: skipped" in proc.stderr and "pkg/up: skipped (directory already visited: symlink loop?)" in proc.stderr


def test_missing_path_is_an_error_not_a_pass(tmp_path):
    (tmp_path / "ok.py").write_text(HAZARD)
    proc = run([script("siblint"), "check", "--no-cache", "ok.py", "no_such_dir"], tmp_path)
    assert proc.returncode == 2
    assert "no_such_dir: no such file or directory" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_fifo_and_devices_are_skipped_never_read(tmp_path):
    tree = tmp_path / "tree"
    tree.mkdir()
    os.mkfifo(tree / "pipe.py")  # a read would block for ever: the subprocess timeout catches it
    os.symlink("/dev/zero", tree / "zero.py")  # a read would never end
    (tree / "ok.py").write_text(HAZARD)
    os.mkfifo(tmp_path / "explicit_pipe.py")
    proc, found = _cli_json(["tree", "explicit_pipe.py", "/dev/null"], tmp_path)
    assert [(os.path.basename(d["path"]), d["code"]) for d in found] == [("ok.py", "SIB201")]
    for name in ("pipe.py", "zero.py", "explicit_pipe.py", "/dev/null"):
        assert f"{name}: skipped (not a regular file)" in proc.stderr, proc.stderr


def _unprivileged() -> list[str] | None:
    """A command prefix under which file permissions apply, or None when that is not possible here.

    Root stays root (so the venv, wherever CI put it, stays reachable) but loses the two
    capabilities that let it ignore permissions; `nobody` could not reach a venv under a 0700
    temporary folder."""
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0:
        return []  # already unprivileged: chmod 000 really denies
    if setpriv is None:
        return None
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search"]


def test_unreadable_file_gets_sib900_and_the_rest_still_reports():
    """As root, chmod 000 does not deny reads, so siblint runs without root's permission override."""
    prefix = _unprivileged()
    if prefix is None:
        pytest.fail("cannot drop privileges to test a permission error (setpriv missing)")
    base = Path(tempfile.mkdtemp(prefix="siblint-perm-"))
    try:
        base.chmod(0o755)
        (base / "ok.py").write_text(HAZARD)
        secret = base / "secret.py"
        secret.write_text(HAZARD)
        secret.chmod(0)
        # Prove the denial is real for the user siblint runs as, before relying on it.
        probe = subprocess.run([*prefix, sys.executable, "-c", f"open({str(secret)!r}, 'rb')"], capture_output=True,
                               text=True, timeout=60)
        assert probe.returncode != 0 and "Permission denied" in probe.stderr, probe.stderr
        proc = subprocess.run([*prefix, script("siblint"), "check", "--format", "json", "--no-cache", "-j", "1", str(base)],
                              capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT, cwd=base,
                              env={**os.environ, "HOME": str(base)})
        assert proc.returncode == 1, proc.stderr
        found = sorted((os.path.basename(d["path"]), d["code"], d["message"]) for d in json.loads(proc.stdout))
        assert [(n, c) for n, c, _ in found] == [("ok.py", "SIB201"), ("secret.py", "SIB900")]
        assert "cannot read file: Permission denied" in found[1][2]
    finally:
        (base / "secret.py").chmod(stat.S_IRUSR | stat.S_IWUSR)
        shutil.rmtree(base, ignore_errors=True)


def test_a_given_tree_is_measured_not_parsed_again() -> None:
    """The depth guard applies to a caller's tree (flake8's) exactly as to its own parse."""
    import ast

    tree = ast.parse(H + chain(10_000, "and", "a"))  # valid Python, too deep for libcst
    with pytest.raises(source.SourceError, match="libcst cannot parse safely"):
        source.check_syntax("this text is not parsed", "x.py", tree)
    assert source.check_syntax("neither is this", "x.py", ast.parse("x = 1\n")).body
