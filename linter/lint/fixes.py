"""From a finding and its file's text to a `Fix`: the edits a rule's `FixSpec.action` asks for.

Python edits are libcst transformations of the node at the finding, turned into the one character
range that changed (so every byte outside it is kept as it was); TS/JS edits are ranges of
tree-sitter nodes. An edit is offered only where the finding points at exactly the node the action
names (a keyword argument's value, a list); anything else gets no fix, never a guess.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cached_property
from typing import TYPE_CHECKING

import libcst as cst
from libcst._nodes.internal import CodegenState

from ..common.diagnostics import Diagnostic, Loc
from ..common.lines import line_starts
from ..js import is_js
from ..rule_api.fixes import AddBound, Bound, CapRuns, DropListItems, DropNoqaCodes, Edit, Fix, FixSpec, RewriteArgument
from ..syntax.positions import spans
from ..syntax.source import SourceError, parse, run_isolated
from .noqa import comment_columns, without_codes

if TYPE_CHECKING:
    import tree_sitter as ts

_CODE = re.compile(r"\bSIB[0-9]+\b")


def fixes_for(path: str, text: str, findings: list[Diagnostic], specs: dict[str, FixSpec]) -> list[Fix]:
    """The fix of each finding whose rule declares an edit and whose node the edit fits."""
    return [f for _, f in fix_pairs(path, text, findings, specs)]


def fix_pairs(path: str, text: str, findings: list[Diagnostic],
              specs: dict[str, FixSpec]) -> list[tuple[Diagnostic, Fix]]:
    """Each finding that gets a fix (see `fixes_for`), with its fix."""
    wanted = [(d, specs[d.code]) for d in findings if d.path == path and d.code in specs and specs[d.code].action]
    if not wanted:
        return []

    def work() -> list[tuple[Diagnostic, Fix]]:  # on a big stack: libcst's code generation recurses per nesting level
        tree: _Tree = _JsTree(text, path) if is_js(path) else _PyTree(text)
        out = []
        for d, spec in wanted:
            edit = tree.edit(d, spec.action)
            if edit is not None:
                edits = edit if isinstance(edit, tuple) else (edit,)
                out.append((d, Fix(edits, spec.applicability, spec.description, d.code, d.loc.line)))
        return out

    try:
        return run_isolated(work)
    except (SourceError, RecursionError, MemoryError, ValueError, cst.ParserSyntaxError):
        return []  # a file that does not parse gets no fix (it is SIB900)
    except Exception:  # noqa: BLE001 - an edit libcst refuses on an odd file: no fix, and the run goes on
        return []


def still_parses(text: str, path: str) -> bool:
    """Does the fixed text still parse (CPython's parser; tree-sitter without error nodes for TS/JS)?"""
    try:
        if is_js(path):
            from ..js.parse import parse as parse_js

            return not parse_js(text, path).root_node.has_error
        run_isolated(lambda: ast.parse(text))
        return True
    except (SyntaxError, ValueError, SourceError, RecursionError, MemoryError):
        return False


def changed_range(old: str, new: str, same_head: int = 0, same_tail: int = 0) -> Edit:
    """The one edit that turns `old` into `new`: everything outside it is the same text.
    `same_head` and `same_tail`: how many characters at the start and at the end the caller knows
    are equal (a replaced node's surroundings), so only the rest is compared character by character."""
    start = same_head
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    skip = max(0, min(same_tail, len(old) - start, len(new) - start))
    end_old, end_new = len(old) - skip, len(new) - skip
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old, end_new = end_old - 1, end_new - 1
    return Edit(start, end_old, new[start:end_new])


class _Tree:
    text: str
    starts: list[int]  # line_starts(text)

    def edit(self, d: Diagnostic, action: object) -> Edit | tuple[Edit, ...] | None:
        if isinstance(action, DropNoqaCodes):
            return self._drop_noqa_codes(d)
        return self._edit(d.loc, action)

    def _edit(self, loc: Loc, action: object) -> Edit | tuple[Edit, ...] | None:
        raise NotImplementedError

    def _comment_at(self, line: int, col: int) -> bool:
        """Is (line, col) inside a comment (not a string that reads `# noqa`)?"""
        raise NotImplementedError

    def _drop_noqa_codes(self, d: Diagnostic) -> Edit | None:
        starts = self.starts
        line, col = d.loc.line, d.loc.col
        if not 0 < line <= len(starts) or not self._comment_at(line, col):
            return None
        end = starts[line] if line < len(starts) else len(self.text)
        stale = set(_CODE.findall(d.message))
        found = without_codes(self.text[starts[line - 1]:end], col, stale, js=isinstance(self, _JsTree))
        if found is None:
            return None
        start, stop, content = found
        return Edit(starts[line - 1] + start, starts[line - 1] + stop, content)


# ------------------------------------------------------------------------------------ Python
class _PyTree(_Tree):
    """A module's libcst tree, indexed once (nodes by where they start, each node's parent), so that
    each finding's edit costs the size of the node it changes, not of the module: a module with
    hundreds of fixable findings took minutes when every edit walked and regenerated all of it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.module = parse(text)
        generated = spans(self.module)
        self.ranges, self.spans, self.parents = generated.ranges, generated.spans, generated.parents
        self.starts = line_starts(text)
        self.walk = generated.walk  # every node, in the order of a walk of the module
        self.order = {id(node): i for i, node in enumerate(self.walk)}
        self.calls = [node for node in self.walk if isinstance(node, cst.Call)]
        self.at: dict[tuple[int, int], list[cst.CSTNode]] = {}  # (line, column) -> the nodes starting there, in order
        for node in self.walk:
            r = self.ranges.get(id(node))
            if r is not None:
                self.at.setdefault((r[0], r[1]), []).append(node)

    def _starting_at(self, loc: Loc, kind: type | tuple[type, ...]) -> list[cst.CSTNode]:
        """The nodes of `kind` that start at `loc`, in the order of a walk of the module."""
        return [n for n in self.at.get((loc.line, loc.col), ()) if isinstance(n, kind)]

    def _parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.parents.get(id(node))

    def _call_arg(self, value: cst.CSTNode) -> tuple[cst.Call, int] | None:
        """The call whose argument `value` is, and the argument's index."""
        arg = self._parent(value)
        call = self._parent(arg) if isinstance(arg, cst.Arg) and arg.value is value else None
        if not isinstance(call, cst.Call):
            return None
        return next(((call, i) for i, a in enumerate(call.args) if a is arg), None)

    def _replaced(self, old: cst.CSTNode, new: cst.CSTNode) -> Edit:
        """The edit that puts `new` where `old` is: `new`'s code, generated as the module would
        generate it there (its newline, the indentation of the blocks around it), in `old`'s span."""
        if not isinstance(old, (cst.BaseExpression, cst.BaseSmallStatement)):
            fixed = self.module.deep_replace(old, new)  # not asked for today; exact, at the module's cost
            assert isinstance(fixed, cst.Module)
            return changed_range(self.text, fixed.code)
        state = CodegenState(default_indent=self.module.default_indent, default_newline=self.module.default_newline)
        blocks: list[str] = []
        parent = self._parent(old)
        options = {}
        if isinstance(old, cst.BaseSmallStatement) and isinstance(parent, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            options["default_semicolon"] = old is not parent.body[-1]  # as the line generates it
        while parent is not None:
            if isinstance(parent, cst.IndentedBlock):
                blocks.append(self.module.default_indent if parent.indent is None else parent.indent)
            parent = self._parent(parent)
        state.indent_tokens = blocks[::-1]
        new._codegen(state, **options)
        line, col, end_line, end_col = self.spans[id(old)]
        start = self.starts[line - 1] + col
        end = self.starts[end_line - 1] + end_col
        text = self.text
        return changed_range(text, text[:start] + "".join(state.tokens) + text[end:], start, len(text) - end)

    @cached_property
    def _comments(self) -> dict[int, int] | None:
        """comment_columns(text), once: each unused `# noqa` asks it."""
        return comment_columns(self.text)

    def _comment_at(self, line: int, col: int) -> bool:
        comments = self._comments
        return comments is not None and line in comments and comments[line] <= col

    def _edit(self, loc: Loc, action: object) -> Edit | tuple[Edit, ...] | None:
        if isinstance(action, RewriteArgument):
            return self._rewrite_argument(loc, action)
        if isinstance(action, DropListItems):
            return self._drop_items(loc, action)
        if isinstance(action, AddBound):
            return self._add_bound(loc, action)
        if isinstance(action, CapRuns):
            return self._cap_runs(loc, action)
        return None

    def _rewrite_argument(self, loc: Loc, action: RewriteArgument) -> Edit | None:
        found: list[tuple[int, int, cst.Call]] = []  # the module's first such call (then argument) decides
        for node in self.at.get((loc.line, loc.col), ()):
            call_arg = self._call_arg(node)
            if call_arg is not None and call_arg[0].args[call_arg[1]].keyword is not None:
                found.append((self.order[id(call_arg[0])], call_arg[1], call_arg[0]))
        if not found:
            return None
        _, i, call = min(found, key=lambda f: f[:2])
        arg = call.args[i]
        assert arg.keyword is not None
        listed, value = action.value_for(arg.keyword.value)
        if not listed:
            return None
        if value is not None:
            return self._replaced(arg.value, cst.parse_expression(value))
        return self._replaced(call, call.with_changes(args=_without(list(call.args), i)))

    def _drop_items(self, loc: Loc, action: DropListItems) -> Edit | None:
        for seq in self._sequences_at(loc):
            keep = [i for i, el in enumerate(seq.elements) if _literal(el.value) not in action.drop]
            if len(keep) == len(seq.elements) or not keep:
                return None  # nothing to drop, or nothing would be left (the author must choose)
            elements = list(seq.elements)
            for i in reversed(range(len(elements))):
                if i not in keep:
                    elements = _without(elements, i)
            return self._replaced(seq, seq.with_changes(elements=elements))
        return None

    def _add_bound(self, loc: Loc, action: AddBound) -> Edit | tuple[Edit, ...] | None:
        """`keyword=value` on the call at `loc` (a bare `@tenacity.retry` becomes a call)."""
        for node in self._starting_at(loc, (cst.Call, cst.Attribute, cst.Name)):
            if isinstance(node, cst.Call):
                call = node
            elif isinstance(node, (cst.Attribute, cst.Name)) and self._is_decorator(node):
                call = cst.Call(func=node)  # `@tenacity.retry` -> `@tenacity.retry(stop=...)`
            else:
                continue  # a reference that is not called: making it a call would change it
            imported = _import_of(self.module, _head(call.func))
            bound = next((b for b in action.bounds if imported and imported[0] == b.library), None)
            if bound is None or imported is None:
                return None
            value, import_edit = self._spelled(bound, imported)
            if value is None:
                return None
            args = list(call.args)
            given = [i for i, a in enumerate(args) if a.keyword is not None and a.keyword.value == bound.keyword]
            current = args[given[0]].value if given else None
            if given and not (isinstance(current, cst.Name) and current.value == "None"):
                return None  # bounded by something the rule accepted elsewhere; not ours to change
            new_value = cst.parse_expression(value)
            if given:
                args[given[0]] = args[given[0]].with_changes(value=new_value)
            else:
                args = _appended(args, _keyword(bound.keyword, new_value), call.whitespace_before_args)
            edit = self._replaced(node, call.with_changes(args=args))
            return (edit, import_edit) if import_edit is not None else edit
        return None

    def _cap_runs(self, loc: Loc, action: CapRuns) -> tuple[Edit, ...] | None:
        """`config_keyword=config(cap_keyword=cap)` on every run of the agent whose argument is at `loc`."""
        agent = self._agent_at(loc, action.library)
        names = self._library_names(action.library, action.imported)
        if agent is None or names is None:
            return None
        spelled, import_edit = names
        cap = cst.parse_expression(action.cap.format(**spelled))
        edits = []
        for run in self._runs_of(agent, action):
            args = list(run.args)
            given = [i for i, a in enumerate(args) if a.keyword is not None and a.keyword.value == action.config_keyword]
            if not given:
                config = cst.parse_expression(f"{spelled[action.config]}()")
                assert isinstance(config, cst.Call)
                args = _appended(args, _keyword(action.config_keyword, config.with_changes(
                    args=[_keyword(action.cap_keyword, cap)])), run.whitespace_before_args)
            else:
                config = args[given[0]].value
                if not (isinstance(config, cst.Call) and _code(config.func) == spelled[action.config]) or any(
                        a.keyword is not None and a.keyword.value == action.cap_keyword for a in config.args):
                    return None  # a config built elsewhere, or a cap the rule did not accept: the author's
                args[given[0]] = args[given[0]].with_changes(value=config.with_changes(
                    args=_appended(list(config.args), _keyword(action.cap_keyword, cap), config.whitespace_before_args)))
            edits.append(self._replaced(run, run.with_changes(args=args)))
        if not edits:
            return None  # not run in this module: the cap belongs where it runs
        return tuple(edits) + ((import_edit,) if import_edit is not None else ())

    def _agent_at(self, loc: Loc, library: str) -> str | None:
        """The name bound by `name = Maker(...)`, a call of `library` with an argument at `loc`."""
        found: list[tuple[int, cst.Assign]] = []  # the first such assignment of the module decides
        for value in self.at.get((loc.line, loc.col), ()):
            call = self._call_arg(value)
            node = self._parent(call[0]) if call is not None else None
            if isinstance(node, cst.Assign) and call is not None and node.value is call[0] \
                    and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
                found.append((self.order[id(node)], node))
        if not found:
            return None
        node = min(found, key=lambda f: f[0])[1]
        target = node.targets[0].target
        assert isinstance(node.value, cst.Call) and isinstance(target, cst.Name)
        imported = _import_of(self.module, _head(node.value.func))
        return target.value if imported and imported[0] == library else None

    def _runs_of(self, agent: str, action: CapRuns) -> Iterator[cst.Call]:
        """The module's calls of `action.runners` given `agent` (first, or as `agent_keyword`)."""
        for node in self.calls:
            # The agent first: a name compare, where the import and the callee's code cost more.
            first = node.args[0] if node.args and node.args[0].keyword is None else None
            given = first or next((a for a in node.args if a.keyword and a.keyword.value == action.agent_keyword), None)
            if not (given is not None and isinstance(given.value, cst.Name) and given.value.value == agent):
                continue
            imported = _import_of(self.module, _head(node.func))
            if imported is None or imported[0] != action.library:
                continue
            dotted = _code(node.func)
            if imported[1] is not None:
                dotted = dotted[len(imported[1]) + 1:]
            if dotted in action.runners:
                yield node

    def _library_names(self, library: str, names: tuple[str, ...]) -> tuple[dict[str, str], Edit | None] | None:
        """How this module spells each of `names` from `library`, and the import edit that adds the
        missing ones to its `from library import ...` (None: no import of the library to extend)."""
        for imp in _top_imports(self.module):
            if isinstance(imp, cst.Import):
                for alias in imp.names:
                    if alias.evaluated_name == library:
                        prefix = alias.evaluated_alias or library
                        return {n: f"{prefix}.{n}" for n in names}, None
        statement = _from_import(self.module, library)
        if statement is None or isinstance(statement.names, cst.ImportStar):
            return None
        have = {a.name.value for a in statement.names if isinstance(a.name, cst.Name) and a.asname is None}
        missing = [n for n in names if n not in have]
        aliases = list(statement.names)
        for n in missing:
            aliases = _appended(aliases, cst.ImportAlias(cst.Name(n)),
                                statement.lpar.whitespace_after if statement.lpar else None)
        edit = self._replaced(statement, statement.with_changes(names=aliases)) if missing else None
        return {n: n for n in names}, edit

    def _is_decorator(self, node: cst.CSTNode) -> bool:
        parent = self._parent(node)
        return isinstance(parent, cst.Decorator) and parent.decorator is node

    def _spelled(self, bound: Bound, imported: tuple[str, str | None]) -> tuple[str | None, Edit | None]:
        """`value` as this module can name it, and the import edit that makes it so (if any)."""
        if not bound.imported:
            return bound.value, None
        library, prefix = imported
        if prefix is not None:  # `import tenacity [as t]`: every use of the name goes through it
            return re.sub(rf"\b{re.escape(bound.imported)}\b", f"{prefix}.{bound.imported}", bound.value), None
        statement = _from_import(self.module, library)
        if statement is None or isinstance(statement.names, cst.ImportStar):
            return None, None
        if any(isinstance(a.name, cst.Name) and a.name.value == bound.imported and a.asname is None
               for a in statement.names):
            return bound.value, None
        names = _appended(list(statement.names), cst.ImportAlias(cst.Name(bound.imported)),
                          statement.lpar.whitespace_after if statement.lpar else None)
        return bound.value, self._replaced(statement, statement.with_changes(names=names))

    def _sequences_at(self, loc: Loc) -> Iterator[cst.List | cst.Tuple | cst.Set]:
        """The literal list, tuple or set at `loc`, or the first argument of the call there."""
        for node in self._starting_at(loc, (cst.List, cst.Tuple, cst.Set, cst.Call)):
            if isinstance(node, cst.Call):
                first = node.args[0].value if node.args and node.args[0].keyword is None else None
                if isinstance(first, (cst.List, cst.Tuple, cst.Set)):
                    yield first
            elif isinstance(node, (cst.List, cst.Tuple, cst.Set)):
                yield node


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _keyword(name: str, value: cst.BaseExpression) -> cst.Arg:
    """`name=value`, spaced as PEP 8 spells a keyword argument."""
    return cst.Arg(value, keyword=cst.Name(name),
                   equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))


def _head(func: cst.BaseExpression) -> str:
    while isinstance(func, cst.Attribute):
        func = func.value
    return func.value if isinstance(func, cst.Name) else ""


def _top_imports(module: cst.Module) -> Iterator[cst.Import | cst.ImportFrom]:
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine):
            yield from (s for s in statement.body if isinstance(s, (cst.Import, cst.ImportFrom)))


def _import_of(module: cst.Module, name: str) -> tuple[str, str | None] | None:
    """(library, the name it is bound to by `import lib [as x]`, or None for `from lib... import`)
    for a top-level import that binds `name`."""
    for imp in _top_imports(module):
        if isinstance(imp.names, cst.ImportStar):
            continue
        for alias in imp.names:
            bound = alias.evaluated_alias or alias.evaluated_name
            if isinstance(imp, cst.Import) and bound == name:
                return alias.evaluated_name.split(".")[0], bound
            if isinstance(imp, cst.ImportFrom) and bound == name and imp.module is not None and not imp.relative:
                return _code(imp.module).split(".")[0], None
    return None


def _from_import(module: cst.Module, library: str) -> cst.ImportFrom | None:
    """The first top-level `from library import ...` (the library itself, not a sub-module)."""
    for imp in _top_imports(module):
        if isinstance(imp, cst.ImportFrom) and imp.module is not None and not imp.relative \
                and _code(imp.module) == library:
            return imp
    return None


def _appended(items: list, new: cst.CSTNode, opening: cst.BaseParenthesizableWhitespace | None = None) -> list:
    """`items` and `new` after them, in their layout: a trailing comma (one item a line) stays
    trailing, and the new item takes the separator the items before it use (with one item, the
    line break and indent after the opening bracket, `opening`)."""
    if not items:
        return [new]
    last = items[-1]
    if last.comma is cst.MaybeSentinel.DEFAULT:
        return items[:-1] + [last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))), new]
    if len(items) > 1 and items[-2].comma is not cst.MaybeSentinel.DEFAULT:
        before = items[-2].comma
    elif isinstance(opening, cst.ParenthesizedWhitespace):
        before = cst.Comma(whitespace_after=opening)
    else:
        before = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    return items[:-1] + [last.with_changes(comma=before), new.with_changes(comma=last.comma)]


def _without(items: list, i: int) -> list:
    """`items` without item `i`, its separator given to the item before when it was the last, so
    `f(a, b=None)` becomes `f(a)` and a trailing comma on its own line stays where it was."""
    out = items[:i] + items[i + 1:]
    if i == len(items) - 1 and i > 0:
        out[-1] = out[-1].with_changes(comma=items[i].comma)
    return out


def _literal(node: cst.BaseExpression) -> object:
    try:
        return ast.literal_eval(_code(node))
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        return _NOT_LITERAL


_NOT_LITERAL = object()


# ------------------------------------------------------------------------------------ TS/JS
class _JsTree(_Tree):
    def __init__(self, text: str, path: str) -> None:
        from ..js.parse import parse as parse_js

        self.text = text
        self.data = text.encode("utf-8", "surrogatepass")
        self.root = parse_js(text, path).root_node
        self.starts = line_starts(text)

    def _char(self, byte: int) -> int:
        return len(self.data[:byte].decode("utf-8", "surrogatepass"))

    def _byte_at(self, loc: Loc) -> int | None:
        if not 0 < loc.line <= len(self.starts):
            return None
        return len(self.text[: self.starts[loc.line - 1] + loc.col].encode("utf-8", "surrogatepass"))

    def _comment_at(self, line: int, col: int) -> bool:
        at = self._byte_at(Loc(line, col, line, col))
        node = self.root.descendant_for_byte_range(at, at) if at is not None else None
        return node is not None and node.type == "comment"

    def _edit(self, loc: Loc, action: object) -> Edit | None:
        at = self._byte_at(loc)
        if at is None or not isinstance(action, RewriteArgument):
            return None
        node = self.root.descendant_for_byte_range(at, at)
        while node is not None and node.type != "pair":
            node = node.parent
        if node is None:
            return None
        value, key = node.child_by_field_name("value"), node.child_by_field_name("key")
        if value is None or value.start_byte != at or key is None or key.text is None:
            return None
        listed, new = action.value_for(key.text.decode("utf-8", "replace").strip("'\""))
        if not listed:
            return None
        if new is not None:
            return Edit(self._char(value.start_byte), self._char(value.end_byte), new)
        return self._drop_pair(node)

    def _drop_pair(self, pair: "ts.Node") -> Edit:
        """The property and one comma beside it: the one after it, else the one before it."""
        after, before = pair.next_sibling, pair.prev_sibling
        if after is not None and after.type == ",":
            following = after.next_sibling  # the next property, up to which the gap goes too
            if following is not None and following.type == "comment" \
                    and following.start_point[0] == after.end_point[0]:
                return self._whole_lines(pair.start_byte, following.end_byte)  # `x: null, // why`: its comment
            end = following.start_byte if following is not None and following.type != "}" else after.end_byte
            return self._whole_lines(pair.start_byte, end)
        if before is not None and before.type == ",":
            return Edit(self._char(before.start_byte), self._char(pair.end_byte))
        return self._whole_lines(pair.start_byte, pair.end_byte)

    def _whole_lines(self, start: int, end: int) -> Edit:
        """Bytes `start:end`, widened to whole lines when nothing else is on them."""
        s, e = self._char(start), self._char(end)
        line_start = self.text.rfind("\n", 0, s) + 1
        line_end = self.text.find("\n", e)
        if not self.text[line_start:s].strip() and line_end != -1 and not self.text[e:line_end].strip():
            return Edit(line_start, line_end + 1)
        return Edit(s, e)

