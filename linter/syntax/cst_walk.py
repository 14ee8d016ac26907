"""A read-only walk over a libcst tree in libcst's own visiting order, without its visitor machinery.

`CSTVisitor` rebuilds every node's children (`_visit_and_replace_children`) and dispatches each
node through several generic layers; for the collector, which only reads, that was most of its
time (a 1,000-line module: 0.06 s for an empty visitor against 0.01 s for this walk). Here each
node type's child fields come from `CHILDREN`, listed in the order libcst visits them, without the
whitespace and punctuation fields no rule looks at. `tests/engine/test_cst_walk.py` derives that order from
libcst's own source for every node class and checks this table against it.
"""

from __future__ import annotations

from typing import Any, ClassVar

import libcst as cst
from libcst import MaybeSentinel

# Node type name -> fields holding child nodes, in visiting order. Types not listed have no
# children worth visiting (names, literals, operators, whitespace).
CHILDREN: dict[str, tuple[str, ...]] = {
    "AnnAssign": ("target", "annotation", "value"),
    "Annotation": ("annotation",),
    "Arg": ("keyword", "value"),
    "AsName": ("name",),
    "Assert": ("test", "msg"),
    "Assign": ("targets", "value"),
    "AssignTarget": ("target",),
    "Attribute": ("value", "attr"),
    "AugAssign": ("target", "value"),
    "Await": ("expression",),
    "BinaryOperation": ("left", "right"),
    "BooleanOperation": ("left", "right"),
    "Call": ("func", "args"),
    "ClassDef": ("decorators", "name", "type_parameters", "bases", "keywords", "body"),
    "CompFor": ("target", "iter", "ifs", "inner_for_in"),
    "CompIf": ("test",),
    "Comparison": ("left", "comparisons"),
    "ComparisonTarget": ("comparator",),
    "ConcatenatedString": ("left", "right"),
    "Decorator": ("decorator",),
    "Del": ("target",),
    "Dict": ("elements",),
    "DictComp": ("key", "value", "for_in"),
    "DictElement": ("key", "value"),
    "Element": ("value",),
    "Else": ("body",),
    "ExceptHandler": ("type", "name", "body"),
    "ExceptStarHandler": ("type", "name", "body"),
    "Expr": ("value",),
    "Finally": ("body",),
    "For": ("target", "iter", "body", "orelse"),
    "FormattedString": ("parts",),
    "FormattedStringExpression": ("expression", "format_spec"),
    "From": ("item",),
    "FunctionDef": ("decorators", "name", "type_parameters", "params", "returns", "body"),
    "GeneratorExp": ("elt", "for_in"),
    "Global": ("names",),
    "If": ("test", "body", "orelse"),
    "IfExp": ("body", "test", "orelse"),
    "Import": ("names",),
    "ImportAlias": ("name", "asname"),
    "ImportFrom": ("module", "names"),
    "IndentedBlock": ("body",),
    "Index": ("value",),
    "Lambda": ("params", "body"),
    "LazyImport": ("names",),
    "LazyImportFrom": ("module", "names"),
    "List": ("elements",),
    "ListComp": ("elt", "for_in"),
    "Match": ("subject", "cases"),
    "MatchAs": ("pattern", "name"),
    "MatchCase": ("pattern", "guard", "body"),
    "MatchClass": ("cls", "patterns", "kwds"),
    "MatchKeywordElement": ("key", "pattern"),
    "MatchList": ("patterns",),
    "MatchMapping": ("elements", "rest"),
    "MatchMappingElement": ("key", "pattern"),
    "MatchOr": ("patterns",),
    "MatchOrElement": ("pattern",),
    "MatchSequenceElement": ("value",),
    "MatchSingleton": ("value",),
    "MatchStar": ("name",),
    "MatchTuple": ("patterns",),
    "MatchValue": ("value",),
    "Module": ("body",),
    "NameItem": ("name",),
    "NamedExpr": ("target", "value"),
    "Nonlocal": ("names",),
    "Param": ("name", "annotation", "default"),
    "ParamSpec": ("name",),
    "Parameters": ("posonly_params", "params", "star_arg", "kwonly_params", "star_kwarg"),
    "Raise": ("exc", "cause"),
    "Return": ("value",),
    "Set": ("elements",),
    "SetComp": ("elt", "for_in"),
    "SimpleStatementLine": ("body",),
    "SimpleStatementSuite": ("body",),
    "Slice": ("lower", "upper", "step"),
    "StarredDictComp": ("value", "for_in"),
    "StarredDictElement": ("value",),
    "StarredElement": ("value",),
    "Subscript": ("value", "slice"),
    "SubscriptElement": ("slice",),
    "TemplatedString": ("parts",),
    "TemplatedStringExpression": ("expression", "format_spec"),
    "Try": ("body", "handlers", "orelse", "finalbody"),
    "TryStar": ("body", "handlers", "orelse", "finalbody"),
    "Tuple": ("elements",),
    "TypeAlias": ("name", "type_parameters", "value"),
    "TypeParam": ("param", "default"),
    "TypeParameters": ("params",),
    "TypeVar": ("name", "bound"),
    "TypeVarTuple": ("name",),
    "UnaryOperation": ("expression",),
    "While": ("test", "body", "orelse"),
    "With": ("items", "body"),
    "WithItem": ("item", "asname"),
    "Yield": ("value",),
}

_Entry = tuple[Any, Any, tuple[str, ...]]  # (visit function or None, leave function or None, fields)
_INERT: _Entry = (None, None, ())


class Walker:
    """Subclasses define `visit_<Type>(node)` (return False to skip the node's children) and
    `leave_<Type>(node)`, as on a `CSTVisitor`."""

    _entries: ClassVar[dict[type, _Entry]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._entries = {}

    def walk(self, node: cst.CSTNode) -> None:
        visit, leave, fields = self._entries.get(type(node)) or self._entry(type(node))
        if visit is not None and visit(self, node) is False:
            return
        entries = self._entries
        for field in fields:
            child = getattr(node, field)
            # A listed field holds a node, a sequence of nodes, None or MaybeSentinel.DEFAULT.
            # (Not `isinstance(child, CSTNode)`: an ABC check, and this loop sees every node.)
            if type(child) is tuple or type(child) is list:
                for item in child:
                    if entries.get(type(item)) is not _INERT:
                        self.walk(item)
            elif child is not None and child is not MaybeSentinel.DEFAULT and entries.get(type(child)) is not _INERT:
                self.walk(child)
        if leave is not None:
            leave(self, node)

    def _entry(self, kind: type) -> _Entry:
        name = kind.__name__
        entry = (getattr(type(self), f"visit_{name}", None), getattr(type(self), f"leave_{name}", None),
                 CHILDREN.get(name, ()))
        # One shared tuple for a node this walker neither looks at nor descends into (a name, a
        # literal): the loop above skips it without a call.
        self._entries[kind] = _INERT if entry == _INERT else entry
        return entry
