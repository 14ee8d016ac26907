"""Every rule's VALID and INVALID examples, linted as documented, plus the registry's own contract."""

from __future__ import annotations

import re

import pytest
from siblint.rule_api.registry import all_rules
from siblint.settings.config import Config

RULES = all_rules()
_SECTIONS = ("## What it does", "## Why is this bad?", "## Example", "Use instead", "## Options")


def _examples(kind: str):
    for rule in RULES:
        for i, ex in enumerate(getattr(rule, kind)):
            yield pytest.param(rule, ex, id=f"{rule.code}-{kind.lower()}-{i}")


def _config(tmp_path, rule) -> Config:
    # Select the rule even when it is off by default; examples check one rule at a time.
    return Config(root=str(tmp_path), select=(rule.code,))


@pytest.mark.parametrize("rule,example", list(_examples("VALID")))
def test_valid_examples_are_not_flagged(rule, example, lint, tmp_path):
    found = [d for d in lint(example.code, example.files, _config(tmp_path, rule), example.filename) if d.code == rule.code]
    assert found == []


@pytest.mark.parametrize("rule,example", list(_examples("INVALID")))
def test_invalid_examples_are_flagged_on_their_lines(rule, example, lint, tmp_path):
    found = [d for d in lint(example.code, example.files, _config(tmp_path, rule), example.filename) if d.code == rule.code]
    assert found, f"{rule.code} did not flag:\n{example.code}"
    if example.lines:
        assert sorted(d.loc.line for d in found) == sorted(example.lines)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_contract(rule):
    assert re.fullmatch(r"SIB[0-9]{3}", rule.code)
    assert re.fullmatch(r"[a-z]+(-[a-z0-9]+)+", rule.name)
    doc = rule.doc()
    for section in _SECTIONS:
        assert section in doc, f"{rule.code} docstring lacks {section!r}"
    assert rule.summary and rule.message
    if rule.code not in ("SIB901",):  # SIB901 is a siblint bug; no source produces it on purpose
        assert rule.INVALID, f"{rule.code} has no INVALID example"
    assert rule.VALID or rule.code == "SIB901"


def test_codes_and_names_are_unique():
    assert len({r.code for r in RULES}) == len(RULES)
    assert len({r.name for r in RULES}) == len(RULES)


def test_each_family_declares_exactly_the_codes_its_module_defines():
    """Settings are checked against the declared codes without importing a rule: they must not drift."""
    from siblint.rule_api.rule import catalog

    defined: dict[str, list[str]] = {}
    for rule in RULES:
        defined.setdefault(rule.__module__.rpartition(".")[2], []).append(rule.code)
    assert {family: sorted(codes) for family, codes in defined.items()} == \
        {family: sorted(codes) for family, codes in catalog().FAMILIES.items()}


def test_a_config_naming_a_code_imports_no_rule(tmp_path):
    """A warm run never parses: a config's `ignore = [...]` must not import the rules (and libcst) to check it."""
    import subprocess
    import sys

    (tmp_path / "siblint.toml").write_text('ignore = ["SIB9", "SIB101"]\n', encoding="utf-8")
    probe = ("import sys; from siblint.settings.config import load_file; load_file(sys.argv[1]); "
             "print(sorted(m for m in sys.modules if m.startswith(('siblint.rules.', 'libcst'))))")
    out = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "siblint.toml")], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
