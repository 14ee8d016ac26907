"""The JS front end's entry point: text of a .ts/.js file -> `ModuleFacts`, or a SourceError."""

from __future__ import annotations

from ..syntax.facts import ModuleFacts
from ..syntax.source import SourceError, run_isolated
from . import parse
from .collector import collect

# The collector recurses once per syntax level; generated code can nest thousands deep.
_RECURSION_LIMIT = 20_000


def facts_from_text(text: str, path: str) -> ModuleFacts:
    """Parse and collect; raises SourceError when the text cannot be analysed."""
    data = text.encode("utf-8", "surrogatepass")

    def work() -> ModuleFacts:
        return collect(parse.parse(text, path), data, path)

    try:
        return run_isolated(work, recursion_limit=_RECURSION_LIMIT)
    except RecursionError:
        raise SourceError(f"nested more than {_RECURSION_LIMIT // 4} levels deep: too deep to analyse") from None
