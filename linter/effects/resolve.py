"""What the classifier asks about names: the `Resolver` protocol. `siblint.model.semantic.Scope` is its
implementation on a function's facts; any object with the same three methods can stand in."""

from __future__ import annotations

from typing import Protocol

from ..syntax.facts import Attr, Ref, Value


class Resolver(Protocol):
    name: str  # the function the names are read in ("" = module level)

    def value(self, text: str) -> Value | None:
        """What the name `text` (`client`, `self.client`) is bound to where the call is, or None."""

    def binding(self, text: str) -> "tuple[Resolver, Value] | None":
        """What `text` is bound to, with the resolver its value is to be read with."""

    def passed(self, text: str) -> "tuple[Resolver, Value] | None":
        """What the caller passed for the parameter `text`, when the call path is known."""

    def constructor(self, value: Value | None) -> str:
        """The dotted constructor that built `value` (`httpx.AsyncClient`), "" when unknown."""

    def text(self, value: Value | None, depth: int = 0, numbers: bool = False) -> str | None:
        """The literal text of a string argument, None when it cannot be read; with `numbers`, a
        number formatted into it reads as "0"."""


def no_names() -> Resolver:
    """A resolver that knows no names: literals only (a call classified without its function)."""
    from ..model.semantic import Scope
    from ..syntax.facts import ModuleFacts

    return Scope(ModuleFacts(path="", module=""))


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
