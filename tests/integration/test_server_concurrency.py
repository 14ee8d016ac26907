"""The language server keeps answering while a lint runs, and publishes only the newest text's
findings (issue 22, N5's "cancel stale lints"), through a real client over stdio."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from lsp_client import SiblintClient
from lsprotocol import types
from test_server import EXAMPLE, checked, found, serve
from support import write

# A module that takes seconds to lint (~5 s unloaded): the example, then thousands of helpers.
SLOW = EXAMPLE + "".join(f"\n\ndef helper_{i}(x):\n    y = x + {i}\n    return [y for _ in range(3)]\n"
                         for i in range(3000))
# The example with its requests.post gone: SIB201 only (the newest text's findings differ).
QUIET = EXAMPLE.replace("requests.post(", "print(")


def _children(pid: int) -> set[int]:
    """The server's lint workers (multiprocessing's spawned children, not its resource tracker)."""
    out: set[int] = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as fh:
            out.update(int(c) for c in fh.read().split())
    return {c for c in out if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()}


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(") ")[-1][0] != "Z"
    except FileNotFoundError:
        return False


def test_answers_while_linting_and_publishes_only_the_newest_text(tmp_path: Path) -> None:
    write(tmp_path, {"pyproject.toml": "[tool.siblint]\n", "small.py": EXAMPLE, "big.py": QUIET})

    async def test(client: SiblintClient):
        small = client.open(tmp_path / "small.py", EXAMPLE)
        first = await client.diagnostics(small)  # the worker is up and warm
        [sib201] = [d for d in first.diagnostics if d.code == "SIB201"]
        big = client.open(tmp_path / "big.py", SLOW)
        await asyncio.sleep(0.3)  # its lint is running
        started = time.monotonic()
        hover = await client.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=small), position=sib201.range.start))
        hover_wait = time.monotonic() - started
        published_during_hover = client.pending(big)
        client.change(big, SLOW + "\n")  # a stale lint of version 1, then the newest text
        await asyncio.sleep(0.05)
        client.change(big, QUIET)
        newest = await client.diagnostics(big, 120)
        stale_after = client.pending(big)
        # Shutdown while a lint runs: answered, and the worker does not outlive the server.
        client.change(big, SLOW)
        await asyncio.sleep(0.3)
        workers = _children(client.client._server.pid)
        return hover, hover_wait, published_during_hover, newest, stale_after, list(client.messages), workers

    hover, hover_wait, published_during_hover, newest, stale_after, messages, workers = serve(tmp_path, test)
    assert hover is not None and "SIB201" in hover.contents.value
    assert published_during_hover == 0 and hover_wait < 5, "hover waited for the lint"
    assert newest.version == 3 and stale_after == 0  # versions 1 and 2 never published
    assert found(newest) == checked("big.py", tmp_path) and [d.code for d in newest.diagnostics] == ["SIB201"]
    assert any("stopped a stale lint" in m and "big.py" in m for m in messages)
    assert workers, "the lint runs in a child process"
    deadline = time.monotonic() + 10
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(map(_alive, workers))


def test_a_short_stale_lint_finishes_on_the_warm_worker(tmp_path: Path) -> None:
    """Typing in a small document: each lint is superseded within the grace period, the worker is
    kept (no restart, no message), and the last version's findings are published."""
    write(tmp_path, {"pyproject.toml": "[tool.siblint]\n", "a.py": EXAMPLE})

    async def test(client: SiblintClient):
        uri = client.open(tmp_path / "a.py", EXAMPLE)
        await client.diagnostics(uri)
        workers = _children(client.client._server.pid)
        for i in range(5):
            client.change(uri, EXAMPLE + "\n" * i)
            await asyncio.sleep(0.02)
        client.change(uri, QUIET)
        while True:
            last = await client.diagnostics(uri)
            if last.version == client.versions[uri]:
                break
        return last, workers, _children(client.client._server.pid), list(client.messages)

    last, before, after, messages = serve(tmp_path, test)
    assert [d.code for d in last.diagnostics] == ["SIB201"]
    assert before == after and not any("stopped" in m for m in messages)


def test_a_killed_worker_is_reported_and_replaced(tmp_path: Path) -> None:
    """The worker is OOM-killed in the middle of a lint: the user is told which document it held,
    and the next lint runs on a new worker."""
    write(tmp_path, {"pyproject.toml": "[tool.siblint]\n", "a.py": EXAMPLE})

    async def test(client: SiblintClient):
        big = client.open(tmp_path / "big.py", SLOW)
        await asyncio.sleep(0.5)
        [worker] = _children(client.client._server.pid)
        os.kill(worker, 9)
        await asyncio.sleep(0.5)
        uri = client.open(tmp_path / "a.py", EXAMPLE)
        return await client.diagnostics(uri), client.pending(big), list(client.messages)

    after, big_published, messages = serve(tmp_path, test)
    assert sorted(d.code for d in after.diagnostics) == ["SIB101", "SIB201", "SIB301"]
    assert big_published == 0
    assert any("killed by signal 9" in m and "big.py" in m for m in messages), messages
