"""The flake8 plugin through real flake8: subprocesses for what users and editors run, in-process
runs for what editors do repeatedly (no state carried between runs, nothing on stdout)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import siblint.interfaces.flake8_plugin as plugin_module
from flake8.main.application import Application
from siblint.common.diagnostics import Diagnostic, Loc
from siblint.interfaces.flake8_plugin import Plugin
from siblint.rule_api import registry
from siblint.rule_api.rule import Context, Rule
from support import (
    CLEAN,
    HAZARD,
    ROOT,
    cli_findings,
    flake8_findings,
    run,
    script,
    write,
)

TOOLS = """\
import requests
from agents import function_tool


@function_tool
def charge_card(amount: int) -> str:
    requests.post("https://payments.example.com/charges", json={"amount": amount})
    return "charged"


@function_tool(failure_error_function=None)
async def lookup_tax(region: str) -> str:
    return "0.2"
"""
AGENT_RELATIVE = """\
from agents import Agent

from .tools import charge_card, lookup_tax

agent = Agent(name="checkout", tools=[charge_card, lookup_tax])
"""
AGENT_ABSOLUTE = AGENT_RELATIVE.replace("from .tools import", "from pkg.tools import")
AGENT_LINE = 5  # where `Agent(...)` stands in both agent modules
SIDE_EFFECT = """\
import crm
from agents import function_tool


@function_tool
def push(x: int) -> str:
    crm.sync(x)
    return "ok"
"""


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    write(tmp_path, {
        "bad.py": HAZARD, "clean.py": CLEAN, "side.py": SIDE_EFFECT,
        "timeout.py": "from agents import function_tool\n\n@function_tool(timeout=5, timeout_behavior='raise_exception')\n"
                      "async def slow() -> str:\n    return ''\n",
        "pkg/__init__.py": "", "pkg/tools.py": TOOLS, "pkg/agent.py": AGENT_RELATIVE, "pkg/agent_abs.py": AGENT_ABSOLUTE,
    })
    shutil.copy(ROOT / "examples" / "checkout_agent.py", tmp_path / "checkout_agent.py")
    return tmp_path


FILES = ["bad.py", "checkout_agent.py", "clean.py", "pkg/agent.py", "pkg/agent_abs.py", "pkg/tools.py", "side.py", "timeout.py"]


# ---- flake8 as users and editors run it ---------------------------------------------------------

def test_plain_flake8_path_includes_siblint(corpus):
    proc = run([script("flake8"), "--isolated", "bad.py"], corpus)
    assert proc.returncode == 1
    assert "bad.py:4:39: SIB201 failure_error_function=None: " in proc.stdout


def test_flake8_select_sib(corpus):
    found = flake8_findings(["bad.py", "clean.py", "timeout.py"], corpus)
    assert [(f[0], f[1], f[2], f[3]) for f in found] == [("bad.py", 4, 39, "SIB201"), ("timeout.py", 3, 44, "SIB203")]


def test_flake8_stdin_with_display_name(corpus):
    found = flake8_findings(["--stdin-display-name", "src/agent.py", "-"], corpus, stdin=HAZARD)
    assert [(f[0], f[1], f[3]) for f in found] == [("src/agent.py", 4, "SIB201")]
    # flake8 matches its per-file-ignores against the display name
    found = flake8_findings(["--per-file-ignores=src/*:SIB2", "--stdin-display-name", "src/agent.py", "-"], corpus, stdin=HAZARD)
    assert found == []


def test_options_are_read_from_flake8_config_files(corpus):
    assert flake8_findings(["side.py"], corpus) == []
    (corpus / "setup.cfg").write_text("[flake8]\nsiblint-extend-side-effect-calls = crm.sync, other.call\n", encoding="utf-8")
    proc = run([script("flake8"), "--select", "SIB", "side.py"], corpus)  # not --isolated: reads setup.cfg
    assert proc.returncode == 1 and "side.py:6:5: SIB101 " in proc.stdout, proc.stdout + proc.stderr


# ---- the plugin and `siblint check` agree ---------------------------------------------------------

def test_flake8_and_cli_give_the_same_findings(corpus):
    cli = sorted(cli_findings(FILES, corpus))
    assert cli == flake8_findings(FILES, corpus)  # flake8 runs its worker processes here (several files)
    assert {f[3] for f in cli} >= {"SIB201", "SIB203"}  # not vacuously equal


@pytest.mark.parametrize("name", ["pkg/agent.py", "checkout_agent.py"])
def test_same_findings_one_file_at_a_time_and_from_stdin(corpus, name):
    # One file per run, as editors lint: the plugin alone must find the other modules it needs.
    single = flake8_findings([name], corpus)
    assert sorted(cli_findings([name], corpus)) == single
    text = (corpus / name).read_text(encoding="utf-8")
    assert flake8_findings(["--stdin-display-name", name, "-"], corpus, stdin=text) == single


def test_same_findings_with_rule_options(corpus):
    (corpus / "pyproject.toml").write_text('[tool.siblint]\nextend-side-effect-calls = ["crm.sync"]\n', encoding="utf-8")
    cli = sorted(cli_findings(["side.py"], corpus))
    assert [f[3] for f in cli] == ["SIB101"]
    assert cli == flake8_findings(["side.py"], corpus)  # the plugin reads [tool.siblint] too


def test_cross_module_group_is_sib301_in_cli_and_flake8(corpus):
    """Tools in pkg/tools.py, the group in pkg/agent.py (relative and absolute imports).

    flake8 checks one file at a time, so the plugin must resolve the other module itself.
    """
    expected = [("pkg/agent.py", AGENT_LINE), ("pkg/agent_abs.py", AGENT_LINE)]
    targets = ["pkg/agent.py", "pkg/agent_abs.py"]
    cli = [(f[0], f[1]) for f in cli_findings(targets, corpus) if f[3] == "SIB301"]
    assert cli == expected
    flake8 = [(f[0], f[1]) for f in flake8_findings(targets, corpus) if f[3] == "SIB301"]
    assert flake8 == expected
    editor = flake8_findings(["--stdin-display-name", "pkg/agent.py", "-"], corpus, stdin=AGENT_RELATIVE)
    assert [(f[0], f[1]) for f in editor if f[3] == "SIB301"] == [("pkg/agent.py", AGENT_LINE)]


# ---- in-process runs, as editors do them ---------------------------------------------------------------

def flake8_in_process(argv: list[str], out: Path) -> tuple[list[str], object]:
    """One flake8 run in this process; returns its report lines and its options namespace."""
    out.unlink(missing_ok=True)  # flake8 appends to --output-file
    app = Application()
    app.run(["--isolated", "-j", "1", f"--output-file={out}", *argv])
    return out.read_text(encoding="utf-8").splitlines(), app.options


def test_repeated_in_process_runs_share_no_state_and_print_nothing(corpus, capfd, tmp_path):
    class_state = dict(vars(Plugin))
    module_globals = set(vars(plugin_module))
    report = tmp_path / "report.txt"
    first, opts1 = flake8_in_process(["--select", "SIB", "--siblint-extend-side-effect-calls=crm.sync", str(corpus / "side.py")], report)
    second, opts2 = flake8_in_process(["--select", "SIB", str(corpus / "side.py")], report)
    third, _ = flake8_in_process(["--select", "SIB", "--siblint-extend-side-effect-calls=crm.sync", str(corpus / "side.py")], report)
    assert [line.split(": ")[1].split()[0] for line in first] == ["SIB101"]
    assert second == []  # the first run's option did not leak into the second
    assert third == first
    assert opts1 is not opts2
    assert opts1._siblint_run_state.extend_side_effect_calls == ("crm.sync",)
    assert opts2._siblint_run_state.extend_side_effect_calls == ()
    assert dict(vars(Plugin)) == class_state
    assert set(vars(plugin_module)) == module_globals
    captured = capfd.readouterr()
    assert captured.out == ""


class _OffByDefault(Rule):
    """Test-only rule that reports line 1 of every analysed file."""

    code = "SIB998"
    name = "test-only-off-by-default"
    message = "off by default"
    summary = "test only"
    default_enabled = False

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        yield self.finding(ctx, Loc(1, 0, 1, 1))


def test_default_off_codes_stay_off_unless_named_in_full(corpus, monkeypatch, tmp_path):
    import siblint.interfaces.flake8_plugin
    import siblint.lint.engine
    import siblint.rules

    assert {r.code for r in registry.all_rules() if not r.default_enabled} == set(siblint.rules.OFF_BY_DEFAULT)
    real = registry.all_rules()
    for module in (registry, siblint.lint.engine):  # the engine imported the name itself
        monkeypatch.setattr(module, "all_rules", lambda: (*real, _OffByDefault))
    monkeypatch.setattr(siblint.rules, "OFF_BY_DEFAULT", (*siblint.rules.OFF_BY_DEFAULT, "SIB998"))
    monkeypatch.chdir(corpus)
    report = tmp_path / "report.txt"
    for argv in ([], ["--select", "SIB"], ["--extend-select", "SIB9"]):  # a prefix is not enough
        shown, options = flake8_in_process([*argv, str(corpus / "bad.py")], report)
        assert [line for line in shown if "SIB" in line] == [line for line in shown if "SIB201" in line], argv
        assert len(shown) == 1
    for argv in (["--extend-select", "SIB998"], ["--select", "SIB998,SIB201"]):
        shown, _ = flake8_in_process([*argv, str(corpus / "bad.py")], report)
        assert any(": SIB998 off by default" in line for line in shown), argv


def test_a_crash_inside_the_engine_is_one_finding_not_a_failed_flake8_run(corpus, monkeypatch, tmp_path):
    import siblint.lint.engine

    def boom(*a, **k):
        raise RuntimeError("simulated")

    monkeypatch.setattr(siblint.lint.engine, "analyse", boom)
    shown, _ = flake8_in_process(["--select", "SIB", str(corpus / "bad.py")], tmp_path / "r.txt")
    assert shown == [f"{corpus / 'bad.py'}:1:1: SIB901 internal error while analysing this file (RuntimeError: simulated)"]


def test_flake8s_tree_is_the_guard_and_the_hosts_gc_settings_survive(corpus, monkeypatch, tmp_path):
    """The engine's CPython parse is skipped (flake8 parsed the same lines), and the raised GC
    thresholds of the analysis do not outlive it in the host process (an editor's)."""
    import gc

    import siblint.syntax.source

    real = siblint.syntax.source.check_syntax
    given_trees: list[bool] = []

    def spy(text, filename, tree=None):
        given_trees.append(tree is not None)
        return real(text, filename, tree)

    monkeypatch.setattr(siblint.syntax.source, "check_syntax", spy)
    before = gc.get_threshold()
    gc.set_threshold(321, 9, 8)
    try:
        shown, _ = flake8_in_process(["--select", "SIB", str(corpus / "bad.py")], tmp_path / "r.txt")
        assert gc.get_threshold() == (321, 9, 8)
    finally:
        gc.set_threshold(*before)
    assert [line.split(": ")[1].split()[0] for line in shown] == ["SIB201"]
    assert given_trees == [True]
