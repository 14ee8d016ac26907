"""Effects the model did not reach (issue 23, session 3): each shape on the smallest code that shows
it beside its read-only twin."""

from __future__ import annotations

import textwrap

import pytest
from siblint.settings.config import Config


@pytest.fixture
def sib101(lint, tmp_path):
    """sib101(text, files=None) -> [(line, message)] of SIB101 findings in main.py."""

    def run(text: str, files: dict[str, str] | None = None) -> list[tuple[int, str]]:
        found = lint(textwrap.dedent(text), {k: textwrap.dedent(v) for k, v in (files or {}).items()},
                     Config(root=str(tmp_path)))
        return [(d.loc.line, d.message) for d in found if d.code == "SIB101"]

    return run


# A models module that imports its own classes inside a function (to dodge a circular import): the
# class is still the one it defines, so `Fact` is a peewee model wherever it is imported.
SELF_IMPORTING_MODELS = {"app/__init__.py": "", "app/models.py": """\
    import peewee

    def init_tables(db):
        from app.models import Fact
        db.create_tables([Fact])

    class Fact(peewee.Model):
        content = peewee.TextField()
"""}

REPOSITORY_TOOL = """\
    from langchain_core.tools import tool
    from app.models import Fact

    class FactRepository:
        def put(self, content: str):
            return Fact.{verb}(content=content)

    def get_repository() -> "FactRepository":
        return FactRepository()

    @tool
    def emit_fact(content: str) -> str:
        return str(get_repository().put(content))
"""


def test_model_class_of_a_module_that_imports_itself_writes(sib101):
    found = sib101(REPOSITORY_TOOL.format(verb="create"), SELF_IMPORTING_MODELS)
    assert [line for line, _ in found] == [12]
    assert "an ORM write (Fact.create) in FactRepository.put" in found[0][1]


def test_model_class_of_a_module_that_imports_itself_reading_is_quiet(sib101):
    assert sib101(REPOSITORY_TOOL.format(verb="get_or_none"), SELF_IMPORTING_MODELS) == []
