"""The contract every rule follows: a code, a name, a message template, docs and examples.

A rule reads a module's facts (never libcst nodes) and yields findings. Its docstring carries
ruff's sections and is what `siblint explain CODE`, the README table and SARIF show. VALID and
INVALID examples are linted by the test suite, so a rule cannot drift from its documentation.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Callable, ClassVar, TypeVar

from ..common.diagnostics import Diagnostic, Loc, Related
from .fixes import FixSpec, fix_safety_section

if TYPE_CHECKING:
    from ..model.groups import Group
    from ..model.project import ProjectIndex
    from ..settings.config import Config
    from ..syntax.facts import ModuleFacts


_T = TypeVar("_T")

# The rules are plugins: the engine finds them by this package's name (its FAMILIES and
# OFF_BY_DEFAULT), as flake8 finds plugins by entry point, so no engine module imports a rule.
RULES_PACKAGE = "siblint.rules"


def catalog() -> ModuleType:
    """The rules package: `FAMILIES` (each family module and its codes) and `OFF_BY_DEFAULT`."""
    return importlib.import_module(RULES_PACKAGE)


@dataclass(frozen=True)
class Valid:
    """Code the rule must not flag."""

    code: str
    files: dict[str, str] = field(default_factory=dict)  # extra modules of the same project
    filename: str = "main.py"  # `main.ts` for a TypeScript example


@dataclass(frozen=True)
class Invalid:
    """Code the rule must flag: once per entry of `lines` (1-based report lines)."""

    code: str
    lines: tuple[int, ...] = ()
    files: dict[str, str] = field(default_factory=dict)
    filename: str = "main.py"


@dataclass
class Context:
    """What a rule sees of one module: its facts, the project around it, the configuration."""

    facts: "ModuleFacts"
    project: "ProjectIndex"
    config: "Config"
    # The module's concurrent tool groups, given by the engine (the model sits above this contract).
    find_groups: "Callable[[], list[Group]]" = lambda: []
    # Results several rules share for this module (computed once per file, see `once`).
    shared: dict[str, object] = field(default_factory=dict)

    @property
    def path(self) -> str:
        return self.facts.path

    def groups(self) -> "list[Group]":
        """The module's concurrent tool groups, computed once per file for every rule that asks."""
        return self.once("groups", self.find_groups)

    def once(self, key: str, compute: "Callable[[], _T]") -> "_T":
        """`compute()` for this file, computed by the first rule that asks and shared with the rest."""
        if key not in self.shared:
            self.shared[key] = compute()
        return self.shared[key]  # type: ignore[return-value]


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    message: ClassVar[str]  # a str.format template: what, why, and what to do instead
    concise: ClassVar[str] = ""  # the one-line form (code, what, fix) for the default text output
    summary: ClassVar[str]  # one line for `siblint rules`
    default_enabled: ClassVar[bool] = True  # from the catalog's OFF_BY_DEFAULT
    # "error": a certain loss (SIB301) or a file that could not be checked; "warning": a hazard
    # that needs a second condition to lose anything. `--fail-on` decides which fail the run.
    severity: ClassVar[str] = "error"
    VALID: ClassVar[list[Valid]] = []
    INVALID: ClassVar[list[Invalid]] = []
    # The rule's fix as data (`rule_api.fixes`), or None and `no_fix`: why no edit is safe to offer.
    fix: ClassVar[FixSpec | None] = None
    no_fix: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "code" in vars(cls) and "default_enabled" not in vars(cls):
            cls.default_enabled = cls.code not in catalog().OFF_BY_DEFAULT

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        raise NotImplementedError

    def finding(
        self, ctx: Context, loc: Loc, related: tuple[Related, ...] = (), path: str | None = None,
        template: str | None = None, concise: str | None = None, **fmt: object
    ) -> Diagnostic:
        return Diagnostic(
            path=path or ctx.path,
            loc=loc,
            code=self.code,
            message=(template or self.message).format(**fmt),
            concise=(concise or self.concise or template or self.message).format(**fmt),
            name=self.name,
            severity=self.severity,
            related=related,
        )

    @classmethod
    def doc(cls) -> str:
        """The docstring, then the `## Fix safety` section made from `fix` / `no_fix`."""
        return inspect.cleandoc(cls.__doc__ or "") + "\n\n" + fix_safety_section(cls.fix, cls.no_fix)
