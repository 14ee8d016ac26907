"""What the classifier asks about names: the `Resolver` protocol, and `Bindings`, its implementation
on one function's facts. Any object with the same three methods (a semantic model) can stand in."""

from __future__ import annotations

from typing import Protocol

from siblint.effects.table import CONSTRUCTORS
from siblint.facts import Attr, Call, Const, FString, FunctionFacts, ModuleFacts, Ref, Value


class Resolver(Protocol):
    def value(self, text: str) -> Value | None:
        """What the name `text` (`client`, `self.client`) is bound to where the call is, or None."""

    def constructor(self, value: Value | None) -> str:
        """The dotted constructor that built `value` (`httpx.AsyncClient`), "" when unknown."""

    def text(self, value: Value | None) -> str | None:
        """The literal text of a string argument, None when it cannot be read."""


class Bindings:
    """What the names of one function were bound to: `with ... as`, local and class assignments,
    module-level names. Enough to know that `client` is an `httpx.AsyncClient` or `sql` an INSERT."""

    def __init__(self, facts: ModuleFacts | None = None, fn: FunctionFacts | None = None) -> None:
        self.facts = facts
        self.fn = fn

    def value(self, text: str) -> Value | None:
        if self.facts is None:
            return None
        scopes: list[str] = []
        if self.fn is not None:
            if text in self.fn.with_bindings:
                return self.fn.with_bindings[text]
            scope = self.fn.name
            while scope:  # the function, then the functions it is nested in
                scopes.append(scope)
                scope = scope.rpartition(".")[0]
        for wanted in (*scopes, ""):
            for a in reversed(self.facts.assignments):
                if a.target == text and a.scope == wanted and a.op == "=":
                    return a.value
        if text.startswith("self.") and self.fn is not None and self.fn.class_name:
            # `self.client = httpx.AsyncClient()` in any method of the class (usually `__init__`).
            prefix = self.fn.class_name + "."
            for a in reversed(self.facts.assignments):
                if a.target == text and a.scope.startswith(prefix) and a.op == "=":
                    return a.value
        return None

    def constructor(self, value: Value | None, depth: int = 0) -> str:
        """The known constructor that built `value` ("" if none), through bindings and call chains:
        `repo = Github(t).get_repo(n)` makes `repo` a `github.Github` object for the table."""
        if value is None or depth > 8:
            return ""
        if isinstance(value, Ref):
            text = value.text
            while text:
                bound = self.value(text)
                if bound is not None:
                    return self.constructor(bound, depth + 1)
                text = text.rpartition(".")[0]
            return ""
        if isinstance(value, Call):
            name = value.callee
            if name in CONSTRUCTORS:
                return name
            # A method of a known object (`g.get_repo(...)`), else the callee itself (`mylib.Mailer()`),
            # which the user's `extend-side-effect-calls` may name as `mylib.Mailer.send`.
            return self.constructor(receiver_of(value.func), depth + 1) or name
        if isinstance(value, Attr):
            return self.constructor(value.receiver, depth + 1)
        return ""

    def text(self, value: Value | None, depth: int = 0) -> str | None:
        """The literal text of a string argument, through bindings, f-strings and `text("...")`."""
        if value is None or depth > 4:
            return None
        if isinstance(value, Const):
            return value.value if isinstance(value.value, str) else None
        if isinstance(value, FString):
            return value.text
        if isinstance(value, Ref):
            return self.text(self.value(value.text), depth + 1)
        if isinstance(value, Call) and value.args:
            if value.callee.rpartition(".")[2] in ("text", "dedent", "strip"):  # sqlalchemy.text, textwrap.dedent
                return self.text(value.args[0], depth + 1)
            if isinstance(value.func, Attr) and value.func.attr in ("format", "strip"):  # "...".format(x)
                return self.text(value.func.receiver, depth + 1)
        return None


def receiver_of(func: Value) -> Value | None:
    """`client` for `client.post`, `boto3.client("s3")` for `boto3.client("s3").put_object`."""
    if isinstance(func, Ref) and "." in func.text:
        # Imports replace only the head of a dotted name, so both spellings end in the same attribute.
        return Ref(func.name.rpartition(".")[0], func.text.rpartition(".")[0], func.loc)
    if isinstance(func, Attr):
        return func.receiver
    return None


def method_name(func: Value) -> str:
    if isinstance(func, Ref):
        return func.text.rpartition(".")[2]
    if isinstance(func, Attr):
        return func.attr
    return ""
