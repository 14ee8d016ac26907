"""`[tool.siblint]` in pyproject.toml: what each key does, where it is found, and that every bad
value is one clear line with exit status 2 (through the CLI, in-process and as a real process)."""

from __future__ import annotations

from pathlib import Path

import pytest
from siblint.interfaces.cli import main
from siblint.settings.config import ConfigError, load
from support import CLEAN, HAZARD, cli_runner, siblint, write


def check(root: Path, *args: str, cwd: Path | None = None, monkeypatch=None) -> tuple[int, str, str]:
    monkeypatch.chdir(cwd or root)
    res = cli_runner().invoke(main, ["check", *args], catch_exceptions=False)
    return res.exit_code, res.stdout, res.stderr


BAD_CONFIGS = [
    ('selct = ["SIB2"]', "[tool.siblint] unknown key(s): selct; did you mean select?"),
    ('select = "SIB1"', "select: expected a list of strings, got 'SIB1'"),
    ('pure-calls = "log.debug"', "pure-calls: expected a list of strings, got 'log.debug'"),
    ('respect-gitignore = "no"', "respect-gitignore: expected true or false"),
    ("extend = 3", "extend: expected the path of another config file"),
    ('extend = "nowhere.toml"', "extend: 'nowhere.toml': no such file"),
    ('exclude = ["a\\\\"]', "bad pattern"),
    ("select = 5", "select: expected a list of strings, got 5"),
    ('select = ["E501"]', "unknown rule code or prefix 'E501'"),
    ('select = ["sib2"]', "unknown rule code or prefix 'sib2'"),
    ('ignore = ["SIB2", ""]', "unknown rule code or prefix ''"),
    ('extend-select = ["SIB9999"]', "unknown rule code or prefix 'SIB9999'"),
    ('per-file-ignores = ["tests/*"]', "per-file-ignores: expected a table"),
    ('per-file-ignores = { "tests/*" = ["XYZ1"] }', "unknown rule code or prefix 'XYZ1'"),
    ('per-file-ignores = { "tests/*" = 3 }', "per-file-ignores.tests/*: expected a list of strings"),
    ("exclude = [1]", "exclude: expected a list of strings"),
    ("extend-exclude = { a = 1 }", "extend-exclude: expected a list of strings"),
    ("extend-side-effect-calls = 3", "extend-side-effect-calls: expected a list of strings"),
    ("pure-calls = [true]", "pure-calls: expected a list of strings"),
    ("select = [", "cannot read"),
]


@pytest.mark.parametrize("body,message", BAD_CONFIGS, ids=[b for b, _ in BAD_CONFIGS])
def test_bad_config_is_one_line_and_exit_2(tmp_path, monkeypatch, body, message):
    write(tmp_path, {"pyproject.toml": f"[tool.siblint]\n{body}\n", "a.py": CLEAN})
    code, out, err = check(tmp_path, "a.py", monkeypatch=monkeypatch)
    assert code == 2
    assert out == ""
    assert err.startswith(f"siblint: error: {tmp_path / 'pyproject.toml'}: "), err  # the file is named
    assert err.count("\n") == 1, err
    assert message in err


def test_bad_config_in_a_real_process(tmp_path):
    write(tmp_path, {"pyproject.toml": '[tool.siblint]\nselect = ["SIB2"]\nignroe = ["SIB201"]\n', "a.py": HAZARD})
    proc = siblint(["check", "a.py"], tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith(f"siblint: error: {tmp_path / 'pyproject.toml'}: [tool.siblint] unknown key(s): ignroe; "
                                  "did you mean ignore?")
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1


def test_siblint_table_must_be_a_table(tmp_path, monkeypatch):
    write(tmp_path, {"pyproject.toml": "[tool]\nsiblint = 1\n", "a.py": CLEAN})
    code, _, err = check(tmp_path, "a.py", monkeypatch=monkeypatch)
    assert code == 2 and "[tool.siblint] must be a table" in err


def test_odd_tool_value_without_siblint_is_not_a_crash(tmp_path, monkeypatch):
    write(tmp_path, {"pyproject.toml": "tool = 1\n", "a.py": HAZARD})
    code, out, _ = check(tmp_path, "a.py", monkeypatch=monkeypatch)
    assert code == 1 and "SIB201" in out


@pytest.mark.parametrize("table,args,expected", [
    ('select = ["SIB9"]', [], 0),
    ('ignore = ["SIB201"]', [], 0),
    ('select = ["SIB9"]\nextend-select = ["SIB20"]', [], 1),
    ('ignore = ["SIB2"]', ["--select", "SIB201"], 1),  # CLI select replaces, longest prefix wins
    ('select = ["SIB9"]', ["--extend-select", "SIB201"], 1),
    ("", ["--ignore", "SIB2"], 0),
])
def test_selection_keys(tmp_path, monkeypatch, table, args, expected):
    write(tmp_path, {"pyproject.toml": f"[tool.siblint]\n{table}\n", "a.py": HAZARD})
    code, _, _ = check(tmp_path, *args, "a.py", monkeypatch=monkeypatch)
    assert code == expected


def test_per_file_ignores_match_relative_to_the_config(tmp_path, monkeypatch):
    write(tmp_path, {
        "pyproject.toml": '[tool.siblint]\nper-file-ignores = { "legacy/*" = ["SIB2"], "one.py" = ["SIB201"] }\n',
        "legacy/deep/a.py": HAZARD, "src/one.py": HAZARD, "src/two.py": HAZARD,
    })
    code, out, _ = check(tmp_path, ".", cwd=tmp_path / "src", monkeypatch=monkeypatch)
    assert code == 1
    assert [line.split(":")[0] for line in out.splitlines()[:-1]] == ["two.py"]  # relative to the working folder, as ruff prints it
    code, out, _ = check(tmp_path, "..", cwd=tmp_path / "src", monkeypatch=monkeypatch)
    assert [line.split(":")[0] for line in out.splitlines()[:-1]] == ["two.py"]  # `../src` is the working folder: one spelling


def test_exclude_and_extend_exclude(tmp_path, monkeypatch):
    write(tmp_path, {"build/a.py": HAZARD, "generated/b.py": HAZARD, "src/c.py": HAZARD})
    code, out, _ = check(tmp_path, ".", monkeypatch=monkeypatch)
    assert sorted(line.split(":")[0] for line in out.splitlines()[:-1]) == ["generated/b.py", "src/c.py"]
    write(tmp_path, {"pyproject.toml": '[tool.siblint]\nextend-exclude = ["generated"]\n'})
    _, out, _ = check(tmp_path, ".", monkeypatch=monkeypatch)
    assert [line.split(":")[0] for line in out.splitlines()[:-1]] == ["src/c.py"]
    write(tmp_path, {"pyproject.toml": '[tool.siblint]\nexclude = ["src"]\n'})  # replaces the defaults
    _, out, _ = check(tmp_path, ".", monkeypatch=monkeypatch)
    assert sorted(line.split(":")[0] for line in out.splitlines()[:-1]) == ["build/a.py", "generated/b.py"]


def test_config_is_found_walking_up_past_unrelated_pyprojects(tmp_path, monkeypatch):
    write(tmp_path, {
        "pyproject.toml": '[tool.siblint]\nignore = ["SIB201"]\n',
        "svc/pyproject.toml": '[project]\nname = "svc"\n',  # no [tool.siblint]: keep walking
        "svc/app/deep/a.py": HAZARD,
    })
    assert check(tmp_path, "svc/app/deep/a.py", monkeypatch=monkeypatch)[0] == 0
    assert check(tmp_path, "a.py", cwd=tmp_path / "svc/app/deep", monkeypatch=monkeypatch)[0] == 0
    assert check(tmp_path, "-", "--stdin-filename", "svc/app/x.py", monkeypatch=monkeypatch)[0] == 0
    # Two paths: the search starts from the folder that holds both.
    write(tmp_path, {"svc/app/other/b.py": CLEAN})
    assert check(tmp_path, "svc/app/deep/a.py", "svc/app/other/b.py", monkeypatch=monkeypatch)[0] == 0


def test_explicit_config_file(tmp_path, monkeypatch):
    write(tmp_path, {"ci.toml": '[tool.siblint]\nignore = ["SIB2"]\n', "a.py": HAZARD})
    assert check(tmp_path, "a.py", monkeypatch=monkeypatch)[0] == 1
    assert check(tmp_path, "--config", "ci.toml", "a.py", monkeypatch=monkeypatch)[0] == 0


def test_rule_options_are_loaded(tmp_path):
    write(tmp_path, {"pyproject.toml": '[tool.siblint]\nextend-side-effect-calls = ["crm.sync"]\npure-calls = ["log.debug", "metrics.incr"]\n'})
    config = load(str(tmp_path))
    assert config.extend_side_effect_calls == ("crm.sync",)
    assert config.pure_calls == ("log.debug", "metrics.incr")
    assert config.root == str(tmp_path.resolve())
    assert "crm.sync" in config.key()


def test_load_raises_config_error_not_tomllib_error(tmp_path):
    write(tmp_path, {"pyproject.toml": "[tool.siblint\n"})
    with pytest.raises(ConfigError, match="cannot read"):
        load(str(tmp_path))


# ---- test modules ------------------------------------------------------------------------------
FAILURE_PATH_TEST = (
    "from agents import function_tool\n\n"
    "@function_tool(failure_error_function=None)\nasync def boom() -> str:\n    raise ValueError('on purpose')\n"
)


def test_failure_settings_in_test_modules_are_not_reported_by_default(tmp_path, monkeypatch):
    """A test that disables a failure handler exercises the SDK's failure path: no card is charged.
    Test modules go by pytest's names; a helper module beside them is still checked."""
    write(tmp_path, {"tests/test_tools.py": FAILURE_PATH_TEST, "tests/conftest.py": FAILURE_PATH_TEST,
                     "tests/tools_test.py": FAILURE_PATH_TEST, "tests/_helpers.py": FAILURE_PATH_TEST})
    code, out, _ = check(tmp_path, "--no-cache", ".", monkeypatch=monkeypatch)
    assert code == 1
    assert [line.split(":")[0] for line in out.splitlines() if "SIB201" in line] == ["tests/_helpers.py"]


def test_test_file_ignores_can_be_emptied(tmp_path, monkeypatch):
    write(tmp_path, {"pyproject.toml": "[tool.siblint]\ntest-file-ignores = []\n", "tests/test_tools.py": FAILURE_PATH_TEST})
    code, out, _ = check(tmp_path, "--no-cache", ".", monkeypatch=monkeypatch)
    assert (code, [line.split(":")[0] for line in out.splitlines() if "SIB201" in line]) == (1, ["tests/test_tools.py"])


def test_test_file_ignores_takes_codes(tmp_path, monkeypatch):
    write(tmp_path, {"pyproject.toml": '[tool.siblint]\ntest-file-ignores = ["SIB9999"]\n'})
    code, _, err = check(tmp_path, "--no-cache", ".", monkeypatch=monkeypatch)
    assert code == 2 and "unknown rule code or prefix 'SIB9999'" in err


JS_FAILURE_PATH_TEST = (
    "import { tool } from '@openai/agents';\nimport { z } from 'zod';\n\n"
    "export const boom = tool({ name: 'boom', description: 'd', parameters: z.object({}),\n"
    "  errorFunction: null, async execute() { throw new Error('on purpose'); } });\n"
)


def test_js_test_modules_go_by_their_runners_names(tmp_path, monkeypatch):
    """Jest / Vitest / Mocha names (`*.test.ts`, `*.spec.mjs`, `__tests__/`) are test modules too;
    `tool.ts` and a `testing.ts` helper are not."""
    write(tmp_path, {"src/tool.test.ts": JS_FAILURE_PATH_TEST, "src/tool.spec.mjs": JS_FAILURE_PATH_TEST,
                     "src/__tests__/tool.ts": JS_FAILURE_PATH_TEST, "src/tool.ts": JS_FAILURE_PATH_TEST,
                     "src/testing.ts": JS_FAILURE_PATH_TEST})
    code, out, _ = check(tmp_path, "--no-cache", ".", monkeypatch=monkeypatch)
    assert code == 1
    assert sorted(line.split(":")[0] for line in out.splitlines() if "SIB201" in line) == ["src/testing.ts", "src/tool.ts"]
