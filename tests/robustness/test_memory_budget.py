"""Issue 22 N5: a memory budget per analysis, from measured costs per syntax node, reported as SIB900."""

from __future__ import annotations

from pathlib import Path

import pytest
from siblint.common.reading import DEFAULT_MAX_FILE_SIZE
from siblint.interfaces.analysis_session import AnalysisSession
from siblint.lint.engine import analyse, new_project
from siblint.settings.config import Config
from siblint.syntax import source

HEAD = "from agents import function_tool\n\n\n@function_tool(failure_error_function=None)\nasync def t() -> str:\n    return ''\n"


def _found(tmp_path: Path, name: str, data: bytes) -> list[tuple[str, str]]:
    path = tmp_path / name
    path.write_bytes(data)
    config = Config(root=str(tmp_path), max_file_size=len(data) + 1)
    return [(d.code, d.message) for d in analyse(str(path), data, config, new_project(config)).diagnostics]


@pytest.mark.parametrize("name,body,per_node", [
    ("calls.py", "f()\n", source.PY_BYTES_PER_NODE),
    ("array.ts", None, source.JS_BYTES_PER_NODE),
])
def test_over_the_node_budget_is_sib900_with_the_count(name, body, per_node, tmp_path, monkeypatch) -> None:
    # A budget scaled down (as a test must) so that a small file crosses it, and its twin under it.
    monkeypatch.setattr(source, "MEMORY_BUDGET", 20_000 * per_node)
    if name.endswith(".ts"):
        big = "import { Agent } from '@openai/agents';\nconst a = [" + "1," * 20_000 + "1];\n"
        small = "import { Agent } from '@openai/agents';\nconst a = [" + "1," * 100 + "1];\n"
    else:
        big, small = HEAD + body * 10_000, HEAD + body * 100
    [(code, message)] = _found(tmp_path, name, big.encode())
    assert code == "SIB900" and "memory budget" in message and "syntax nodes" in message
    assert all(code != "SIB900" for code, _ in _found(tmp_path, name, small.encode()))


def test_a_big_literal_is_cheap_and_stays_analysed(tmp_path) -> None:
    # 1.5 MB of one bytes literal is a handful of nodes: the budget counts nodes, not bytes.
    data = (HEAD + "DESCRIPTOR = b'" + "\\x0a" * 375_000 + "'\n").encode()
    assert len(data) < DEFAULT_MAX_FILE_SIZE
    assert [code for code, _ in _found(tmp_path, "gen.py", data)] == ["SIB201"]


def test_the_server_caps_an_open_document_like_a_file(tmp_path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.siblint]\nmax-file-size = "1KB"\n')
    path = str(tmp_path / "agent.py")
    session = AnalysisSession()
    session.update(path, HEAD + "x = 1\n" * 400)
    [d] = session.lint(path)
    assert d.code == "SIB900" and "larger than the 1 KB limit" in d.message
    session.update(path, HEAD)
    assert [d.code for d in session.lint(path)] == ["SIB201"]
