"""Issue 22 N2: every URI spelling an editor sends reaches the same file, through a real client.

Editors percent-encode paths (`My Projects/`, non-ASCII names, VS Code's `file:///c%3A/`), and
pygls stores documents under the decoded URI: the server reads every URI one way (`path_of`).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

import pytest
from siblint.interfaces.server import path_of
from test_server import EXAMPLE, checked, found, serve

from support import CHECKOUT_TOOLS, write


def _uri(path: Path, *, safe: str = "/") -> str:
    return "file://" + quote(str(path), safe=safe)


@pytest.mark.parametrize("name,spell", [
    ("my agent.py", lambda p: _uri(p)),                                    # %20
    ("café.py", lambda p: _uri(p)),                                        # %C3%A9
    ("a+b.py", lambda p: _uri(p)),                                         # %2B
    ("a+b.py", lambda p: _uri(p, safe="/+")),                              # a literal +
    ("A:b.py", lambda p: _uri(p)),                                         # %3A
    ("tilde~x.py", lambda p: _uri(p).replace("~", "%7E")),                 # an escape of an unreserved character
])
def test_escaped_uris_get_the_same_findings_as_check(name, spell, tmp_path: Path) -> None:
    folder = tmp_path / "My Projects"
    write(folder, {name: EXAMPLE, "pyproject.toml": "[tool.siblint]\n"})
    path = folder / name
    uri = spell(path)
    assert "%" in uri or "+" in uri

    async def test(client):
        client.open(path, EXAMPLE, uri=uri)
        published = await client.diagnostics(uri, timeout=30)
        hover = await client.client.text_document_hover_async(_hover_at(uri, published))
        return published, hover

    published, hover = serve(folder, test)
    assert published.uri == uri  # published under the URI the client sent
    assert found(published) == checked(name, folder) and found(published)
    assert hover is not None and "SIB" in hover.contents.value


def _hover_at(uri: str, published):
    from lsprotocol import types

    d = published.diagnostics[0]
    return types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=d.range.start)


@pytest.mark.parametrize("uri,path", [
    ("file:///c%3A/work/agent.py", "c:/work/agent.py"),
    ("file:///C:/work/agent.py", "c:/work/agent.py"),
    ("file:///tmp/my%20agent.py", "/tmp/my agent.py"),
    ("file:///tmp/a%2Bb.py", "/tmp/a+b.py"),
    ("file:///tmp/a+b.py", "/tmp/a+b.py"),
    ("file:///tmp/caf%C3%A9.py", "/tmp/café.py"),
    ("file:///tmp/x/../agent.py", "/tmp/agent.py"),
    ("untitled:Untitled-1", None),
])
def test_one_reading_of_a_uri(uri: str, path: str | None) -> None:
    got = path_of(uri)
    if path is None:
        assert got is None
    elif path.startswith("c:"):
        assert got is not None and got.replace("\\", "/").lower().endswith(path)  # abspath adds the cwd off Windows
    else:
        assert got == os.path.realpath(path)


def test_a_symlinked_workspace_root_and_its_imports(tmp_path: Path) -> None:
    real = tmp_path / "real project"
    write(real, {"pkg/__init__.py": "", "pkg/tools.py": CHECKOUT_TOOLS, "pyproject.toml": "[tool.siblint]\n",
                 "pkg/agent.py": "from agents import Agent\n\nfrom pkg.tools import charge_card, lookup_tax\n\n"
                                 "agent = Agent(name=\"c\", tools=[charge_card, lookup_tax])\n"})
    link = tmp_path / "linked root"
    link.symlink_to(real)
    agent_text = (real / "pkg" / "agent.py").read_text()

    async def test(client):
        agent_uri = client.open(link / "pkg" / "agent.py", agent_text, uri=_uri(link / "pkg" / "agent.py"))
        before = await client.diagnostics(agent_uri)
        tools_uri = _uri(link / "pkg" / "tools.py").replace("tools", "%74ools")  # another escape of the same file
        client.open(link / "pkg" / "tools.py", CHECKOUT_TOOLS, uri=tools_uri)
        await client.diagnostics(tools_uri)
        await client.diagnostics(agent_uri)
        client.change(tools_uri, CHECKOUT_TOOLS.replace("(failure_error_function=None)", ""))
        await client.diagnostics(tools_uri)
        after = await client.diagnostics(agent_uri)  # the dependent is re-linted through the escaped URI
        return before, after

    before, after = serve(link, test)
    assert found(before) == checked("pkg/agent.py", link) and any(code == "SIB301" for _, _, code, _ in found(before))
    assert not any(code == "SIB301" for _, _, code, _ in found(after))
