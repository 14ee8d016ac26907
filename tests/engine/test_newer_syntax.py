"""Files in a newer grammar than the host interpreter's (PEP 695, PEP 701) are analysed, not SIB900.

On Python >= 3.12 CPython parses these files itself; the tests still hold there (the findings are
the same), and the ones about the fallback's own verdicts call it directly.
"""

from __future__ import annotations

import sys
import textwrap

import pytest
from siblint.settings.config import Config
from siblint.syntax import newer_syntax, source

NEWER = sys.version_info < (3, 12)  # the host's `ast` rejects the syntax below

TYPE_ALIAS_TOOL = """\
    import requests
    from agents import function_tool

    type Amount = int

    @function_tool
    def charge_card(amount: Amount) -> str:
        requests.post("https://payments.example.com/charges", json={"amount": amount})
        return "charged"
"""

GENERIC_TOOL = """\
    import subprocess
    from agents import function_tool

    def first[T](items: list[T]) -> T:
        return items[0]

    class Queue[T]:
        def push(self, item: T) -> None: ...

    @function_tool
    def deploy(services: list[str]) -> str:
        subprocess.run(["make", "deploy", first(services)])
        return "deployed"
"""

PEP701_TOOL = """\
    import smtplib
    from agents import function_tool

    @function_tool
    def send_digest(to: list[str], items: list[str]) -> str:
        body = f"Digest for {", ".join(to)}: {f"{len(items)} items"}"
        with smtplib.SMTP("localhost") as smtp:
            smtp.sendmail("bot@example.com", to, body)
        return "sent"
"""


def codes(found) -> list[tuple[str, int]]:
    return sorted((d.code, d.loc.line) for d in found)


@pytest.mark.parametrize("text, line", [(TYPE_ALIAS_TOOL, 8), (GENERIC_TOOL, 12), (PEP701_TOOL, 8)],
                         ids=["type-alias", "type-parameters", "pep701-fstring"])
def test_findings_inside_newer_syntax(lint, tmp_path, text, line):
    found = lint(textwrap.dedent(text), config=Config(root=str(tmp_path), select=("SIB1", "SIB900")))
    assert [c for c, _ in codes(found)] == ["SIB101"]
    assert found[0].related[0].loc.line == line  # the effect itself, found inside the file


@pytest.mark.skipif(not NEWER, reason="the host's own parser accepts PEP 695 and PEP 701")
@pytest.mark.parametrize("text", [TYPE_ALIAS_TOOL, GENERIC_TOOL, PEP701_TOOL])
def test_the_fallback_is_what_accepts_them_here(text):
    assert source.check_syntax(textwrap.dedent(text), "x.py") is None


IMPORT = "from agents import function_tool\n"


@pytest.mark.parametrize("text", [
    "def f(:\n    pass\n",
    "type X = \n",
    "def f[T](:\n    pass\n",
    'x = f"{"\n',
    "class C[T]:\npass\n",  # a newer header, then a real indentation error
])
def test_real_syntax_errors_stay_sib900(lint, text):
    (d,) = lint(IMPORT + text)
    assert d.code == "SIB900"
    assert "syntax error" in d.message


def test_real_error_after_newer_syntax_elsewhere_is_sib900(lint):
    (d,) = lint(IMPORT + "type Amount = int\n\nx = = 1\n")
    assert d.code == "SIB900"


def test_token_depth_bounds_what_reaches_libcst(monkeypatch):
    """Without CPython's tree, deep nesting is still measured (brackets, operator chains, call
    trailers, and code hidden in string tokens) and kept away from libcst."""

    def boom(text: str):
        raise AssertionError("libcst was asked to parse a file the token guard rejects")

    header = "type X = int\n"
    deep = [
        "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n",
        "x = " + " and ".join(["a"] * 5000) + "\n",
        "x = f()" + "()" * 5000 + "\n",
        'x = f"{"a"[0]+' + "(" * 4500 + "1" + ")" * 4500 + '}"\n',  # 3.11: one string token after `a`
    ]
    monkeypatch.setattr(source, "parse", boom)
    for text in deep:
        depth, _ = newer_syntax.token_depth(header + text)
        assert depth > source.MAX_DEPTH
        with pytest.raises(source.SourceError):
            source.check_syntax(header + text, "x.py")


def test_token_depth_stays_low_on_flat_data():
    """A big literal is wide, not deep: commas end each item's count."""
    text = "d = {" + ", ".join(f"'k{i}': -{i}" for i in range(20_000)) + "}\n"
    assert newer_syntax.token_depth(text)[0] < 10


def test_untokenizable_text_is_none():
    assert newer_syntax.token_depth("x = (\n") is None
