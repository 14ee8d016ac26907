"""`siblint check --add-noqa`: silence today's findings in the source, so only new ones fail.

Each finding gets `# noqa: CODE` where noqa.py looks for it (the last line of a multi-line string
or backslash continuation, else the reported line); an existing `# noqa: X` there gains the code.
A file is rewritten only when the result still parses (if it did before) and every finding is
then silenced; otherwise it is left as it was and reported. Symbolic links are never written
through (the checked tree may come from a pull request), and the write is an atomic replace that
keeps the file's mode, encoding and line endings. It is refused where a replace would do what an
edit in place would not (a read-only file, a hard link) or could not keep the bytes (an encoding
that does not give back the file it read), and for a file that changed after the run began (the
findings' lines may have moved).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass, field

from ..common.diagnostics import Diagnostic
from ..common.reading import source_encoding
from ..common.writing import replace_source, round_trips, through_a_link, why_not_replaced
from ..js import is_js
from ..lint.noqa import Suppressions, comment_columns, with_codes
from ..syntax.notebook import is_notebook

# SIB9xx say the file was not (fully) checked or point at a comment: a noqa would only hide that.
NOT_SILENCED = ("SIB9",)


@dataclass
class Outcome:
    added: int = 0
    files: int = 0
    skipped: list[str] = field(default_factory=list)  # "path: reason"


def edit(text: str, findings: list[Diagnostic]) -> tuple[str, int]:
    """The text with noqa comments for `findings`, and how many codes were added."""
    sup = Suppressions(text)
    lines = list(sup.lines)
    wanted: dict[int, list[str]] = defaultdict(list)
    for d in findings:
        if d.code.startswith(NOT_SILENCED) or sup.suppressed(d.code, d.loc.line):
            continue
        target = sup.comment_line(d.loc.line)
        if 0 < target <= len(lines) and d.code not in wanted[target]:
            wanted[target].append(d.code)
    comments = comment_columns(text)  # only a real comment is edited, never a string that reads `# noqa`
    for number, codes in wanted.items():
        column = None if comments is None else comments.get(number, -1)
        lines[number - 1] = with_codes(lines[number - 1], codes, column)
    return "".join(lines), sum(len(c) for c in wanted.values())


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
        return True
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False


def add_noqa(findings: list[Diagnostic], since_ns: int | None = None) -> Outcome:
    """Edit every file that has findings; returns what was added and what was left alone.
    `since_ns`: when the run began (time.time_ns()); a file changed since is left alone."""
    outcome = Outcome()
    by_file: dict[str, list[Diagnostic]] = defaultdict(list)
    for d in findings:
        by_file[d.path].append(d)
    for path, mine in sorted(by_file.items()):
        if not any(not d.code.startswith(NOT_SILENCED) for d in mine):
            continue
        if through_a_link(path):
            outcome.skipped.append(f"{path}: a symbolic link (or in a linked folder), not edited")
            continue
        if is_js(path):
            outcome.skipped.append(f"{path}: TypeScript/JavaScript, not edited (write `// noqa: CODE` by hand)")
            continue
        if is_notebook(path):
            outcome.skipped.append(f"{path}: a Jupyter notebook, not edited (write `# noqa: CODE` in the cell by hand)")
            continue
        try:
            why = why_not_replaced(path, since_ns)
            if why is not None:
                outcome.skipped.append(f"{path}: {why}")
                continue
            with open(path, "rb") as fh:
                data = fh.read()
            encoding = source_encoding(data)
            text = data.decode(encoding)  # utf-8-sig drops the BOM here and writes it back below
            if not round_trips(data, text, encoding):
                outcome.skipped.append(f"{path}: its {encoding} encoding would not write back the same bytes, not edited")
                continue
            new, count = edit(text, mine)
            if not count:
                continue
            after = Suppressions(new)
            if _parses(text) and not _parses(new):
                outcome.skipped.append(f"{path}: a comment would break the file, not edited")
                continue
            if not all(after.suppressed(d.code, d.loc.line) for d in mine if not d.code.startswith(NOT_SILENCED)):
                outcome.skipped.append(f"{path}: a comment would not silence every finding, not edited")
                continue
            replace_source(path, new.encode(encoding), ".siblint-noqa-")
        except (OSError, UnicodeError, LookupError) as exc:
            outcome.skipped.append(f"{path}: {getattr(exc, 'strerror', None) or exc}")
            continue
        outcome.added += count
        outcome.files += 1
    return outcome
