"""Runtime truth of the TS fix (issue 26): `error_function_null.ts`, fixed by siblint exactly as
`siblint check --fix --unsafe-fixes` would, run with the real `@openai/agents` on Node against the
fake model, must do what its safe twin `default_handler` does: the run completes, the charge lands
and is in the run state. The same harness and checks as test_openai_agents_js.py.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from siblint.lint.engine import lint_text
from siblint.lint.fixes import fixes_for
from siblint.rule_api.fixes import applied
from siblint.rule_api.registry import all_codes, by_code
from siblint.settings.config import Config

from ..environments import node_env_vars
from .arms import ARMS
from .test_openai_agents_js import HERE, MARKER, NODE, RUN_TIMEOUT, Run, _node, charge_problems, services, state_problems

pytestmark = pytest.mark.runtime

HAZARD, TWIN = "error_function_null", "default_handler"


def _fixed(path: Path, root: Path) -> str:
    text = path.read_text(encoding="utf-8")
    target = str(root / path.name)
    found = lint_text(text, path=target, config=Config(root=str(root), select=tuple(all_codes())))
    specs = {code: rule.fix for code, rule in by_code().items() if rule.fix is not None}
    fixes = [f for f in fixes_for(target, text, found, specs) if f.applies(unsafe=True)]
    assert [f.code for f in fixes] == ["SIB201"], found
    return applied(text, [e for f in fixes for e in f.edits])[0]


def test_the_fixed_error_function_null_keeps_the_charge(fake_server, tmp_path: Path) -> None:
    arms = {a.name: a for a in ARMS}
    hazard, twin = arms[HAZARD], arms[TWIN]
    assert hazard.outcome.raises and not hazard.outcome.recorded and twin.outcome.recorded
    source = tmp_path / f"{HAZARD}_fixed.ts"
    source.write_text(_fixed(hazard.file, tmp_path), encoding="utf-8")
    assert "errorFunction: null," not in source.read_text(encoding="utf-8")

    folder = NODE.folder()
    (tmp_path / "node_modules").symlink_to(folder / "node_modules")
    env = node_env_vars(folder)
    proc = subprocess.run(["node", str(HERE / "transpile.cjs"), str(tmp_path), str(source)],
                          env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    shutil.copy(HERE / "drive.mjs", tmp_path)
    run_id = f"js-{HAZARD}-fixed"
    spec = {"base": fake_server.base, "arms": [{"name": run_id, "file": str(tmp_path / f"{source.stem}.mjs"),
                                                "runId": run_id, "env": services(fake_server.urls(run_id))}]}
    (tmp_path / "arms.json").write_text(json.dumps(spec), encoding="utf-8")
    returncode, stdout, stderr = _node(["node", str(tmp_path / "drive.mjs"), str(tmp_path / "arms.json")],
                                       dict(env, OPENAI_AGENTS_DISABLE_TRACING="1"))
    reports = [json.loads(line.removeprefix(MARKER)) for line in stdout.splitlines() if line.startswith(MARKER)]
    run = Run(dataclasses.replace(twin, name=run_id, file=source), returncode, stdout, stderr,
              fake_server.log(run_id), reports[0] if reports else None)
    problems = [] if returncode == 0 else [f"drive.mjs exited {returncode}"]
    problems += state_problems(run) + charge_problems(run)
    assert not problems, "\n- ".join(problems) + "\n" + run.describe()
