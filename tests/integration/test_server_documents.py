"""Which documents the language server lints, as what, and with which project (issue 22 L8, L9,
L15); and a client's bad framing does not wedge it."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path

import pytest
from lsp_client import SiblintClient
from siblint.interfaces.server import lint_path
from support import script, sibling_packages, write
from test_server import EXAMPLE, serve


def _frame(message: dict, short_by: int = 0) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % (len(body) - short_by) + body


def test_a_too_short_content_length_does_not_wedge_the_server(tmp_path: Path) -> None:
    proc = subprocess.Popen([script("siblint"), "server"], cwd=tmp_path, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.append(proc.stdout.read()), daemon=True)
    reader.start()
    try:
        proc.stdin.write(_frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                 "params": {"processId": None, "rootUri": None, "capabilities": {}}}))
        proc.stdin.write(_frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        proc.stdin.write(_frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
                                 "params": {"textDocument": {"uri": "file:///x.py"},
                                            "position": {"line": 0, "character": 0}}}, short_by=7))
        proc.stdin.write(_frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}))
        proc.stdin.write(_frame({"jsonrpc": "2.0", "method": "exit"}))
        proc.stdin.close()
        proc.wait(timeout=60)
    finally:
        proc.kill()
    reader.join(10)
    answered = {m.get("id") for m in _messages(out[0]) if "result" in m or "error" in m}
    assert 3 in answered and proc.returncode == 0
    assert b"dropped" in proc.stderr.read()


def _messages(stream: bytes) -> list[dict]:
    found = []
    while b"\r\n\r\n" in stream:
        header, rest = stream.split(b"\r\n\r\n", 1)
        length = int(header.split(b"Content-Length: ")[1].split(b"\r\n")[0])
        found.append(json.loads(rest[:length]))
        stream = rest[length:]
    return found


def test_the_content_length_header_framing_is_unchanged_otherwise() -> None:
    from io import BytesIO

    from siblint.interfaces.framing import ResyncingReader

    body = _frame({"a": "Content-Length: 5"})  # the header's words inside a JSON string
    reader = ResyncingReader(BytesIO(b'xyz"}Content-Length: 9\r\n' + body))
    assert reader.readline() == b"Content-Length: 9\r\n"
    assert reader.readline() == body.split(b"\r\n")[0] + b"\r\n"
    assert reader.readline() == b"\r\n" and reader.read(3) == b'{"a'


@pytest.mark.parametrize("path, language, expected", [
    ("/p/a.py", "python", "/p/a.py"), ("/p/a.ts", "typescript", "/p/a.ts"), ("/p/a.tsx", "typescriptreact", "/p/a.tsx"),
    ("/p/a.ts", "python", "/p/a.ts.py"), ("/p/a.py", "typescript", "/p/a.py.ts"), ("/p/script", "python", "/p/script.py"),
    ("/p/a.ts", None, "/p/a.ts"), ("/p/a.ts", "plaintext", "/p/a.ts"), ("/p/notes.txt", "plaintext", None),
    ("/p/pyproject.toml", "toml", None),
])
def test_the_front_end_follows_the_language_id(path: str, language: str | None, expected: str | None) -> None:
    assert lint_path(path, language) == expected


def test_a_ts_uri_holding_python_gets_pythons_findings(tmp_path: Path) -> None:
    write(tmp_path, {"pyproject.toml": "[tool.siblint]\n"})

    async def test(client: SiblintClient):
        as_python = client.open(tmp_path / "agent.ts", EXAMPLE, language_id="python")
        script_uri = client.open(tmp_path / "agent_script", EXAMPLE, language_id="python")
        return await client.diagnostics(as_python), await client.diagnostics(script_uri)

    for params in serve(tmp_path, test):
        assert sorted(d.code for d in params.diagnostics) == ["SIB101", "SIB201", "SIB301"]


def test_a_document_in_no_project_is_linted_alone(tmp_path: Path) -> None:
    """`scripts/p02/tools.py` gets SIB103 only because `agent.py` beside it lists its function: a
    finding the project's scan gives. Opened from outside the workspace, in no project, its folder
    is not walked (as `file:///etc/passwd` walked /etc): it is linted alone, and has no finding."""
    outside, workspace = tmp_path / "outside", tmp_path / "workspace"
    sibling_packages(outside, 3)
    write(workspace, {"pyproject.toml": "[tool.siblint]\n"})
    tools = outside / "scripts" / "p02" / "tools.py"

    def lint_from(root: Path):
        async def test(client: SiblintClient):
            return await client.diagnostics(client.open(tools, tools.read_text()))
        return serve(root, test)

    assert [d.code for d in lint_from(workspace).diagnostics] == []
    assert [d.code for d in lint_from(outside).diagnostics] == ["SIB103"]  # inside the workspace: its project
