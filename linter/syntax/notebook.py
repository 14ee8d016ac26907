"""Jupyter notebooks (`.ipynb`) as ruff reads them: the code cells concatenated into one module,
IPython syntax neutralised so that libcst parses it, and a map back to `cell N` and its line.

- Each line keeps its place: a line magic (`%pip install x`), a shell escape (`!ls`), a help
  request (`obj?`) becomes `pass` at the same indentation, and `files = !ls` keeps its target
  (`files = None`), so every statement and `# noqa` comment stays on its own line.
- A cell whose first line is a cell magic runs as Python only under the magics that run their
  body as Python (`%%time`, `%%capture`, ...: ruff's list); that line becomes `pass`. Any other
  cell magic (`%%bash`, `%%html`, `%%writefile notes.txt`) makes the cell not Python: left out.
- Cells are numbered from 1 over every cell of the notebook (markdown ones too), as ruff does.
- A `%%writefile NAME.py` cell writes a module the notebook then imports (how tutorials define
  their tools): it is checked as a module of its own (`written`), reported in its cell. What
  imports it does not see it: it is not on disk, and nothing here writes it.
- A notebook whose kernel is not Python (R, Julia) has no Python code (`code` is empty).

Nothing here runs the notebook; it is read as JSON, bounded by the caller's size limit.
"""

from __future__ import annotations

import json
import re
import tokenize
from dataclasses import dataclass, replace

from ..common.diagnostics import Diagnostic, Loc
from .prefilter import NOTEBOOK_SUFFIX as SUFFIX

# Cell magics whose body IPython runs as Python (ruff's `is_valid_python_code_cell`).
PYTHON_CELL_MAGICS = frozenset({"capture", "debug", "prun", "pypy", "python", "python3", "time", "timeit"})

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_ESCAPE = re.compile(r"^([ \t]*)(?:%|!|\?)")  # `%magic`, `!shell`, `?obj`, `??obj`
_ASSIGNED = re.compile(r"^([ \t]*)([A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*)[ \t]*=[ \t]*[%!]")  # `x = !ls`
_HELP = re.compile(r"^([ \t]*)[A-Za-z_][\w.]*\?\??[ \t]*$")  # `obj?`, `obj.attr??`
_CELL_MAGIC = re.compile(r"^[ \t]*%%(\w*)")
_WRITEFILE = re.compile(r"^[ \t]*%%writefile(?:[ \t]+-a)?[ \t]+(\S+)[ \t]*$")


class NotebookError(Exception):
    """Not a notebook siblint can read: `reason`, and where (the engine reports it as SIB900).
    Not siblint.syntax.source's SourceError: the pre-filter reads notebooks without the parser."""

    def __init__(self, reason: str, line: int = 1, col: int = 0) -> None:
        super().__init__(reason)
        self.reason, self.line, self.col = reason, line, col


def is_notebook(path: str) -> bool:
    return path.lower().endswith(SUFFIX)


@dataclass(frozen=True)
class CellMap:
    """Line of the concatenated code (1-based) -> (cell number, line in that cell), both 1-based."""

    places: tuple[tuple[int, int], ...]

    def place(self, line: int) -> tuple[int, int]:
        if not self.places:
            return 1, max(line, 1)
        return self.places[min(max(line, 1), len(self.places)) - 1]

    def loc(self, loc: Loc) -> tuple[int, Loc]:
        """The cell of `loc`'s start and `loc` within it (a span ending in a later cell ends at its start line)."""
        cell, line = self.place(loc.line)
        end_cell, end_line = self.place(loc.end_line)
        if end_cell != cell or end_line < line:
            end_line, end_col = line, loc.col
        else:
            end_col = loc.end_col
        return cell, Loc(line, loc.col, end_line, end_col)


@dataclass(frozen=True)
class Written:
    """A module a `%%writefile NAME.py` cell writes (tutorials define their tools so, then import
    them): checked on its own, its findings reported in that cell."""

    target: str  # the file name the magic names, relative to the notebook's folder
    code: str
    cells: CellMap


@dataclass(frozen=True)
class Notebook:
    code: str  # the code cells, concatenated, IPython syntax neutralised
    cells: CellMap
    cell_lines: tuple[tuple[str, ...], ...]  # each cell's own source lines, as written (for reports)
    written: tuple[Written, ...] = ()


def read(data: bytes) -> Notebook:
    """The notebook in `data`; NotebookError when it is not a notebook siblint can read."""
    try:
        document = json.loads(data)
    except json.JSONDecodeError as exc:  # reported where the JSON breaks
        raise NotebookError(f"not a readable Jupyter notebook: invalid JSON ({exc.msg})", exc.lineno, exc.colno - 1) from None
    except (ValueError, RecursionError) as exc:  # not UTF-8, or nested too deeply
        raise NotebookError(f"not a readable Jupyter notebook: invalid JSON ({_short(exc)})") from None
    if not isinstance(document, dict) or not isinstance(document.get("cells"), list):
        version = document.get("nbformat") if isinstance(document, dict) else None
        why = f"nbformat {version} is not supported (only 4)" if isinstance(version, int) and version < 4 else "no 'cells' list"
        raise NotebookError(f"not a readable Jupyter notebook: {why}")
    cells = [c if isinstance(c, dict) else {} for c in document["cells"]]
    sources = [_source(c) for c in cells]
    cell_lines = tuple(tuple(_lines(s)) if s is not None else () for s in sources)
    if not _is_python(document):
        return Notebook("", CellMap(()), cell_lines)
    code_cells = [i for i, c in enumerate(cells) if c.get("cell_type") == "code" and sources[i] is not None]
    if not code_cells:  # prose only (a docs page, a redirect stub): nothing to check, nothing wrong
        return Notebook("", CellMap(()), cell_lines)
    out: list[str] = []
    places: list[tuple[int, int]] = []
    written: list[Written] = []
    for index in code_cells:
        if (module := _written(index, cell_lines[index])) is not None:
            written.append(module)
            continue
        lines = _python_lines(list(cell_lines[index]))
        out += lines
        places += [(index + 1, row) for row in range(1, len(lines) + 1)]
    return Notebook("".join(out), CellMap(tuple(places)), cell_lines, tuple(written))


def _written(index: int, lines: tuple[str, ...]) -> Written | None:
    """The module of a `%%writefile [-a] NAME.py` cell (None for any other cell, or another file type)."""
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None or (magic := _WRITEFILE.match(lines[first])) is None:
        return None
    target = magic.group(1).strip("'\"")
    if not target.endswith(".py"):
        return None
    body = lines[first + 1:]
    places = tuple((index + 1, first + 2 + i) for i in range(len(body)))
    return Written(target, "".join(body), CellMap(places))


def in_cells(diagnostics: list[Diagnostic], cells: CellMap) -> list[Diagnostic]:
    """Findings on the concatenated code moved to their cell: `loc` within the cell, `cell` set.
    Related locations in the same notebook move too."""
    out = []
    for d in diagnostics:
        cell, loc = cells.loc(d.loc)
        related = tuple(replace(r, cell=c, loc=rloc) if r.path == d.path and not r.cell else r
                        for r in d.related for c, rloc in [cells.loc(r.loc)])
        out.append(replace(d, loc=loc, cell=cell, related=related))
    return out


def moved(d: Diagnostic, written: str, path: str) -> Diagnostic:
    """A finding of the `%%writefile` module at `written`, and its related locations there, in the notebook at `path`."""
    related = tuple(replace(r, path=path) if r.path == written else r for r in d.related)
    return replace(d, path=path if d.path == written else d.path, related=related)


def cell_lines(data: bytes) -> tuple[tuple[str, ...], ...]:
    """Each cell's lines as written in the notebook (baselines and fingerprints hash a finding's); () when unreadable."""
    try:
        return read(data).cell_lines
    except NotebookError:
        return ()


def code_of(data: bytes) -> str | None:
    """The notebook's Python code for the pre-filter; None when it cannot be read (the engine says why)."""
    try:
        book = read(data)
    except NotebookError:
        return None
    return "\n".join([book.code, *(module.code for module in book.written)])


def _short(exc: Exception) -> str:
    text = str(exc)
    return text if len(text) <= 120 else text[:117] + "..."


def _source(cell: dict) -> str | None:
    source = cell.get("source", "")
    if isinstance(source, str):
        return source
    if isinstance(source, list) and all(isinstance(s, str) for s in source):
        return "".join(source)
    return None


def _lines(source: str) -> list[str]:
    """Physical lines as Python counts them (\\n, \\r\\n, \\r), each ending with a line break."""
    if not source:
        return []
    parts = _LINE_BREAK.split(source)
    if parts[-1] == "":
        parts.pop()
    return [p + "\n" for p in parts]


def _is_python(document: dict) -> bool:
    """False only when the notebook says its language is another one."""
    metadata = document.get("metadata")
    if not isinstance(metadata, dict):
        return True
    for table, key in (("language_info", "name"), ("kernelspec", "language")):
        value = metadata.get(table)
        language = value.get(key) if isinstance(value, dict) else None
        if isinstance(language, str) and language:
            return language.lower() == "python"
    return True


def _python_lines(lines: list[str]) -> list[str]:
    """A cell's lines with IPython syntax made Python, one line for one; [] for a non-Python cell."""
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None and (magic := _CELL_MAGIC.match(lines[first])):
        if magic.group(1) not in PYTHON_CELL_MAGICS:
            return []
        lines = [*lines[:first], "pass\n", *lines[first + 1:]]
    starts = _statement_starts(lines)
    return [_neutral(line) if starts is None or row in starts else line for row, line in enumerate(lines, 1)]


def _statement_starts(lines: list[str]) -> set[int] | None:
    """The rows where a statement begins: a `%` that continues `(a\\n % b)`, or a `!` inside a
    triple-quoted string, is not IPython syntax. None when the cell cannot be tokenised."""
    skipped = (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER)
    starts: set[int] = set()
    expect = True
    try:
        for tok in tokenize.generate_tokens(iter(lines).__next__):
            if tok.type in skipped:
                continue
            if expect:
                starts.add(tok.start[0])
                expect = False
            expect = tok.type == tokenize.NEWLINE
    except (tokenize.TokenError, SyntaxError):
        return None
    return starts


def _neutral(line: str) -> str:
    if (m := _ASSIGNED.match(line)) is not None:
        return f"{m.group(1)}{m.group(2)} = None\n"
    if (m := _ESCAPE.match(line) or _HELP.match(line)) is not None:
        return f"{m.group(1)}pass\n"
    return line
