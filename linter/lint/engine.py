"""Analyse one file: bytes -> facts -> findings, with every failure turned into a diagnostic.

The order is the cost order: the byte pre-filter, CPython's parser as a guard, one libcst parse,
one traversal for facts, then every enabled rule over those facts.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..common.diagnostics import Diagnostic, Loc
from ..common.reading import DEFAULT_MAX_FILE_SIZE, read_bounded
from ..js import is_js
from ..model.callgraph import forget_walks
from ..model.groups import groups_in
from ..model.project import ProjectIndex, module_name_for, project_root
from ..model.versions import PIN_STORE
from ..rule_api.registry import all_rules, by_code
from ..rule_api.rule import Context
from ..settings.config import Config, is_test_module
from ..settings.excludes import Skip
from ..syntax import elision, notebook, source
from ..syntax.collector import collect
from ..syntax.facts import ModuleFacts
from .noqa import Suppressions

if TYPE_CHECKING:
    import libcst as cst


@dataclass
class FileResult:
    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    facts: ModuleFacts | None = None
    text: str | None = None
    cells: notebook.CellMap | None = None  # a notebook's: where each line of `text` is in its cells
    written: tuple[notebook.Written, ...] = ()  # a notebook's `%%writefile` modules
    parts: list["FileResult"] = field(default_factory=list)  # their results, reported in the notebook


def _unparsable(path: str, err: source.SourceError) -> Diagnostic:
    rule = by_code()["SIB900"]
    return Diagnostic(path, Loc(err.line, err.col, err.line, err.col), rule.code,
                      rule.message.format(reason=err.reason), rule.name, rule.severity)


def facts_from_text(text: str, path: str, tree: ast.Module | None = None, guarded: bool = False) -> ModuleFacts:
    """Parse and collect; raises SourceError when the text cannot be analysed. `tree`, when given,
    is CPython's parse of `text` (flake8's), used for the guard instead of parsing again; `guarded`:
    that tree already passed the guard (`source.check_syntax`), which is not run again.
    A TypeScript/JavaScript file goes to the tree-sitter front end (siblint.js)."""
    if is_js(path):
        from ..js.frontend import facts_from_text as js_facts

        return js_facts(text, path)
    if not (guarded and tree is not None):
        tree = source.check_syntax(text, path, tree)
    # A test module's statements that no rule reads are blanked first (siblint.syntax.elision).
    parsed = text if tree is None or not is_test_module(path) else elision.thinned(text, tree)
    name, is_package, _ = module_name_for(path)
    return source.with_deep_recursion(lambda: collect(_parse(parsed, text), path, name, is_package))


def _parse(parsed: str, text: str) -> cst.Module:
    """libcst's tree of the thinned text; of the file's own text if thinning ever broke it (a caller's
    CPython tree of other bytes than `text`), so thinning can cost time but never a finding."""
    try:
        return source.parse(parsed)
    except source.SourceError:
        if parsed is text:
            raise
        return source.parse(text)


def decode(data: bytes, path: str) -> str:
    """The text of a file: as Python decodes it (BOM, coding cookie, UTF-8), or UTF-8 for TS/JS;
    a notebook's code cells (siblint.syntax.notebook)."""
    return _read(data, path)[0]


def _read(data: bytes, path: str) -> tuple[str, notebook.Notebook | None]:
    if notebook.is_notebook(path):
        try:
            book = notebook.read(data)
        except notebook.NotebookError as exc:
            raise source.SourceError(exc.reason, exc.line, exc.col) from None
        return book.code, book
    return _decoded(data, path), None


def _decoded(data: bytes, path: str) -> str:
    if is_js(path):
        from ..js.parse import decode as js_decode

        return js_decode(data)
    return source.decode(data)


def load_facts(path: str, max_bytes: int = DEFAULT_MAX_FILE_SIZE) -> ModuleFacts | None:
    """Facts of a file reached through an import (None when it cannot be read or parsed)."""
    try:
        return facts_from_text(decode(read_bounded(path, max_bytes), path), path)
    except (OSError, source.SourceError):
        return None


def new_project(config: Config) -> ProjectIndex:
    """The index of the project a file with settings `config` belongs to (siblint.model.project)."""
    return ProjectIndex([project_root(config)], loader=lambda path: load_facts(path, config.max_file_size),
                        skip=Skip(config), max_bytes=config.max_file_size)


def analyse(path: str, data: bytes, config: Config, project: ProjectIndex, *, prefiltered: bool = True,
            facts: ModuleFacts | None = None, tree: ast.Module | None = None, guarded: bool = False) -> FileResult:
    """All findings for one file, before suppression comments are applied.

    `facts`, when given, are this file's facts from the cache: the rules run without a parse.
    `tree`, when given, is CPython's parse of the same text, and `guarded` says it passed the guard
    (see `facts_from_text`)."""
    result = _analyse(path, data, config, project, prefiltered=prefiltered, facts=facts, tree=tree, guarded=guarded)
    result.parts = [_written_module(path, module, config, project) for module in result.written
                    if not os.path.lexists(os.path.join(os.path.dirname(path), module.target))]
    return result


def _written_module(path: str, module: notebook.Written, config: Config, project: ProjectIndex) -> FileResult:
    """A notebook's `%%writefile` module, analysed under the path it would be written to (a file
    there is checked as itself instead), its findings moved to the notebook."""
    written = os.path.join(os.path.dirname(path), module.target)
    forget_walks(project)  # walks are keyed by position: another cell may have written this path
    # So are the run's answers (`project.memo`: by path, class and attribute names), and another
    # notebook of this folder, or another cell, may have written other code to this path: an answer
    # kept from that module would decide this one's findings, and then which notebooks a process
    # analysed before (-j) would. The module gets answers of its own, dropped with it.
    run_memo = project.memo
    project.memo = {key: value for key, value in run_memo.items() if key == PIN_STORE}
    try:
        part = _analyse(written, module.code.encode("utf-8", "surrogatepass"), config, project)
    finally:
        project.memo = run_memo
        project.forget(written)  # not on disk: no other module may find it
        forget_walks(project)
    part.diagnostics = [notebook.moved(d, written, path) for d in part.diagnostics]
    part.path, part.cells = path, module.cells
    return part


def _analyse(path: str, data: bytes, config: Config, project: ProjectIndex, *, prefiltered: bool = True,
             facts: ModuleFacts | None = None, tree: ast.Module | None = None, guarded: bool = False) -> FileResult:
    result = FileResult(path)
    if prefiltered and not project.wants(path, data):
        return result
    try:
        result.text, book = _read(data, path)
        if book is not None:
            result.cells, result.written = book.cells, book.written
        if facts is None:
            facts = facts_from_text(result.text, path, tree, guarded)
    except source.SourceError as err:
        result.diagnostics.append(_unparsable(path, err))
        return result
    except Exception as exc:  # noqa: BLE001 - a parser or collector bug must not end the run
        crashed = source.SourceError(f"internal error while parsing ({type(exc).__name__}: {exc}); please report this file")
        result.diagnostics.append(_unparsable(path, crashed))
        return result
    result.facts = facts
    project.add(facts)
    ctx = Context(facts, project, config, find_groups=lambda: groups_in(facts, project))
    for rule_cls in all_rules():
        if not config.enabled(rule_cls.code):
            continue
        rule = rule_cls()
        try:
            found = list(rule.check(ctx))
        except Exception as exc:  # one rule's bug must not hide the other rules' findings
            internal = by_code()["SIB901"]
            found = [Diagnostic(path, Loc(1, 0, 1, 0), internal.code,
                                internal.message.format(rule=rule_cls.code, error=f"{type(exc).__name__}: {exc}"),
                                internal.name, internal.severity)]
        result.diagnostics.extend(found)
    return result


UNUSED_NOQA = "SIB902"


def unused_noqa(result: FileResult, config: Config, findings: list[Diagnostic]) -> list[Diagnostic]:
    """SIB902 for `# noqa: SIB...` codes that silence none of `findings` (before suppression)."""
    if (result.text is None or config.ignore_noqa or not config.enabled(UNUSED_NOQA)
            or config.ignored_for_file(UNUSED_NOQA, result.path)):
        return []
    rule = by_code()[UNUSED_NOQA]
    out = []
    for line, col, codes in Suppressions(result.text, result.path).unused([(d.code, d.loc.line) for d in findings]):
        message = rule.message.format(codes=", ".join(codes), them="it" if len(codes) == 1 else "them")
        out.append(Diagnostic(result.path, Loc(line, col, line, col), rule.code, message, rule.name, rule.severity))
    return out


def filter_findings(result: FileResult, config: Config, *, honour_noqa: bool = True) -> list[Diagnostic]:
    """Apply selection, per-file-ignores, SIB902 and (in the CLI) `# noqa`; sorted and de-duplicated.

    Without `honour_noqa` (the flake8 plugin: flake8 applies `# noqa`), SIB902 is still computed;
    with `config.ignore_noqa` (`--ignore-noqa`) comments are neither honoured nor checked."""
    kept = [d for d in result.diagnostics if config.enabled(d.code) and not config.ignored_for_file(d.code, d.path)]
    kept += unused_noqa(result, config, kept)
    if honour_noqa and not config.ignore_noqa and kept and result.text is not None:
        sup = Suppressions(result.text, result.path)
        kept = [d for d in kept if not sup.suppressed(d.code, d.loc.line)]
    if result.cells is not None:  # last: `# noqa` and SIB902 read the concatenated code's lines
        kept = notebook.in_cells(kept, result.cells)
    kept += [d for part in result.parts for d in filter_findings(part, config, honour_noqa=honour_noqa)]
    return sorted({_own_spelling(d) for d in kept}, key=Diagnostic.sort_key)


def _own_spelling(d: Diagnostic) -> Diagnostic:
    """`d` with its related locations' paths spelled as `d.path` is (relative to the same folder, or
    absolute): a tool reached through two modules may be known by a relative and an absolute path,
    and its one finding must not be reported twice."""
    spelled = tuple(replace(r, path=_spelled_like(d.path, r.path)) for r in d.related)
    return d if spelled == d.related else replace(d, related=spelled)


def _spelled_like(anchor: str, path: str) -> str:
    """`path` spelled as `anchor` is: itself when they name one file, else absolute or relative."""
    target, own = os.path.abspath(path), os.path.abspath(anchor)
    if target == own:
        return anchor
    if os.path.isabs(anchor):
        return target
    return os.path.normpath(os.path.join(os.path.dirname(anchor), os.path.relpath(target, os.path.dirname(own))))


def lint_text(text: str, path: str = "example.py", config: Config | None = None,
              project: ProjectIndex | None = None) -> list[Diagnostic]:
    """Lint source text as if it were the file at `path` (noqa honoured)."""
    config = config or Config(root=os.path.dirname(os.path.abspath(path)))
    project = project or new_project(config)
    return filter_findings(analyse(path, text.encode("utf-8"), config, project), config)
