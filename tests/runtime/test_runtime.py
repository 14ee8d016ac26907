"""Runtime truth (issue 3): what the real SDK does with each scenario, and what siblint says of it.

For every hazard an INVALID scenario is run with openai-agents and must really show it: the run
raises, the charge lands after the raise, and `exc.run_data.new_items == []` (two documented
variants: a charge in `finally:` lands while the failure is raised, arm 5e; an async tool that
blocks the loop completes before the failure and is recorded, arm 4). Its VALID twin is run too
and must be safe: the run resolves, or the charge is cancelled before it happens, or concurrency
is capped. The same module text is then linted: the INVALID one must carry the expected codes,
the VALID one must not.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from typing import Any

import pytest
from siblint.lint.engine import lint_text
from siblint.rule_api.registry import all_codes
from siblint.settings.config import Config

from .runner import run_cold
from .scenarios import BY_NAME, SCENARIOS, Scenario

pytestmark = pytest.mark.runtime

NAMES = [s.name for s in SCENARIOS]


# ------------------------------------------------------------------------------ SDK behaviour
def charge_recorded(run: dict[str, Any]) -> bool:
    return any(i.get("kind") == "output" and i.get("tool") == "charge_card" for i in run["new_items"])


def observed_hazard(run: dict[str, Any]) -> bool:
    """The run raised, a charge landed, and the error keeps no record of charge_card's output."""
    return run["raised"] and bool(run["effects"]) and not charge_recorded(run)


def mismatches(s: Scenario, run: dict[str, Any]) -> list[str]:
    rt = s.runtime
    out: list[str] = []
    if run["raised"] != rt.raises:
        out.append(f"raised={run['raised']} (expected {rt.raises}): {run['exc_type']}: {run['message']}")
        return out
    if rt.raises:
        if run["exc_type"] != rt.exc_type:
            out.append(f"exception {run['exc_type']} (expected {rt.exc_type})")
        if rt.message not in (run["message"] or ""):
            out.append(f"message {run['message']!r} lacks {rt.message!r}")
        if not run["has_run_data"]:
            out.append("the exception carries no run_data")
        if len(run["model_requests"]) != 1:
            out.append(f"{len(run['model_requests'])} model requests (expected 1: the turn never finished)")
    else:
        if rt.message not in (run["final_output"] or ""):
            out.append(f"final output {run['final_output']!r} lacks {rt.message!r}")
        if len(run["model_requests"]) != 2:
            out.append(f"{len(run['model_requests'])} model requests (expected 2: tools, then the answer)")

    if not run["settled"]:
        out.append(f"tasks or worker threads still ran {run['waited']:.1f} s after the run; effects may be missing")
    effects = run["effects"]
    when = [round(e["after_end"], 3) for e in effects]
    if rt.effect == "none" and effects:
        out.append(f"expected no charge, got {len(effects)} (s after the end of the run: {when})")
    elif rt.effect != "none" and not effects:
        out.append("expected a charge, none landed")
    elif rt.effect == "after" and not all(w > 0 for w in when):
        out.append(f"expected every charge after the raise; s after it: {when}")
    elif rt.effect == "before" and not all(w <= 0 for w in when):
        out.append(f"expected every charge before the end of the run; s after it: {when}")

    if charge_recorded(run) != rt.recorded:
        out.append(f"charge_card output recorded={charge_recorded(run)} (expected {rt.recorded})")
    if rt.raises and not rt.recorded:
        if run["new_items"] != []:
            out.append(f"exc.run_data.new_items == {run['new_items']} (expected [])")
        if run["raw_responses"] != 0:
            out.append(f"exc.run_data.raw_responses has {run['raw_responses']} entries (expected 0)")
    # Measured from the first model request: the tools start right after its answer.
    if rt.min_end and run["end"] - run["model_request_at"] < rt.min_end:
        out.append(f"the run ended {run['end'] - run['model_request_at']:.3f} s after the model request, "
                   f"before {rt.min_end:.3f} s")
    sent = run["model_requests"][0]["parallel_tool_calls"] if run["model_requests"] else None
    if sent != rt.parallel_tool_calls_sent:
        out.append(f"first request sent parallel_tool_calls={sent!r} (expected {rt.parallel_tool_calls_sent!r})")
    if observed_hazard(run) != s.hazard:
        out.append(f"hazard observed={observed_hazard(run)} (expected {s.hazard})")
    return out


def only_the_thread_race(problems: list[str]) -> bool:
    """The one mismatch a retry may cover: the thread-based charge never started (arm 2i)."""
    return problems == ["expected a charge, none landed", "hazard observed=False (expected True)"]


def describe(run: dict[str, Any]) -> str:
    keep = ("raised", "exc_type", "message", "end", "effects", "new_items", "raw_responses",
            "final_output", "model_requests", "loop_errors")
    return "\n".join(f"  {k}: {run.get(k)!r}" for k in keep) + "\n  stderr: " + run.get("stderr_tail", "")[-800:]


@pytest.mark.parametrize("scenario_name", NAMES)
def test_sdk_behaviour(scenario_name: str, scenario_runner) -> None:
    s = BY_NAME[scenario_name]
    runs = [scenario_runner.first(s)]
    problems = mismatches(s, runs[-1])
    # Only for the documented race, and only while the hazard has not been seen (it is an
    # existence claim): rerun. Every other mismatch fails at once.
    while problems and only_the_thread_race(problems) and len(runs) < s.attempts:
        runs.append(scenario_runner.run(s))
        problems = mismatches(s, runs[-1])
    assert not problems, (
        f"{s.name} ({s.arm}: {s.title}), attempt {len(runs)} of {s.attempts}:\n- "
        + "\n- ".join(problems) + "\n" + describe(runs[-1])
    )


def test_a_cold_subprocess_agrees(fake_server, tmp_path) -> None:
    """The fork server only saves the SDK's import time: a plain `python driver.py SCENARIO.py`
    (fresh interpreter, result printed on stdout) shows the same hazard."""
    s = BY_NAME["sync_charge"]
    for attempt in range(1, s.attempts + 1):
        run = run_cold(fake_server, s, tmp_path, f"cold-{s.name}-{attempt}")
        problems = mismatches(s, run)
        if not only_the_thread_race(problems):
            break
    assert not problems, "\n- ".join(problems) + "\n" + describe(run)


def test_every_hazard_has_a_safe_twin_and_back() -> None:
    for s in SCENARIOS:
        assert s.twin, f"{s.name} names no twin"
        if s.hazard:
            assert not BY_NAME[s.twin].hazard, f"{s.name}'s twin {s.twin} should be safe"
    hazards = {s.name for s in SCENARIOS if s.hazard}
    assert len(hazards) >= 9, hazards


# ------------------------------------------------------------------------------ lint
@lru_cache(maxsize=None)
def lint_codes(name: str, root: str) -> tuple[tuple[str, int], ...]:
    s = BY_NAME[name]
    config = Config(root=root, select=tuple(all_codes()))
    found = lint_text(s.source, path=f"{root}/{name}.py", config=config)
    return tuple((d.code, d.loc.line) for d in found)


@pytest.fixture(scope="module")
def lint_root(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("runtime-lint"))


def _lint_cases(attr: str):
    return [pytest.param(s.name, code, id=f"{s.name}-{code}") for s in SCENARIOS for code in getattr(s, attr)]


@pytest.mark.parametrize("scenario_name,code", _lint_cases("codes"))
def test_lint_reports(scenario_name: str, code: str, lint_root: str) -> None:
    found = lint_codes(scenario_name, lint_root)
    assert code in {c for c, _ in found}, f"{code} not reported on {scenario_name}; siblint said {found}"


@pytest.mark.parametrize("scenario_name,code", _lint_cases("absent"))
def test_lint_does_not_report(scenario_name: str, code: str, lint_root: str) -> None:
    found = lint_codes(scenario_name, lint_root)
    assert code not in {c for c, _ in found}, f"{code} reported on {scenario_name}; siblint said {found}"


# SIB201/SIB203 report the offending argument: exactly the lines of the keyword arguments below.
ARGUMENTS = {"SIB201": ("failure_error_function", None), "SIB203": ("timeout_behavior", "raise_exception")}


def argument_lines(source: str, keyword: str, value: object) -> list[int]:
    return sorted(node.value.lineno for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.keyword) and node.arg == keyword
                  and isinstance(node.value, ast.Constant) and node.value.value == value)


@pytest.mark.parametrize("scenario_name,code", [
    pytest.param(s.name, c, id=f"{s.name}-{c}") for s in SCENARIOS for c in s.codes if c in ARGUMENTS
])
def test_lint_reports_the_argument_line(scenario_name: str, code: str, lint_root: str) -> None:
    keyword, value = ARGUMENTS[code]
    expected = argument_lines(BY_NAME[scenario_name].source, keyword, value)
    assert expected, f"{scenario_name} does not pass {keyword}={value!r}"
    found = sorted(line for c, line in lint_codes(scenario_name, lint_root) if c == code)
    assert found == expected


def test_scenarios_select_only_known_codes() -> None:
    """Every code a scenario names is one siblint is meant to have (typos would pass silently)."""
    known = re.compile(r"SIB(10[1-5]|20[1-4]|301|90[01])$")
    for s in SCENARIOS:
        for code in (*s.codes, *s.absent):
            assert known.match(code), (s.name, code)
