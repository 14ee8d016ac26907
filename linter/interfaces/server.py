"""`siblint server`: a language server on stdio, built on pygls and lsprotocol.

Diagnostics on open and save at once, on change after a short debounce (typing a word lints once);
documents that import an edited module are linted again. Each diagnostic links to its rule's page
(`codeDescription`), hovering it shows the rule's documentation, and a quick fix adds
`# noqa: CODE` where `siblint check` reads it. Lints run in a worker process, newest text first,
so requests are answered while one runs (siblint.interfaces.lint_scheduler); what the worker keeps
between lints is in siblint.interfaces.analysis_session.
"""

from __future__ import annotations

import asyncio
import logging
import os

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import ServerTextPosition, ServerTextRange

from .. import __version__
from ..common.diagnostics import Diagnostic, Loc
from ..js import EXTENSIONS as JS_EXTENSIONS
from ..js import is_js
from ..lint import noqa
from ..syntax.notebook import is_notebook
from . import code_actions
from .lint_scheduler import LintScheduler, Result
from .docs import rule_url

# Long enough that a burst of keystrokes lints once, short enough to stay inside the 100 ms target
# (benchmarks/lsp_latency.py measures didChange -> publishDiagnostics with it included).
DEBOUNCE_SECONDS = 0.01
SOURCE = "siblint"
_SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}

log = logging.getLogger(__name__)


# The front end a client's languageId asks for, as the extension that picks it (siblint.lint.engine
# chooses by extension). An unknown or missing languageId leaves the choice to the file's extension.
_LANGUAGE_EXTENSIONS = {"python": ".py", "typescript": ".ts", "typescriptreact": ".tsx",
                        "javascript": ".js", "javascriptreact": ".jsx"}
_LINTED = (".py", ".pyi", *JS_EXTENSIONS)


def lint_path(path: str, language_id: str | None) -> str | None:
    """The path the document at `path` is linted under: its own when its extension already picks
    the front end its languageId names, else `path` plus that extension (a `.ts` URI holding
    Python, an extensionless script); None for a document siblint does not lint. A Jupyter
    notebook is left alone, whatever its languageId: its text is JSON, and a cell's finding has no
    place in it (`siblint check` reports notebooks as `path:cell N:line`)."""
    if is_notebook(path):
        return None
    ext = _LANGUAGE_EXTENSIONS.get(language_id or "")
    own = path.lower().endswith(_LINTED)
    if ext is None or (own and is_js(path) == is_js(ext)):
        return path if own else None
    return path + ext


def path_of(uri: str) -> str | None:
    """The one reading of a client's URI, used for every request: percent-escapes decoded (`%20`,
    `%2B`, `%C3%A9`; a literal `+` stays), a Windows drive letter in one case (`file:///c%3A/` and
    `file:///C:/` are one file), links resolved (a workspace opened through a linked folder: the
    project index finds modules under their real paths). None for a URI that names no file
    (`untitled:`)."""
    path = to_fs_path(uri)
    return os.path.realpath(path) if path else None


class SiblintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("siblint", __version__)
        self.lints = LintScheduler(self._publish, self._note)
        # All keyed by `path_of(uri)`: a client may spell one file's URI in more than one way.
        self.findings: dict[str, list[Diagnostic]] = {}  # last published findings
        self._pending: dict[str, asyncio.TimerHandle] = {}
        self._uris: dict[str, str] = {}  # the URI the client opened the file as (publish under it)
        self._waiting: dict[str, list[tuple[int, asyncio.Future[None]]]] = {}  # pulls awaiting a version
        self.published: dict[str, int] = {}  # the document version `findings` are of

    def opened(self, uri: str) -> TextDocument | None:
        """The client's open document at `uri`, however it is escaped (pygls stores documents under
        the decoded URI; a file read from disk instead has no version)."""
        doc = self.workspace.get_text_document(uri)
        return doc if doc.version is not None else None

    def shutdown(self) -> None:
        self.lints.shutdown()
        super().shutdown()

    # ---- diagnostics --------------------------------------------------------------------------
    def changed(self, uri: str) -> str | None:
        """Hand the document's newest text to the scheduler (a lint of an older one is stale); its
        path, or None when siblint does not lint it."""
        path = path_of(uri)
        doc = self.opened(uri)
        linted_as = lint_path(path, doc.language_id) if path and doc else None
        if path is None or doc is None or linted_as is None:
            return None  # a config file or another language: siblint reads configs from disk
        self._uris[path] = uri
        self.lints.workspace = self._workspace_folders()
        self.lints.update(path, doc.version or 0, doc.source, linted_as)
        return path

    def _workspace_folders(self) -> list[str]:
        uris = [f.uri for f in self.workspace.folders.values()]
        if self.workspace.root_uri:
            uris.append(self.workspace.root_uri)
        return [p for p in map(path_of, uris) if p]

    def lint_and_publish(self, uri: str, *, with_dependents: bool = False) -> None:
        path = self.changed(uri)
        if path is not None:
            self._pending.pop(path, None)
            self.lints.request(path, with_dependents)

    def _publish(self, result: Result) -> None:
        uri = self._uris.get(result.path)
        doc = self.opened(uri) if uri else None
        if uri is None or doc is None or doc.version != result.version:
            return  # closed, or changed since: the newest text's lint is queued
        if result.error:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=result.error))
        for message in result.config_errors:
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=f"siblint: {message}"))
        self.findings[result.path] = result.findings
        self.published[result.path] = doc.version
        self._wake(result.path, doc.version)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=doc.version, diagnostics=[self._to_lsp(d, doc) for d in result.findings]))
        if result.with_dependents:
            self.lint_dependents(result.path)

    def until_published(self, path: str, version: int) -> asyncio.Future[None]:
        """Done once findings of `version` (or newer) of `path` are published."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(path, []).append((version, done))
        return done

    def _wake(self, path: str, version: int) -> None:
        waiting = self._waiting.pop(path, [])
        for wanted, done in waiting:
            if wanted <= version and not done.done():
                done.set_result(None)
        if rest := [(v, d) for v, d in waiting if v > version and not d.done()]:
            self._waiting[path] = rest

    def _note(self, message: str) -> None:
        self.window_log_message(types.LogMessageParams(type=types.MessageType.Warning, message=message))

    def lint_dependents(self, path: str) -> None:
        for other in self.lints.dependents(path):
            if other in self._uris:
                self.lints.request(other)

    def forget_uri(self, path: str) -> None:
        self._uris.pop(os.path.realpath(path), None)

    def uri_of(self, path: str) -> str:
        return self._uris.get(os.path.realpath(path)) or from_fs_path(path) or path

    def schedule(self, uri: str) -> None:
        path = self.changed(uri)
        if path is None:
            return
        self.cancel(uri)
        self._pending[path] = asyncio.get_running_loop().call_later(
            DEBOUNCE_SECONDS, lambda: self.lint_and_publish(uri, with_dependents=True))

    def cancel(self, uri: str) -> None:
        path = path_of(uri)
        handle = self._pending.pop(path, None) if path else None
        if handle is not None:
            handle.cancel()

    def _range(self, loc: Loc, path: str) -> types.Range:
        """libcst's 1-based lines and code-point columns in the client's units (UTF-16 by default)."""
        line, col, end_line, end_col = (max(0, v) for v in (loc.line - 1, loc.col, loc.end_line - 1, loc.end_col))
        server_range = ServerTextRange(ServerTextPosition(line, col), ServerTextPosition(end_line, end_col))
        doc = self.opened(self.uri_of(path))
        if doc is not None:
            return doc.range_to_client_units(server_range)
        # A closed module: code points, which differ only after a character outside the BMP.
        return types.Range(types.Position(line=line, character=col), types.Position(line=end_line, character=end_col))

    def _to_lsp(self, d: Diagnostic, doc: TextDocument) -> types.Diagnostic:
        related = [types.DiagnosticRelatedInformation(
            location=types.Location(uri=self.uri_of(r.path), range=self._range(r.loc, r.path)),
            message=r.message) for r in d.related]
        return types.Diagnostic(
            range=self._range(d.loc, doc.path), message=d.message, severity=_SEVERITY.get(d.severity),
            code=d.code, code_description=types.CodeDescription(href=rule_url(d.code)), source=SOURCE,
            related_information=related or None)

    # ---- hover and quick fix ------------------------------------------------------------------
    def hover(self, params: types.HoverParams) -> types.Hover | None:
        from ..rule_api.registry import by_code

        doc = self.opened(params.text_document.uri)
        path = path_of(params.text_document.uri)
        if doc is None or path is None:
            return None
        line, col = params.position.line + 1, doc.position_from_client_units(params.position).character
        codes = dict.fromkeys(d.code for d in self.findings.get(path, [])
                              if (d.loc.line, d.loc.col) <= (line, col) <= (d.loc.end_line, d.loc.end_col))
        rules = [by_code()[c] for c in codes if c in by_code()]
        if not rules:
            return None
        text = "\n\n---\n\n".join(f"**{r.code}** `{r.name}` ([rule page]({rule_url(r.code)}))\n\n{r.doc()}" for r in rules)
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))

    def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        doc = self.opened(uri)
        if doc is None:
            return []
        lines = noqa.physical_lines(doc.source)
        actions = []
        for diag in params.context.diagnostics:
            if diag.source != SOURCE or not isinstance(diag.code, str):
                continue
            edit = self._noqa_edit(doc, lines, diag.range.start.line + 1, diag.code)
            if edit is None:
                continue
            actions.append(types.CodeAction(
                title=f"Add `# noqa: {diag.code}`", kind=types.CodeActionKind.QuickFix, diagnostics=[diag],
                edit=types.WorkspaceEdit(changes={uri: [edit]})))
        path = path_of(uri)
        return (code_actions.fix_actions(self, params, path, doc) if path else []) + actions

    @staticmethod
    def _noqa_edit(doc: TextDocument, lines: list[str], line: int, code: str) -> types.TextEdit | None:
        if not 0 < line <= len(lines) or doc.path.endswith(JS_EXTENSIONS):
            return None  # the quick fix writes Python's `# noqa`; TS/JS suppressions are written by hand
        suppressions = noqa.Suppressions("".join(lines))
        if suppressions.suppressed(code, line):
            return None  # a bare noqa comment (or one listing the code) already silences it
        target = suppressions.comment_line(line)
        old = lines[target - 1].rstrip("\r\n")
        comments = noqa.comment_columns(doc.source)
        new = noqa.with_codes(old, [code], None if comments is None else comments.get(target, -1))
        end = doc.position_to_client_units(ServerTextPosition(target - 1, len(old)))
        return types.TextEdit(range=types.Range(types.Position(target - 1, 0), end), new_text=new)


def build() -> SiblintServer:
    server = SiblintServer()

    @server.feature(types.INITIALIZED)
    def initialized(ls: SiblintServer, params: types.InitializedParams) -> None:
        ls.lints.start()  # its imports run while the client opens its first documents

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: SiblintServer, params: None) -> None:
        ls.lints.shutdown()  # a lint still running is of no use now

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SiblintServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.lint_and_publish(params.text_document.uri, with_dependents=True)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SiblintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    def did_save(ls: SiblintServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.cancel(params.text_document.uri)
        ls.lint_and_publish(params.text_document.uri, with_dependents=True)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SiblintServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.cancel(uri)
        path = path_of(uri)
        if path is not None:
            ls.findings.pop(path, None)
            ls.lints.close(path)
            ls.lint_dependents(path)
            ls.forget_uri(path)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: SiblintServer, params: types.HoverParams) -> types.Hover | None:
        return ls.hover(params)

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, code_actions.FIX_ALL]))
    def code_action(ls: SiblintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        return ls.code_actions(params)

    code_actions.register(server)
    return server


def serve() -> None:
    """Serve one client on stdin/stdout until it exits."""
    import sys

    from .framing import ResyncingReader

    build().start_io(stdin=ResyncingReader(sys.stdin.buffer))  # type: ignore[arg-type]
