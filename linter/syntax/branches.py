"""Which arm of an `if` a call is in, when the test reads one name: on a call path that passes
that name a literal, the other arm is not run. The test compares the name with string literals
(`_call_api("/slots", "GET")` never runs the `requests.post` of `if method == "GET": ... else:`),
tests its truth (`folder_id(path)` never runs `if create: make_folder(...)` of a parameter
defaulting to False) or compares it with None (`if download_path is not None: open(...)`)."""

from __future__ import annotations

import libcst as cst

from .facts import Branch
from .literals import evaluated

_FOLDS = ("upper", "lower", "casefold")


def _literals(node: cst.BaseExpression) -> tuple[str, ...] | None:
    """The strings of `"GET"` or `("GET", "HEAD")`; None when any element is not a plain literal."""
    if isinstance(node, cst.SimpleString):
        value = evaluated(node)
        return (value,) if isinstance(value, str) else None
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        out: list[str] = []
        for element in node.elements:
            found = _literals(element.value) if isinstance(element, cst.Element) else None
            if found is None:
                return None
            out.extend(found)
        return tuple(out)
    return None


def _name(node: cst.BaseExpression) -> tuple[str, bool] | None:
    """(`method`, folded) for `method` or `method.upper()`; only a plain name (a parameter)."""
    folded = False
    if isinstance(node, cst.Call) and not node.args and isinstance(node.func, cst.Attribute) \
            and node.func.attr.value in _FOLDS:
        node, folded = node.func.value, True
    return (node.value, folded) if isinstance(node, cst.Name) else None


def branch_of(test: cst.BaseExpression) -> Branch | None:
    """The `Branch` of an `if` body whose test is `name == "x"`, `name != "x"`, `name in (...)` or
    `name not in (...)` (the name possibly folded with `.upper()`), `name`, `not name`,
    `name is None`, `name is not None` or `isinstance(name, C)`, else None."""
    if isinstance(test, cst.Name) and test.value not in ("True", "False", "None"):
        return Branch(test.value, (), True, test="truthy")
    if isinstance(test, cst.Call) and isinstance(test.func, cst.Name) and test.func.value == "isinstance":
        return _isinstance(test)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = branch_of(test.expression)
        return negated(inner) if inner is not None else None
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    target = test.comparisons[0]
    if isinstance(target.operator, (cst.Is, cst.IsNot)) and isinstance(test.left, cst.Name) \
            and isinstance(target.comparator, cst.Name) and target.comparator.value == "None":
        return Branch(test.left.value, (), isinstance(target.operator, cst.Is), test="none")
    equals = {cst.Equal: True, cst.In: True, cst.NotEqual: False, cst.NotIn: False}.get(type(target.operator))
    if equals is None:
        return None
    named, values = _name(test.left), _literals(target.comparator)
    if named is None and isinstance(target.operator, (cst.Equal, cst.NotEqual)):
        named, values = _name(target.comparator), _literals(test.left)  # `"GET" == method`
    if named is None or not values:
        return None
    return Branch(named[0], values, equals, named[1])


def conjunct_branches(test: cst.BaseExpression) -> tuple[Branch, ...]:
    """The branches of an `if` body whose test is `a and b and ...`: each conjunct `branch_of` reads
    holds there (`if self.session and save_key:` never runs on a path passing `save_key=None`).
    Its `else` holds no single one of them."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return (*conjunct_branches(test.left), *conjunct_branches(test.right))
    found = branch_of(test)
    return (found,) if found is not None else ()


def _isinstance(test: cst.Call) -> Branch | None:
    """`isinstance(error, Signal)` / `isinstance(error, (A, B))`: the classes as written (dotted)."""
    if len(test.args) != 2 or not isinstance(test.args[0].value, cst.Name):
        return None
    classes = test.args[1].value
    items = [e.value for e in classes.elements] if isinstance(classes, cst.Tuple) else [classes]
    names = [_dotted(item) for item in items]
    if not names or any(n is None for n in names):
        return None
    return Branch(test.args[0].value.value, tuple(n for n in names if n), True, test="isinstance")


def _dotted(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr.value}" if head else None
    return None


def negated(branch: Branch) -> Branch:
    """The `else:` arm of `branch`."""
    return Branch(branch.name, branch.values, not branch.equals, branch.folded, branch.test)
