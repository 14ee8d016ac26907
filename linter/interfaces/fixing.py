"""`siblint check --fix` / `--unsafe-fixes` / `--diff`: the rules' fixes applied to the checked files.

A file is edited only when it is one of the checked files, inside the project (the working folder
or a checked path), reached through no symbolic link, unchanged since siblint read it, and still
parses after the edit. The write is an atomic replace that keeps the file's mode, encoding, BOM
and line endings; every byte outside an edit is kept as it was.
"""

from __future__ import annotations

import codecs
import difflib
import os
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..common.diagnostics import Diagnostic
from ..common.escape import escape_text
from ..common.reading import source_encoding
from ..common.writing import replace_source, round_trips, through_a_link, why_not_replaced
from ..js import is_js
from ..lint.fixes import fix_pairs, fixes_for, still_parses
from ..rule_api.fixes import SAFE, UNSAFE, Fix, FixSpec, applied
from ..syntax.notebook import is_notebook


@dataclass
class FileFix:
    """One file's fixed text, and what it was read as."""

    path: str
    before: bytes
    after: bytes
    fixes: list[Fix]

    def diff(self) -> str:
        """The unified diff of the edit, `--- a/path` / `+++ b/path` as git and ruff print it."""
        old = _decoded(self.path, self.before)[0].splitlines(keepends=True)
        new = _decoded(self.path, self.after)[0].splitlines(keepends=True)
        out = []
        name = os.path.normpath(self.path)
        for line in difflib.unified_diff(old, new, f"a/{name}", f"b/{name}"):
            body = line.rstrip("\r\n")
            out.append(_escaped(body) + ("\n" if body != line else "\n\\ No newline at end of file\n"))
        return "".join(out)


def _escaped(line: str) -> str:
    """A diff line with nothing a terminal or CI runner acts on; tabs kept, so it still applies."""
    return "\t".join(escape_text(part) for part in line.split("\t"))


@dataclass
class Outcome:
    written: list[FileFix] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # "path: reason"


def fix_specs() -> dict[str, FixSpec]:
    """Every rule's declared fix, by code."""
    from ..rule_api.registry import by_code

    return {code: rule.fix for code, rule in by_code().items() if rule.fix is not None}


def _decoded(path: str, data: bytes) -> tuple[str, str, bytes]:
    """(text, encoding, BOM kept aside): TS/JS is UTF-8 as Node reads it, Python as CPython does."""
    if is_js(path):
        bom = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
        return data[len(bom):].decode("utf-8"), "utf-8", bom
    encoding = source_encoding(data)
    return data.decode(encoding), encoding, b""  # utf-8-sig drops the BOM here and writes it back


def inside(path: str, roots: Iterable[str]) -> bool:
    """Is `path` within one of `roots` (after resolving `..`, not links)?"""
    full = os.path.abspath(path)
    for root in roots:
        try:
            if os.path.commonpath([full, os.path.abspath(root)]) == os.path.abspath(root):
                return True
        except ValueError:  # another drive
            continue
    return False


def _by_file(findings: list[Diagnostic], specs: dict[str, FixSpec]) -> dict[str, list[Diagnostic]]:
    """The fixable findings by file; none in a Jupyter notebook (its cells are not edited)."""
    by_file: dict[str, list[Diagnostic]] = {}
    for d in findings:
        if d.code in specs and specs[d.code].action is not None and not is_notebook(d.path):
            by_file.setdefault(d.path, []).append(d)
    return by_file


# Source that is not a file to read again: what `siblint check -` read from stdin, by its name.
_GIVEN: dict[str, bytes] = {}


def remember_source(path: str, data: bytes) -> None:
    """The text checked as `path` came from stdin: fixes (and the JSON report's) are of it."""
    _GIVEN[path] = data


def given_source(path: str) -> bytes:
    """What stdin gave as `path` (`remember_source`)."""
    return _GIVEN[path]


def _read(path: str) -> tuple[bytes, str, str, bytes]:
    """(bytes as read, text, encoding, BOM)."""
    data = _GIVEN.get(path)
    if data is None:
        with open(path, "rb") as fh:
            data = fh.read()
    return (data, *_decoded(path, data))


def _fixed(path: str, data: bytes, mine: list[Diagnostic], specs: dict[str, FixSpec], unsafe: bool,
           outcome: Outcome) -> FileFix | None:
    """The file's text with its applicable fixes, or None when none applies or the edit would not parse."""
    text, encoding, bom = _decoded(path, data)
    if not round_trips(data[len(bom):], text, encoding):
        outcome.skipped.append(f"{path}: its {encoding} encoding would not write back the same bytes, not edited")
        return None
    fixes = [f for f in fixes_for(path, text, mine, specs) if f.applies(unsafe)]
    new, kept = applied(text, [e for f in fixes for e in f.edits])
    if new == text:
        return None
    if still_parses(text, path) and not still_parses(new, path):
        outcome.skipped.append(f"{path}: the fix would break the file, not edited")
        return None
    done = [f for f in fixes if all(e in kept for e in f.edits)]
    return FileFix(path, data, bom + new.encode(encoding), done)


def fix_source(path: str, data: bytes, findings: list[Diagnostic], unsafe: bool, relint: Callable[[bytes], list[Diagnostic]],
               rounds: int, outcome: Outcome) -> tuple[FileFix, list[Diagnostic]]:
    """Source given as bytes (stdin), fixed in up to `rounds` rounds (each re-linted by `relint`):
    the fixed source (`after` is `data` when nothing applies) and the findings left."""
    specs = fix_specs()
    done = FileFix(path, data, data, [])
    for _ in range(rounds):
        mine = [d for d in findings if d.path == path]
        try:
            ff = _fixed(path, done.after, mine, specs, unsafe, outcome)
        except (UnicodeError, LookupError) as exc:
            outcome.skipped.append(f"{path}: {exc}")
            break
        if ff is None:
            break
        done = FileFix(path, data, ff.after, done.fixes + ff.fixes)
        findings = relint(ff.after)
    return done, findings


def fixes_with_text(findings: list[Diagnostic]) -> dict[Diagnostic, tuple[Fix, str]]:
    """The fix each finding would get, with the text its edits are offsets of: the text it was found
    in (stdin's, else the file's now)."""
    specs = fix_specs()
    out: dict[Diagnostic, tuple[Fix, str]] = {}
    for path, mine in _by_file(findings, specs).items():
        try:
            text = _read(path)[1]
        except (OSError, UnicodeError, LookupError):
            continue
        out.update((d, (f, text)) for d, f in fix_pairs(path, text, mine, specs))
    return out


def plan(findings: list[Diagnostic], files: set[str], roots: list[str], unsafe: bool,
         outcome: Outcome, since_ns: int | None = None) -> list[FileFix]:
    """The fixed text of each checked file that has an applicable fix (nothing is written here).
    `since_ns`: when the check behind `findings` began; a file changed since, or one a replace
    must not touch (read-only, hard-linked, an encoding that does not round-trip), is left alone."""
    specs = fix_specs()
    out = []
    for path, mine in sorted(_by_file(findings, specs).items()):
        if path not in files or not inside(path, roots):
            continue  # a finding reported in a module that was not asked for, or outside the project
        try:
            why = why_not_replaced(path, since_ns)
            data = _read(path)[0]
        except (OSError, UnicodeError, LookupError) as exc:
            outcome.skipped.append(f"{path}: {getattr(exc, 'strerror', None) or exc}")
            continue
        if why is not None:
            outcome.skipped.append(f"{path}: {why}")
            continue
        fixed = _fixed(path, data, mine, specs, unsafe, outcome)
        if fixed is not None:
            out.append(fixed)
    return out


def write(planned: list[FileFix], outcome: Outcome) -> None:
    """Write each fixed file, unless a link leads to it or it changed since it was read."""
    for ff in planned:
        if through_a_link(ff.path):
            outcome.skipped.append(f"{ff.path}: a symbolic link (or in a linked folder), not edited")
            continue
        try:
            with open(ff.path, "rb") as fh:
                if fh.read() != ff.before:
                    outcome.skipped.append(f"{ff.path}: changed since siblint read it, not edited")
                    continue
            replace_source(ff.path, ff.after, ".siblint-fix-")
        except OSError as exc:
            outcome.skipped.append(f"{ff.path}: {exc.strerror or exc}")
            continue
        outcome.written.append(ff)


def fixable_counts(findings: list[Diagnostic]) -> tuple[int, int]:
    """How many findings a safe fix would remove, and how many more an unsafe one (ruff's hint)."""
    levels = Counter(f.applicability for f, _ in fixes_with_text(findings).values())
    return levels[SAFE], levels[UNSAFE]


def file_fixable_counts(path: str, data: bytes, findings: list[Diagnostic]) -> tuple[int, int]:
    """`fixable_counts` of one file's `findings`, in these bytes of it."""
    specs = fix_specs()
    mine = _by_file(findings, specs).get(path, [])
    if not mine:
        return 0, 0
    try:
        text = _decoded(path, data)[0]
    except (UnicodeError, LookupError):
        return 0, 0
    levels = Counter(f.applicability for f in dict(fix_pairs(path, text, mine, specs)).values())
    return levels[SAFE], levels[UNSAFE]


def show_fixes(written: list[FileFix]) -> str:
    """`--show-fixes`: the fixes applied, per file and code (ruff's layout)."""
    from ..rule_api.registry import by_code

    if not written:
        return ""
    rules = by_code()
    total = sum(len(ff.fixes) for ff in written)
    out = [f"Fixed {total} finding{'s' if total != 1 else ''}:"]
    for ff in sorted(written, key=lambda f: f.path):
        out.append(f"- {escape_text(ff.path)}:")
        for code, n in sorted(Counter(f.code for f in ff.fixes).items()):
            out.append(f"    {n} × {code} ({rules[code].name if code in rules else ''})")
    return "\n".join(out) + "\n"
