"""Every JS runtime arm (tests/runtime/js/arms.py) linted as shipped: siblint reports exactly the
codes the arm's manifest lists, each about the tool or agent it names. The runtime suite shows what
each arm does with the real SDK; this ties the rule claims to those programs (no Node needed here)."""

from __future__ import annotations

import pytest
from runtime.js.arms import ARMS, EXAMPLES, Arm  # tests/ is on pytest's pythonpath
from siblint.lint.engine import analyse, filter_findings, new_project
from siblint.settings.config import Config


def _findings(arm: Arm) -> list[tuple[str, int, str]]:
    config = Config(root=str(arm.file.parent))
    result = analyse(str(arm.file), arm.file.read_bytes(), config, new_project(config))
    return [(d.code, d.loc.line, d.message) for d in filter_findings(result, config)]


def _about(name: str, line: int, message: str, source: list[str]) -> bool:
    """The finding is about `name`: its message names it (SIB101, SIB301), or it sits on a setting
    within the object that declares `name: 'name'` (SIB201, SIB203 report at the setting)."""
    if name in message:
        return True
    declared = [i + 1 for i, text in enumerate(source) if f"'{name}'" in text or f'"{name}"' in text]
    return any(abs(at - line) <= 12 for at in declared)


@pytest.mark.parametrize("arm", [*ARMS, *EXAMPLES], ids=lambda a: a.name)
def test_arm_is_reported_as_its_manifest_says(arm: Arm) -> None:
    found = _findings(arm)
    source = arm.file.read_text(encoding="utf-8").splitlines()
    assert sorted(code for code, _, _ in found) == sorted(code for code, _ in arm.reports), found
    for code, name in arm.reports:
        assert any(c == code and _about(name, line, msg, source) for c, line, msg in found), (code, name, found)
