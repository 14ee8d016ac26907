"""A plain function is a tool where agent code lists it, however it gets there: through a package
that re-exports it (`tools/__init__.py`: `from .mail import send_email` or `import *`, one or two
packages deep), through a module gathering other modules' functions into a list, and whatever the
defining module imports itself (a `ToolContext` annotation names a framework but makes no tool). Each shape beside
its twin that no agent lists. Checked as a user runs it: the whole tree, one process and two."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import cli_findings, write

MAIL = """\
    import smtplib

    def send_email(to: str, body: str) -> str:
        with smtplib.SMTP("smtp.example.com", 587) as s:
            s.sendmail("me@example.com", to, body)
        return "sent"

    def draft_email(to: str, body: str) -> str:
        with smtplib.SMTP("smtp.example.com", 587) as s:
            s.sendmail("me@example.com", to, body)
        return "sent"
"""
REEXPORTED = {
    "app/__init__.py": "",
    "app/tools/__init__.py": "from .mail import send_email, draft_email\n",
    "app/tools/mail.py": MAIL,
    "app/agent.py": """\
        from llama_index.core.agent.workflow import FunctionAgent
        from .tools import send_email

        agent = FunctionAgent(name="mailer", llm=None, tools=[send_email])
    """,
}
TWO_PACKAGES = {
    "app/__init__.py": "",
    "app/tools/__init__.py": "from .outbox import send_email, draft_email\n",
    "app/tools/outbox/__init__.py": "from ._mail import send_email, draft_email\n",
    "app/tools/outbox/_mail.py": MAIL,
    "app/agent.py": """\
        from llama_index.core.agent.workflow import FunctionAgent
        from app.tools import send_email

        agent = FunctionAgent(name="mailer", llm=None, tools=[send_email])
    """,
}
STAR_REEXPORTED = {  # Finova's shape: `from .mail import *` in the package, the agent imports the package
    "app/__init__.py": "",
    "app/tools/__init__.py": "from .mail import *\n",
    "app/tools/mail.py": MAIL,
    "app/agent.py": """\
        from llama_index.core.agent.workflow import FunctionAgent
        from app.tools import send_email

        agent = FunctionAgent(name="mailer", llm=None, tools=[send_email])
    """,
}
ALIASED = {  # AI-Ticket-Agent's shape: `send_email_tool = send_email`, re-exported and listed by its alias
    "app/__init__.py": "",
    "app/tools/__init__.py": "from .mail import send_email_tool\n",
    "app/tools/mail.py": MAIL + "\n\n    send_email_tool = send_email\n",
    "app/agent.py": """\
        from llama_index.core.agent.workflow import FunctionAgent
        from app.tools import send_email_tool

        agent = FunctionAgent(name="mailer", llm=None, tools=[send_email_tool])
    """,
}
GATHERED = {
    "app/__init__.py": "",
    "app/mail.py": MAIL,
    "app/registry.py": """\
        from app.mail import send_email

        ALL_TOOLS = [send_email]
    """,
    "app/agent.py": """\
        from langgraph.prebuilt import create_react_agent
        from app.registry import ALL_TOOLS

        agent = create_react_agent("openai:gpt-4o", tools=ALL_TOOLS)
    """,
}
LIST_REEXPORTED = {  # aibro's shape: the module's own list, re-exported by its package
    "app/__init__.py": "",
    "app/tools/__init__.py": "from app.tools.mail import MAIL_TOOLS\n",
    "app/tools/mail.py": MAIL + "\n\n    MAIL_TOOLS: list = [\n        send_email,\n    ]\n",
    "app/graph.py": """\
        from langchain.agents import create_agent
        from app.tools import MAIL_TOOLS

        agent = create_agent(model="openai:gpt-4o", tools=MAIL_TOOLS)
    """,
}
ANNOTATED = {
    "pkg/__init__.py": "",
    "pkg/tools.py": """\
        import smtplib
        from google.adk.tools import ToolContext

        def send_digest(tool_context: ToolContext) -> dict:
            with smtplib.SMTP_SSL("smtp.example.com", 465) as server:
                server.sendmail("me@example.com", "you@example.com", "digest")
            return {}

        def draft_digest(tool_context: ToolContext) -> dict:
            with smtplib.SMTP_SSL("smtp.example.com", 465) as server:
                server.sendmail("me@example.com", "you@example.com", "digest")
            return {}
    """,
    "pkg/agent.py": """\
        from google.adk.agents import Agent
        from .tools import send_digest

        root_agent = Agent(name="digest", model="gemini-2.0-flash", tools=[send_digest])
    """,
}


@pytest.mark.parametrize("files, where, code", [
    (REEXPORTED, "app/tools/mail.py", "SIB101"),
    (TWO_PACKAGES, "app/tools/outbox/_mail.py", "SIB101"),
    (STAR_REEXPORTED, "app/tools/mail.py", "SIB101"),
    (ALIASED, "app/tools/mail.py", "SIB101"),
    (GATHERED, "app/mail.py", "SIB101"),
    (LIST_REEXPORTED, "app/tools/mail.py", "SIB101"),
    (ANNOTATED, "pkg/tools.py", "SIB103"),  # ADK runs a sync tool on the event loop
], ids=["package-reexport", "two-packages", "star-reexport", "alias", "gathered-list", "reexported-list", "framework-annotation"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_listed_function_is_a_tool_however_it_reaches_the_agent(tmp_path: Path, files: dict[str, str],
                                                                     where: str, code: str, jobs: str) -> None:
    write(tmp_path, files)
    found = cli_findings(["."], tmp_path, ["--no-cache", "-j", jobs])
    # The listed function is reported at its `def`; its unlisted twin in the same module is not.
    assert [(path, line, c) for path, line, _, c, _ in found if c.startswith("SIB1")] == [
        (where, 4 if code == "SIB103" else 3, code)]


TICKETS = """\
    import sqlite3

    def create_ticket(title: str) -> int:
        conn = sqlite3.connect("tickets.db")
        cur = conn.execute("INSERT INTO tickets (title) VALUES (?)", (title,))
        conn.commit()
        return cur.lastrowid

    def count_tickets() -> int:
        return sqlite3.connect("tickets.db").execute("SELECT COUNT(*) FROM tickets").fetchone()[0]
"""
WRAPPED = {  # officer_side_agent's shape: tools made in one module of functions defined in another
    "app/__init__.py": "",
    "app/tickets.py": TICKETS,
    "app/tools.py": """\
        from google.adk.tools import FunctionTool
        import app.tickets as tickets

        CREATE_TICKET = FunctionTool(func=tickets.create_ticket)
        COUNT_TICKETS = FunctionTool(func=tickets.count_tickets)
    """,
    "app/agent.py": """\
        from google.adk.agents import LlmAgent
        from app.tools import CREATE_TICKET, COUNT_TICKETS

        root_agent = LlmAgent(name="tickets", model="gemini-2.0-flash", tools=[CREATE_TICKET, COUNT_TICKETS])
    """,
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_tool_made_of_another_modules_function_is_reported_at_its_def(tmp_path: Path, jobs: str) -> None:
    """`FunctionTool(func=tickets.create_ticket)`: the finding goes to the `def`, as a decorated tool's
    does; where the run does not analyse the defining module, it stays where the tool is made."""
    write(tmp_path, WRAPPED)
    found = cli_findings(["."], tmp_path, ["--no-cache", "-j", jobs])
    assert [(path, line, c) for path, line, _, c, _ in found if c.startswith("SIB1")] == [
        ("app/tickets.py", 3, "SIB103")]
    (tmp_path / "pyproject.toml").write_text('[tool.siblint]\nextend-exclude = ["app/tickets.py"]\n')
    found = cli_findings(["."], tmp_path, ["--no-cache", "-j", jobs])
    assert [(path, line, c) for path, line, _, c, _ in found if c.startswith("SIB1")] == [
        ("app/tools.py", 4, "SIB103")]


INVOKED = {  # evalW19's freight agent: hand-built FunctionTools around invokers of other modules
    "app/__init__.py": "",
    "app/warnings.py": """\
        import requests
        from agents import RunContextWrapper

        async def upsert_warnings(ctx: RunContextWrapper, args: str) -> str:
            try:
                requests.put("https://loads.example.com/warnings", json={"w": args})
            except Exception as exc:
                return f"failed: {exc}"
            return "ok"
    """,
    "app/agent.py": """\
        from agents import Agent, FunctionTool
        from app.warnings import upsert_warnings

        analyzer = Agent(name="a", tools=[
            FunctionTool(name="w", description="d", params_json_schema={}, on_invoke_tool=upsert_warnings),
        ])
    """,
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_hand_built_function_tool_is_reported_at_its_invokers_def(tmp_path: Path, jobs: str) -> None:
    """`FunctionTool(on_invoke_tool=upsert_warnings)`: the side effect goes to the invoker's `def`, as
    `function_tool(f)`'s does. The invoker is one guarded `try` and a `return` of a literal, so no
    exception escapes it: no SIB204."""
    write(tmp_path, INVOKED)
    found = cli_findings(["."], tmp_path, ["--no-cache", "-j", jobs])
    assert [(path, line, c) for path, line, _, c, _ in found] == [("app/warnings.py", 4, "SIB103")]


REGISTERED = {  # co-cli's shape: `agent.tool(fn)` of a function whose module raises ModelRetry
    "app/__init__.py": "",
    "app/slack.py": """\
        import requests
        from pydantic_ai import ModelRetry, RunContext

        def send_message(ctx: RunContext[None], text: str) -> str:
            if not text:
                raise ModelRetry("text is required")
            return requests.post("https://slack.example.com/post", json={"text": text}).text
    """,
    "app/agent.py": """\
        from pydantic_ai import Agent
        from app.slack import send_message

        agent = Agent("openai:gpt-4o")
        agent.tool(send_message)
    """,
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_function_raising_the_frameworks_retry_is_reported_at_its_def(tmp_path: Path, jobs: str) -> None:
    """Raising `ModelRetry` (or `ToolException`) is what a tool body does: its module makes no tool of
    its own, so the function registered elsewhere is reported at its `def`."""
    write(tmp_path, REGISTERED)
    found = cli_findings(["."], tmp_path, ["--no-cache", "-j", jobs])
    assert [(path, line, c) for path, line, _, c, _ in found if c.startswith("SIB1")] == [
        ("app/slack.py", 4, "SIB101")]


REGISTRY = {  # HRMS's shape: a project decorator that makes a LangChain tool of the function it decorates
    "app/__init__.py": "",
    "app/registry.py": """\
        from langchain_core.tools import tool

        class ToolRegistry:
            def __init__(self):
                self._tools = []

            def register(self, func):
                self._tools.append(tool(func))
                return func

            def remember(self, func):
                self._tools.append(func)
                return func

        def as_tool(fn):
            return tool(fn)

        registry = ToolRegistry()
    """,
    "app/leave.py": """\
        import requests
        from app.registry import as_tool, registry

        @registry.register
        def apply_leave(days: int) -> str:
            return requests.post("https://hr.example.com/leave", json={"days": days}).text

        @registry.remember
        def draft_leave(days: int) -> str:
            return requests.post("https://hr.example.com/leave", json={"days": days}).text

        @as_tool
        def cancel_leave(request_id: int) -> str:
            return requests.delete(f"https://hr.example.com/leave/{request_id}").text
    """,
    "app/agent.py": """\
        from langgraph.prebuilt import create_react_agent
        from app import leave  # registers its tools
        from app.registry import registry

        agent = create_react_agent("openai:gpt-4o", tools=registry._tools)
    """,
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_project_decorator_that_makes_a_tool_makes_one(tmp_path: Path, jobs: str) -> None:
    """`@registry.register` whose body calls `tool(func)`, and a function decorator returning
    `tool(fn)`: the decorated function is a tool; one only kept in a list is not."""
    write(tmp_path, REGISTRY)
    found = cli_findings(["."], tmp_path, ["--no-cache", "-j", jobs])
    assert [(path, line, c) for path, line, _, c, _ in found if c.startswith("SIB1")] == [
        ("app/leave.py", 5, "SIB101"), ("app/leave.py", 13, "SIB101")]


BOUND_METHODS = {  # adk-seq-webagent's shape: an agent lists bound methods of a module-level instance
    "app/__init__.py": "",
    "app/git_ops.py": """\
        import subprocess

        class GitOps:
            def push(self, branch: str) -> str:
                return subprocess.run(["git", "push", "origin", branch], capture_output=True).stdout.decode()

            def status(self) -> str:
                return "clean"
    """,
    "app/agent.py": """\
        from google.adk.agents import Agent
        from app.git_ops import GitOps

        git_ops = GitOps()

        root_agent = Agent(name="coder", model="gemini-2.0-flash", tools=[git_ops.push, git_ops.status])
    """,
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_bound_method_of_a_project_object_listed_as_a_tool_is_that_method(tmp_path: Path, jobs: str) -> None:
    write(tmp_path, BOUND_METHODS)
    found = cli_findings(["."], tmp_path, ["--no-cache", "-j", jobs])
    assert [(path, line, c) for path, line, _, c, _ in found if c.startswith("SIB1")] == [
        ("app/git_ops.py", 4, "SIB103")]


FALLBACK_STUBS = {  # CuraAI's shape: a package imports the real function, with a stub if that fails
    "app/__init__.py": "",
    "app/google/__init__.py": """\
        try:
            from .calendar import create_event
        except ImportError:
            def create_event(*args, **kwargs):
                raise ImportError("install google-api-python-client")

            def delete_event(*args, **kwargs):
                raise ImportError("install google-api-python-client")
    """,
    "app/google/calendar.py": """\
        import requests

        def create_event(title: str) -> None:
            requests.post("https://calendar.example.com/events", json={"title": title})
    """,
    "app/tools.py": """\
        from langchain_core.tools import tool
        from app.google import create_event, delete_event

        @tool
        def create_event_tool(title: str) -> str:
            \"\"\"Create a calendar event.\"\"\"
            create_event(title)
            return "created"

        @tool
        def delete_event_tool(title: str) -> str:
            \"\"\"Delete a calendar event.\"\"\"
            delete_event(title)
            return "deleted"
    """,
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_stub_in_an_import_error_handler_does_not_hide_what_the_try_imports(tmp_path: Path, jobs: str) -> None:
    """`except ImportError: def create_event(...)` is the fallback where the dependency is missing;
    where it is installed the name is the imported function, and its POST is the tool's effect. A
    stub the `try` imports nothing for (`delete_event`) is the only definition, and it does nothing."""
    write(tmp_path, FALLBACK_STUBS)
    found = cli_findings(["."], tmp_path, ["--no-cache", "-j", jobs])
    assert [(path, line, c) for path, line, _, c, _ in found] == [("app/tools.py", 5, "SIB101")]


SERVICE_CLASS = {  # evalK1's waiter: static methods of a service class, records saved through a star import
    "waiter/__init__.py": "",
    "waiter/models/__init__.py": "",
    "waiter/models/schema.py": """\
        import json
        from dataclasses import dataclass

        @dataclass
        class DB:
            _filename: str = "db.json"

            def _save_json(self, data: list) -> None:
                with open(self._filename, "w") as f:
                    json.dump(data, f)

        @dataclass
        class Guest(DB):
            name: str = ""

            def save(self) -> None:
                self._save_json([{"name": self.name}])
    """,
    "waiter/models/services.py": """\
        from google.adk.agents.callback_context import CallbackContext
        from google.adk.tools import ToolContext
        from waiter.models.schema import *

        class GuestStore:
            @staticmethod
            def new_guest(tool_context: ToolContext, name: str) -> str:
                Guest(name=name).save()
                return "saved"

            @staticmethod
            def greet(tool_context: ToolContext, name: str) -> str:
                return f"hello {name}"

        def init_guests(callback_context: CallbackContext) -> None:
            callback_context.state["guests"] = []
    """,
    "waiter/agent.py": """\
        from google.adk.agents import LlmAgent
        from waiter.models.services import GuestStore, init_guests

        root_agent = LlmAgent(model="gemini-2.0-flash", name="waiter", before_agent_callback=init_guests,
                              tools=[GuestStore.new_guest, GuestStore.greet])
    """,
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_static_methods_of_a_service_class_listed_by_their_class(tmp_path: Path, jobs: str) -> None:
    """`tools=[GuestStore.new_guest]`: a static method read off its class is a plain function; its
    module imports a `CallbackContext` (which makes no tool) and reaches `Guest` through a star
    import, whose `save` writes the JSON file through its base class."""
    write(tmp_path, SERVICE_CLASS)
    found = cli_findings(["."], tmp_path, ["--no-cache", "-j", jobs])
    assert [(path, line, c) for path, line, _, c, _ in found] == [("waiter/models/services.py", 7, "SIB103")]


SHADOWING_PACKAGE = {  # evalK1's theBrain: the app's own `agents` package, run from its folder
    "graph.py": """\
        from langgraph.prebuilt import ToolNode
        from agents.meeting_tool import schedule_meeting

        tool_node = ToolNode(tools=[schedule_meeting])
    """,
    "agents/__init__.py": "",
    "agents/meeting_tool.py": """\
        from langchain_core.tools import tool
        from agents.scheduler import MeetingScheduler

        @tool
        def schedule_meeting() -> str:
            \"\"\"Schedule a meeting.\"\"\"
            MeetingScheduler().run()
            return "scheduled"
    """,
    "agents/scheduler.py": """\
        import requests

        class MeetingScheduler:
            def run(self) -> None:
                requests.post("https://calendar.example.com/events", json={})
    """,
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_project_package_named_like_a_framework_is_project_code(tmp_path: Path, jobs: str) -> None:
    """`agents` is the OpenAI Agents SDK's import name, but here the project's own package: what it
    defines is followed like any project module."""
    write(tmp_path, SHADOWING_PACKAGE)
    found = cli_findings(["."], tmp_path, ["--no-cache", "-j", jobs])
    assert [(path, line, c) for path, line, _, c, _ in found] == [("agents/meeting_tool.py", 5, "SIB101"),
                                                                  ("graph.py", 4, "SIB301")]
    # A package holding the framework's own modules (the SDK's repository, a vendored copy) is the
    # framework: its names are not followed as project code.
    write(tmp_path, {"agents/tool.py": "def function_tool(fn):\n    return fn\n"})
    assert cli_findings(["."], tmp_path, ["--no-cache", "-j", jobs]) == []


REEXPORTED_MAKER = {  # evalT1's ta-agent: the tool modules take `function_tool` from the agent's module
    "app/__init__.py": "",
    "app/common.py": """\
        from agents import Agent, function_tool

        def canvas_url(path: str) -> str:
            return "https://canvas.example.com/api/v1/" + path
    """,
    "app/quizzes.py": """\
        import requests
        from app.common import function_tool, canvas_url

        @function_tool()
        def delete_quiz(course: int, quiz: int) -> str:
            requests.delete(canvas_url(f"courses/{course}/quizzes/{quiz}"))
            return "deleted"

        @function_tool
        def list_quizzes(course: int) -> str:
            return requests.get(canvas_url(f"courses/{course}/quizzes")).text
    """,
    "app/assignments.py": """\
        import requests
        from app.common import *

        @function_tool
        def create_assignment(course: int, name: str) -> str:
            requests.post(canvas_url(f"courses/{course}/assignments"), json={"name": name})
            return "created"

        def tool(fn):  # a decorator of its own named like a maker: no tool
            return fn

        @tool
        def archive(course: int) -> str:
            requests.post(canvas_url(f"courses/{course}/archive"))
            return "archived"
    """,
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_framework_maker_another_project_module_hands_on_makes_tools(tmp_path: Path, jobs: str) -> None:
    """`from app.common import function_tool` or `from app.common import *`, where app/common.py
    imports it from the SDK: the module imports no framework, its decorated functions are tools."""
    write(tmp_path, REEXPORTED_MAKER)
    found = cli_findings(["."], tmp_path, ["--no-cache", "-j", jobs])
    assert [(path, line, c) for path, line, _, c, _ in found] == [
        ("app/assignments.py", 5, "SIB101"), ("app/quizzes.py", 5, "SIB101")]


TEMPLATE_METHOD = {  # a base tool class whose `_run` calls a hook each subclass overrides
    "app/__init__.py": "",
    "app/base.py": """\
        from crewai.tools import BaseTool

        class CanvasTool(BaseTool):
            def _run(self, course: int) -> str:
                return self.execute(course)

            def execute(self, course: int) -> str:
                raise NotImplementedError
    """,
    "app/tools.py": """\
        import requests
        from app.base import CanvasTool

        class DeleteCourse(CanvasTool):
            name: str = "delete_course"
            description: str = "Delete a course"

            def execute(self, course: int) -> str:
                requests.delete(f"https://canvas.example.com/api/v1/courses/{course}")
                return "deleted"

        class ListCourses(CanvasTool):
            name: str = "list_courses"
            description: str = "List courses"

            def execute(self, course: int) -> str:
                return requests.get("https://canvas.example.com/api/v1/courses").text

        class Archive(DeleteCourse):
            name: str = "archive_course"
            description: str = "Archive a course"
    """,
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_subclass_of_a_project_tool_class_runs_its_own_hook(tmp_path: Path, jobs: str) -> None:
    """`self.execute()` in the `_run` a subclass inherits is the subclass's `execute`: each subclass is
    a tool, reported at its `class` line (the base's own `execute` only raises)."""
    write(tmp_path, TEMPLATE_METHOD)
    found = cli_findings(["."], tmp_path, ["--no-cache", "-j", jobs])
    assert [(path, line, c) for path, line, _, c, _ in found] == [
        ("app/tools.py", 4, "SIB101"), ("app/tools.py", 19, "SIB101")]


@pytest.mark.parametrize("files,target", [(REEXPORTED_MAKER, "app/quizzes.py"), (TEMPLATE_METHOD, "app/tools.py")])
def test_flake8_on_one_file_gives_the_tree_runs_findings(tmp_path: Path, files: dict[str, str], target: str) -> None:
    """The plugin asks the project which files are analysed as `siblint check` does (it asked only
    whether agent code imports the file, so a module importing no framework lost these findings)."""
    from tests.support import flake8_findings

    write(tmp_path, {**files, "pyproject.toml": "[tool.siblint]\n"})
    tree = [(line, c) for path, line, _, c, _ in cli_findings(["."], tmp_path, ["--no-cache"]) if path == target]
    assert tree and [(line, c) for _, line, _, c, _ in flake8_findings([target], tmp_path)] == tree
