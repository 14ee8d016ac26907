"""Issue 22 N1: the pre-filter drops only files that provably cannot import a framework root.

Every import spelling CPython runs (continuations, comments, one-line `if`/`try` bodies, `;`,
`__import__`/importlib with a literal) under every line ending and declared encoding is one
mutant of the checkout example; for each, whatever the engine finds without the pre-filter must
also be found with it (pre-filter ⊇ engine), in the CLI's byte mode and in flake8's line mode.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from siblint.lint.engine import analyse, new_project
from siblint.settings.config import Config
from siblint.syntax import prefilter
from support import ROOT

EXAMPLE = (ROOT / "examples" / "checkout_agent.py").read_text()
IMPORT = "from agents import Agent, function_tool"
HAZARDS = [("SIB101", 8), ("SIB201", 14), ("SIB301", 19)]

# Each spelling replaces the example's import line; all keep the line count where they can.
SPELLINGS = {
    "plain": IMPORT,
    "if_one_line": "if True: " + IMPORT,
    "try_one_line": "try: " + IMPORT + "\nexcept ImportError: raise",
    "backslash_after_from": "from \\\n  agents import Agent, function_tool",
    "backslash_after_root": "from agents \\\n  import Agent, function_tool",
    "parenthesised": "from agents import (Agent,\n  function_tool)",
    "after_semicolon": "import os; " + IMPORT,
    "after_docstring_semicolon": '"""x"""; ' + IMPORT,
    "trailing_comment": IMPORT + "  # the SDK",
    "comment_inside_parens": "from agents import (  # the SDK\n  Agent, function_tool)",
    "indented_block": "if 1:\n\n  # comment\n  " + IMPORT,
    "tab_and_form_feed": "\fif True:\n\t" + IMPORT,
    "import_as": "import agents as _a; Agent, function_tool = _a.Agent, _a.function_tool",
    "dunder_import": "Agent = __import__('agents').Agent; function_tool = __import__('agents').function_tool",
    "importlib": "import importlib; _a = importlib.import_module('agents'); Agent, function_tool = _a.Agent, _a.function_tool",
}
ENDINGS = {"lf": "\n", "crlf": "\r\n", "cr": "\r"}
ENCODINGS = ["utf-8", "utf-8-sig", "utf-7", "latin-1", "utf-16"]


def _mutant(spelling: str, ending: str, encoding: str) -> bytes:
    text = EXAMPLE.replace(IMPORT, SPELLINGS[spelling])
    if encoding in ("utf-7", "latin-1"):
        text = f"# -*- coding: {encoding} -*-\n" + text
    return text.replace("\n", ENDINGS[ending]).encode(encoding)


def _engine(tmp_path: Path, data: bytes, prefiltered: bool) -> list[tuple[str, int]]:
    path = tmp_path / "agent.py"
    path.write_bytes(data)
    config = Config(root=str(tmp_path))
    result = analyse(str(path), data, config, new_project(config), prefiltered=prefiltered)
    return sorted((d.code, d.loc.line) for d in result.diagnostics)


def _lines(data: bytes) -> list[str]:
    """What flake8 hands the plugin: the file decoded as CPython decodes it, split into lines."""
    from siblint.syntax.source import decode

    return decode(data).splitlines(keepends=True)


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("ending", ENDINGS)
@pytest.mark.parametrize("spelling", SPELLINGS)
def test_pre_filter_keeps_whatever_the_engine_finds(spelling: str, ending: str, encoding: str, tmp_path: Path) -> None:
    data = _mutant(spelling, ending, encoding)
    without = _engine(tmp_path, data, prefiltered=False)
    assert _engine(tmp_path, data, prefiltered=True) == without
    if without:
        assert prefilter.may_matter(data)
    if encoding == "utf-16":  # not Python source: CPython refuses it, the engine says so
        assert [code for code, _ in without] == ["SIB900"]
        return
    # Every one of these runs under CPython and imports `agents`: none may be dropped.
    assert prefilter.may_matter(data)
    assert prefilter.may_matter_text("".join(_lines(data)))
    shifted = SPELLINGS[spelling].count("\n") + (encoding in ("utf-7", "latin-1"))
    if spelling not in ("import_as", "dunder_import", "importlib"):  # names the engine does not follow
        assert without == [(code, line + shifted) for code, line in HAZARDS], without


@pytest.mark.parametrize("text", [
    "x = 'agents'\n",
    "# from agents import Agent\n",
    "import myagents\n",
    "from .agents import x\n",
    "agents = __import__('os')\n",
    "def f(agents): return agents\n",
])
def test_a_mention_that_imports_nothing_is_still_dropped(text: str) -> None:
    for ending in ENDINGS.values():
        data = text.replace("\n", ending).encode()
        assert not prefilter.may_matter(data)
        assert not prefilter.may_matter_text(text)


def test_a_dotted_root_in_every_spelling() -> None:
    for text in ["from google import adk\n", "if True: from google.adk import Agent\n", "x = 1; import google.adk\n",
                 "from google import (  # c\n  adk)\n", "import google . adk\n", "from google.adk import Agent\n",
                 "from google \\\n import adk\n", "import google.adk.tools as t\n"]:
        assert prefilter.may_matter(text.encode()), text
    assert not prefilter.may_matter(b"from google import genai\n")


def test_undecodable_or_unparsable_mentions_reach_the_engine(tmp_path: Path) -> None:
    # The engine decides what CPython cannot parse: a newer grammar is analysed, an error is SIB900.
    broken = b"from agents import Agent\ndef f(:\n"
    assert prefilter.may_matter(broken)
    assert [code for code, _ in _engine(tmp_path, broken, prefiltered=True)] == ["SIB900"]
    bad_utf7 = b"# coding: utf-7\nx = '+\xff'\nagents\n"
    assert prefilter.may_matter(bad_utf7)
    deep = b"import agents\nx = " + b"(" * 100_000 + b")" * 100_000 + b"\n"
    assert prefilter.may_matter(b"if 1: " + deep)


JS_EXAMPLE = (ROOT / "examples" / "checkout_agent.ts").read_text()
JS_IMPORT = "import { Agent, run, tool } from '@openai/agents';"
JS_SPELLINGS = [
    JS_IMPORT,
    "import { Agent, run, tool } from /* the SDK */ '@openai/agents';",
    "import { Agent, run, tool } from // the SDK\n  '@openai/agents';",
    "import {\n  Agent,\n  run,\n  tool,\n} from\n'@openai/agents';",
    "import { Agent, run, tool } from \"@openai/agents\";",
]


@pytest.mark.parametrize("spelling", JS_SPELLINGS)
@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_ts_spellings(spelling: str, ending: str, tmp_path: Path) -> None:
    data = JS_EXAMPLE.replace(JS_IMPORT, spelling).replace("\n", ending).encode()
    assert JS_IMPORT in JS_EXAMPLE
    path = tmp_path / "agent.ts"
    path.write_bytes(data)
    config = Config(root=str(tmp_path))
    without = analyse(str(path), data, config, new_project(config), prefiltered=False).diagnostics
    with_filter = analyse(str(path), data, config, new_project(config)).diagnostics
    assert without, "the TS example has hazards"
    assert sorted(d.code for d in with_filter) == sorted(d.code for d in without)


@pytest.mark.parametrize("text, matters", [
    (b"import { generateText, tool } from 'ai';", True),
    (b'const { tool } = require("@openai/agents-core");', True),
    (b"const tools = await import(`langchain/tools`);", True),
    (b"import { createReactAgent } from '@langchain/langgraph/prebuilt';", True),
    # The word `ai` is in nearly every file: only a module specifier naming a framework counts.
    (b'import Link from "next/link";\nexport const tagline = "ai chat, maintained";', False),
    (b"import { z } from 'zod'; // see docs/ai/tools.md", False),
])
def test_a_js_file_matters_when_a_specifier_names_a_framework(text: bytes, matters: bool) -> None:
    assert prefilter.may_matter(text, path="x.tsx") is matters


def _random_spelling(rng: random.Random) -> str:
    """`from agents import Agent` with random legal whitespace, continuations, comments and blocks."""
    def gap() -> str:
        return rng.choice([" ", "  ", "\t", " \\\n ", " \\\r\n\t"])

    body = rng.choice([
        f"from{gap()}agents{gap()}import{gap()}Agent",
        f"from{gap()}agents{gap()}import{gap()}(  # c\n Agent )",
        f"import{gap()}os,{gap()}agents",
        f"import{gap()}agents{gap()}as{gap()}a",
        f"from{gap()}google.adk{gap()}import{gap()}Agent",
        f"from{gap()}google{gap()}import{gap()}(  # c\n adk )",
        f"import{gap()}google{gap()}.{gap()}adk",
    ])
    head = rng.choice(["", "if True: ", "try: ", "while 0: ", "x = 1; ", "with x: ", "if 1: pass\nelse: "])
    tail = "\nexcept Exception: pass" if head == "try: " else ""
    return rng.choice(["", "# c\n", '"""doc\nfrom x import y\n"""\n', "\ufeff"]) + head + body + tail + "\n"


def test_random_spellings_cpython_imports_are_never_dropped() -> None:
    # The oracle is CPython's own parse: a mutant that imports `agents` must pass, in bytes and lines.
    rng = random.Random(22)
    checked = 0
    for _ in range(3000):
        text = _random_spelling(rng)
        ending = rng.choice(list(ENDINGS.values()))
        text = text.replace("\r\n", "\n").replace("\n", ending)
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        if not prefilter.may_matter_ast(tree):
            continue
        checked += 1
        assert prefilter.may_matter(text.encode()), repr(text)
        assert prefilter.may_matter(text.encode("utf-7").join([b"# coding: utf-7\n", b""])), repr(text)
        assert prefilter.may_matter_text(text), repr(text)
    assert checked > 1000


@pytest.mark.parametrize("data", [
    b"import" + b" " * 200_000 + b"x\nagents = 1\n",  # the import-line shortcut
    b"x = 1\n," + b" " * 200_000 + b"agentsx\n" + b"from" + b"\\\n" * 200_000 + b"agentz\n",  # the lexical proof
    b"x = 1\n" + b"'agents' " * 200_000 + b"\n",
    b"from langgraph import x\nfrom " + b"." * 200_000 + b"\nfrom " + b" " * 200_000 + b"y\n",
])
def test_every_scan_over_file_text_is_linear(data: bytes) -> None:
    # Issue 22 N4: each of these took minutes on a backtracking split of one line (quadratic).
    import time

    from siblint.model.project import imported_modules

    start = time.perf_counter()
    prefilter.may_matter(data)
    prefilter.may_matter(data, ("langgraph",))
    imported_modules("/nowhere/x.py", data)
    assert time.perf_counter() - start < 3.0


def _regex_could_import(data: bytes, roots: tuple[str, ...]) -> bool:
    """The lexical proof as one regex (the pre-filter's before it searched with `bytes.find`): the
    oracle the faster scan must agree with on every input."""
    import re

    if any(all(n.encode() in data for n in r.split(".")) for r in roots if "." in r):
        return True
    top = sorted((r for r in roots if "." not in r), key=len, reverse=True)
    names = b"|".join(re.escape(n.encode()) for n in top)
    pattern = re.compile(rb"(?:(?<![\w.])(?:from|import)|,)[ \t\f\v\r\n\\]*(?:" + names + rb")(?!\w)"
                         rb"|(?P<quoted>['\"](?:" + names + rb")[.'\"])")
    by_call = b"__import__" in data or b"import_module" in data
    return any(by_call or m.group("quoted") is None for m in pattern.finditer(data))


def test_the_lexical_proof_agrees_with_its_regex_on_random_text() -> None:
    # Texts built from the pieces the proof looks at: a root's name (and a longer word holding it),
    # the keywords, blanks, `\` joins, quotes, dots, commas and word characters around them.
    rng = random.Random(24)
    roots = ("agents", "langchain", "langchain_core", "google.adk", "crewai")
    pieces = [b"agents", b"langchain", b"langchain_core", b"crewai", b"myagents", b"agentsx", b"from", b"import",
              b"xfrom", b".import", b" ", b"\t", b"\\\n", b"\r\n", b"\f", b",", b"'", b'"', b".", b"x", b"_", b"#",
              b"(", b"__import__", b"import_module", b"google", b"adk", b"\n"]
    agreed = {True: 0, False: 0}
    for _ in range(20_000):
        data = b"".join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))
        expected = _regex_could_import(data, roots)
        assert prefilter._could_import(data, roots) is expected, data
        agreed[expected] += 1
    assert min(agreed.values()) > 1_000, agreed  # both answers were tried often
