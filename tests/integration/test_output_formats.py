"""The formats ruff users know (`--output-format`): each on hand-made findings, checked by its
consumer's parser or against the fields its consumer documents as required, with every name from
the checked tree escaped; then the flag, its alias and its environment variable through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from junitparser import Failure, JUnitXml
from siblint.common.diagnostics import Diagnostic, Loc, Related
from siblint.reporters import FORMATS
from support import CHECKOUT_AGENT, CHECKOUT_TOOLS, HAZARD, run, script, siblint, write

# GitLab Code Quality, as its documentation lists the fields a report must carry
# (docs.gitlab.com, "Code Quality report format"): an array of issues.
GITLAB_SCHEMA = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["description", "check_name", "fingerprint", "severity", "location"],
        "properties": {
            "description": {"type": "string", "minLength": 1},
            "check_name": {"type": "string", "minLength": 1},
            "fingerprint": {"type": "string", "minLength": 1},
            "severity": {"enum": ["info", "minor", "major", "critical", "blocker"]},
            "location": {
                "type": "object",
                "required": ["path", "lines"],
                "properties": {
                    "path": {"type": "string", "not": {"pattern": "^(/|\\./|\\.\\./)"}},
                    "lines": {"type": "object", "required": ["begin"],
                              "properties": {"begin": {"type": "integer", "minimum": 1},
                                             "end": {"type": "integer", "minimum": 1}}},
                },
            },
        },
    },
}
# reviewdog's Diagnostic Format (proto/rdf/reviewdog.proto): the severities it knows, 1-based
# integer positions, a range with a start.
_POSITION = {"type": "object", "required": ["line", "column"],
             "properties": {"line": {"type": "integer", "minimum": 1}, "column": {"type": "integer", "minimum": 1}}}
RDJSON_SCHEMA = {
    "type": "object",
    "required": ["source", "diagnostics"],
    "properties": {
        "source": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}},
        "severity": {"enum": ["UNKNOWN_SEVERITY", "ERROR", "WARNING", "INFO"]},
        "diagnostics": {"type": "array", "items": {
            "type": "object",
            "required": ["message", "location"],
            "properties": {
                "message": {"type": "string"},
                "severity": {"enum": ["UNKNOWN_SEVERITY", "ERROR", "WARNING", "INFO"]},
                "location": {"type": "object", "required": ["path", "range"], "properties": {
                    "path": {"type": "string"},
                    "range": {"type": "object", "required": ["start"],
                              "properties": {"start": _POSITION, "end": _POSITION}}}},
                "code": {"type": "object", "required": ["value"], "properties": {"value": {"type": "string"},
                                                                                   "url": {"type": "string"}}},
            },
        }},
    },
}
HOSTILE = "evil\n::add-mask::x\x1b[31m;]%<&\">.py"


def findings(base: Path) -> list[Diagnostic]:
    group = Diagnostic(str(base / "pkg" / "agent.py"), Loc(12, 4, 12, 60), "SIB301", "a group: 100% fatal",
                       "fatal-tool-beside-unstoppable-tool", "error",
                       (Related(str(base / "pkg" / "tools.py"), Loc(3, 0, 3, 15), "sync tool `charge_card`"),),
                       concise="a group: fix it")
    warning = Diagnostic(str(base / "pkg" / "agent.py"), Loc(20, 0, 20, 3), "SIB201", "line\nbreak <b>&",
                         "tool-failure-handler-disabled", "warning")
    other = Diagnostic(str(base / "b.py"), Loc(1, 0, 1, 1), "SIB101", "sync", "sync-tool-side-effect", "warning")
    return [other, group, warning]


@pytest.fixture
def here(tmp_path, monkeypatch) -> Path:
    (tmp_path / ".git").mkdir()  # the repository root, for the formats that want repo-relative paths
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_concise_full_grouped_and_pylint_carry_the_severity_on_every_line(here):
    d = findings(here)
    assert FORMATS["concise"](d, str(here)).splitlines() == [
        "b.py:1:1: SIB101 warning: sync",
        "pkg/agent.py:12:5: SIB301 error: a group: fix it",
        "pkg/agent.py:20:1: SIB201 warning: line\\nbreak <b>&",
        "Found 3 findings (1 error, 2 warnings).",
    ]
    assert FORMATS["full"](d, str(here)).splitlines()[1:3] == [
        "pkg/agent.py:12:5: SIB301 error: a group: 100% fatal", "    pkg/tools.py:3:1: sync tool `charge_card`"]
    assert FORMATS["grouped"](d, str(here)).splitlines() == [
        "b.py:", "  1:1 SIB101 warning: sync", "",
        "pkg/agent.py:", "  12:5 SIB301 error: a group: fix it", "  20:1 SIB201 warning: line\\nbreak <b>&", "",
        "Found 3 findings (1 error, 2 warnings).",
    ]
    assert FORMATS["pylint"](d, str(here)).splitlines() == [
        "b.py:1: [SIB101] warning: sync", "pkg/agent.py:12: [SIB301] error: a group: fix it",
        "pkg/agent.py:20: [SIB201] warning: line\\nbreak <b>&"]
    assert FORMATS["text"] is not None and FORMATS["text"](d, str(here)) == FORMATS["concise"](d, str(here))


def test_json_lines_is_the_json_array_one_object_a_line(here):
    d = findings(here)
    lines = FORMATS["json-lines"](d, str(here)).splitlines()
    assert [json.loads(line) for line in lines] == json.loads(FORMATS["json"](d, str(here)))
    assert json.loads(lines[0])["path"] == "b.py" and FORMATS["json-lines"]([], str(here)) == ""


def test_junit_is_read_by_a_junit_parser(here):
    d = findings(here)
    xml = JUnitXml.fromstring(FORMATS["junit"](d, str(here)).encode("utf-8"))
    suites = {s.name: s for s in xml}
    assert sorted(suites) == ["b.py", "pkg/agent.py"]
    agent = suites["pkg/agent.py"]
    assert (agent.tests, agent.failures, agent.errors) == (2, 2, 0)
    cases = list(agent)
    assert [c.name for c in cases] == ["siblint.SIB301", "siblint.SIB201"]
    failure = cases[1].result[0]
    assert isinstance(failure, Failure) and failure.type == "warning"
    assert failure.message == "line\\nbreak <b>&"  # markup escaped by XML, the newline by siblint
    assert cases[0].result[0].type == "error" and "line 12, col 5" in cases[0].result[0].text
    clean = JUnitXml.fromstring(FORMATS["junit"]([], str(here)).encode("utf-8"))
    assert [(c.name, c.is_passed) for s in clean for c in s] == [("No findings", True)]


def test_gitlab_code_quality_has_the_documented_fields_and_stable_fingerprints(here):
    write(here, {"pkg/agent.py": "\n" * 11 + "x = 1\n" + "\n" * 7 + "y = 2\n"})
    d = findings(here)
    issues = json.loads(FORMATS["gitlab"](d, str(here)))
    jsonschema.validate(issues, GITLAB_SCHEMA)
    assert [(i["check_name"], i["severity"], i["location"]["path"], i["location"]["lines"]["begin"]) for i in issues] == [
        ("SIB101", "minor", "b.py", 1), ("SIB301", "major", "pkg/agent.py", 12), ("SIB201", "minor", "pkg/agent.py", 20)]
    assert len({i["fingerprint"] for i in issues}) == 3
    # Lines above the finding move: the same fingerprint, so GitLab does not call it new.
    write(here, {"pkg/agent.py": "\n" * 14 + "x = 1\n" + "\n" * 7 + "y = 2\n"})
    moved = [Diagnostic(f.path, Loc(f.loc.line + 3, f.loc.col, f.loc.end_line + 3, f.loc.end_col), f.code, f.message,
                        f.name, f.severity) if f.path.endswith("agent.py") else f for f in d]
    assert [i["fingerprint"] for i in json.loads(FORMATS["gitlab"](moved, str(here)))] == [i["fingerprint"] for i in issues]


def test_gitlab_paths_are_relative_to_the_repository_root(here, monkeypatch):
    (here / "pkg").mkdir()
    monkeypatch.chdir(here / "pkg")  # run from below the root: the paths stay repo-relative
    issues = json.loads(FORMATS["gitlab"](findings(here), str(here)))
    assert [i["location"]["path"] for i in issues] == ["b.py", "pkg/agent.py", "pkg/agent.py"]


def test_rdjson_validates_and_counts_columns_in_utf8_bytes(here):
    write(here, {"b.py": "é = ñ\n"})
    d = [Diagnostic(str(here / "b.py"), Loc(1, 4, 1, 5), "SIB101", "m", "sync-tool-side-effect", "warning"),
         *findings(here)[1:]]
    doc = json.loads(FORMATS["rdjson"](d, str(here)))
    jsonschema.validate(doc, RDJSON_SCHEMA)
    first = doc["diagnostics"][0]
    # `é = ñ`: code point 4 is `ñ`, which starts at byte 5 (é takes two bytes): column 6, 1-based.
    assert first["location"]["range"] == {"start": {"line": 1, "column": 6}, "end": {"line": 1, "column": 8}}
    assert first["code"]["value"] == "SIB101" and first["code"]["url"].endswith("SIB101.md")
    assert [x["severity"] for x in doc["diagnostics"]] == ["WARNING", "ERROR", "WARNING"]
    assert doc["severity"] == "ERROR" and doc["source"]["name"] == "siblint"
    # A file that cannot be read (stdin): code points, as every other format counts.
    assert doc["diagnostics"][1]["location"]["range"]["start"] == {"line": 12, "column": 5}
    jsonschema.validate(json.loads(FORMATS["rdjson"]([], str(here))), RDJSON_SCHEMA)


def test_azure_logging_commands_escape_properties_and_data(here):
    d = [Diagnostic(str(here / "a;b].py"), Loc(3, 0, 3, 1), "SIB201", "50% done\r\nnext ##vso[task.complete]",
                    "tool-failure-handler-disabled", "warning"),
         Diagnostic(str(here / "x.py"), Loc(1, 2, 1, 5), "SIB301", "m", "fatal-tool-beside-unstoppable-tool", "error")]
    assert FORMATS["azure"](d, str(here)).splitlines() == [
        "##vso[task.logissue type=warning;sourcepath=a%3Bb%5D.py;linenumber=3;columnnumber=1;code=SIB201;]"
        "50%AZP25 done\\r\\nnext ##vso[task.complete]",
        "##vso[task.logissue type=error;sourcepath=x.py;linenumber=1;columnnumber=3;code=SIB301;]m",
    ]


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_a_hostile_file_name_starts_no_line_and_moves_no_cursor(fmt, here):
    d = [Diagnostic(str(here / HOSTILE), Loc(1, 0, 1, 1), "SIB201", "msg\n::error::forged", "tool-failure-handler-disabled",
                    "warning")]
    out = FORMATS[fmt](d, str(here))
    assert "\x1b" not in out
    for line in out.splitlines():
        assert not line.lstrip().startswith("::") or line.startswith("::warning file="), (fmt, line)
        assert not line.startswith("##vso") or line.startswith("##vso[task.logissue"), (fmt, line)
    if fmt in ("json", "json-lines", "gitlab", "rdjson", "sarif"):
        json.loads(out.splitlines()[0] if fmt == "json-lines" else out)  # still one valid document
    if fmt == "junit":
        assert JUnitXml.fromstring(out.encode("utf-8")) is not None


# ---- through the CLI ------------------------------------------------------------------------------
@pytest.fixture
def project(tmp_path) -> Path:
    write(tmp_path, {"bad.py": HAZARD})
    return tmp_path


def _env(**extra: str) -> dict[str, str]:
    return {"NO_COLOR": "", "FORCE_COLOR": "", "SIBLINT_OUTPUT_FORMAT": "", **extra}


def test_output_format_its_alias_and_its_environment_variable(project):
    as_json = run([script("siblint"), "check", "--output-format", "json", "bad.py"], project, env=_env())
    assert as_json.returncode == 1 and json.loads(as_json.stdout)[0]["code"] == "SIB201"
    assert run([script("siblint"), "check", "--format", "json", "bad.py"], project, env=_env()).stdout == as_json.stdout
    legacy = run([script("siblint"), "check", "--format", "text", "bad.py"], project, env=_env())
    assert legacy.stdout.startswith("bad.py:4:39: SIB201 warning: ")
    from_env = run([script("siblint"), "check", "bad.py"], project, env=_env(SIBLINT_OUTPUT_FORMAT="json-lines"))
    assert json.loads(from_env.stdout)["code"] == "SIB201"
    flag_wins = run([script("siblint"), "check", "--output-format", "pylint", "bad.py"], project,
                    env=_env(SIBLINT_OUTPUT_FORMAT="json"))
    assert flag_wins.stdout == "bad.py:4: [SIB201] warning: " + legacy.stdout.split("warning: ", 1)[1].splitlines()[0] + "\n"
    bad = run([script("siblint"), "check", "bad.py"], project, env=_env(SIBLINT_OUTPUT_FORMAT="xml"))
    assert bad.returncode == 2 and "'xml' is not one of" in bad.stderr


def test_force_color_colours_a_pipe_and_severities_have_their_colours(project):
    write(project, {"sib301.py": CHECKOUT_AGENT})
    plain = run([script("siblint"), "check", "bad.py"], project, env=_env())
    assert "\x1b[" not in plain.stdout
    forced = run([script("siblint"), "check", "."], project, env=_env(FORCE_COLOR="1"))
    assert "\x1b[33m\x1b[1mSIB201 warning:\x1b[0m" in forced.stdout  # yellow warning
    assert "\x1b[31m\x1b[1mSIB301 error:\x1b[0m" in forced.stdout  # red error
    assert "\x1b[" in run([script("siblint"), "check", "bad.py"], project, env=_env(FORCE_COLOR="1", NO_COLOR="1")).stdout
    assert "\x1b[" not in run([script("siblint"), "check", "--color", "never", "bad.py"], project,
                              env=_env(FORCE_COLOR="1")).stdout
    run([script("siblint"), "check", "-o", "report.txt", "bad.py"], project, env=_env(FORCE_COLOR="1"))
    assert "\x1b[" not in (project / "report.txt").read_text()  # a file only with --color always
    machine = run([script("siblint"), "check", "--output-format", "json", "bad.py"], project, env=_env(FORCE_COLOR="1"))
    assert "\x1b[" not in machine.stdout


def test_ignore_noqa_reports_what_comments_silence(project):
    write(project, {"bad.py": HAZARD.replace("=None)", "=None)  # noqa: SIB201")})
    assert siblint(["check", "bad.py"], project).returncode == 0
    shown = siblint(["check", "--ignore-noqa", "bad.py"], project)
    assert shown.returncode == 1 and "bad.py:4:39: SIB201 warning:" in shown.stdout
    # The cache keeps the two answers apart.
    assert siblint(["check", "bad.py"], project).returncode == 0


def test_isolated_reads_no_config_file(project):
    write(project, {"pyproject.toml": '[tool.siblint]\nignore = ["SIB201"]\n'})
    assert siblint(["check", "bad.py"], project).returncode == 0
    isolated = siblint(["check", "--isolated", "bad.py"], project)
    assert isolated.returncode == 1 and "SIB201" in isolated.stdout
    settings = json.loads(siblint(["check", "--isolated", "--show-settings", "bad.py"], project).stdout)
    assert settings["config"].startswith("(defaults") and settings["ignore"] == []
    both = siblint(["check", "--isolated", "--config", "pyproject.toml", "bad.py"], project)
    assert both.returncode == 2 and "--isolated" in both.stderr


def test_paths_are_spelled_one_way_relative_to_the_working_folder(tmp_path):
    write(tmp_path, {"pkg/__init__.py": "", "pkg/tools.py": CHECKOUT_TOOLS, "pkg/agent.py": (
        "from agents import Agent\nfrom pkg.tools import charge_card, lookup_tax\n\n"
        'agent = Agent(name="a", tools=[charge_card, lookup_tax])\n')})
    for args in (["check", "--output-format", "full"], ["check", "--output-format", "full", "."],
                 ["check", "--output-format", "full", "./pkg"]):
        out = siblint(args, tmp_path).stdout
        assert "./" not in out and "pkg/agent.py:" in out and "    pkg/tools.py:" in out, (args, out)
    found = json.loads(siblint(["check", "--output-format", "json"], tmp_path).stdout)
    assert {d["path"] for d in found} == {"pkg/agent.py", "pkg/tools.py"}
    assert all(not r["path"].startswith("./") for d in found for r in d["related"])
    assert siblint(["check", "--show-files"], tmp_path).stdout.splitlines() == [
        "pkg/__init__.py", "pkg/agent.py", "pkg/tools.py"]


def test_the_command_list_shows_whole_summaries(tmp_path):
    commands = siblint(["--help"], tmp_path).stdout.split("Commands:")[1]
    assert "explain  Print the documentation of rule CODE, such as SIB201." in commands
    assert "..." not in commands and "(e.g.\n" not in commands


def test_full_shows_the_locations_behind_sib201_and_sib407(tmp_path):
    write(tmp_path, {"agent.py": """\
        from agents import Agent, ModelRetrySettings, ModelSettings, function_tool

        @function_tool
        async def quote(n: int) -> str:
            return "ok"

        @function_tool(failure_error_function=None)
        async def tax(r: str) -> str:
            return r

        agent = Agent(name="shop", tools=[quote, tax])
        RETRY = ModelRetrySettings(max_retries=3)
        SETTINGS = ModelSettings(retry=RETRY)
        """, "alone.py": HAZARD})
    out = siblint(["check", "--output-format", "full", "--select", "SIB201,SIB407", "agent.py", "alone.py"],
                  tmp_path).stdout.splitlines()
    sib201 = out.index(next(line for line in out if line.startswith("agent.py:7:") and "SIB201 warning:" in line))
    assert out[sib201 + 1:sib201 + 3] == [
        "    agent.py:8:11: tax: the tool this setting makes fatal",
        "    agent.py:11:9: shop: its other tool calls are cancelled when tax fails",
    ]
    sib407 = out.index(next(line for line in out if "SIB407 error:" in line))
    assert out[sib407 + 1] == ("    agent.py:13:12: ModelSettings: the runner looks for a retry policy here, finds none, "
                               "and never uses max_retries=3")
    # A tool in no group of its module: no sibling to cancel, nothing more to show.
    alone = out.index(next(line for line in out if line.startswith("alone.py:")))
    assert not out[alone + 1].startswith("    ")
