"""The language server's fixes and pull diagnostics (issue 26).

Each finding with a fix gets a quick fix that makes the same edits as `siblint check --fix`
(`lint.fixes`), its title saying when the fix is unsafe. `source.fixAll.siblint` applies every
safe fix of the document, as ruff's server does; a quick fix "all fixes, unsafe included" is
offered beside it when there are unsafe ones. `textDocument/diagnostic` answers the pull model
with the same findings the server publishes.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import ServerTextPosition

from ..common.diagnostics import Diagnostic
from ..common.lines import line_starts
from ..lint.fixes import fix_pairs
from ..rule_api.fixes import SAFE, Edit, Fix, applied, title_of
from .fixing import fix_specs

if TYPE_CHECKING:
    from .server import SiblintServer

# Long enough for a cold lint of a large document in the worker.
PULL_TIMEOUT_SECONDS = 30.0
FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.siblint"


def _text_edits(doc: TextDocument, edits: list[Edit]) -> list[types.TextEdit]:
    """Character ranges of the document's text as LSP edits, in the client's position units."""
    starts = line_starts(doc.source)

    def position(offset: int) -> types.Position:
        line = max(i for i, s in enumerate(starts) if s <= offset)
        return doc.position_to_client_units(ServerTextPosition(line, offset - starts[line]))

    return [types.TextEdit(range=types.Range(position(e.start), position(e.end)), new_text=e.content) for e in edits]


def _workspace_edit(uri: str, doc: TextDocument, fixes: list[Fix]) -> types.WorkspaceEdit:
    kept = applied(doc.source, [e for f in fixes for e in f.edits])[1]  # overlapping edits wait for the next run
    return types.WorkspaceEdit(changes={uri: _text_edits(doc, kept)})


def _document_fixes(ls: "SiblintServer", path: str, doc: TextDocument) -> list[tuple[Diagnostic, Fix]]:
    if ls.published.get(path) != doc.version:
        return []  # findings of an older text: their lines may have moved
    return fix_pairs(path, doc.source, ls.findings.get(path, []), fix_specs())


def fix_actions(ls: "SiblintServer", params: types.CodeActionParams, path: str, doc: TextDocument) -> list[types.CodeAction]:
    """A quick fix per requested diagnostic that has one, then the document's fix-all actions."""
    uri = params.text_document.uri
    pairs = _document_fixes(ls, path, doc)
    wanted = params.context.only
    actions = []
    if not wanted or types.CodeActionKind.QuickFix in wanted:
        for diag in params.context.diagnostics:
            for d, f in pairs:
                if diag.code == d.code and diag.range == ls._range(d.loc, path):
                    note = "" if f.applicability == SAFE else f" ({f.applicability})"
                    actions.append(types.CodeAction(
                        title=f"Fix {d.code}{note}: {title_of(f.description)}",
                        kind=types.CodeActionKind.QuickFix, diagnostics=[diag], is_preferred=f.applicability == SAFE,
                        edit=_workspace_edit(uri, doc, [f])))
    safe = [f for _, f in pairs if f.applicability == SAFE]
    if safe and (not wanted or any(FIX_ALL.startswith(k) for k in wanted)):
        actions.append(types.CodeAction(title="siblint: fix all (safe fixes)", kind=FIX_ALL,
                                        edit=_workspace_edit(uri, doc, safe)))
    if len(pairs) > len(safe) and (not wanted or types.CodeActionKind.QuickFix in wanted) and params.context.diagnostics:
        actions.append(types.CodeAction(title="siblint: fix all in this document (unsafe fixes included)",
                                        kind=types.CodeActionKind.QuickFix,
                                        edit=_workspace_edit(uri, doc, [f for _, f in pairs])))
    return actions


async def pull_diagnostics(ls: "SiblintServer", params: types.DocumentDiagnosticParams) -> types.RelatedFullDocumentDiagnosticReport:
    """`textDocument/diagnostic`: the findings of the document's newest text, as the push model
    publishes them (lints run in the scheduler's worker: the answer waits for that lint)."""
    uri = params.text_document.uri
    doc = ls.opened(uri)
    path = ls.changed(uri)
    if doc is None or path is None:
        return types.RelatedFullDocumentDiagnosticReport(items=[])
    if ls.published.get(path) != doc.version:
        published = ls.until_published(path, doc.version or 0)
        ls.lint_and_publish(uri)  # also published: a client may listen to both models
        try:
            await asyncio.wait_for(published, PULL_TIMEOUT_SECONDS)
        except asyncio.TimeoutError:
            pass  # the worker died or the document changed again: answer with what was published
    return types.RelatedFullDocumentDiagnosticReport(items=[ls._to_lsp(d, doc) for d in ls.findings.get(path, [])])


def register(server: "SiblintServer") -> None:
    """The pull-diagnostics feature (code actions go through the server's one code-action handler)."""

    @server.feature(types.TEXT_DOCUMENT_DIAGNOSTIC,
                types.DiagnosticOptions(identifier="siblint", inter_file_dependencies=True, workspace_diagnostics=False))
    async def diagnostic(ls: "SiblintServer", params: types.DocumentDiagnosticParams) -> types.RelatedFullDocumentDiagnosticReport:
        return await pull_diagnostics(ls, params)
