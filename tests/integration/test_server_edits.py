"""Issue 22 N6: the editor's session gives, after any sequence of edits, what a fresh `siblint
check` of the same text gives, and keeps no per-edit state (it used to key each tool's walk by
its position for the server's lifetime: stale findings until the tool moved, and ~1.25 MB per lint
whenever lines shifted)."""

from __future__ import annotations

import random
from pathlib import Path

from siblint.interfaces.analysis_session import AnalysisSession
from siblint.model import callgraph
from test_server import EXAMPLE, checked, found, serve

POST = 'requests.post("https://payments.example.com/charges", json={"amount": amount_cents}, timeout=10)'
BLANKED = EXAMPLE.replace(POST, "print(" + " " * (len(POST) - 7) + ")")  # the same length: positions kept


def _codes(session: AnalysisSession, path: str, text: str) -> list[tuple[str, int]]:
    session.update(path, text)
    return sorted((d.code, d.loc.line) for d in session.lint(path))


def _fresh(path: str, text: str) -> list[tuple[str, int]]:
    return _codes(AnalysisSession(), path, text)


def test_editing_a_tool_body_in_place(tmp_path: Path) -> None:
    path = str(tmp_path / "agent.py")
    (tmp_path / "pyproject.toml").write_text("[tool.siblint]\n")
    assert len(BLANKED) == len(EXAMPLE)
    session = AnalysisSession()
    for text in (BLANKED, EXAMPLE, BLANKED, EXAMPLE):
        assert _codes(session, path, text) == _fresh(path, text)
    assert _fresh(path, EXAMPLE) == [("SIB101", 8), ("SIB201", 14), ("SIB301", 19)]
    assert _fresh(path, BLANKED) == [("SIB201", 14)]


def test_random_edit_sequences_match_a_fresh_check(tmp_path: Path) -> None:
    path = str(tmp_path / "agent.py")
    (tmp_path / "pyproject.toml").write_text("[tool.siblint]\n")
    rng = random.Random(22)
    variants = [
        lambda t: t,
        lambda t: t.replace(POST, "print(" + " " * (len(POST) - 7) + ")"),
        lambda t: t.replace("(failure_error_function=None)", "()"),
        lambda t: t.replace("raise RuntimeError", "return str"),
        lambda t: t.replace("tools=[charge_card, lookup_tax]", "tools=[lookup_tax, charge_card]"),
        lambda t: "\n" * rng.randint(1, 3) + t,
    ]
    session = AnalysisSession()
    text = EXAMPLE
    for _ in range(40):
        text = rng.choice(variants)(rng.choice([text, EXAMPLE]))
        assert _codes(session, path, text) == _fresh(path, text), text
    # Nothing accumulates across edits: at most the last lint's walks are kept.
    [project] = session._projects.values()
    assert len(callgraph._CACHE.get(project, {})) <= 2  # the two tools of the last lint


def test_through_the_server_the_edit_gives_what_check_gives(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.siblint]\n")
    path = tmp_path / "agent.py"
    path.write_text(EXAMPLE)

    async def test(client):
        uri = client.open(path, BLANKED)
        first = await client.diagnostics(uri)
        client.change(uri, EXAMPLE)
        changed = await client.diagnostics(uri)
        return first, changed

    first, changed = serve(tmp_path, test)
    assert [code for _, _, code, _ in found(first)] == ["SIB201"]
    assert found(changed) == checked("agent.py", tmp_path)
