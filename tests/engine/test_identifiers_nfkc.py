"""Identifiers compared as CPython compares them, after NFKC normalisation (issue 22): a tool
defined with a compatibility character is the tool the agent lists by its plain name."""

from __future__ import annotations

from siblint.lint.engine import new_project
from siblint.run.runner import check_file
from siblint.settings.config import Config
from siblint.syntax.identifiers import normalised
from support import ROOT

EXAMPLE = (ROOT / "examples" / "checkout_agent.py").read_text()


def _codes(tmp_path, text: str) -> list[tuple[str, int]]:
    path = tmp_path / "agent.py"
    path.write_text(text, encoding="utf-8")
    config = Config(root=str(tmp_path))
    return sorted((d.code, d.loc.line) for d in check_file(str(path), config, new_project(config)))


def test_a_tool_defined_with_a_compatibility_character_is_the_listed_tool(tmp_path) -> None:
    spelled = EXAMPLE.replace("def charge_card", "def \uff43harge_card")  # FULLWIDTH LATIN SMALL LETTER C
    assert spelled != EXAMPLE
    assert _codes(tmp_path, spelled) == _codes(tmp_path, EXAMPLE)


def test_only_names_are_normalised_never_strings_or_comments() -> None:
    text = 'x = "\ufb01"  # \ufb01\n\ufb01x = f(\ufb01le=1)\n'
    assert normalised(text) == 'x = "\ufb01"  # \ufb01\nfix = f(file=1)\n'
    plain = 'x = "caf\u00e9"\ncaf\u00e9 = 1\n'  # NFKC leaves it: the text is returned as is
    assert normalised(plain) is plain
