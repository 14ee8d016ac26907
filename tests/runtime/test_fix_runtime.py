"""Runtime truth of the fixes (issue 26): a hazard scenario, fixed by siblint, run with the real SDK.

Each INVALID scenario below is fixed exactly as `siblint check --fix --unsafe-fixes` would fix it,
(or with that code's fix alone, as the editor's quick fix applies it), then run through the same fork
server and fake model as its original. The fixed module must behave as the scenario's safe twin: the
charge lands before the run ends (resolved, or raised by a fatal tool run after it) and is recorded,
so no side effect is lost; and siblint no longer reports the fixed code nor SIB301 on it.
"""

from __future__ import annotations

import dataclasses

import pytest
from siblint.lint.engine import lint_text
from siblint.lint.fixes import fixes_for
from siblint.rule_api.fixes import applied
from siblint.rule_api.registry import all_codes, by_code
from siblint.settings.config import Config

from .scenarios import BY_NAME, Scenario
from .test_retries_runtime import MODEL, run_scenarios
from .test_runtime import describe, mismatches, observed_hazard

pytestmark = pytest.mark.runtime

# (hazard scenario, the code its fix removes, the safe scenario whose runtime the fixed module must
# show, only that code's fix applied (as the editor's quick fix) rather than every fix (`--fix`))
FIXED = [
    ("sync_charge", "SIB201", "sync_charge_default_handler", False),
    ("timeout_raises", "SIB203", "timeout_as_result", False),
    ("handler_returns_none", "SIB202", "sync_charge_default_handler", False),
    ("handler_raises", "SIB202", "sync_charge_default_handler", False),
    # The run capped at one tool call at a time, lookup_tax still fatal: charge_card, called first,
    # lands before the raise and is recorded (arm 11a).
    ("sync_charge", "SIB301", "sync_charge_serialised_charge_first", True),
]


def _config(root: str) -> Config:
    return Config(root=root, select=tuple(all_codes()))


def fixed_text(source: str, path: str, only: str | None = None) -> str:
    """`source` with siblint's fixes applied (unsafe ones included), or only those of code `only`."""
    root = path.rpartition("/")[0]
    found = [d for d in lint_text(source, path=path, config=_config(root)) if only in (None, d.code)]
    specs = {code: rule.fix for code, rule in by_code().items() if rule.fix is not None}
    fixes = [f for f in fixes_for(path, source, found, specs) if f.applies(unsafe=True)]
    assert fixes, f"{path}: siblint offers no fix"
    return applied(source, [e for f in fixes for e in f.edits])[0]


def fixed_source(name: str, root: str, only: str | None = None) -> str:
    return fixed_text(BY_NAME[name].source, f"{root}/{name}.py", only)


@pytest.mark.parametrize(("name", "code", "safe", "alone"), FIXED, ids=[f"{n}-{c}" for n, c, _, _ in FIXED])
def test_the_fixed_scenario_loses_no_side_effect(name: str, code: str, safe: str, alone: bool, scenario_runner,
                                                 tmp_path) -> None:
    assert BY_NAME[name].hazard and code in BY_NAME[name].codes and not BY_NAME[safe].hazard
    source = fixed_source(name, str(tmp_path), code if alone else None)
    fixed: Scenario = dataclasses.replace(BY_NAME[safe], name=f"{name}_fixed", source=source)
    run = scenario_runner.run(fixed)
    problems = mismatches(fixed, run)
    assert not problems, f"{name} after the fix:\n- " + "\n- ".join(problems) + "\n" + describe(run)
    assert not observed_hazard(run) and run["effects"], "the charge landed, and the run kept its record"
    left = {d.code for d in lint_text(source, path=f"{tmp_path}/{name}_fixed.py", config=_config(str(tmp_path)))}
    assert code not in left and "SIB301" not in left, left


def test_sib407_fixed_settings_retry_the_model_call(tmp_path) -> None:
    """Retry settings without a policy, fixed: the model answers 503 once; as given the run raises
    after one request, fixed the runner retries and the run succeeds (the harness and module of
    test_retries_runtime.py, arms D1/D2)."""
    given = MODEL.format(settings="ModelRetrySettings(max_retries=3, backoff=BACKOFF)")
    fixed = fixed_text(given, f"{tmp_path}/fixed.py", only="SIB407")
    assert "policy=retry_policies.any(retry_policies.provider_suggested(), retry_policies.network_error())" in fixed
    runs = run_scenarios({"given__fail-503-1": given, "fixed__fail-503-1": fixed}, tmp_path)
    assert runs["given__fail-503-1"]["raised"] == "InternalServerError", runs
    assert runs["given__fail-503-1"]["model_requests"] == 1, runs
    assert runs["fixed__fail-503-1"]["raised"] is None and runs["fixed__fail-503-1"]["model_requests"] == 2, runs
    left = {d.code for d in lint_text(fixed, path=f"{tmp_path}/fixed.py", config=_config(str(tmp_path)))}
    assert "SIB407" not in left, left
