"""Effects the model did not reach (issue 23, session 3): each shape on the smallest code that shows
it beside its read-only twin."""

from __future__ import annotations

import pytest
from tests.rules.test_receivers import sib101  # noqa: F401 - the same fixture: SIB101 findings in main.py


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


# An image an SDK returned (its class unknown: `part` is a loop variable) saved into a path the
# source builds with pathlib's `/`, beside the same object saved into a buffer or given a name
# nothing says is a file.
SAVED_IMAGE = """\
    import io
    from pathlib import Path
    from langchain_core.tools import tool
    from google import genai

    OUT = Path(__file__).parent

    @tool
    def generate_cover(prompt: str, slug: str) -> str:
        response = genai.Client().models.generate_content(model="m", contents=[prompt])
        for part in response.parts:
            image = part.as_image()
            output_path = OUT / "blogs" / slug / "hero.png"
            image.save({target})
        return "done"
"""


@pytest.mark.parametrize("target", ["str(output_path)", "output_path", "OUT / f'{slug}.png'", "f'{slug}/hero.png'"])
def test_an_object_saved_into_a_path_writes_a_file(sib101, target):
    found = sib101(SAVED_IMAGE.replace("{target}", target))
    assert [line for line, _ in found] == [9]
    assert "image.save (file)" in found[0][1]


@pytest.mark.parametrize("target", ["io.BytesIO()", "slug", ""])
def test_an_object_saved_into_a_buffer_or_an_unknown_name_is_quiet(sib101, target):
    assert sib101(SAVED_IMAGE.replace("{target}", target)) == []


PATH_JOINED = """\
    from pathlib import Path
    from langchain_core.tools import tool

    NOTES = Path.home() / "notes"

    @tool
    def note_tool(name: str) -> str:
        page = NOTES / f"{name}.md"
        return str(page.{method}())
"""


def test_a_path_joined_with_slash_is_a_path(sib101):
    found = sib101(PATH_JOINED.replace("{method}", "unlink"))
    assert [line for line, _ in found] == [7]
    assert "a file change" in found[0][1]


def test_a_path_joined_with_slash_and_only_read_is_quiet(sib101):
    assert sib101(PATH_JOINED.replace("{method}", "exists")) == []


def test_a_path_joined_with_slash_inside_a_scratch_folder_is_quiet(sib101):
    scratch = SAVED_IMAGE.replace("Path(__file__).parent", "Path(tempfile.mkdtemp())").replace("import io", "import tempfile")
    assert sib101(scratch.replace("{target}", "output_path")) == []
    # The system's temporary folder is scratch too (a download cache); the home folder is not.
    assert sib101(scratch.replace("{target}", "output_path").replace("mkdtemp()", "gettempdir()")) == []
    assert sib101(scratch.replace("{target}", "output_path").replace("tempfile.mkdtemp()", "Path.home()"))


# A run-context object whose attribute the class itself leaves untyped (`= None` from an `Any`
# parameter): the CLI stores the client there from outside the class, through a local name it
# rebinds several times. The tool reaches it through `ctx.context.<attr>`.
CONTEXT_FILES = {
    "context.py": """\
        from typing import Any, Optional

        class AppContext:
            def __init__(self, manager: Optional[Any] = None) -> None:
                self.manager = manager
    """,
    "manager.py": """\
        import requests

        class Manager:
            def push(self, item: str) -> None:
                requests.post("https://items.example/items", json={"item": item})

            def peek(self) -> list:
                return requests.get("https://items.example/items").json()
    """,
    "cli.py": """\
        from context import AppContext
        from manager import Manager

        class Other:
            manager = None

        def main() -> None:
            app_context = AppContext(manager=None)
            manager = None
            manager = Manager()
            {receiver}.manager = manager
            manager = None
    """,
}

CONTEXT_TOOL = """\
    from agents import RunContextWrapper, function_tool
    from context import AppContext

    @function_tool
    def push_tool(ctx: RunContextWrapper[AppContext], item: str) -> str:
        ctx.context.manager.{method}(item)
        return "ok"
"""


def _context_files(receiver: str) -> dict[str, str]:
    return {**CONTEXT_FILES, "cli.py": CONTEXT_FILES["cli.py"].replace("{receiver}", receiver)}


def test_an_attribute_set_from_outside_the_class_is_followed(sib101):
    found = sib101(CONTEXT_TOOL.replace("{method}", "push"), _context_files("app_context"))
    assert [line for line, _ in found] == [5]
    assert "POST to https://items.example/items via requests in Manager.push" in found[0][1]


def test_an_attribute_set_from_outside_and_only_read_is_quiet(sib101):
    assert sib101(CONTEXT_TOOL.replace("{method}", "peek"), _context_files("app_context")) == []


def test_the_same_attribute_of_another_class_is_not_followed(sib101):
    assert sib101(CONTEXT_TOOL.replace("{method}", "push"), _context_files("Other()")) == []


# A library object held in an attribute annotated once and reset to None elsewhere, and a helper
# whose return annotation names the library's class.
WORKBOOK = """\
    import xlwings as xw
    from agents import function_tool

    class Workbook:
        def __init__(self) -> None:
            self.book: xw.Book | None = None
            self.book = xw.Book("report.xlsx")

        def close(self) -> None:
            self.book = None

        def _sheet(self, name: str) -> xw.Sheet:
            return self.book.sheets[name]

        @function_tool
        def drop_sheet(self, name: str) -> str:
            self._sheet(name).{sheet_method}()
            return "ok"

        @function_tool
        def save_book(self) -> str:
            self.book.{book_method}()
            return "ok"
"""


def test_an_annotated_attribute_and_an_annotated_helper_reach_the_library(sib101):
    found = sib101(WORKBOOK.replace("{sheet_method}", "delete").replace("{book_method}", "save"))
    assert [line for line, _ in found] == [16, 21]
    assert "performs delete (Excel workbook)" in found[0][1]
    assert "self.book.save (office file)" in found[1][1]


def test_an_annotated_attribute_and_helper_only_read_are_quiet(sib101):
    assert sib101(WORKBOOK.replace("{sheet_method}", "activate").replace("{book_method}", "activate")) == []


# A read tool that records its own run in a repository (a trajectory row) beside one that stores
# what the user asked for through the same kind of repository.
RUN_RECORD = """\
    from langchain_core.tools import tool
    from app.models import Fact

    class {store}Repository:
        def create(self, content: str):
            return Fact.create(content=content)

    @tool
    def read_notes(path: str) -> str:
        {store}Repository().create(path)
        with open(path) as f:
            return f.read()
"""


def test_a_record_of_the_run_itself_is_bookkeeping(sib101):
    assert sib101(RUN_RECORD.replace("{store}", "Trajectory"), SELF_IMPORTING_MODELS) == []


SESSION_EVENTS = """\
    import psycopg2
    from langchain_core.tools import tool

    class SessionTracker:
        def {method}(self, kind: str, data: dict):
            with psycopg2.connect("dbname=app") as conn:
                conn.cursor().execute("INSERT INTO session_events (kind, data) VALUES (%s, %s)", (kind, data))

    @tool
    def search_menu(query: str) -> str:
        \"\"\"Search the menu.\"\"\"
        SessionTracker().{method}("menu_viewed", {{"q": query}})
        return "pizza"
"""


@pytest.mark.parametrize("method, reported", [("log_event", False), ("track_event", False), ("log_audit_event", True),
                                              ("log_expense", True), ("add_event", True)])
def test_an_event_the_session_logs_is_bookkeeping(sib101, method, reported):
    """evalW2's restaurant bot: a menu search logs `MENU_VIEWED` through `tracker.log_event`; a helper
    that logs an expense, adds an event or writes an audit row (the corpus's RECA) is the tool's business."""
    found = sib101(SESSION_EVENTS.format(method=method))
    assert [line for line, _ in found] == ([10] if reported else [])


def test_a_store_the_tool_is_about_is_not_bookkeeping(sib101):
    found = sib101(RUN_RECORD.replace("{store}", "Note"), SELF_IMPORTING_MODELS)
    assert [line for line, _ in found] == [9]
    assert "an ORM write (Fact.create) in NoteRepository.create" in found[0][1]


# A helper called through its class (`Client.post_message(...)`: a static method, or a function read
# off the class), here or imported: the tool runs that function.
CLASS_HELPER = """\
    import requests

    class Chat:
        def post_message(text):
            return requests.{verb}("https://chat.example/messages", json={{"text": text}})
"""
CLASS_HELPER_TOOL = """\
    from langchain_core.tools import tool
    {where}

    @tool
    def say(text: str) -> str:
        \"\"\"Say it.\"\"\"
        return str(Chat.post_message(text))
"""


@pytest.mark.parametrize("where", ["here", "imported"])
def test_a_helper_called_through_its_class_is_followed(sib101, where):
    files = {"app/__init__.py": "", "app/chat.py": CLASS_HELPER.format(verb="post")} if where == "imported" else None
    text = CLASS_HELPER_TOOL.format(where="from app.chat import Chat" if files else "")
    if not files:
        text += CLASS_HELPER.format(verb="post")
    found = sib101(text, files)
    assert [line for line, _ in found] == [5] and "in Chat.post_message" in found[0][1], found
    # The read-only twin is quiet.
    quiet = {k: v.replace("requests.post", "requests.get") for k, v in files.items()} if files else None
    assert sib101(text.replace("requests.post", "requests.get"), quiet) == []


# A read tool whose credentials helper saves the refreshed token (`authenticate_gmail`), beside one
# whose helper is named for the write it makes.
CREDENTIALS = """\
    import os
    from agents import function_tool

    def {helper}():
        path = os.path.join(os.path.dirname(__file__), "state.json")
        with open(path, "w") as f:
            f.write("{{}}")
        return path

    @function_tool
    def read_inbox() -> str:
        {helper}()
        return "ok"
"""


def test_a_credentials_helper_that_saves_its_token_is_bookkeeping(sib101):
    assert sib101(CREDENTIALS.format(helper="authenticate_gmail")) == []
    assert [line for line, _ in sib101(CREDENTIALS.format(helper="export_inbox"))] == [11]
