"""One libcst traversal that turns a parsed module into `ModuleFacts`.

The collector knows Python, not frameworks: it records imports, functions with their calls and the
context each call runs in (awaited, inside `finally`, inside an `except`), assignments, and every
call as a `Value` tree. Framework modules interpret those facts afterwards.
"""

from __future__ import annotations

import re

from itertools import dropwhile
from typing import Any, Sequence

import libcst as cst

from ..common.diagnostics import Loc
from ..frameworks import import_roots
from .branches import branch_of, conjunct_branches, negated
from .cst_walk import Walker
from .facts import (
    EMPTY_BINDINGS,
    EMPTY_CALLS,
    EMPTY_LOCS,
    EMPTY_RAISE_SITES,
    EMPTY_RETURN_SITES,
    EMPTY_TRY_SITES,
    EMPTY_VALUES,
    Assignment,
    Attr,
    Branch,
    Call,
    CallSite,
    Comp,
    Const,
    Each,
    FString,
    FunctionFacts,
    Handler,
    Item,
    Lambda,
    Mapping,
    ModuleFacts,
    Other,
    RaiseSite,
    Ref,
    ReturnSite,
    Seq,
    Slash,
    Starred,
    TrySite,
    Value,
    either,
    keyed_target,
)
from .inert import cannot_raise
from .literals import evaluated
from .positions import Range, positions


def dotted(node: cst.BaseExpression) -> str | None:
    """`a.b.c` for a Name/Attribute chain, else None."""
    parts: list[str] = []
    while type(node) is cst.Attribute:  # (not isinstance: an ABC check; the parser builds these exactly)
        parts.append(node.attr.value)
        node = node.value
    if type(node) is cst.Name:
        parts.append(node.value)
        return ".".join(reversed(parts))
    return None


_ANNOTATION_WORDS = re.compile(r"[A-Za-z_][\w.]*")
_IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError", "builtins.ImportError", "builtins.ModuleNotFoundError"}


def qualify(imports: dict[str, str], name: str) -> str:
    """`name` with its first part replaced by what it was imported as (`ft.x` -> `agents.function_tool.x`)."""
    head, _, rest = name.partition(".")
    target = imports.get(head)
    if target is None:
        return name
    return f"{target}.{rest}" if rest else target


def resolve_relative(module: str, is_package: bool, level: int, target: str) -> str:
    """The absolute name of `from <level dots><target> import ...` seen in `module`."""
    parts = module.split(".") if module else []
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
    if target:
        parts.append(target)
    return ".".join(parts)


def _ends_in_exit(body: cst.BaseSuite) -> bool:
    """The suite's last statement is a `return` or a `raise`."""
    last: cst.CSTNode | None = body.body[-1] if body.body else None
    if isinstance(last, cst.SimpleStatementLine):
        last = last.body[-1] if last.body else None
    return isinstance(last, (cst.Return, cst.Raise))


# Suites that run whenever the statement holding them is reached: an await in one comes before what
# follows on every path (`CallSite.awaits_on_every_path`); any other suite's may not have run.
_RUN_WHEN_REACHED = ("with", "finally")


class _Frame:
    """The function being collected, with the try/except context of the current position."""

    def __init__(self, facts: FunctionFacts) -> None:
        self.facts = facts
        self.guards: list[Handler] = []
        self.handler: list[Handler] = []
        self.finally_depth = 0
        self.withs: list[Call] = []
        self.loops: list[Call] = []
        self.branches: list[Branch] = []  # `if name == "x"` arms around the position, outermost first
        # Awaits so far in each block around the position that may not run before what follows it
        # (an `if` arm, a loop body, a `try` body): what leaving one forgets (`awaits_on_every_path`).
        self.block_awaits: list[int] = [0]
        self.globals: set[str] = set()  # names a `global` statement made module-level here


class Collector(Walker):
    def __init__(self, facts: ModuleFacts, ranges: dict[int, Range]) -> None:
        self.facts = facts
        self.ranges = ranges
        self.imports = facts.imports
        self.frames: list[_Frame] = []
        self.classes: list[tuple[str, tuple[str, ...]]] = []
        self.awaited: set[int] = set()
        # Suites of a `try` statement -> what they mean for calls inside them.
        self.try_bodies: dict[int, tuple[Handler, ...]] = {}
        self.handler_bodies: dict[int, Handler] = {}
        self.finally_bodies: set[int] = set()
        # Module-level `def`s in an `except ImportError:` handler: fallbacks for what the `try` imports.
        self.import_fallbacks: set[int] = set()
        self.with_bodies: dict[int, tuple[Call, ...]] = {}
        self.loop_bodies: dict[int, Call] = {}
        # Suites of an `if` arm -> the comparisons that decide it (this arm's, and the enclosing elif chain's).
        self.branch_bodies: dict[int, tuple[Branch, ...]] = {}
        self.elif_branches: dict[int, tuple[Branch, ...]] = {}
        self.elifs: set[int] = set()
        # Per open suite: how many guard-clause negations (`if m == "GET": return ...`) it added.
        self.suite_guards: list[int] = []
        self.function_bodies: dict[int, FunctionFacts] = {}
        self.active_suites: list[tuple[str, object]] = []
        self.next_returns: dict[int, Loc] = {}  # id of a `try` -> the `return` right after it
        self.calls: dict[int, Call] = {}  # id of a `Call` node -> its value

    # ---- locations and values -------------------------------------------------------------
    def loc(self, node: cst.CSTNode) -> Loc:
        return Loc(*self.ranges[id(node)])

    def qualify(self, name: str) -> str:
        return qualify(self.imports, name)

    def value(self, node: cst.BaseExpression) -> Value:
        # `type(node) is`, not `isinstance`: libcst's node classes are ABCs (a Python-level check
        # each), and the parser builds these concrete classes exactly.
        kind = type(node)
        expr: Any = node  # narrowed by the `kind is` tests below, which mypy does not follow
        if kind is cst.Call:
            return self.call_value(expr)
        if kind is cst.Await:
            return self.value(expr.expression)
        loc = self.loc(expr)
        if kind is cst.Name or kind is cst.Attribute:
            text = dotted(expr)
            if text is not None:
                if text in ("None", "True", "False"):
                    return Const({"None": None, "True": True, "False": False}[text], loc)
                return Ref(self.qualify(text), text, loc)
            if kind is cst.Attribute:
                # Kept with its receiver: `requests.Session().post` is a POST (SIB1xx).
                return Attr(loc, "attr:" + expr.attr.value, expr.attr.value, self.value(expr.value))
            return Other(loc)
        if kind is cst.FormattedString or (kind is cst.ConcatenatedString and evaluated(expr) is None):
            # The literal parts are enough to tell `f"INSERT INTO {t} ..."` from a SELECT (SIB1xx).
            return FString(loc, "FormattedString", _fstring_text(expr),
                           tuple(self.value(e) for e in _fstring_expressions(expr)))
        if kind is cst.SimpleString or kind is cst.ConcatenatedString:
            value = evaluated(expr)
            return Const(value if isinstance(value, str) else None, loc) if value is not None else Other(loc, "str")
        if kind is cst.Integer or kind is cst.Float:
            return Const(evaluated(expr), loc)
        if kind is cst.List or kind is cst.Tuple or kind is cst.Set:
            items: list[Value] = []
            for el in expr.elements:
                if type(el) is cst.StarredElement:
                    items.append(Starred(self.value(el.value), self.loc(el)))
                else:
                    items.append(self.value(el.value))
            return Seq(tuple(items), loc)
        if kind is cst.Dict:
            pairs: list[tuple[Value | None, Value]] = []
            for entry in expr.elements:
                if type(entry) is cst.StarredDictElement:
                    pairs.append((None, self.value(entry.value)))
                elif type(entry) is cst.DictElement:
                    pairs.append((self.value(entry.key), self.value(entry.value)))
            return Mapping(tuple(pairs), loc)
        if kind is cst.BooleanOperation and type(expr.operator) is cst.Or:
            return either(loc, "BooleanOperation", (self.value(expr.left), self.value(expr.right)))
        if kind is cst.IfExp:  # `a if c else b`: one of the two (a tools list chosen by a setting)
            return either(loc, "IfExp", (self.value(expr.body), self.value(expr.orelse)))
        if kind is cst.BinaryOperation and type(expr.operator) is cst.Add:
            left, right = self.value(expr.left), self.value(expr.right)
            parts: list[Value] = []
            for side in (left, right):
                parts.extend(side.items if isinstance(side, Seq) else (Starred(side, side.loc),))
            return Seq(tuple(parts), loc)
        if kind is cst.BinaryOperation and type(expr.operator) is cst.Divide:
            # Kept with its operands: `Path(p) / "out.png"` is a path (file effects, SIB1xx).
            return Slash(loc, "BinaryOperation", self.value(expr.left), self.value(expr.right))
        if (kind is cst.ListComp or kind is cst.SetComp or kind is cst.GeneratorExp) and expr.for_in.inner_for_in is None:
            target = expr.for_in.target
            return Comp(loc, "Comp", self.value(expr.elt), target.value if type(target) is cst.Name else "",
                        self.value(expr.for_in.iter))
        if kind is cst.Subscript and len(expr.slice) == 1 and type(expr.slice[0].slice) is cst.Index:
            return Item(loc, "Subscript", self.value(expr.value), self.value(expr.slice[0].slice.value))
        if kind is cst.Lambda:
            # Kept with its body: `lambda ctx, e: None` as a failure handler is fatal (SIB202).
            params = tuple(p.name.value for p in (*expr.params.posonly_params, *expr.params.params, *expr.params.kwonly_params))
            return Lambda(loc, "Lambda", params, self.value(expr.body))
        return Other(loc, kind.__name__)

    def call_value(self, node: cst.Call) -> Call:
        # A call's value is asked for again by each enclosing call, assignment, `return` or `with`
        # that values it, then by `visit_Call`; it is the same (frozen) value each time.
        known = self.calls.get(id(node))
        if known is None:
            known = self.calls[id(node)] = self._call_value(node)
        return known

    def _call_value(self, node: cst.Call) -> Call:
        callee = node.func
        if type(callee) is cst.Subscript and dotted(callee.value) is not None:
            callee = callee.value  # `Agent[Deps, Out](...)`: a generic class builds the same object
        func = self.value(callee)
        args: list[Value] = []
        kwargs: list[tuple[str | None, Value]] = []
        starred: list[int] = []
        for a in node.args:
            if a.keyword is not None:
                kwargs.append((a.keyword.value, self.value(a.value)))
            elif a.star == "**":
                kwargs.append((None, self.value(a.value)))
            else:
                if a.star == "*":
                    starred.append(len(args))
                args.append(self.value(a.value))
        return Call(func, tuple(args), tuple(kwargs), self.loc(node), tuple(starred))

    # ---- imports ----------------------------------------------------------------------------
    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            name = dotted(alias.name) or ""
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.imports[alias.asname.name.value] = name
            else:
                head = name.split(".")[0]
                self.imports[head] = head

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        target = dotted(node.module) if node.module is not None else ""
        level = len(node.relative)
        base = resolve_relative(self.facts.module, self.facts.is_package, level, target or "") if level else (target or "")
        if isinstance(node.names, cst.ImportStar):
            self.facts.star_imports.append(base)
            return
        for alias in node.names:
            name = dotted(alias.name) or ""
            local = alias.asname.name.value if alias.asname is not None and isinstance(alias.asname.name, cst.Name) else name
            self.imports[local] = f"{base}.{name}" if base else name

    # ---- scopes -----------------------------------------------------------------------------
    def qualname(self, name: str) -> str:
        outer = self.frames[-1].facts.name if self.frames else ""
        if self.classes and (not self.frames or self.classes[-1][0].count(".") >= outer.count(".")):
            outer = self.classes[-1][0]
        return f"{outer}.{name}" if outer else name

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        # A generic base (`AbstractToolset[Deps]`, `BaseTool[Input]`) is its class.
        bases = tuple(self.qualify(d) for d in (dotted(a.value.value if isinstance(a.value, cst.Subscript) else a.value)
                                                for a in node.bases) if d)
        qual = self.qualname(node.name.value)
        self.classes.append((qual, bases))
        self.facts.classes[qual] = bases
        self.facts.class_locs[qual] = self.loc(node.name)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.pop()

    def literal_defaults(self, params: cst.Parameters) -> tuple[tuple[str, Value], ...]:
        """`(name, value)` of each parameter whose default is a literal: a string, number, bool or None."""
        out = []
        for p in (*params.posonly_params, *params.params, *params.kwonly_params):
            if p.default is not None:
                value = self.value(p.default)
                if isinstance(value, Const):
                    out.append((p.name.value, value))
        return tuple(out)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        cls, bases = self.classes[-1] if self.classes else ("", ())
        qual = self.qualname(node.name.value)
        in_class = bool(cls) and qual == f"{cls}.{node.name.value}"
        params = tuple(p.name.value for p in (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params))
        facts = FunctionFacts(
            name=qual,
            is_async=node.asynchronous is not None,
            loc=self.loc(node.name),
            decorators=tuple(self.value(d.decorator) for d in node.decorators),
            params=params,
            kwonly=len(node.params.kwonly_params),
            star_param=node.params.star_arg.name.value if isinstance(node.params.star_arg, cst.Param) else "",
            returns_annotation=cst.Module([]).code_for_node(node.returns.annotation) if node.returns else "",
            class_name=cls if in_class else "",
            bases=bases if in_class else (),
            param_annotations=tuple(
                self.annotation_names(p.annotation.annotation) if p.annotation is not None else ()
                for p in (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params)
            ),
            param_defaults=self.literal_defaults(node.params),
        )
        body = _body_statements(node.body)
        scan = _scan(node.body)
        facts.can_return_none = _may_fall_off(body) or scan.none_return
        facts.returns_value = scan.value_return
        facts.guarded_body = _is_guarded(body, self.qualify)
        # `try: from .calendar import create_event` / `except ImportError: def create_event(...)`:
        # the import is the name's binding wherever the dependency is installed; the stub is not.
        fallback = id(node) in self.import_fallbacks and qual in self.imports
        if not fallback and not _keeps_the_tool(self.facts.functions.get(qual), facts):
            self.facts.functions[qual] = facts
        # The frame opens at the body: decorators and defaults belong to the enclosing scope.
        self.function_bodies[id(node.body)] = facts

    def annotation_names(self, node: cst.BaseExpression) -> tuple[str, ...]:
        """`A | B`, `Union[A, B]`, `tuple[A, B]` or `A`: the resolved dotted names it lists."""
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
            return self.annotation_names(node.left) + self.annotation_names(node.right)
        if isinstance(node, cst.Subscript):
            d = dotted(node.value)
            out: tuple[str, ...] = (self.qualify(d),) if d else ()  # `Agent[Deps, str]` names Agent too
            for el in node.slice:
                if isinstance(el.slice, cst.Index):
                    out += self.annotation_names(el.slice.value)
            return out
        if isinstance(node, cst.SimpleString):  # a forward reference: `gmail_service: 'GmailTools'`
            text = node.evaluated_value
            words = _ANNOTATION_WORDS.findall(text) if isinstance(text, str) else []
            return tuple(self.qualify(w) for w in words if w not in ("None", "Optional", "Union"))
        d = dotted(node)
        return (self.qualify(d),) if d else ()

    # ---- try / except / finally / with context ----------------------------------------------
    def visit_Try(self, node: cst.Try | cst.TryStar) -> None:
        handlers = tuple(self.handler_fact(h) for h in node.handlers)
        self.try_bodies[id(node.body)] = handlers
        for h, fact in zip(node.handlers, handlers):
            self.handler_bodies[id(h.body)] = fact  # type: ignore[attr-defined]
        if node.finalbody is not None:
            self.finally_bodies.add(id(node.finalbody.body))
        if not self.frames and not self.classes:
            self.import_fallbacks.update(
                id(stmt) for h, fact in zip(node.handlers, handlers) if _IMPORT_ERRORS & set(fact.catches)
                for stmt in _body_statements(h.body) if type(stmt) is cst.FunctionDef)  # type: ignore[attr-defined]
        if self.frames and handlers:
            success = _body_statements(node.body) if node.orelse is None else _body_statements(node.orelse.body)
            self.frames[-1].facts.try_sites.append(TrySite(
                self.loc(node), handlers,
                _may_fall_off(_body_statements(node.body)) and _may_fall_off(success),
                tuple(_may_fall_off(_body_statements(h.body)) for h in node.handlers),
                tuple(_bound_names(h) for h in node.handlers),
                self.next_returns.get(id(node)),
            ))

    visit_TryStar = visit_Try  # `try: ... except* E:` marks its suites the same way

    def handler_fact(self, h: cst.ExceptHandler | cst.ExceptStarHandler) -> Handler:
        if h.type is None:
            catches: tuple[str, ...] = ("*",)
        elif isinstance(h.type, cst.Tuple):
            catches = tuple(self.qualify(d) for d in (dotted(e.value) for e in h.type.elements) if d)
        else:
            d = dotted(h.type)
            catches = (self.qualify(d),) if d else ()
        return Handler(catches, _contains_raise(h.body), self.loc(h))

    def visit_With(self, node: cst.With) -> None:
        items = tuple(self.value(i.item) for i in node.items)
        self.with_bodies[id(node.body)] = tuple(i for i in items if isinstance(i, Call))
        if self.frames:
            for item, value in zip(node.items, items):
                if item.asname is not None and isinstance(item.asname.name, cst.Name):
                    self.frames[-1].facts.with_bindings[item.asname.name.value] = value

    def visit_For(self, node: cst.For) -> None:
        value = self.value(node.iter)
        # A loop over a call may be a retry iterator; its `else:` suite is not retried.
        if isinstance(value, Call):
            self.loop_bodies[id(node.body)] = value
        if type(node.target) is cst.Name:
            name = node.target.value
            self.facts.assignments.append(Assignment(name, Each(self.loc(node.target), "For", value),
                                                     self.loc(node.target), self._scope(name)))

    def visit_If(self, node: cst.If) -> None:
        # An `elif` inherits the negation of the tests before it.
        inherited = self.elif_branches.pop(id(node), ())
        branch = branch_of(node.test)
        body = inherited + ((branch,) if branch else conjunct_branches(node.test) if isinstance(node.test, cst.BooleanOperation)
                            else ())
        other = inherited + ((negated(branch),) if branch else ())
        if body:
            self.branch_bodies[id(node.body)] = body
        if isinstance(node.orelse, cst.Else) and other:
            self.branch_bodies[id(node.orelse.body)] = other
        elif isinstance(node.orelse, cst.If):
            self.elifs.add(id(node.orelse))
            if other:
                self.elif_branches[id(node.orelse)] = other

    def leave_If(self, node: cst.If) -> None:
        # Guard clauses: after `if m == "GET": return ...` (and its elifs, each returning, no else),
        # the rest of the block runs only when every test failed.
        if not self.frames or not self.suite_guards or id(node) in self.elifs:
            return
        negations: list[Branch] = []
        arm: cst.If | None = node
        while arm is not None:
            if not _ends_in_exit(arm.body) or isinstance(arm.orelse, cst.Else):
                return
            branch = branch_of(arm.test)
            if branch is not None:
                negations.append(negated(branch))
            arm = arm.orelse if isinstance(arm.orelse, cst.If) else None
        self.frames[-1].branches.extend(negations)
        self.suite_guards[-1] += len(negations)

    def _enter_suite(self, node: cst.BaseSuite) -> None:
        key = id(node)
        self.suite_guards.append(0)
        if key in self.function_bodies:
            self.frames.append(_Frame(self.function_bodies.pop(key)))
            self.active_suites.append(("function", None))
            return
        frame = self.frames[-1] if self.frames else None
        if frame is None:
            self.active_suites.append(("plain", None))
            return
        if key in self.try_bodies:
            frame.guards.extend(self.try_bodies[key])
            self.active_suites.append(("try", len(self.try_bodies[key])))
        elif key in self.handler_bodies:
            frame.handler.append(self.handler_bodies[key])
            self.active_suites.append(("handler", None))
        elif key in self.finally_bodies:
            frame.finally_depth += 1
            self.active_suites.append(("finally", None))
        elif key in self.with_bodies:
            frame.withs.extend(self.with_bodies[key])
            self.active_suites.append(("with", len(self.with_bodies[key])))
        elif key in self.loop_bodies:
            frame.loops.append(self.loop_bodies[key])
            self.active_suites.append(("loop", None))
        elif key in self.branch_bodies:
            arm = self.branch_bodies.pop(key)
            frame.branches.extend(arm)
            self.active_suites.append(("branch", len(arm)))
        else:
            self.active_suites.append(("plain", None))
        if self.active_suites[-1][0] not in _RUN_WHEN_REACHED:
            frame.block_awaits.append(0)

    def _leave_suite(self) -> None:
        kind, n = self.active_suites.pop()
        guards = self.suite_guards.pop()
        if guards and self.frames:
            del self.frames[-1].branches[-guards:]
        if kind == "function":
            _share_empties(self.frames.pop().facts)
            return
        frame = self.frames[-1] if self.frames else None
        if frame is not None and kind not in _RUN_WHEN_REACHED:
            frame.block_awaits.pop()
        if kind == "plain" or frame is None:
            return
        if kind == "try":
            del frame.guards[len(frame.guards) - n :]  # type: ignore[operator]
        elif kind == "handler":
            frame.handler.pop()
        elif kind == "finally":
            frame.finally_depth -= 1
        elif kind == "with":
            del frame.withs[len(frame.withs) - n :]  # type: ignore[operator]
        elif kind == "branch":
            del frame.branches[len(frame.branches) - n :]  # type: ignore[operator]
        elif kind == "loop":
            frame.loops.pop()

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> bool:
        self._enter_suite(node)
        if not self.frames:
            return True
        live = _reachable(node.body)
        self._note_next_returns(live)
        if len(live) == len(node.body):
            return True
        # Statements after a `return`, `raise`, `continue` or `break` never run: a write left
        # below an early `return` is not the tool's effect.
        for stmt in live:
            self.walk(stmt)
        self.leave_IndentedBlock(node)
        return False

    def _note_next_returns(self, stmts: list) -> None:
        """For each `try` of a block: the `return` that follows it when only simple statements
        (logging, assignments) come between."""
        for i, stmt in enumerate(stmts):
            if not isinstance(stmt, (cst.Try, cst.TryStar)):
                continue
            for later in stmts[i + 1:]:
                if not isinstance(later, cst.SimpleStatementLine):
                    break
                ret = next((s for s in later.body if isinstance(s, cst.Return)), None)
                if ret is not None:
                    self.next_returns[id(stmt)] = self.loc(ret)
                    break
                if any(isinstance(s, (cst.Raise, cst.Continue, cst.Break)) for s in later.body):
                    break

    def leave_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._leave_suite()

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._enter_suite(node)

    def leave_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._leave_suite()

    # ---- calls, awaits, assignments --------------------------------------------------------
    def visit_Await(self, node: cst.Await) -> None:
        if self.frames:
            self.frames[-1].facts.awaits += 1
            self.frames[-1].block_awaits[-1] += 1
        self.awaited.add(id(node.expression))

    def visit_Call(self, node: cst.Call) -> None:
        call = self.call_value(node)
        if not self.frames:
            self.facts.module_calls.append(call)
            return
        frame = self.frames[-1]
        awaited = id(node) in self.awaited
        frame.facts.calls.append(
            CallSite(
                call=call,
                awaited=awaited,
                awaits_before=frame.facts.awaits - (1 if awaited else 0),
                awaits_on_every_path=sum(frame.block_awaits) - (1 if awaited else 0),
                in_finally=frame.finally_depth > 0,
                in_handler=frame.handler[-1] if frame.handler else None,
                guarded_by=tuple(reversed(frame.guards)),
                with_items=tuple(frame.withs),
                loops=tuple(frame.loops),
                branches=tuple(frame.branches),
            )
        )

    def visit_Raise(self, node: cst.Raise) -> None:
        if self.frames:
            frame = self.frames[-1]
            frame.facts.raises.append(self.loc(node))
            frame.facts.raise_sites.append(RaiseSite(
                self.value(node.exc) if node.exc is not None else None, self.loc(node),
                tuple(reversed(frame.guards)), frame.handler[-1] if frame.handler else None, tuple(frame.branches)))

    def visit_Global(self, node: cst.Global) -> None:
        if self.frames:
            self.frames[-1].globals.update(n.name.value for n in node.names)

    def _scope(self, target: str = "") -> str:
        """The function, or the class whose body this is, that an assignment to `target` here binds
        in: module level for a name declared `global` (`global client; client = boto3.client(...)`
        in an init function binds the module's `client`)."""
        if self.frames and target.partition(".")[0] in self.frames[-1].globals:
            return ""
        outer = self.frames[-1].facts.name if self.frames else ""
        if self.classes and (not self.frames or self.classes[-1][0].count(".") >= outer.count(".")):
            return self.classes[-1][0]
        return outer

    def visit_Return(self, node: cst.Return) -> None:
        if self.frames and node.value is not None:
            frame = self.frames[-1]
            value = self.value(node.value)
            frame.facts.return_values.append(value)
            frame.facts.return_sites.append(ReturnSite(
                value, self.loc(node), _names_read(node.value), tuple(reversed(frame.guards)),
                frame.handler[-1] if frame.handler else None))

    def visit_Assign(self, node: cst.Assign) -> None:
        value = self.value(node.value)
        for t in node.targets:
            name = dotted(t.target) or _keyed_target(t.target)
            if name is not None:
                scope = self._scope(name.partition("[")[0])
                written_in = self.frames[-1].facts.name if self.frames and not scope else ""
                self.facts.assignments.append(Assignment(name, value, self.loc(t.target), scope, written_in=written_in))
            elif isinstance(t.target, (cst.Tuple, cst.List)) and isinstance(node.value, cst.Call):
                # `client, err = client_or_error(...)`: each name is that item of what the call returns.
                for i, element in enumerate(t.target.elements):
                    if isinstance(element, cst.StarredElement):
                        break
                    part = dotted(element.value)
                    if part is not None and "." not in part:
                        loc = self.loc(element.value)
                        self.facts.assignments.append(Assignment(
                            part, Item(loc, "Subscript", value, Const(i, loc)), loc, self._scope(part)))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        name = dotted(node.target)
        if name is None:
            return
        types = self.annotation_names(node.annotation.annotation)
        if node.value is not None:
            self.facts.assignments.append(Assignment(name, self.value(node.value), self.loc(node.target),
                                                     self._scope(name), annotation=types))
        elif types:
            self.facts.assignments.append(Assignment(name, Other(self.loc(node.target)), self.loc(node.target),
                                                     self._scope(name), ":", types))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        name = dotted(node.target)
        if name is not None and isinstance(node.operator, cst.AddAssign):
            self.facts.assignments.append(Assignment(name, self.value(node.value), self.loc(node.target), self._scope(name),
                                                     "+="))


# ---- statement-level helpers (no traversal state) ---------------------------------------------
def _keyed_target(node: cst.BaseExpression) -> str | None:
    """`cfg["key"] = v` (a string-literal key on a dotted name) as the target text `cfg['key']`: no
    reader of plain names matches it; a setting read from a config dict does (`keyed_target`). Any
    other key as `cfg[*]`: what a cache of clients holds (`self._containers[name] = db.get_container_client(name)`)."""
    if not isinstance(node, cst.Subscript) or len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    key = node.slice[0].slice.value
    base = dotted(node.value)
    if base is None:
        return None
    value = evaluated(key) if isinstance(key, cst.SimpleString) else None
    return keyed_target(base, value if isinstance(value, str) and value.isidentifier() else None)


def _fstring_text(node: cst.BaseExpression) -> str:
    """The literal text of an f-string (or a concatenation holding one), each `{...}` as "{}"."""
    if isinstance(node, cst.ConcatenatedString):
        return _fstring_text(node.left) + _fstring_text(node.right)
    if isinstance(node, cst.SimpleString):
        value = evaluated(node)
        return value if isinstance(value, str) else ""
    if isinstance(node, cst.FormattedString):
        return "".join(p.value if isinstance(p, cst.FormattedStringText) else "{}" for p in node.parts)
    return ""


def _fstring_expressions(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The `{...}` expressions of an f-string (or of a concatenation holding one), in order."""
    if isinstance(node, cst.ConcatenatedString):
        return _fstring_expressions(node.left) + _fstring_expressions(node.right)
    if isinstance(node, cst.FormattedString):
        return [p.expression for p in node.parts if isinstance(p, cst.FormattedStringExpression)]
    return []


class _Names(Walker):
    """Plain names a subtree reads, and those it binds or changes (assigned, `as` targets, items
    or attributes set, methods called on them), not inside nested functions."""

    def __init__(self) -> None:
        self.read: list[str] = []
        self.bound: list[str] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        self.walk(node.value)  # `r.json`: `json` is an attribute, not a name read
        return False

    def visit_Name(self, node: cst.Name) -> None:
        if node.value not in self.read:
            self.read.append(node.value)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._bind(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._bind(node.name)

    def visit_Call(self, node: cst.Call) -> None:
        # `errors.append(str(e))` changes what a later `f"...{errors}"` says, like an assignment.
        if isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name):
            self.bound.append(node.func.value.value)

    def _bind(self, target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            self.bound.append(target.value)
        elif isinstance(target, (cst.Subscript, cst.Attribute)):  # `status[k] = ...`, `result.ok = ...`
            self._bind(target.value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self._bind(el.value)


def _names_read(node: cst.BaseExpression) -> tuple[str, ...]:
    names = _Names()
    names.walk(node)
    return tuple(names.read)


def _bound_names(handler: cst.ExceptHandler | cst.ExceptStarHandler) -> tuple[str, ...]:
    """Names an `except` clause binds: its `as e` and every assignment in its body."""
    names = _Names()
    names.walk(handler)
    return tuple(dict.fromkeys(names.bound))


_ENDS_BLOCK = (cst.Return, cst.Raise, cst.Continue, cst.Break)


def _reachable(stmts: Sequence[Any]) -> list[Any]:
    """The statements of a block (or the small statements of a one-line suite) up to and including
    the first one that leaves it."""
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, _ENDS_BLOCK) or (
                type(stmt) is cst.SimpleStatementLine and any(isinstance(s, _ENDS_BLOCK) for s in stmt.body)):
            return list(stmts[: i + 1])
    return list(stmts)


def _body_statements(body: cst.BaseSuite) -> list[cst.BaseStatement | cst.BaseSmallStatement]:
    if isinstance(body, cst.SimpleStatementSuite):
        return list(body.body)
    stmts: list = list(body.body)
    # A leading docstring does not count as code.
    if stmts and isinstance(stmts[0], cst.SimpleStatementLine) and len(stmts[0].body) == 1:
        only = stmts[0].body[0]
        if isinstance(only, cst.Expr) and isinstance(only.value, (cst.SimpleString, cst.ConcatenatedString)):
            stmts = stmts[1:]
    return stmts


def _may_fall_off(stmts: list) -> bool:
    """Can control reach the end of this statement list (an implicit `return None`)?"""
    stmts = _reachable(stmts)
    if not stmts:
        return True
    last = stmts[-1]
    if isinstance(last, cst.SimpleStatementLine):
        return not any(isinstance(s, (cst.Return, cst.Raise)) for s in last.body)
    if isinstance(last, (cst.Return, cst.Raise)):
        return False
    if isinstance(last, cst.If):
        if last.orelse is None:
            return True
        other = last.orelse
        other_stmts = [other] if isinstance(other, cst.If) else _body_statements(other.body)
        return _may_fall_off(_body_statements(last.body)) or _may_fall_off(other_stmts)
    if isinstance(last, cst.Try):
        if last.finalbody is not None and not _may_fall_off(_body_statements(last.finalbody.body)):
            return False
        branches = [_body_statements(last.orelse.body if last.orelse else last.body)]
        branches += [_body_statements(h.body) for h in last.handlers]
        return any(_may_fall_off(b) for b in branches)
    if isinstance(last, cst.With):
        return _may_fall_off(_body_statements(last.body))
    if isinstance(last, cst.While) and isinstance(last.test, cst.Name) and last.test.value == "True":
        return False
    return True


class _ReturnScan(Walker):
    """Returns and raises of one function body, not of nested functions or classes."""

    def __init__(self) -> None:
        self.none_return = False
        self.value_return = False
        self.raises = False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is None or (isinstance(node.value, cst.Name) and node.value.value == "None"):
            self.none_return = True
        else:
            self.value_return = True

    def visit_Raise(self, node: cst.Raise) -> None:
        self.raises = True


def _scan(body: cst.CSTNode) -> _ReturnScan:
    scan = _ReturnScan()
    scan.walk(body)
    return scan


def _contains_raise(body: cst.BaseSuite) -> bool:
    return _scan(body).raises


BROAD_EXCEPTIONS = ("Exception", "BaseException", "builtins.Exception", "builtins.BaseException", "*")


def _framework_decorated(fn: FunctionFacts) -> bool:
    """A decorator of `fn` is a name imported from an agent framework (`@function_tool`)."""
    roots = import_roots("python")
    names = (d.func if isinstance(d, Call) else d for d in fn.decorators)
    return any(isinstance(n, Ref) and n.name.split(".", 1)[0] in roots for n in names)


def _keeps_the_tool(earlier: FunctionFacts | None, later: FunctionFacts) -> bool:
    """A module-level tool a framework's decorator made, which a later `def` of the same name without
    one shadows (a web route named like it): the name's tool stays, as the agents listing it
    earlier got it."""
    return earlier is not None and not earlier.class_name and "." not in earlier.name \
        and _framework_decorated(earlier) and not _framework_decorated(later)


def _is_guarded(stmts: list, resolve) -> bool:
    """The body is one `try` whose `except Exception` (or broader) handler returns a value, between
    statements that cannot raise (`start = time.time()` before it, `return result` after it)."""
    stmts = list(dropwhile(lambda s: cannot_raise(s, resolve), stmts))
    while len(stmts) > 1 and cannot_raise(stmts[-1], resolve):
        stmts.pop()
    if len(stmts) != 1 or not isinstance(stmts[0], cst.Try):
        return False
    for h in stmts[0].handlers:
        names = ["*"] if h.type is None else [resolve(d) for d in (dotted(e.value) for e in (h.type.elements if isinstance(h.type, cst.Tuple) else [cst.Element(h.type)])) if d]
        if any(n in BROAD_EXCEPTIONS for n in names):
            scan = _scan(h.body)
            if scan.value_return and not scan.raises:
                return True
    return False


def _share_empties(fn: FunctionFacts) -> None:
    """A collected function's empty containers become the shared ones (siblint.syntax.facts, Memory)."""
    if not fn.calls:
        fn.calls = EMPTY_CALLS
    if not fn.raises:
        fn.raises = EMPTY_LOCS
    if not fn.raise_sites:
        fn.raise_sites = EMPTY_RAISE_SITES
    if not fn.with_bindings:
        fn.with_bindings = EMPTY_BINDINGS
    if not fn.return_values:
        fn.return_values = EMPTY_VALUES
    if not fn.return_sites:
        fn.return_sites = EMPTY_RETURN_SITES
    if not fn.try_sites:
        fn.try_sites = EMPTY_TRY_SITES


def collect(module: cst.Module, path: str, module_name: str, is_package: bool) -> ModuleFacts:
    """Run the single traversal over a freshly parsed module."""
    facts = ModuleFacts(path=path, module=module_name, is_package=is_package)
    Collector(facts, positions(module)).walk(module)
    return facts
