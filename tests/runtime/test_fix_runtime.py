"""Runtime truth of the fixes (issue 26): a hazard scenario, fixed by siblint, run with the real SDK.

Each INVALID scenario below is fixed exactly as `siblint check --fix --unsafe-fixes` would fix it,
then run through the same fork server and fake model as its original. The fixed module must behave
as the scenario's safe twin: the run resolves, the charge lands before its end and is recorded, so
no side effect is lost; and siblint no longer reports the fatal setting nor SIB301 on it.
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
from .test_runtime import describe, mismatches, observed_hazard

pytestmark = pytest.mark.runtime

# hazard scenario -> (the code its fix removes, the safe scenario whose runtime the fixed module must show)
FIXED = {
    "sync_charge": ("SIB201", "sync_charge_default_handler"),
    "timeout_raises": ("SIB203", "timeout_as_result"),
    "handler_returns_none": ("SIB202", "sync_charge_default_handler"),
    "handler_raises": ("SIB202", "sync_charge_default_handler"),
}


def _config(root: str) -> Config:
    return Config(root=root, select=tuple(all_codes()))


def fixed_source(name: str, root: str) -> str:
    source = BY_NAME[name].source
    path = f"{root}/{name}.py"
    found = lint_text(source, path=path, config=_config(root))
    specs = {code: rule.fix for code, rule in by_code().items() if rule.fix is not None}
    fixes = [f for f in fixes_for(path, source, found, specs) if f.applies(unsafe=True)]
    assert fixes, f"{name}: siblint offers no fix"
    return applied(source, [e for f in fixes for e in f.edits])[0]


@pytest.mark.parametrize("name", sorted(FIXED))
def test_the_fixed_scenario_loses_no_side_effect(name: str, scenario_runner, tmp_path) -> None:
    code, safe = FIXED[name]
    assert BY_NAME[name].hazard and code in BY_NAME[name].codes and not BY_NAME[safe].hazard
    source = fixed_source(name, str(tmp_path))
    fixed: Scenario = dataclasses.replace(BY_NAME[safe], name=f"{name}_fixed", source=source)
    run = scenario_runner.run(fixed)
    problems = mismatches(fixed, run)
    assert not problems, f"{name} after the fix:\n- " + "\n- ".join(problems) + "\n" + describe(run)
    assert not observed_hazard(run) and run["effects"], "the charge landed, and the run kept its record"
    left = {d.code for d in lint_text(source, path=f"{tmp_path}/{name}_fixed.py", config=_config(str(tmp_path)))}
    assert code not in left and "SIB301" not in left, left
