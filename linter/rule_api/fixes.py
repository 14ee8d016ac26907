"""What a fix is, as rules declare it and as the engine hands it back.

A rule declares its fix as data (`FixSpec`): how safe it is, what it does, and which edit the
engine makes (`action`; None: the fix is described but never applied). The engine turns a finding
and its file's text into a `Fix`: the edits (character ranges of the decoded text) and the same
applicability. The levels are ruff's:

- safe: the program means what it meant;
- unsafe: behaviour changes the way the rule asks (a tool's errors now reach the model);
- display-only: the fix is shown, never applied (it needs a choice only the author can make).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

SAFE, UNSAFE, DISPLAY_ONLY = "safe", "unsafe", "display-only"
LEVELS = (SAFE, UNSAFE, DISPLAY_ONLY)


@dataclass(frozen=True)
class RewriteArgument:
    """The keyword argument (Python) or object property (TS/JS) whose value the finding points at:
    `values[name]` is its new value's source text, or None to drop it (the library default then
    applies). A name not listed is left alone."""

    values: tuple[tuple[str, Union[str, None]], ...]

    def value_for(self, name: str) -> tuple[bool, str | None]:
        """(listed, new value) for the argument `name`."""
        for key, value in self.values:
            if key == name:
                return True, value
        return False, None


@dataclass(frozen=True)
class DropListItems:
    """The list or tuple the finding points at, without the items whose literal value is in `drop`."""

    drop: frozenset[object]


@dataclass(frozen=True)
class Bound:
    """For a call of `library`: `keyword=value`; `value` names `imported` from the library (the
    engine spells it through the module's own import of the library, adding the name if needed)."""

    library: str
    keyword: str
    value: str
    imported: str = ""


@dataclass(frozen=True)
class AddBound:
    """The call (or bare decorator) at the finding gets its library's bound: added, or replacing a
    `None` given for it. A library not listed, or a call spelled another way, gets no edit."""

    bounds: tuple[Bound, ...]


@dataclass(frozen=True)
class CapRuns:
    """The finding points at an argument of `agent = Maker(...)` (a `library` call): every run of
    `agent` in the module (a call of one of `runners`, dotted after the library's import, with the
    agent first or as `agent_keyword`) gets `cap_keyword=cap` in its `config_keyword=config(...)`,
    the config added when absent. `{Name}` in `config`/`cap` is `Name` from the library, spelled
    through the module's import of it (added if needed). No run, or a run whose config is not a
    literal `config(...)` call without the cap: no edit (every run must be capped)."""

    library: str
    runners: tuple[str, ...]
    agent_keyword: str
    config_keyword: str
    config: str
    cap_keyword: str
    cap: str
    imported: tuple[str, ...]


@dataclass(frozen=True)
class DropNoqaCodes:
    """The codes the finding's message names (`SIBnnn`), removed from the noqa comment at the
    finding; the comment goes when none is left."""


Action = Union[RewriteArgument, DropListItems, AddBound, CapRuns, DropNoqaCodes]


@dataclass(frozen=True)
class FixSpec:
    """A rule's fix: its level, one sentence on what it does, and the edit (None: display-only)."""

    applicability: str
    description: str
    action: Action | None = None

    def __post_init__(self) -> None:
        if self.applicability not in LEVELS:
            raise ValueError(f"unknown applicability {self.applicability!r}")
        if (self.action is None) != (self.applicability == DISPLAY_ONLY):
            raise ValueError("a display-only fix has no action, and every other fix has one")


@dataclass(frozen=True, order=True)
class Edit:
    """Replace the characters `start:end` of the decoded text by `content`."""

    start: int
    end: int
    content: str = ""


@dataclass(frozen=True)
class Fix:
    edits: tuple[Edit, ...]
    applicability: str
    description: str
    code: str = ""
    line: int = 0  # the finding's line, for `--show-fixes`

    def applies(self, unsafe: bool) -> bool:
        """Does `--fix` (or `--fix --unsafe-fixes` when `unsafe`) apply it?"""
        return self.applicability == SAFE or (unsafe and self.applicability == UNSAFE)


def title_of(description: str) -> str:
    """A fix's first clause: what an editor's quick fix and the JSON report's `message` show."""
    return description.split(";")[0].split(". ")[0]


def applied(text: str, edits: list[Edit]) -> tuple[str, list[Edit]]:
    """`text` with the edits that do not overlap an earlier one (by start); and those edits."""
    kept: list[Edit] = []
    for e in sorted(set(edits)):
        if kept and e.start < kept[-1].end:
            continue
        kept.append(e)
    out, at = [], 0
    for e in kept:
        out.append(text[at:e.start])
        out.append(e.content)
        at = e.end
    out.append(text[at:])
    return "".join(out), kept


def fix_safety_section(spec: "FixSpec | None", no_fix: str) -> str:
    """The `## Fix safety` section of a rule's documentation."""
    if spec is None:
        return f"## Fix safety\nNo fix: {no_fix}"
    applied_by = {SAFE: "`siblint check --fix` applies it", UNSAFE: "`siblint check --fix --unsafe-fixes` applies it",
                  DISPLAY_ONLY: "shown with the finding, never applied: make the change by hand"}[spec.applicability]
    return f"## Fix safety\n{spec.applicability.capitalize()} fix ({applied_by}): {spec.description}"
