"""One walk of a tree-sitter tree that turns a TS/JS module into `ModuleFacts`.

The collector knows TypeScript and JavaScript, not frameworks: imports (ES modules, re-exports,
CommonJS `require`), functions of every form (declarations, arrows, function expressions, object
and class methods) with their calls, awaits, throws and returns, assignments, and every call as a
`Value` tree. Framework data reads those facts afterwards, as it does for Python.

JS has no keyword arguments: an options object is its idiom for them (`tool({ execute })`,
`fetch(url, { method: 'POST' })`). So a call whose last argument is an object literal also lists
that object's properties as `kwargs` (a spread as `**value`), and `Param("execute")` reads it the
way it reads `function_tool(name_override=...)`. The object stays in `args` too.

A function written inline (`execute: async () => {}`, `execute() {}` in an object) gets a name
from where it stands, `execute@12:4` (key, line, column), and the value that holds it is a `Ref`
to that name, so tools, handlers and the call-graph walk find it like any named function.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import tree_sitter as ts

from ..common.diagnostics import Loc
from ..syntax.collector import (  # the try/except context of a position: the same in both languages
    _Frame,
    qualify,
)
from ..syntax.facts import (
    TAGGED_TEMPLATE,
    Assignment,
    Attr,
    Branch,
    Call,
    CallSite,
    Const,
    Each,
    FString,
    FunctionFacts,
    Handler,
    Item,
    KEYED,
    Mapping,
    ModuleFacts,
    Other,
    RaiseSite,
    Ref,
    ReturnSite,
    Seq,
    Starred,
    TS_ABSTRACT,
    TS_INTERFACE,
    Value,
    either,
)
from ..frameworks import context_wrappers
from . import modules

_FUNCTIONS = frozenset({"function_declaration", "generator_function_declaration", "function_expression", "function",
                        "arrow_function", "generator_function", "method_definition"})
_CALLS = frozenset({"call_expression", "new_expression"})
def _split_type_argument(node: ts.Node) -> ts.Node | None:
    """`x as Promise<import('m').Client<Db>>`: tree-sitter ends the type at a `<` it cannot read as
    one and makes the rest a comparison (its left side the `as` expression, or an instantiation of
    it). The value is the `as` expression's: that node, else None."""
    left, op = node.child_by_field_name("left"), node.child_by_field_name("operator")
    if op is None or op.type not in ("<", ">", ">>", ">>>"):
        return None
    while left is not None and left.type == "instantiation_expression" and left.named_child_count:
        left = left.named_children[0]
    return left if left is not None and left.type in ("as_expression", "satisfies_expression") else None


# Wrappers that do not change a value: `x as const`, `x!`, `(x)`, `x satisfies T`, `<T>x`, and a
# generic function given its type arguments (`sql<Row[]>` of the tagged template `sql<Row[]>\`...\``).
_TRANSPARENT = frozenset({"parenthesized_expression", "as_expression", "non_null_expression", "satisfies_expression",
                          "type_assertion", "instantiation_expression"})
# Reads of an abort signal's state that are not calls (`if (signal.aborted)`): the JS
# cancellation model asks where they are (siblint.js.signal).
SIGNAL_STATE = frozenset({"aborted"})
CATCH_ALL = ("*",)  # a JS `catch` catches every exception


@dataclass(slots=True)
class JsFunctionFacts(FunctionFacts):
    """A JS function: Python's facts, plus where it reads an abort signal's state without a call."""

    # (dotted text read, awaits before it in the body, where): `details.signal.aborted`.
    state_reads: list[tuple[str, int, Loc]] = field(default_factory=list)


class _Collector:
    def __init__(self, facts: ModuleFacts, data: bytes) -> None:
        self.facts = facts
        self.data = data
        self.imports = facts.imports
        self.frames: list[_Frame] = []  # facts of each frame are JsFunctionFacts
        self.classes: list[str] = []
        self.awaited: set[int] = set()
        self._values: dict[int, Value] = {}
        self.root: ts.Node | None = None  # the program: its type aliases and interfaces (`_shapes`)
        self.commonjs_default: Value | None = None  # `module.exports = new Service()`
        self._named_shapes: dict[str, ts.Node] | None = None
        self._wide_lines = {i for i, line in enumerate(data.split(b"\n")) if not line.isascii()}
        self._lines = data.split(b"\n") if self._wide_lines else []

    # ---- locations and text -------------------------------------------------------------------
    def _col(self, row: int, col: int) -> int:
        if row in self._wide_lines:
            return len(self._lines[row][:col].decode("utf-8", "replace"))
        return col

    def loc(self, node: ts.Node) -> Loc:
        (r1, c1), (r2, c2) = node.start_point, node.end_point
        return Loc(r1 + 1, self._col(r1, c1), r2 + 1, self._col(r2, c2))

    @staticmethod
    def text(node: ts.Node | None) -> str:
        return node.text.decode("utf-8", "replace") if node is not None and node.text is not None else ""

    def dotted(self, node: ts.Node) -> str | None:
        """`a.b.c` (optional chaining `a?.b` included) for an identifier/member chain, else None."""
        parts: list[str] = []
        while node.type in _TRANSPARENT and node.named_child_count:
            node = node.named_children[0]
        while node.type == "member_expression":
            prop = node.child_by_field_name("property")
            obj = node.child_by_field_name("object")
            if prop is None or obj is None or prop.type == "private_property_identifier":
                return None
            parts.append(self.text(prop))
            node = obj
            while node.type in _TRANSPARENT and node.named_child_count:
                node = node.named_children[0]
        if node.type in ("identifier", "this", "super", "property_identifier", "shorthand_property_identifier"):
            parts.append(self.text(node))
            return ".".join(reversed(parts))
        return None

    def qualify(self, name: str) -> str:
        return qualify(self.imports, name)

    # ---- names of functions ---------------------------------------------------------------------
    def scope(self) -> str:
        return self.frames[-1].facts.name if self.frames else ""

    def function_name(self, node: ts.Node) -> str:
        """The qualified name a function node gets (see the module docstring)."""
        local = self._local_name(node)
        outer = self.scope()
        if self.classes and _is_member(node):
            outer = self.classes[-1] if not outer else f"{outer}.{self.classes[-1]}"
        return f"{outer}.{local}" if outer else local

    def _local_name(self, node: ts.Node) -> str:
        name = node.child_by_field_name("name")
        parent = node.parent
        where = f"{node.start_point[0] + 1}:{node.start_point[1]}"
        if _is_member(node) and node.type != "method_definition" and parent is not None:
            # `send = async (...) => {...}` in a class body ("property" in the JavaScript grammar)
            field = parent.child_by_field_name("name") or parent.child_by_field_name("property")
            if field is not None:
                return self.text(field).strip("'\"")
        if node.type == "method_definition":
            key = self.text(name).strip("'\"")
            in_class = parent is not None and parent.type == "class_body"
            return key if in_class else f"{key}@{where}"
        if node.type in ("function_declaration", "generator_function_declaration") and name is not None:
            return self.text(name)
        while parent is not None and parent.type in _TRANSPARENT:
            parent = parent.parent
        if parent is not None and parent.type == "variable_declarator":
            target = parent.child_by_field_name("name")
            if target is not None and target.type == "identifier":
                return self.text(target)
        if parent is not None and parent.type == "pair":
            key_node = parent.child_by_field_name("key")
            return f"{self.text(key_node).strip(chr(39) + chr(34))}@{where}"
        if name is not None:
            return f"{self.text(name)}@{where}"
        return f"fn@{where}"

    # ---- values -----------------------------------------------------------------------------------
    def value(self, node: ts.Node | None) -> Value:
        """The `Value` of an expression, built once per node: each call of `f(g(h(...)))` is both a
        recorded call and an argument of the one around it, and rebuilding is quadratic."""
        if node is None:
            return Other(Loc(1, 0, 1, 0))
        found = self._values.get(node.id)
        if found is None:
            found = self._values[node.id] = self._build(node)
        return found

    def _build(self, node: ts.Node) -> Value:
        while node.type in _TRANSPARENT and node.named_child_count:
            node = node.named_children[0]
        loc = self.loc(node)
        kind = node.type
        if kind in ("identifier", "member_expression", "this", "super", "shorthand_property_identifier"):
            text = self.dotted(node)
            if text is not None:
                return Ref(self.qualify(text), text, loc)
            obj, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
            if kind == "member_expression" and prop is not None:
                return Attr(loc, "attr:" + self.text(prop), self.text(prop), self.value(obj))
            return Other(loc, kind)
        if kind in _CALLS:
            return self.call_value(node)
        if kind == "subscript_expression":  # `allTools[name]`, as Python's `Item`
            return Item(loc, "Subscript", self.value(node.child_by_field_name("object")),
                        self.value(node.child_by_field_name("index")))
        if kind == "await_expression":
            return self.value(node.named_children[0] if node.named_child_count else None)
        if kind == "string":
            return Const("".join(self.text(c) for c in node.named_children if c.type in ("string_fragment", "escape_sequence")),
                         loc)
        if kind == "template_string":
            subs = [c for c in node.named_children if c.type == "template_substitution"]
            if not subs:
                return Const("".join(self.text(c) for c in node.named_children), loc)
            text = "".join("{}" if c.type == "template_substitution" else self.text(c) for c in node.named_children)
            return FString(loc, "FormattedString", text,
                           tuple(self.value(s.named_children[0]) for s in subs if s.named_child_count))
        if kind == "number":
            return Const(_number(self.text(node)), loc)
        if kind in ("true", "false"):
            return Const(kind == "true", loc)
        if kind == "null":
            return Const(None, loc)
        if kind == "undefined":
            return Ref("undefined", "undefined", loc)  # `errorFunction: undefined` is the default, not null
        if kind == "array":
            return Seq(tuple(self._item(c) for c in node.named_children if c.type != "comment"), loc)
        if kind == "object":
            return Mapping(tuple(self._pair(c) for c in node.named_children if c.type != "comment"), loc)
        if kind in _FUNCTIONS or kind == "class":
            name = self._local_name(node)
            return Ref(name, name, loc)
        if kind == "binary_expression" and (typed := _split_type_argument(node)) is not None:
            return self.value(typed)
        if kind == "binary_expression" and (op := node.child_by_field_name("operator")) is not None \
                and op.type in ("||", "??", "&&"):  # `global.pool || new Pool(...)`, `cond && {...}`: either side, as Python's `or`/`and`
            return either(loc, "BooleanOperation", [self.value(node.child_by_field_name(f)) for f in ("left", "right")])
        if kind == "ternary_expression":
            return either(loc, "IfExp", [self.value(node.child_by_field_name(f)) for f in ("consequence", "alternative")])
        return Other(loc, kind)

    def _item(self, node: ts.Node) -> Value:
        if node.type == "spread_element":
            return Starred(self.value(node.named_children[0] if node.named_child_count else None), self.loc(node))
        return self.value(node)

    def _pair(self, node: ts.Node) -> tuple[Value | None, Value]:
        if node.type == "pair":
            key = node.child_by_field_name("key")
            key_text = self.text(key).strip("'\"") if key is not None and key.type != "computed_property_name" else ""
            return Const(key_text, self.loc(key)) if key is not None else None, self.value(node.child_by_field_name("value"))
        if node.type == "method_definition":
            key = node.child_by_field_name("name")
            return Const(self.text(key).strip("'\""), self.loc(key or node)), self.value(node)
        if node.type == "shorthand_property_identifier":
            return Const(self.text(node), self.loc(node)), self.value(node)
        if node.type == "spread_element":
            return None, self.value(node.named_children[0] if node.named_child_count else None)
        return Const("", self.loc(node)), Other(self.loc(node), node.type)

    def call_value(self, node: ts.Node) -> Call:
        callee = node.child_by_field_name("function") or node.child_by_field_name("constructor")
        func = self.value(callee)
        args_node = node.child_by_field_name("arguments")
        args: list[Value] = []
        starred: list[int] = []
        last_object: Mapping | None = None
        if args_node is not None and args_node.type == "arguments":
            for a in args_node.named_children:
                if a.type == "comment":
                    continue
                if a.type == "spread_element":
                    starred.append(len(args))
                    args.append(self.value(a.named_children[0] if a.named_child_count else None))
                    last_object = None
                    continue
                value = self.value(a)
                args.append(value)
                last_object = value if isinstance(value, Mapping) else None
        elif args_node is not None and args_node.type == "template_string":  # a tagged template: sql`INSERT ...`
            text = self.value(args_node)
            literal, values = (text.text, text.values) if isinstance(text, FString) else \
                (str(text.value) if isinstance(text, Const) else "", ())
            args.append(FString(self.loc(args_node), TAGGED_TEMPLATE, literal, values))
        kwargs: tuple[tuple[str | None, Value], ...] = ()
        if last_object is not None:
            kwargs = tuple((k.value if isinstance(k, Const) and isinstance(k.value, str) else None, v)
                           for k, v in last_object.items)
        return Call(func, tuple(args), kwargs, self.loc(node), tuple(starred))

    # ---- the walk --------------------------------------------------------------------------------
    def visit(self, node: ts.Node) -> None:
        kind = node.type
        handler = getattr(self, "visit_" + kind, None)
        if handler is not None:
            if handler(node) is False:
                return
        elif kind in _FUNCTIONS:
            self._function(node)
            return
        for child in node.named_children:
            self.visit(child)

    def visit_children(self, node: ts.Node | None) -> None:
        if node is not None:
            for child in node.named_children:
                self.visit(child)

    def visit_statement_block(self, node: ts.Node) -> bool:
        # Statements after a `return`, `throw`, `break` or `continue` never run (a declared
        # function is hoisted, so it is still defined).
        for child in _reachable(node.named_children, keep=_HOISTED):
            self.visit(child)
        return False

    # imports and exports
    def _source(self, node: ts.Node) -> str | None:
        src = node.child_by_field_name("source")
        if src is None:
            return None
        spec = self.value(src)
        text = spec.value if isinstance(spec, Const) and isinstance(spec.value, str) else self.text(src)
        return modules.resolve_specifier(text, self.facts.path)

    def visit_import_statement(self, node: ts.Node) -> bool:
        base = self._source(node)
        if base is None:
            return False
        for clause in node.named_children:
            if clause.type != "import_clause":
                continue
            for part in clause.named_children:
                if part.type == "identifier":  # default import
                    default = base if not base.startswith(modules.PREFIX) else f"{base}.default"
                    self.imports[self.text(part)] = default
                elif part.type == "namespace_import":
                    for ident in part.named_children:
                        if ident.type == "identifier":
                            self.imports[self.text(ident)] = base
                elif part.type == "named_imports":
                    for spec in part.named_children:
                        if spec.type != "import_specifier":
                            continue
                        name = self.text(spec.child_by_field_name("name")).strip("'\"")
                        alias = spec.child_by_field_name("alias")
                        self.imports[self.text(alias) if alias is not None else name] = f"{base}.{name}"
        return False

    def visit_export_statement(self, node: ts.Node) -> bool | None:
        base = self._source(node)
        own = self.facts.module
        clause = next((c for c in node.named_children if c.type == "export_clause"), None)
        if base is not None:
            if clause is None:
                ns = next((c for c in node.named_children if c.type == "namespace_export"), None)
                if ns is not None:
                    ident = next((c for c in ns.named_children if c.type in ("identifier", "string")), None)
                    if ident is not None:
                        self.imports[self.text(ident).strip("'\"")] = base
                else:
                    self.facts.star_imports.append(base)  # `export * from './x'`
                return False
        if clause is not None:
            for spec in clause.named_children:
                if spec.type != "export_specifier":
                    continue
                name = self.text(spec.child_by_field_name("name")).strip("'\"")
                alias = spec.child_by_field_name("alias")
                exported = self.text(alias).strip("'\"") if alias is not None else name
                if base is not None:
                    self.imports[exported] = f"{base}.{name}"
                elif exported != name:
                    self._hand_on(exported, name)
            return False
        declaration = node.child_by_field_name("declaration")
        value = node.child_by_field_name("value")
        if declaration is None and value is None:
            value = next((c for c in node.named_children if c.type not in ("comment", "decorator")), None)
            if value is not None and value.type in ("function_declaration", "class_declaration",
                                                    "generator_function_declaration"):
                declaration, value = value, None
        is_default = any(c.type == "default" for c in node.children)
        if declaration is not None:
            declared = declaration.child_by_field_name("name")
            if is_default and declared is not None:
                self.imports["default"] = f"{own}.{self.text(declared)}"
            self.visit(declaration)
        elif value is not None:
            if is_default and value.type == "identifier":  # `export default JiraClient;`: that name, as declared
                self._hand_on("default", self.text(value))
            elif is_default:
                self.facts.assignments.append(Assignment("default", self.value(value), self.loc(value), self.scope()))
            self.visit(value)
        return False

    def _require(self, node: ts.Node | None) -> str | None:
        """The module of `require('m')` or `await import('m')` (a dynamic import that binds it the
        same way: `const { createServerClient } = await import('@supabase/ssr')`), else None."""
        while node is not None and (node.type in _TRANSPARENT or node.type == "await_expression") \
                and node.named_child_count:
            node = node.named_children[0]
        if node is None or node.type != "call_expression":
            return None
        func = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        if func is None or self.text(func) not in ("require", "import") or args is None or args.named_child_count != 1:
            return None
        arg = args.named_children[0]
        if arg.type != "string":
            return None
        spec = self.value(arg)
        return modules.resolve_specifier(spec.value, self.facts.path) if isinstance(spec, Const) and isinstance(spec.value, str) else None

    # declarations and assignments
    def visit_variable_declarator(self, node: ts.Node) -> bool:
        target = node.child_by_field_name("name")
        init = node.child_by_field_name("value")
        if target is None:
            return False
        required = self._require(init)
        if required is not None:
            if target.type == "identifier":
                self.imports[self.text(target)] = required
            elif target.type == "object_pattern":
                for local, key in self._pattern_names(target):
                    self.imports[local] = f"{required}.{key}"
            return False
        annotation = self._annotation(node.child_by_field_name("type"))
        if init is None and annotation and target.type == "identifier":  # `let page: Page;`
            self.facts.assignments.append(Assignment(self.text(target), Other(self.loc(target)), self.loc(target),
                                                     self.scope(), ":", annotation))
        if init is not None:
            if target.type == "identifier":
                self.facts.assignments.append(Assignment(self.text(target), self.value(init), self.loc(target), self.scope(),
                                                         annotation=annotation))
            elif target.type == "object_pattern":
                source = self.dotted(init)
                if source is not None and self.qualify(source) != source:
                    # `const { Agent } = agents` of `import * as agents`: an alias of the import.
                    for local, key in self._pattern_names(target):
                        self.imports[local] = self.qualify(f"{source}.{key}")
                elif source is not None:
                    for local, key in self._pattern_names(target):
                        self.facts.assignments.append(Assignment(local, Ref(self.qualify(f"{source}.{key}"), f"{source}.{key}",
                                                                            self.loc(target)), self.loc(target), self.scope()))
                    rest = self._rest_name(target)
                    if rest:  # `const { onMessage, ...fetchOptions } = options`: the other entries of it
                        self.facts.assignments.append(Assignment(rest, Ref(self.qualify(source), source, self.loc(target)),
                                                                 self.loc(target), self.scope()))
                else:  # `const { store } = await resolveTarget(kind)`: a part of what the call returns
                    whole = self.value(init)
                    for local, key in self._pattern_names(target):
                        self.facts.assignments.append(Assignment(local, Attr(self.loc(target), "attr:" + key, key, whole),
                                                                 self.loc(target), self.scope()))
            self.visit(init)
        return False

    def _annotation(self, node: ts.Node | None) -> tuple[str, ...]:
        """The resolved type names a variable's annotation lists (`Page | null` -> puppeteer.Page),
        and a run-context wrapper's type argument after it (`RunContext<AppContext>`)."""
        names: list[str] = []
        stack = [node] if node is not None else []
        while stack and len(names) < 8:
            n = stack.pop()
            if n.type in ("type_identifier", "nested_type_identifier"):
                names.append(self.qualify(self.text(n)))
            elif n.type == "type_arguments" and names and names[-1] in context_wrappers():
                stack.extend(reversed(n.named_children))
            elif n.type not in ("type_arguments", "literal_type", "predefined_type"):
                stack.extend(reversed(n.named_children))
        return tuple(names)

    def _returned_types(self, note: ts.Node | None) -> tuple[str, ...]:
        """The resolved type names a function's return annotation lists, a `Promise<T>`'s `T` for it."""
        shape = note.named_children[0] if note is not None and note.named_child_count else None
        if shape is not None and shape.type == "generic_type" and shape.named_child_count == 2 \
                and self.text(shape.named_children[0]) == "Promise":
            return self._annotation(shape.named_children[1].named_children[0] if shape.named_children[1].named_child_count else None)
        return self._annotation(note)

    def _members(self, note: ts.Node | None) -> dict[str, tuple[str, ...]]:
        """Property -> the type names its annotation lists, of an object type written inline
        (`{ db }: { db: Db }`) or named by a type alias or interface of this module."""
        shape = note.named_children[0] if note is not None and note.named_child_count else None
        if shape is not None and shape.type == "type_identifier":
            shape = self._shapes().get(self.text(shape))
        if shape is None or shape.type not in ("object_type", "interface_body"):
            return {}
        return {self.text(name): self._annotation(part.child_by_field_name("type"))
                for part in shape.named_children
                if part.type == "property_signature" and (name := part.child_by_field_name("name")) is not None}

    def _shapes(self) -> dict[str, ts.Node]:
        """The object types this module's top-level type aliases and interfaces name, found once."""
        if self._named_shapes is None:
            self._named_shapes = {}
            for node in self.root.named_children if self.root is not None else ():
                if node.type == "export_statement" and (inner := node.child_by_field_name("declaration")) is not None:
                    node = inner
                name = node.child_by_field_name("name")
                shape = node.child_by_field_name("value" if node.type == "type_alias_declaration" else "body")
                if node.type in ("type_alias_declaration", "interface_declaration") and name is not None and shape is not None:
                    self._named_shapes[self.text(name)] = shape
        return self._named_shapes

    def _pattern_names(self, pattern: ts.Node) -> list[tuple[str, str]]:
        """(local name, property) for each name an object pattern binds: `{ a, b: c }`."""
        out: list[tuple[str, str]] = []
        for part in pattern.named_children:
            if part.type == "shorthand_property_identifier_pattern":
                out.append((self.text(part), self.text(part)))
            elif part.type == "object_assignment_pattern":
                left = part.child_by_field_name("left")
                if left is not None and left.type == "shorthand_property_identifier_pattern":
                    out.append((self.text(left), self.text(left)))
            elif part.type == "pair_pattern":
                key, value = part.child_by_field_name("key"), part.child_by_field_name("value")
                if value is not None and value.type == "assignment_pattern":
                    value = value.child_by_field_name("left")
                if key is not None and value is not None and value.type == "identifier":
                    out.append((self.text(value), self.text(key).strip("'\"")))
        return out

    def _rest_name(self, pattern: ts.Node) -> str:
        """The name an object pattern's `...rest` binds, "" when it has none."""
        rest = next((part for part in pattern.named_children if part.type == "rest_pattern"), None)
        name = rest.named_children[0] if rest is not None and rest.named_child_count else None
        return self.text(name) if name is not None and name.type == "identifier" else ""

    def visit_type_alias_declaration(self, node: ts.Node) -> bool:
        """`type BotContext = Context & SessionFlavor<S>` at the top level: the alias stands for the
        first imported type it is made of, as an import of it would (a value annotated or returned
        as `BotContext` is a grammY `Context`)."""
        name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        if name is None or value is None or self.scope() or self.text(name) in self.imports:
            return False
        parts, todo = [], [value]
        while todo:  # `A & B & {...}` nests: ((A & B) & {...})
            part = todo.pop(0)
            if part.type in ("intersection_type", "union_type"):
                todo[:0] = part.named_children
            else:
                parts.append(part)
        for part in parts:
            if part.type == "generic_type" and part.named_child_count:
                part = part.named_children[0]
            if part.type == "type_identifier" and self.text(part) in self.imports:
                self.imports[self.text(name)] = self.imports[self.text(part)]
                break
        return False

    def visit_for_in_statement(self, node: ts.Node) -> bool:
        """`for (const t of tools)`: `t` is any item of `tools`, as Python's `for t in tools:`; in
        `for (const [name, t] of Object.entries(tools))`, `t` is any value of `tools`. (`for ... in`
        binds keys.)"""
        left, right, operator = (node.child_by_field_name(f) for f in ("left", "right", "operator"))
        if left is None or right is None or operator is None or self.text(operator) != "of":
            return True
        iterated = self.value(right)
        if left.type == "array_pattern" and left.named_child_count == 2 and isinstance(iterated, Call) \
                and isinstance(iterated.func, Ref) and iterated.func.text == "Object.entries" and iterated.args:
            left, iterated = left.named_children[1], iterated.args[0]
        if left.type == "identifier":
            self.facts.assignments.append(Assignment(self.text(left), Each(self.loc(left), "For", iterated),
                                                     self.loc(left), self.scope()))
        return True

    def visit_augmented_assignment_expression(self, node: ts.Node) -> bool:
        # `command += ' -n'`: recorded as Python's `+=` is, so the text it builds reads whole.
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        name = self.dotted(left) if left is not None else None
        if name is not None and right is not None and operator is not None and self.text(operator) == "+=":
            self.facts.assignments.append(Assignment(name, self.value(right), self.loc(left), self.scope(), "+="))  # type: ignore[arg-type]
        return True

    def visit_assignment_expression(self, node: ts.Node) -> bool:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        name = self.dotted(left) if left is not None else None
        if name is None and left is not None and left.type == "subscript_expression":
            held = left.child_by_field_name("object")
            holder = self.dotted(held) if held is not None else None
            # `filtered[name] = allTools[name]`: an entry of `filtered` (`siblint.model.semantic.elements`).
            name = f"{holder}{KEYED}" if holder is not None else None
        if name is not None and right is not None:
            self.facts.assignments.append(Assignment(name, self.value(right), self.loc(left), self.scope()))  # type: ignore[arg-type]
            if name == "module.exports" and not self.scope():
                self._commonjs_exports(self.value(right), self.loc(right))
        if right is not None:
            self.visit(right)
        if left is not None and left.type != "identifier":
            self.visit(left)
        return False

    def _commonjs_exports(self, value: Value, loc: Loc) -> None:
        """`module.exports = { createTools, run: runWorkflow }`: the names it hands on, as `export { ... }`
        does; `module.exports = new Service()`: the module is that value, an `export default` that
        `require('./service')` binds whole (`siblint.js.collector.collect` hands on its methods)."""
        if isinstance(value, Mapping):
            for key, item in value.items:
                key_name = key.value if isinstance(key, Const) and isinstance(key.value, str) else None
                if key_name and isinstance(item, Ref) and "." not in item.text and item.text != key_name:
                    self._hand_on(key_name, item.text)
            return
        self.facts.assignments.append(Assignment("default", value, loc, ""))
        self.commonjs_default = value

    def _hand_on(self, exported: str, local: str) -> None:
        """`exported` is this module's name for what it calls `local` (imported or its own)."""
        self.imports[exported] = self.imports.get(local, f"{self.facts.module}.{local}")

    # classes and functions
    def visit_class_declaration(self, node: ts.Node) -> bool:
        return self._class(node)

    def visit_class(self, node: ts.Node) -> bool:
        return self._class(node)

    def visit_abstract_class_declaration(self, node: ts.Node) -> bool:
        return self._class(node)

    def _class(self, node: ts.Node) -> bool:
        name_node = node.child_by_field_name("name")
        name = self.text(name_node) if name_node is not None else f"class@{node.start_point[0] + 1}"
        bases: list[str] = []
        for part in node.named_children:
            if part.type == "class_heritage":  # `extends Base implements Store`: both stand for the class
                for clause in part.named_children:
                    if clause.type in ("extends_clause", "implements_clause"):
                        bases.extend(self._type_names(clause))
        qual = f"{self.scope()}.{name}" if self.scope() else name
        if node.type == "abstract_class_declaration":
            bases.append(TS_ABSTRACT)
        self.facts.classes[qual] = tuple(bases)
        self.facts.class_locs[qual] = self.loc(name_node if name_node is not None else node)
        self.classes.append(name)
        self.visit_children(node.child_by_field_name("body"))
        self.classes.pop()
        return False

    def visit_public_field_definition(self, node: ts.Node) -> None:
        """`private db = new DatabaseSync(p)` or `db: Db;` in a class body: the attribute `this.db`,
        as `db = ...` in a Python class body (a field holding a function is a method, `_is_member`)."""
        name = node.child_by_field_name("name") or node.child_by_field_name("property")
        value = node.child_by_field_name("value")
        if name is None or name.type != "property_identifier" or not self.classes \
                or (value is not None and value.type in _FUNCTIONS):
            return
        cls = f"{self.scope()}.{self.classes[-1]}" if self.scope() else self.classes[-1]
        annotation = self._annotation(node.child_by_field_name("type"))
        self.facts.assignments.append(Assignment(
            self.text(name), self.value(value) if value is not None else Other(self.loc(name)), self.loc(name), cls,
            "=" if value is not None else ":", annotation))

    visit_field_definition = visit_public_field_definition

    def visit_interface_declaration(self, node: ts.Node) -> bool:
        """An interface is recorded as a class whose first base is TS_INTERFACE: a parameter typed
        `store: OpsStore` stands for every class that `implements OpsStore`."""
        name_node = node.child_by_field_name("name")
        if name_node is not None:
            qual = f"{self.scope()}.{self.text(name_node)}" if self.scope() else self.text(name_node)
            extends = [self._type_names(c) for c in node.named_children if c.type == "extends_type_clause"]
            self.facts.classes[qual] = (TS_INTERFACE, *(name for names in extends for name in names))
            # `fileService: FileService;`: the member's declared type, as a class's `db: Db;` field.
            body = node.child_by_field_name("body")
            for part in body.named_children if body is not None else ():
                member = part.child_by_field_name("name") if part.type == "property_signature" else None
                types = self._annotation(part.child_by_field_name("type")) if member is not None else ()
                if member is not None and member.type == "property_identifier" and types:
                    self.facts.assignments.append(Assignment(self.text(member), Other(self.loc(member)),
                                                             self.loc(member), qual, ":", types))
        return False

    def _type_names(self, clause: ts.Node) -> list[str]:
        """The resolved names an `extends`/`implements` clause lists (`Base`, `M.Other`, `Store<T>`)."""
        out: list[str] = []
        for b in clause.named_children:
            if b.type == "generic_type" and b.named_child_count:
                b = b.named_children[0]
            text = self.dotted(b) if b.type not in ("type_identifier", "nested_type_identifier") else self.text(b)
            if text is not None:
                out.append(self.qualify(text))
        return out

    def _function(self, node: ts.Node) -> None:
        qual = self.function_name(node)
        params_node = node.child_by_field_name("parameters")
        if params_node is None:  # `x => ...`
            param = node.child_by_field_name("parameter")
            raw = [param] if param is not None else []
        else:
            raw = [p for p in params_node.named_children if p.type != "comment"]
        params: list[str] = []
        notes: list[tuple[str, ...]] = []  # each parameter's annotation (`events: calendar_v3.Resource$Events`)
        bindings: list[tuple[str, str, tuple[str, ...]]] = []
        for index, p in enumerate(raw):
            typed = p.type in ("required_parameter", "optional_parameter")
            pattern = p.child_by_field_name("pattern") if typed else p
            note = p.child_by_field_name("type") if typed else None
            if pattern is not None and pattern.type == "assignment_pattern":
                pattern = pattern.child_by_field_name("left")
            if pattern is not None and pattern.type == "rest_pattern" and pattern.named_child_count:
                pattern = pattern.named_children[0]
            if pattern is not None and pattern.type == "identifier":
                params.append(self.text(pattern))
                notes.append(self._annotation(note))
                if typed and any(c.type in ("accessibility_modifier", "readonly") for c in p.children):
                    # `constructor(private store: OpsStore)`: a parameter property, `this.store = store`
                    bindings.append((f"this.{params[-1]}", params[-1], notes[-1]))
            else:
                synthetic = f"#{index}"  # a destructured parameter: its names are bound from it below
                params.append(synthetic)
                notes.append(())
                if pattern is not None and pattern.type == "object_pattern":
                    members = self._members(note)
                    bindings.extend((local, f"{synthetic}.{key}", members.get(key, ()))
                                    for local, key in self._pattern_names(pattern))
        in_class = _is_member(node)
        cls = self.classes[-1] if in_class and self.classes else ""
        name_node = node.child_by_field_name("name")
        fn = JsFunctionFacts(
            name=qual,
            is_async=any(c.type == "async" for c in node.children),
            loc=self.loc(name_node if name_node is not None and node.type != "arrow_function" else node),
            params=tuple(params),
            param_annotations=tuple(notes),
            returns_annotation=" ".join(self._returned_types(node.child_by_field_name("return_type"))),
            class_name=(f"{self.scope()}.{cls}" if self.scope() else cls) if cls else "",
            bases=self.facts.classes.get(cls, ()) if cls else (),
        )
        self.facts.functions[qual] = fn
        body = node.child_by_field_name("body")
        frame = _Frame(fn)
        self.frames.append(frame)
        for local, source, types in bindings:
            self.facts.assignments.append(Assignment(local, Ref(source, source, fn.loc), fn.loc, qual, annotation=types))
        if body is not None:
            if body.type == "statement_block":
                stmts = _reachable([c for c in body.named_children if c.type != "comment"])
                fn.guarded_body = len(stmts) == 1 and stmts[0].type == "try_statement" and \
                    stmts[0].child_by_field_name("handler") is not None
                self.visit_statement_block(body)
                if not stmts or stmts[-1].type not in ("return_statement", "throw_statement"):
                    fn.can_return_none = True  # may fall off the end: it returns undefined
            else:  # an arrow's expression body is its return value
                fn.can_return_none = fn.can_return_none or _may_be_undefined(body)
                value = self.value(body)
                fn.return_values.append(value)
                fn.returns_value = True
                fn.return_sites.append(ReturnSite(value, self.loc(body)))
                self.visit(body)
        self.frames.pop()

    # statements inside functions
    def visit_await_expression(self, node: ts.Node) -> None:
        if self.frames:
            self.frames[-1].facts.awaits += 1
        inner = node.named_children[0] if node.named_child_count else None
        while inner is not None and inner.type in _TRANSPARENT and inner.named_child_count:
            inner = inner.named_children[0]
        if inner is not None:
            self.awaited.add(inner.id)

    def visit_call_expression(self, node: ts.Node) -> None:
        self._record_call(node)

    def visit_new_expression(self, node: ts.Node) -> None:
        self._record_call(node)

    def _record_call(self, node: ts.Node) -> None:
        if self._require(node) is not None:
            return
        call = self.call_value(node)
        if not self.frames:
            self.facts.module_calls.append(call)
            return
        frame = self.frames[-1]
        awaited = node.id in self.awaited
        frame.facts.calls.append(CallSite(
            call=call,
            awaited=awaited,
            awaits_before=frame.facts.awaits - (1 if awaited else 0),
            in_finally=frame.finally_depth > 0,
            in_handler=frame.handler[-1] if frame.handler else None,
            guarded_by=tuple(reversed(frame.guards)),
            branches=tuple(frame.branches),
        ))

    def visit_switch_statement(self, node: ts.Node) -> bool | None:
        """`switch (action) { case ACTION.GET: ... }` on a parameter: each case's statements are an
        arm a caller passing that parameter a literal, or an enum member, decides (`Branch`)."""
        value = node.child_by_field_name("value")
        while value is not None and value.type == "parenthesized_expression" and value.named_child_count:
            value = value.named_children[0]
        body = node.child_by_field_name("body")
        if not self.frames or value is None or value.type != "identifier" or body is None:
            return None
        name = self.text(value)
        cases = [c for c in body.named_children if c.type in ("switch_case", "switch_default")]
        tests = [_case_test(c.child_by_field_name("value"), self.text) if c.type == "switch_case" else None for c in cases]
        known = [t for t in tests if t is not None]
        kinds = {kind for kind, _ in known}
        # Arms only when every case is tested the same way (all strings, or all members of one kind).
        kind = next(iter(kinds)) if len(kinds) == 1 and len(known) == sum(c.type == "switch_case" for c in cases) else ""
        self.visit(value)
        pending: list[str] = []  # values of the cases that reach this one (empty or not ending: fall through)
        anything = False  # a default clause fell through: what follows runs whatever the value
        for case, test in zip(cases, tests):
            if test is not None:
                pending.append(test[1])
            statements = [c for c in case.named_children if c != case.child_by_field_name("value") and c.type != "comment"]
            if not statements:
                anything = anything or test is None
                continue
            arm = None
            if kind and not anything:
                arm = Branch(name, tuple(pending), True, test=kind) if test is not None else \
                    Branch(name, tuple(v for _, v in known if v not in pending), False, test=kind)
            if arm is not None:
                self.frames[-1].branches.append(arm)
            for child in statements:
                self.visit(child)
            if arm is not None:
                self.frames[-1].branches.pop()
            if statements[-1].type in _CASE_ENDS:
                pending, anything = [], False
            else:
                anything = anything or test is None
        return False

    def visit_member_expression(self, node: ts.Node) -> None:
        prop = node.child_by_field_name("property")
        if self.frames and prop is not None and self.text(prop) in SIGNAL_STATE:
            parent = node.parent
            if parent is None or parent.type != "call_expression" or parent.child_by_field_name("function") != node:
                text = self.dotted(node)
                if text is not None:
                    fn = self.frames[-1].facts
                    if isinstance(fn, JsFunctionFacts):
                        fn.state_reads.append((text, fn.awaits, self.loc(node)))

    def visit_try_statement(self, node: ts.Node) -> bool:
        body = node.child_by_field_name("body")
        catch = node.child_by_field_name("handler")
        final = node.child_by_field_name("finalizer")
        frame = self.frames[-1] if self.frames else None
        handler = None
        if catch is not None:
            catch_body = catch.child_by_field_name("body")
            handler = Handler(CATCH_ALL, catch_body is not None and _contains(catch_body, "throw_statement"), self.loc(catch))
        if frame is not None and handler is not None:
            frame.guards.append(handler)
        self.visit_children(body) if body is not None else None
        if frame is not None and handler is not None:
            frame.guards.pop()
        if catch is not None:
            if frame is not None and handler is not None:
                frame.handler.append(handler)
            self.visit_children(catch)
            if frame is not None and handler is not None:
                frame.handler.pop()
        if final is not None:
            if frame is not None:
                frame.finally_depth += 1
            self.visit_children(final)
            if frame is not None:
                frame.finally_depth -= 1
        return False

    def visit_throw_statement(self, node: ts.Node) -> None:
        if not self.frames:
            return
        frame = self.frames[-1]
        exc = node.named_children[0] if node.named_child_count else None
        if not frame.guards:
            frame.facts.raises.append(self.loc(node))
        frame.facts.raise_sites.append(RaiseSite(self.value(exc) if exc is not None else None, self.loc(node),
                                                 tuple(reversed(frame.guards)), frame.handler[-1] if frame.handler else None))

    def visit_return_statement(self, node: ts.Node) -> None:
        if not self.frames:
            return
        frame = self.frames[-1]
        expr = next((c for c in node.named_children if c.type != "comment"), None)
        if expr is None or _may_be_undefined(expr):
            frame.facts.can_return_none = True  # `return;`, `return undefined`, `return c ? x : undefined`
        if expr is None:
            return
        value = self.value(expr)
        frame.facts.return_values.append(value)
        frame.facts.returns_value = True
        frame.facts.return_sites.append(ReturnSite(value, self.loc(node), (), tuple(reversed(frame.guards)),
                                                   frame.handler[-1] if frame.handler else None))


def _is_member(node: ts.Node) -> bool:
    """A method of a class body, or a function a class field holds (`send = async (...) => {...}`)."""
    parent = node.parent
    if node.type == "method_definition":
        return parent is not None and parent.type == "class_body"
    return (node.type in ("arrow_function", "function_expression", "function") and parent is not None
            and parent.type in ("public_field_definition", "field_definition") and parent.parent is not None
            and parent.parent.type == "class_body")


def _contains(node: ts.Node, kind: str) -> bool:
    """Does `node` hold a `kind` node outside nested functions? Iterative."""
    stack = list(node.named_children)
    while stack:
        n = stack.pop()
        if n.type == kind:
            return True
        if n.type not in _FUNCTIONS:
            stack.extend(n.named_children)
    return False


def _may_be_undefined(node: ts.Node) -> bool:
    """An expression that is, or on one branch of a `?:` is, `undefined` (or `void x`)."""
    while node.type in _TRANSPARENT and node.named_child_count:
        node = node.named_children[0]
    if node.type == "undefined" or (node.type == "unary_expression" and node.children and node.children[0].type == "void"):
        return True
    if node.type == "ternary_expression":
        branches = (node.child_by_field_name("consequence"), node.child_by_field_name("alternative"))
        return any(b is not None and _may_be_undefined(b) for b in branches)
    return False


def _number(text: str) -> object:
    cleaned = text.replace("_", "").rstrip("n")
    try:
        return int(cleaned, 0)
    except ValueError:
        try:
            return float(cleaned)
        except ValueError:
            return None


# A case ending in one of these does not fall through into the next.
_CASE_ENDS = frozenset({"break_statement", "return_statement", "throw_statement", "continue_statement"})


_HOISTED = frozenset({"function_declaration", "generator_function_declaration"})


def _reachable(stmts: list[ts.Node], keep: frozenset[str] = frozenset()) -> list[ts.Node]:
    """The statements of a block up to and including the first that leaves it, then any of the
    kinds in `keep`."""
    for i, stmt in enumerate(stmts):
        if stmt.type in _CASE_ENDS:
            return stmts[: i + 1] + [s for s in stmts[i + 1:] if s.type in keep]
    return stmts


def _case_test(value: ts.Node | None, text: Callable[[ts.Node], str]) -> tuple[str, str] | None:
    """("in", text) of a `case "get":`, ("member", text) of a `case ACTION.GET:`, else None."""
    if value is not None and value.type == "string":
        return "in", text(value)[1:-1]
    if value is not None and value.type == "member_expression":
        return "member", text(value)
    return None


def collect(tree: ts.Tree, data: bytes, path: str) -> ModuleFacts:
    facts = ModuleFacts(path=path, module=modules.module_name(path))
    collector = _Collector(facts, data)
    collector.root = tree.root_node
    collector.visit(tree.root_node)
    made = collector.commonjs_default
    if isinstance(made, Call) and isinstance(made.func, Ref) and made.func.text in facts.classes:
        # `const calendar = require('./calendarService'); calendar.update(...)`: the instance's methods
        # are the module's names, each bound to its method (`resolve_function` follows such an alias).
        prefix = f"{made.func.text}."
        taken = {a.target for a in facts.assignments if not a.scope} | set(facts.imports)
        for qual, fn in list(facts.functions.items()):
            method = qual[len(prefix):] if qual.startswith(prefix) else ""
            if method and "." not in method and "@" not in method and method != "constructor" \
                    and method not in facts.functions and method not in taken:
                facts.assignments.append(Assignment(method, Ref(qual, qual, fn.loc), made.loc, ""))
    return facts
