"""What a finding is: a code at a location, with the locations that explain it."""

from __future__ import annotations

from dataclasses import dataclass, field

from .pickling import by_constructor


@by_constructor
@dataclass(frozen=True, order=True, slots=True)
class Loc:
    """A source range: 1-based lines, 0-based columns (libcst's convention)."""

    line: int
    col: int
    end_line: int
    end_col: int

    def within(self, outer: "Loc") -> bool:
        """Does `outer` hold this whole range?"""
        return (outer.line, outer.col) <= (self.line, self.col) and (self.end_line, self.end_col) <= (outer.end_line, outer.end_col)


@by_constructor
@dataclass(frozen=True, order=True, slots=True)
class Related:
    path: str
    loc: Loc
    message: str
    cell: int = 0  # in a Jupyter notebook, the cell (from 1) that `loc` lies in; 0 elsewhere


@by_constructor
@dataclass(frozen=True, order=True, slots=True)
class Diagnostic:
    path: str
    loc: Loc
    code: str
    message: str
    name: str = ""
    severity: str = "error"  # "error" or "warning"
    related: tuple[Related, ...] = field(default=())
    concise: str = field(default="", compare=False)  # the one-line form of `message` (what, and the fix)
    cell: int = 0  # in a Jupyter notebook, the cell (from 1) that `loc` lies in; 0 elsewhere

    def sort_key(self) -> tuple:
        return (self.path, self.cell, self.loc.line, self.loc.col, self.code, self.message)
