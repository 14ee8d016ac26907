"""`# noqa` semantics: `siblint check` must silence exactly what flake8 silences.

Every case is asserted twice: against the expected outcome written here, and against real flake8
(with the siblint plugin) on the same files, so both modes and flake8's quirks stay in step.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from siblint.lint.noqa import Suppressions, physical_lines
from support import CHECKOUT_AGENT, cli_findings, flake8_findings

# (comment after the hazard, is SIB201 silenced?) - including flake8's surprising cases.
INLINE_CASES = [
    ("", False),
    ("# noqa", True),
    ("# NOQA", True),
    ("# noqa: SIB201", True),
    ("# noqa:SIB201", True),
    ("# noqa: SIB2", True),  # prefix match
    ("# noqa: SIB203", False),
    ("# noqa: SIB203,SIB201", True),
    ("# noqa: SIB203 SIB201", True),
    ("# noqa:E501,SIB2", True),
    ("# noqa: E501", False),
    ("# noqa: sib201", False),  # the comment matches case-insensitively, the code does not
    ("#noqa", False),
    ("# noqa: SIB", True),  # `SIB` is no code, so the whole comment is a blanket noqa
    ("# noqa : SIB203", True),  # blanket for the same reason
    ("# noqa:  SIB203", True),  # two spaces: blanket
    ("# why: this is fine # noqa: SIB201 legacy", True),
]

HEAD = "import agents\nfrom agents import function_tool\n# a form feed \x0c must not shift line numbers\n\n"


def inline_file() -> tuple[str, set[int]]:
    """One hazard per case; returns the source and the lines that must still be reported."""
    out, reported = [HEAD], set()
    line = HEAD.count("\n") + 1
    for i, (comment, silenced) in enumerate(INLINE_CASES):
        out.append(f"@function_tool(failure_error_function=None)  {comment}\nasync def f{i}() -> str:\n    return ''\n\n")
        if not silenced:
            reported.add(line)
        line += 4
    # A statement broken inside brackets: each line is its own noqa range in flake8.
    out.append("@function_tool(\n    failure_error_function=None,\n)  # noqa\nasync def g1() -> str:\n    return ''\n\n")
    reported.add(line + 1)
    line += 6
    # A backslash continuation joins the lines: the comment on the next line covers the finding.
    out.append("T1 = agents.function_tool(g1, failure_error_function=None, \\\n    name_override='x')  # noqa: SIB201\n\n")
    line += 3
    # A multi-line string token joins its lines too.
    out.append('T2 = agents.function_tool(g1, failure_error_function=None, description_override="""\n# noqa: SIB2\n""")\n\n')
    line += 4
    out.append("T3 = agents.function_tool(g1, failure_error_function=None)\n")
    reported.add(line)
    return "".join(out), reported


FILE_LEVEL = {
    "flake8_noqa.py": ("# flake8: noqa\n", False),
    "siblint_noqa.py": ("# siblint: noqa\n", False),
    "flake8_noqa_codes.py": ("# flake8: noqa: E501\n", False),  # flake8 7 skips the whole file
    "flake8_eq_upper.py": ("    # FLAKE8= NOQA\n", False),
    "on_code_line.py": ("X = 1  # flake8: noqa\n", True),  # not on a line of its own: no effect
    "siblint_on_code_line.py": ("X = 1  # siblint: noqa\n", True),
    # ruff's file-level form (`# ruff: noqa: F401`): the listed codes and prefixes, in the whole file.
    "siblint_noqa_code.py": ("# siblint: noqa: SIB201\n", False),
    "siblint_noqa_prefix.py": ("# siblint:noqa:SIB2\n", False),
    "siblint_noqa_list.py": ("# siblint: noqa: SIB101, SIB201\n", False),
    "siblint_noqa_other_code.py": ("# siblint: noqa: SIB101\n", True),  # silenced the whole file before
    "siblint_noqa_reason.py": ("# siblint: noqa - generated code\n", False),  # no codes: the whole file
}
HAZARD_BODY = "from agents import function_tool\n\n@function_tool(failure_error_function=None)\nasync def f() -> str:\n    return ''\n"


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, dict[str, set[int]]]:
    """The noqa corpus written to disk, with the lines each file must report."""
    text, reported = inline_file()
    expected = {"inline.py": reported}
    (tmp_path / "inline.py").write_text(text, encoding="utf-8", newline="")
    (tmp_path / "inline_crlf.py").write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    expected["inline_crlf.py"] = reported
    for name, (directive, still_reported) in FILE_LEVEL.items():
        (tmp_path / name).write_text(directive + HAZARD_BODY, encoding="utf-8")
        expected[name] = {4} if still_reported else set()
    return tmp_path, expected


def test_cli_silences_exactly_the_expected_lines(files):
    root, expected = files
    found = cli_findings(sorted(expected), root)
    got = {name: {line for path, line, _, code, _ in found if path == name and code == "SIB201"} for name in expected}
    assert got == expected


def test_cli_and_flake8_silence_the_same_findings(files):
    root, expected = files
    names = sorted(expected)
    cli = sorted(cli_findings(names, root))
    flake8 = flake8_findings(names, root)
    assert cli == flake8
    assert {line for path, line, *_ in cli if path == "inline.py"} == expected["inline.py"]  # not vacuous


def test_flake8_disable_noqa_shows_what_siblint_noqa_hides(files):
    root, _ = files
    found = flake8_findings(["--disable-noqa", "siblint_noqa.py", "inline.py"], root)
    assert [f[1] for f in found if f[0] == "siblint_noqa.py"] == [4]
    assert len([f for f in found if f[0] == "inline.py"]) == len(INLINE_CASES) + 4


def test_physical_lines_split_like_flake8():
    assert physical_lines("a\x0cb\nc\r\nd\re") == ["a\x0cb\n", "c\r\n", "d\r", "e"]


def test_untokenizable_text_falls_back_to_the_physical_line():
    sup = Suppressions('x = """unterminated\ny = 1  # noqa\n')
    assert sup.suppressed("SIB201", 2)
    assert not sup.suppressed("SIB201", 1)
    assert not sup.suppressed("SIB201", 99)




@pytest.mark.parametrize("directive, left", [
    ("# siblint: noqa: SIB201\n", ["SIB101", "SIB301"]),
    ("# siblint: noqa: SIB1,SIB3\n", ["SIB201"]),
    ("# siblint: noqa\n", []),
    ("", ["SIB101", "SIB201", "SIB301"]),
])
def test_file_level_codes_silence_only_those_codes_in_cli_and_flake8(tmp_path, directive, left):
    (tmp_path / "agent.py").write_text(directive + CHECKOUT_AGENT, encoding="utf-8")
    assert sorted(f[3] for f in cli_findings(["agent.py"], tmp_path)) == left
    assert sorted(f[3] for f in flake8_findings(["agent.py"], tmp_path)) == left
    # --ignore-noqa (CLI) and --disable-noqa (flake8) both show everything again.
    everything = ["SIB101", "SIB201", "SIB301"]
    assert sorted(f[3] for f in cli_findings(["agent.py"], tmp_path, ["--ignore-noqa"])) == everything
    assert sorted(f[3] for f in flake8_findings(["--disable-noqa", "agent.py"], tmp_path)) == everything


def test_file_level_codes_in_typescript():
    head = "import { tool } from '@openai/agents';\n"
    sup = Suppressions(f"// siblint: noqa: SIB201\n{head}", "a.ts")
    assert sup.suppressed("SIB201", 3) and not sup.suppressed("SIB301", 3)
    assert Suppressions(f"// siblint: noqa\n{head}", "a.ts").suppressed("SIB301", 3)
    assert not Suppressions(f"# siblint: noqa: SIB201\n{head}", "a.ts").suppressed("SIB201", 3)  # not a TS comment
