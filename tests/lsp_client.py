"""A language-server client over stdio (pygls's), driving a real `siblint server` process.

Used by tests/integration/test_server.py and by benchmarks/lsp_latency.py, which times the same
didChange -> publishDiagnostics round trip the tests check.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path


class SiblintClient:
    """Starts `siblint server`, initialises it, and queues every publishDiagnostics it sends."""

    def __init__(self, command: list[str], root: Path, env: dict[str, str] | None = None) -> None:
        self.command = command
        self.root = root
        self.env = env
        self.client = LanguageClient("siblint-test-client", "1")
        self._published: dict[str, asyncio.Queue[types.PublishDiagnosticsParams]] = {}
        self.messages: list[str] = []
        self.versions: dict[str, int] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _diagnostics(params: types.PublishDiagnosticsParams) -> None:
            self._queue(params.uri).put_nowait(params)

        @self.client.feature(types.WINDOW_SHOW_MESSAGE)
        def _message(params: types.ShowMessageParams) -> None:
            self.messages.append(params.message)

        @self.client.feature(types.WINDOW_LOG_MESSAGE)
        def _log(params: types.LogMessageParams) -> None:
            self.messages.append(params.message)

    def _queue(self, uri: str) -> "asyncio.Queue[types.PublishDiagnosticsParams]":
        return self._published.setdefault(uri, asyncio.Queue())

    def pending(self, uri: str) -> int:
        """How many publishDiagnostics for `uri` arrived and were not read yet."""
        return self._queue(uri).qsize()

    async def __aenter__(self) -> "SiblintClient":
        await self.client.start_io(*self.command, cwd=str(self.root), env={**os.environ, **(self.env or {})})
        result = await asyncio.wait_for(self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=from_fs_path(str(self.root)),
            workspace_folders=[types.WorkspaceFolder(uri=from_fs_path(str(self.root)), name="root")])), 60)
        self.capabilities = result.capabilities
        self.client.initialized(types.InitializedParams())
        return self

    async def __aexit__(self, *exc: object) -> None:
        try:
            await asyncio.wait_for(self.client.shutdown_async(None), 10)
            self.client.exit(None)
        finally:
            await asyncio.wait_for(self.client.stop(), 10)

    @staticmethod
    def uri(path: Path) -> str:
        return from_fs_path(str(path))

    def open(self, path: Path, text: str, language_id: str = "python", uri: str | None = None) -> str:
        """didOpen; `uri`: the URI exactly as an editor spells it (default: pygls's encoding of `path`)."""
        uri = uri or self.uri(path)
        self.versions[uri] = 1
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id=language_id, version=1, text=text)))
        return uri

    def change(self, uri: str, text: str) -> None:
        """Replace the whole text (a full-document change event)."""
        self.versions[uri] += 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))

    def edit(self, uri: str, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
        """Replace a range (0-based line, UTF-16 column) with `text`: an incremental change event."""
        self.versions[uri] += 1
        rng = types.Range(types.Position(line=start[0], character=start[1]), types.Position(line=end[0], character=end[1]))
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[types.TextDocumentContentChangePartial(range=rng, text=text)]))

    def save(self, uri: str) -> None:
        self.client.text_document_did_save(types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))

    def close(self, uri: str) -> None:
        self.client.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))

    async def diagnostics(self, uri: str, timeout: float = 30) -> types.PublishDiagnosticsParams:
        """The next publishDiagnostics for `uri`, in the order the server sent them."""
        return await asyncio.wait_for(self._queue(uri).get(), timeout)
