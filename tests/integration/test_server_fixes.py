"""The language server's fixes and pull diagnostics (issue 26), from a real LSP client over stdio:
the quick fix makes the edit `siblint check --fix --unsafe-fixes` makes, and `textDocument/diagnostic`
answers with what the server publishes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsp_client import SiblintClient
from lsprotocol import types
from support import script, siblint
from test_server import apply

PY = """\
from agents import function_tool


@function_tool(failure_error_function=None)
async def lookup_tax(region: str) -> str:
    return "0.2"


@function_tool(timeout=2, timeout_behavior="raise_exception")
async def quote(region: str) -> str:
    return "1"
"""
TS = "import { tool } from '@openai/agents';\nexport const t = tool({ name: 'é☃', execute, errorFunction: null });\n"
STALE = PY.replace('    return "0.2"\n', '    return "0.2"  # noqa: SIB101, E501\n\nx = 2  # noqa: SIB105\n')
BENIGN = PY.replace("(failure_error_function=None)", "").replace(', timeout_behavior="raise_exception"', "")


def serve(root: Path, test):
    async def main():
        async with SiblintClient([script("siblint"), "server"], root) as client:
            return await test(client)
    return asyncio.run(main())


async def _actions(client: SiblintClient, uri: str, diags: list[types.Diagnostic],
                   only: list[str] | None = None) -> list[types.CodeAction]:
    rng = diags[0].range if diags else types.Range(types.Position(0, 0), types.Position(0, 0))
    return list(await client.client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=rng,
        context=types.CodeActionContext(diagnostics=diags, only=only))) or [])


def _cli_fixed(root: Path, name: str, text: str) -> str:
    (root / name).write_text(text, encoding="utf-8")
    siblint(["check", "--no-cache", "--fix", "--unsafe-fixes", name], root)
    return (root / name).read_text(encoding="utf-8")


def test_each_fix_is_a_quick_fix_with_the_cli_edit(tmp_path: Path) -> None:
    async def test(client: SiblintClient):
        out = {}
        for name, text, lang in (("agent.py", PY, "python"), ("web.ts", TS, "typescript")):
            uri = client.open(tmp_path / name, text, lang)
            published = (await client.diagnostics(uri)).diagnostics
            fatal = [d for d in published if d.code in ("SIB201", "SIB203")]
            fixed = text
            titles = []
            for diag in sorted(fatal, key=lambda d: d.range.start.line, reverse=True):  # later edits first
                [fix] = [a for a in await _actions(client, uri, [diag]) if a.title.startswith("Fix ")]
                titles.append(fix.title)
                assert fix.kind == types.CodeActionKind.QuickFix
                assert [(d.code, d.range) for d in fix.diagnostics or []] == [(diag.code, diag.range)]
                fixed = apply(fixed, list(fix.edit.changes[uri]))
            client.change(uri, fixed)
            out[name] = (fixed, titles, (await client.diagnostics(uri)).diagnostics)
        return out

    results = serve(tmp_path, test)
    py_fixed, py_titles, py_after = results["agent.py"]
    (tmp_path / "cli").mkdir()
    assert py_fixed == _cli_fixed(tmp_path / "cli", "agent.py", PY) != PY
    assert any(t.startswith("Fix SIB201 (unsafe): drops `failure_error_function=None`") for t in py_titles)
    assert not [d for d in py_after if d.code in ("SIB201", "SIB203")]
    ts_fixed, ts_titles, ts_after = results["web.ts"]
    assert ts_fixed == TS.replace(", errorFunction: null", "")  # non-ASCII before the edit: UTF-16 columns
    assert ts_titles and not [d for d in ts_after if d.code == "SIB201"]


def test_fix_all_in_the_document_and_none_for_the_benign_twin(tmp_path: Path) -> None:
    async def test(client: SiblintClient):
        uri = client.open(tmp_path / "agent.py", PY)
        diags = list((await client.diagnostics(uri)).diagnostics)
        actions = await _actions(client, uri, diags)
        [everything] = [a for a in actions if a.title.startswith("siblint: fix all in this document")]
        safe_only = await _actions(client, uri, [], only=["source.fixAll"])
        stale = client.open(tmp_path / "stale.py", STALE)
        await client.diagnostics(stale)
        fix_all = await _actions(client, stale, [], only=["source.fixAll"])
        twin = client.open(tmp_path / "twin.py", BENIGN)
        twin_diags = list((await client.diagnostics(twin)).diagnostics)
        return everything, safe_only, fix_all, twin_diags, await _actions(client, twin, twin_diags)

    (tmp_path / "pyproject.toml").write_text('[tool.siblint]\nextend-select = ["SIB902"]\n')
    everything, safe_only, fix_all, twin_diags, twin_actions = serve(tmp_path, test)
    assert apply(PY, list(everything.edit.changes[next(iter(everything.edit.changes))])) == BENIGN.replace(
        "@function_tool\n", "@function_tool()\n", 1)
    assert safe_only == []  # no fix of these findings is safe: fixAll (on save) must not apply them
    [action] = fix_all  # the safe ones only: the stale noqa codes go, the fatal setting stays
    assert action.kind == "source.fixAll.siblint"
    assert apply(STALE, list(next(iter(action.edit.changes.values())))) == STALE.replace(
        "  # noqa: SIB101, E501", "  # noqa: E501").replace("x = 2  # noqa: SIB105\n", "x = 2\n")
    assert twin_diags == [] and twin_actions == []


def test_pull_diagnostics_answer_what_is_published(tmp_path: Path) -> None:
    async def test(client: SiblintClient):
        assert client.capabilities.diagnostic_provider is not None
        uri = client.open(tmp_path / "agent.py", PY)
        published = (await client.diagnostics(uri)).diagnostics
        pulled = await client.client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))
        client.change(uri, BENIGN)
        await client.diagnostics(uri)
        after = await client.client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))
        ghost = await client.client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=client.uri(tmp_path / "never_opened.py"))))
        return published, pulled, after, ghost

    published, pulled, after, ghost = serve(tmp_path, test)
    assert pulled.kind == "full" and list(pulled.items) == list(published) and published
    assert list(after.items) == [] and list(ghost.items) == []
