"""`siblint server` through a real language-server client over stdio (pygls's), against the
installed console script: the same findings as `siblint check`, updates on change and save,
cross-module edits, the rule docs, and the noqa quick fix applied and re-checked."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest
from lsp_client import SiblintClient
from lsprotocol import types
from siblint.interfaces.docs import rule_url
from siblint.lint.noqa import Suppressions, physical_lines, with_codes
from support import CHECKOUT_TOOLS, ROOT, cli_findings, run, script, write

AGENT = """\
from agents import Agent

from pkg.tools import charge_card, lookup_tax

agent = Agent(name="checkout", tools=[charge_card, lookup_tax])
"""
EXAMPLE = (ROOT / "examples" / "checkout_agent.py").read_text(encoding="utf-8")


def serve(root: Path, test):
    """Run `test(client)` against a fresh `siblint server` process started in `root`."""
    async def main():
        async with SiblintClient([script("siblint"), "server"], root) as client:
            return await test(client)
    return asyncio.run(main())


def found(params: types.PublishDiagnosticsParams) -> list[tuple[int, int, str, str]]:
    return sorted((d.range.start.line + 1, d.range.start.character + 1, d.code, d.message) for d in params.diagnostics)


def checked(path: str, root: Path) -> list[tuple[int, int, str, str]]:
    """What `siblint check` reports for one file of `root` (a real process)."""
    return sorted((line, col, code, msg) for _, line, col, code, msg in cli_findings([path], root, ["--no-cache"]))


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP text edits (positions are UTF-16 units; the sources here are ASCII)."""
    lines = physical_lines(text)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start = offsets[e.range.start.line] + e.range.start.character
        end = offsets[e.range.end.line] + e.range.end.character
        text = text[:start] + e.new_text + text[end:]
    return text


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write(tmp_path, {"pkg/__init__.py": "", "pkg/tools.py": CHECKOUT_TOOLS, "pkg/agent.py": AGENT,
                     "checkout_agent.py": EXAMPLE,
                     "pyproject.toml": '[tool.siblint]\nper-file-ignores = { "pkg/tools.py" = ["SIB101"] }\n'})
    return tmp_path


def test_capabilities_and_the_same_findings_as_check(project):
    async def test(client: SiblintClient):
        caps = client.capabilities
        assert caps.hover_provider and caps.code_action_provider
        assert caps.text_document_sync.save is not None  # didSave is asked for
        results = {}
        for rel in ("checkout_agent.py", "pkg/agent.py", "pkg/tools.py"):
            uri = client.open(project / rel, (project / rel).read_text())
            results[rel] = await client.diagnostics(uri)
        return results

    results = serve(project, test)
    for rel, params in results.items():
        assert found(params) == checked(rel, project), rel
        assert params.version == 1
    example = results["checkout_agent.py"].diagnostics
    assert sorted(d.code for d in example) == ["SIB101", "SIB201", "SIB301"]
    severity = {"SIB101": types.DiagnosticSeverity.Warning, "SIB201": types.DiagnosticSeverity.Warning,
                "SIB301": types.DiagnosticSeverity.Error}  # SIB301 is the certain loss
    for d in example:
        assert d.source == "siblint" and d.severity == severity[d.code]
        assert d.code_description.href == rule_url(d.code)
    # Cross-module: the group in pkg/agent.py points into pkg/tools.py, whose SIB101 the config ignores.
    [group] = results["pkg/agent.py"].diagnostics
    assert group.code == "SIB301"
    assert {r.location.uri for r in group.related_information} == {SiblintClient.uri(project / "pkg" / "tools.py")}
    assert [d.code for d in results["pkg/tools.py"].diagnostics] == ["SIB201"]


def test_typescript_documents_get_the_same_findings_as_check(tmp_path):
    from test_js_cli import AGENT as TS_AGENT
    from test_js_cli import MAIL

    write(tmp_path, {"app/agent.ts": TS_AGENT, "app/mail.ts": MAIL})

    async def test(client: SiblintClient):
        uri = client.open(tmp_path / "app" / "agent.ts", TS_AGENT, "typescript")
        return await client.diagnostics(uri)

    params = serve(tmp_path, test)
    assert found(params) == checked("app/agent.ts", tmp_path)
    assert sorted(d.code for d in params.diagnostics) == ["SIB101", "SIB201", "SIB301"]


def test_change_and_save_publish_updated_findings(project):
    path = project / "checkout_agent.py"

    async def test(client: SiblintClient):
        uri = client.open(path, EXAMPLE)
        first = await client.diagnostics(uri)
        client.change(uri, EXAMPLE.replace("@function_tool(failure_error_function=None)", "@function_tool"))
        changed = await client.diagnostics(uri)
        # An incremental edit (what editors send): the decorator's arguments on line 14 go.
        client.change(uri, EXAMPLE)
        await client.diagnostics(uri)
        start = len("@function_tool")
        client.edit(uri, (13, start), (13, start + len("(failure_error_function=None)")), "")
        incremental = await client.diagnostics(uri)
        client.change(uri, EXAMPLE)
        back = await client.diagnostics(uri)
        client.save(uri)
        saved = await client.diagnostics(uri)
        # A burst of edits, as typing sends them: debounced, so fewer lints than changes.
        for i in range(10):
            client.change(uri, EXAMPLE + "\n" * i)
        burst = [await client.diagnostics(uri)]
        while burst[-1].version != client.versions[uri]:
            burst.append(await client.diagnostics(uri))
        await asyncio.sleep(0.3)
        return first, changed, incremental, back, saved, burst, client.pending(uri)

    first, changed, incremental, back, saved, burst, late = serve(project, test)
    path.write_text(EXAMPLE.replace("@function_tool(failure_error_function=None)", "@function_tool"))
    assert found(incremental) == checked("checkout_agent.py", project) == found(changed)
    path.write_text(EXAMPLE)
    assert [d[2] for d in found(first)] == ["SIB101", "SIB201", "SIB301"]
    assert [d[2] for d in found(changed)] == ["SIB101"] and changed.version == 2
    assert found(back) == found(first) and back.version == 5
    assert found(saved) == found(first)
    assert len(burst) < 10 and late == 0
    assert burst[-1].version == 15 and found(burst[-1]) == found(first)


def test_an_edit_to_an_imported_module_relints_the_modules_that_use_it(project):
    tools, agent = project / "pkg" / "tools.py", project / "pkg" / "agent.py"

    async def test(client: SiblintClient):
        agent_uri = client.open(agent, AGENT)
        before = await client.diagnostics(agent_uri)
        tools_uri = client.open(tools, CHECKOUT_TOOLS)
        await client.diagnostics(tools_uri)
        reopened = await client.diagnostics(agent_uri)  # opening a module it imports re-lints it too
        # Not saved: the server uses the editor's text of pkg/tools.py, not the file.
        client.change(tools_uri, CHECKOUT_TOOLS.replace("(failure_error_function=None)", ""))
        await client.diagnostics(tools_uri)
        after_fix = await client.diagnostics(agent_uri)
        client.close(tools_uri)  # closed unsaved: the file on disk counts again
        closed = await client.diagnostics(tools_uri)
        after_close = await client.diagnostics(agent_uri)
        # A closed module rewritten on disk (git checkout, a formatter): its facts are read again.
        tools.write_text(CHECKOUT_TOOLS.replace("(failure_error_function=None)", "") + "\n# rewritten\n")
        client.save(agent_uri)
        on_disk = await client.diagnostics(agent_uri)
        return before, reopened, after_fix, closed, after_close, on_disk

    before, reopened, after_fix, closed, after_close, on_disk = serve(project, test)
    assert list(on_disk.diagnostics) == []
    assert [d.code for d in before.diagnostics] == ["SIB301"] and found(reopened) == found(before)
    assert list(after_fix.diagnostics) == []
    assert list(closed.diagnostics) == []
    assert found(after_close) == found(before)


def test_hover_shows_the_rule_docs(project):
    async def test(client: SiblintClient):
        uri = client.open(project / "checkout_agent.py", EXAMPLE)
        params = await client.diagnostics(uri)
        [sib201] = [d for d in params.diagnostics if d.code == "SIB201"]
        on = await client.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=sib201.range.start))
        off = await client.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=0)))
        return on, off

    on, off = serve(project, test)
    from siblint.rule_api.registry import by_code

    assert on.contents.kind == types.MarkupKind.Markdown
    assert by_code()["SIB201"].doc() in on.contents.value and rule_url("SIB201") in on.contents.value
    assert off is None


def test_quick_fix_adds_the_noqa_that_check_honours(project):
    path = project / "checkout_agent.py"

    async def test(client: SiblintClient):
        uri = client.open(path, EXAMPLE)
        text = EXAMPLE
        for _ in range(3):
            params = await client.diagnostics(uri)
            if not params.diagnostics:
                return text, params
            diag = params.diagnostics[0]
            actions = await client.client.text_document_code_action_async(types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri), range=diag.range,
                context=types.CodeActionContext(diagnostics=[diag], only=[types.CodeActionKind.QuickFix])))
            [action] = [a for a in actions if a.title.startswith("Add `# noqa")]  # beside it: the rule's fix
            assert action.title == f"Add `# noqa: {diag.code}`" and action.kind == types.CodeActionKind.QuickFix
            text = apply(text, list(action.edit.changes[uri]))
            client.change(uri, text)
        return text, await client.diagnostics(uri)

    text, final = serve(project, test)
    assert list(final.diagnostics) == []
    assert text.count("# noqa: SIB") == 3 and "# any error here now ends the run  # noqa: SIB201" in text
    ast.parse(text)
    path.write_text(text)
    assert checked("checkout_agent.py", project) == []  # `siblint check` agrees


@pytest.mark.parametrize("source, line, expected", [
    ('x = f()\n', 1, 'x = f()  # noqa: SIB101\n'),
    ('x = f()  # noqa: E501\n', 1, 'x = f()  # noqa: E501,SIB101\n'),
    ('s = """a\nb\n"""; f()\n', 2, 's = """a\nb\n"""; f()  # noqa: SIB101\n'),
    ('y = a + \\\n    b\n', 1, 'y = a + \\\n    b  # noqa: SIB101\n'),
    ('z = f(\n    1,\n)\n', 2, 'z = f(\n    1,  # noqa: SIB101\n)\n'),
])
def test_noqa_goes_where_the_suppression_is_read(source, line, expected):
    lines = physical_lines(source)
    target = Suppressions(source).comment_line(line)
    lines[target - 1] = with_codes(lines[target - 1], ["SIB101"])
    text = "".join(lines)
    assert text == expected
    ast.parse(text)
    assert Suppressions(text).suppressed("SIB101", line)


def test_config_files_are_followed_on_disk_and_errors_shown_once(tmp_path):
    write(tmp_path, {"pkg/pyproject.toml": "[tool.siblint]\nselct = ['SIB']\n", "pkg/agent.py": EXAMPLE})
    config = tmp_path / "pkg" / "pyproject.toml"

    async def test(client: SiblintClient):
        uri = client.open(tmp_path / "pkg" / "agent.py", EXAMPLE)
        broken = await client.diagnostics(uri)
        client.save(uri)
        await client.diagnostics(uri)
        shown = list(client.messages)
        # Fixed outside the editor (the client sends no events for TOML files): read again.
        config.write_text('[tool.siblint]\nignore = ["SIB1"]\n')
        client.save(uri)
        fixed = await client.diagnostics(uri)
        config.unlink()
        client.save(uri)
        removed = await client.diagnostics(uri)
        return broken, shown, fixed, removed

    broken, shown, fixed, removed = serve(tmp_path, test)
    assert sorted(d.code for d in broken.diagnostics) == ["SIB101", "SIB201", "SIB301"]  # the defaults
    assert len(shown) == 1 and "[tool.siblint] unknown key(s): selct" in shown[0]
    assert sorted(d.code for d in fixed.diagnostics) == ["SIB201", "SIB301"]
    assert sorted(d.code for d in removed.diagnostics) == ["SIB101", "SIB201", "SIB301"]


def test_without_pygls_the_command_says_what_to_install(tmp_path):
    code = ("import sys; sys.modules['pygls'] = None; from siblint.interfaces.cli import main; "
            "main(['server'], prog_name='siblint')")
    proc = run([str(Path(script("siblint")).parent / "python"), "-c", code], tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("siblint: error: `siblint server` needs pygls, which is not installed: "
                                  "pip install 'siblint[server]'")


def test_server_is_in_the_extras():
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert any(d.startswith("pygls>=2") for d in extras["server"])
    assert "siblint[server]" in extras["test"]


def test_bad_input_gets_answers_not_a_crash(tmp_path):
    write(tmp_path, {"ok.py": EXAMPLE})

    async def test(client: SiblintClient):
        broken = client.open(tmp_path / "broken.py", "from agents import function_tool\ndef f(:\n")
        syntax = await client.diagnostics(broken)
        binary = client.open(tmp_path / "nul.py", "from agents import x\n\x00\udcff" * 3)
        odd = await client.diagnostics(binary)
        untitled = "untitled:Untitled-1"
        client.client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=untitled, language_id="python", version=1, text=EXAMPLE)))
        ghost = client.uri(tmp_path / "never_opened.py")
        client.versions[ghost] = 1
        client.change(ghost, "x = 1\n")
        hover = await client.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=ghost), position=types.Position(line=0, character=0)))
        actions = await client.client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=ghost),
            range=types.Range(types.Position(line=0, character=0), types.Position(line=0, character=1)),
            context=types.CodeActionContext(diagnostics=[types.Diagnostic(
                range=types.Range(types.Position(line=99, character=0), types.Position(line=99, character=1)),
                message="m", code="SIB101", source="siblint")])))
        ok = client.open(tmp_path / "ok.py", EXAMPLE)  # the server still answers
        return syntax, odd, hover, actions, await client.diagnostics(ok)

    syntax, odd, hover, actions, ok = serve(tmp_path, test)
    assert [(d.code, d.range.start.line) for d in syntax.diagnostics] == [("SIB900", 1)]
    assert [d.code for d in odd.diagnostics] == ["SIB900"]
    assert hover is None and list(actions) == []
    assert sorted(d.code for d in ok.diagnostics) == ["SIB101", "SIB201", "SIB301"]
