"""Receivers real tools reach their effects through (issue 23): dispatch dicts, factory helpers,
properties, module globals bound in an init function, `getattr(client, op)`, callbacks a wrapper
runs in a pool through `copy_context().run`. Each shape beside its read-only twin."""

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


DISPATCH = """\
    import requests
    from strands import tool

    def _send(channel, text):
        return requests.{verb}(f"https://chat.example/channels/{{channel}}/messages", json={{"content": text}})

    def _list(channel, text):
        return requests.get(f"https://chat.example/channels/{{channel}}/messages")

    _ACTIONS = {{"send": _send, "list": _list}}

    @tool
    def chat(action: str, channel: str, text: str) -> dict:
        return _ACTIONS[action](channel=channel, text=text)

    @tool
    def chat_get(action: str, channel: str, text: str) -> dict:
        handler = _ACTIONS.get(action)
        return handler(channel=channel, text=text)
"""


def test_dispatch_dict_of_functions_runs_any_value(sib101):
    found = sib101(DISPATCH.format(verb="post"))
    assert [line for line, _ in found] == [13, 17]
    assert all("POST to https://chat.example/channels/{}/messages via requests in _send" in m for _, m in found)


def test_dispatch_dict_of_readers_is_quiet(sib101):
    assert sib101(DISPATCH.format(verb="get")) == []


BOUND_METHODS = """\
    import requests
    from strands import tool

    class Box:
        def _upload(self, p):
            return requests.{verb}("https://box.example/files", data=p)

        def _read(self, p):
            return requests.get("https://box.example/files")

        @tool
        def box(self, kind: str, p: str):
            return {{"up": self._upload, "read": self._read}}[kind](p)
"""


def test_dispatch_dict_of_bound_methods(sib101):
    assert [line for line, _ in sib101(BOUND_METHODS.format(verb="put"))] == [12]


def test_dispatch_dict_of_bound_readers_is_quiet(sib101):
    assert sib101(BOUND_METHODS.format(verb="get")) == []


FACTORY = """\
    import boto3
    from strands import tool

    def _get_client():
        return boto3.client("sns")

    @tool
    def notify(topic: str, msg: str) -> str:
        return str(_get_client().{op}(TopicArn=topic))

    @tool
    def notify_named(topic: str, msg: str) -> str:
        client = _get_client()
        return str(client.{op}(TopicArn=topic))
"""


def test_client_from_a_factory_helper(sib101):
    found = sib101(FACTORY.format(op="publish"))
    assert [line for line, _ in found] == [8, 12]
    assert "publish (AWS)" in found[0][1]


def test_client_from_a_factory_helper_reading_is_quiet(sib101):
    assert sib101(FACTORY.format(op="get_topic_attributes")) == []


def test_client_from_a_factory_in_another_module(sib101):
    files = {"aws.py": """\
        import boto3

        def sqs_client():
            client = boto3.client("sqs")
            return client
    """}
    text = """\
        from strands import tool
        from aws import sqs_client

        @tool
        def enqueue(q: str, body: str) -> str:
            return str(sqs_client().{op}(QueueUrl=q))
    """
    assert [line for line, _ in sib101(text.format(op="send_message"), files)] == [5]
    assert sib101(text.format(op="get_queue_url"), files) == []


METHOD_AND_PROPERTY = """\
    import boto3
    from strands import tool

    class Queue:
        def _client(self):
            return boto3.client("sqs")

        @property
        def sqs(self):
            return boto3.client("sqs")

        @tool
        def via_method(self, q: str) -> str:
            return str(self._client().{op}(QueueUrl=q))

        @tool
        def via_property(self, q: str) -> str:
            return str(self.sqs.{op}(QueueUrl=q))
"""


@pytest.mark.parametrize("made", ["httpx.Client()", "_shared or httpx.Client()"])
def test_client_another_module_made_at_its_top_level(sib101, made):
    # `from app.db import client`: what `client = httpx.Client()` built there (H12's pool, in Python).
    files = {"db.py": f"import httpx\n\n_shared = None\nclient = {made}\n"}
    text = """\
        from strands import tool
        from db import client

        @tool
        def save(x: str) -> str:
            return client.{verb}("https://x.example.com/notes", json={{"x": x}}).text
    """
    assert [line for line, _ in sib101(text.format(verb="post"), files)] == [5]
    assert sib101(text.format(verb="get"), files) == []


def test_client_from_a_method_and_a_property(sib101):
    assert [line for line, _ in sib101(METHOD_AND_PROPERTY.format(op="send_message"))] == [13, 17]


def test_client_from_a_method_and_a_property_reading_is_quiet(sib101):
    assert sib101(METHOD_AND_PROPERTY.format(op="get_queue_url")) == []


def test_plain_method_is_not_taken_for_a_property(sib101):
    # `self.sqs` without `@property` is a bound method, not the client it would return.
    text = METHOD_AND_PROPERTY.format(op="send_message").replace("        @property\n", "")
    assert [line for line, _ in sib101(text)] == [12]


GLOBAL = """\
    import boto3
    from strands import tool

    client = None

    def init():
        global client
        client = boto3.client("s3")

    @tool
    def store(key: str, body: str) -> str:
        return str(client.{op}(Bucket="b", Key=key))
"""


def test_client_bound_to_a_module_global_in_an_init_function(sib101):
    assert [line for line, _ in sib101(GLOBAL.format(op="put_object"))] == [11]


def test_client_bound_to_a_module_global_reading_is_quiet(sib101):
    assert sib101(GLOBAL.format(op="get_object")) == []


def test_local_name_without_global_stays_local(sib101):
    # Without `global`, the init function binds a local: the module's `client` stays None.
    assert sib101(GLOBAL.format(op="put_object").replace("    global client\n", "")) == []


LAZY = """\
    import boto3
    from strands import tool

    client = None

    def init():
        global client
        client = boto3.client("s3")
        return client

    def get_client():
        global client
        if client is None:
            client = init()
        return client

    client = get_client()

    @tool
    def store(key: str, body: str) -> str:
        return str(client.{op}(Bucket="b", Key=key))
"""


def test_client_bound_by_a_lazy_singleton_at_import(sib101):
    """evalW19's kirmada: `db = get_db()` at module level, where `get_db` returns the global `db` that
    an init function binds (`global db; db = firestore.client()`): the name's last binding only
    returns itself, and an earlier binding of it at module level says what it holds."""
    assert [line for line, _ in sib101(LAZY.format(op="put_object"))] == [20]
    assert sib101(LAZY.format(op="get_object")) == []


def test_an_instance_a_method_binds_to_a_module_global(lint, tmp_path):
    """A blind set's payroll agent: `global _instance; _instance = self` in `__init__`, and each tool
    calls a method of `_instance`: the module's name holds an instance of that class."""
    text = textwrap.dedent("""\
        import smtplib

        from agents import function_tool

        _instance = None


        class Engagement:
            def __init__(self):
                global _instance
                _instance = self

            async def _send_impl(self, to: str) -> str:
                with smtplib.SMTP("smtp.example.com") as s:
                    s.sendmail("a@example.com", [to], "hi")
                return "ok"


        @function_tool
        async def send_followup(to: str) -> str:
            global _instance
            return await _instance._send_impl(to)
    """)
    found = [(d.code, d.loc.line) for d in lint(text, None, Config(root=str(tmp_path)))]
    assert found == [("SIB103", 20)]
    assert lint(text.replace("_instance = self", "_instance = object()"), None, Config(root=str(tmp_path))) == []


GETATTR = """\
    import boto3
    from strands import tool

    @tool
    def aws(op: str, params: dict) -> str:
        client = boto3.client("s3")
        return str(getattr(client, {op})(**params))
"""


def test_getattr_operation_chosen_at_run_time(sib101):
    found = sib101(GETATTR.format(op="op"))
    assert [line for line, _ in found] == [5]
    assert "getattr(client, op) (AWS)" in found[0][1]


def test_getattr_of_a_literal_read_operation_is_quiet(sib101):
    assert sib101(GETATTR.format(op='"list_buckets"')) == []
    assert [line for line, _ in sib101(GETATTR.format(op='"delete_bucket"'))] == [5]


def test_getattr_on_an_unknown_object_is_quiet(sib101):
    assert sib101(GETATTR.format(op="op").replace('boto3.client("s3")', "object()")) == []


RESILIENCE = """\
    from concurrent.futures import ThreadPoolExecutor
    from contextvars import copy_context

    _pool = ThreadPoolExecutor(4)

    def execute_with_resilience(kind, timeout, func):
        context = copy_context()
        return _pool.submit(context.run, func).result(timeout=timeout)
"""
WRAPPED_TOOL = """\
    import httpx
    from crewai.tools import BaseTool
    from resilience import execute_with_resilience

    class UpdateFinding(BaseTool):
        name: str = "update"
        description: str = "close a finding"

        def _run(self, fid: int) -> str:
            def _call():
                return httpx.{verb}(f"https://dd.example/findings/{{fid}}/")
            return execute_with_resilience("write", 10, _call).text
"""


def test_callback_run_by_an_imported_wrapper_through_a_context(sib101):
    found = sib101(WRAPPED_TOOL.format(verb="patch"), {"resilience.py": RESILIENCE})
    assert [line for line, _ in found] == [9]  # crewai: at `_run`
    assert "PATCH to https://dd.example/findings/{}/ via httpx" in found[0][1]


def test_callback_run_by_a_wrapper_reading_is_quiet(sib101):
    assert sib101(WRAPPED_TOOL.format(verb="get"), {"resilience.py": RESILIENCE}) == []


def test_context_run_of_an_unrelated_object_is_not_a_handoff(sib101):
    # `runner.run` is no `contextvars.Context`: its first argument is what the pool runs.
    other = RESILIENCE.replace("context = copy_context()", "context = object()")
    assert sib101(WRAPPED_TOOL.format(verb="patch"), {"resilience.py": other}) == []


PASSED_CLIENT = """\
    import boto3
    from strands import tool

    def _put(client, **kw):
        return client.{op}(TableName="jobs", Item=kw)

    def _get_client():
        return boto3.client("dynamodb")

    _ACTIONS = {{"put": _put}}

    @tool
    def dynamodb(action: str, item: dict) -> dict:
        client = _get_client()
        return _ACTIONS[action](client, **item)
"""


def test_client_passed_to_the_function_a_dispatch_dict_runs(sib101):
    found = sib101(PASSED_CLIENT.format(op="put_item"))
    assert [line for line, _ in found] == [13]
    assert "client.put_item (AWS) in _put" in found[0][1]


def test_client_passed_to_a_reader_is_quiet(sib101):
    assert sib101(PASSED_CLIENT.format(op="get_item")) == []


STUB_BASE = """\
    import requests
    from strands import tool

    class Store:
        def add(self, text: str) -> str:
            raise NotImplementedError(f"add not supported by {{type(self).__name__}}")

    class RemoteStore(Store):
        def add(self, text: str) -> str:
            return requests.{verb}("https://mem.example/facts", json={{"text": text}}).text

    def get_store() -> Store:
        return _STORE

    @tool
    def remember(text: str) -> str:
        return get_store().add(text)
"""


def test_base_with_stub_methods_runs_its_subclasses(sib101):
    found = sib101(STUB_BASE.format(verb="post"))
    assert [line for line, _ in found] == [16]
    assert "POST to https://mem.example/facts via requests in RemoteStore.add" in found[0][1]


def test_base_with_stub_methods_whose_subclasses_read_is_quiet(sib101):
    assert sib101(STUB_BASE.format(verb="get")) == []


ORM_MODELS = {"models.py": """\
    import peewee

    class BaseModel(peewee.Model):
        class Meta:
            database = peewee.SqliteDatabase("app.db")

    class Fact(BaseModel):
        content = peewee.TextField()
"""}

ORM_TOOLS = """\
    from langchain_core.tools import tool
    from models import Fact

    class FactRepository:
        def add(self, content: str) -> int:
            return Fact.{create}(content=content).id

        def drop(self, fact_id: int) -> None:
            fact = Fact.get_or_none(Fact.id == fact_id)
            fact.{delete}()

    @tool
    def emit_fact(content: str) -> int:
        return FactRepository().add(content)

    @tool
    def forget_fact(fact_id: int) -> None:
        FactRepository().drop(fact_id)
"""


def test_model_class_of_a_known_orm_writes(sib101):
    found = sib101(ORM_TOOLS.format(create="create", delete="delete_instance"), ORM_MODELS)
    assert [line for line, _ in found] == [13, 17]
    assert "an ORM write (Fact.create) in FactRepository.add" in found[0][1]
    assert "an ORM write (fact.delete_instance) in FactRepository.drop" in found[1][1]


def test_model_class_of_a_known_orm_that_only_reads_is_quiet(sib101):
    assert sib101(ORM_TOOLS.format(create="get_or_none", delete="is_dirty"), ORM_MODELS) == []


LOCKED_STORE = """\
    import json, os
    from contextlib import contextmanager
    from strands import tool

    @contextmanager
    def _file_lock(path: str):
        handle = open(path + ".lock", "a+b")
        try:
            yield handle
        finally:
            handle.close()

    def _load(path: str) -> dict:
        with _file_lock(path):
            with open(path) as f:
                return json.load(f)

    @tool
    def read_notes(path: str) -> str:
        return json.dumps(_load(path))

    @tool
    def write_note(path: str, text: str) -> str:
        with open(path, "w") as f:
            f.write(text)
        return "ok"
"""


def test_a_lock_file_opened_by_a_helper_is_bookkeeping(sib101):
    found = sib101(LOCKED_STORE)
    assert [line for line, _ in found] == [23]


def test_a_request_that_locks_a_device_is_no_lock_of_its_own(sib101):
    """evalV4's Kandji service: `lockDevice` POSTs `/devices/{id}/action/lock`, the tool's business."""
    found = sib101("""\
        import requests
        from strands import tool

        class Kandji:
            def lock_device(self, device_id: str) -> None:
                requests.post(f"https://api.kandji.io/devices/{device_id}/action/lock")

        @tool
        def lock_kandji_device(device_id: str) -> str:
            Kandji().lock_device(device_id)
            return "locked"
    """)
    assert [line for line, _ in found] == [9]


HOLDER = """\
    import asyncio
    from dataclasses import dataclass
    import requests
    from agents import function_tool

    @dataclass
    class Config:
        http: requests.Session
        name: str

    _config = Config(http=requests.{maker}(), name="x")

    @function_tool
    def save(value: str) -> str:
        _config.http.post("https://api.example.com/items", json={{"v": value}})
        return "ok"

    @function_tool
    async def save_later(value: str) -> str:
        cfg = _config
        await asyncio.to_thread(cfg.http.post, "https://api.example.com/items", json={{"v": value}})
        return "ok"
"""


def test_a_client_held_by_a_settings_object_is_the_one_passed_to_it(sib101, lint, tmp_path):
    # `Config(http=requests.Session())`: `_config.http` (and `cfg.http` through an alias) is that session.
    assert [line for line, _ in sib101(HOLDER.format(maker="Session"))] == [14]
    found = lint(textwrap.dedent(HOLDER.format(maker="Session")), None, Config(root=str(tmp_path), select=("SIB102",)))
    assert [d.loc.line for d in found] == [19]


BASE_TOOL_CLIENT = """\
    import httpx
    from pydantic import Field
    from langchain_core.tools import BaseTool

    class HomeAssistantTool(BaseTool):
        client: httpx.Client = Field(default_factory=lambda: httpx.Client(timeout=15))
        base_url: str = ""
"""


@pytest.mark.parametrize("verb, reported", [("post", True), ("get", False)])
def test_a_client_a_project_base_class_in_another_module_declares(sib101, verb, reported):
    """evalJ2's JARVIS: `client: httpx.Client = Field(...)` on a BaseTool subclass in `base.py`; its
    subclasses in other modules, importing nothing of a framework, call `self.client.post(...)`."""
    text = f"""\
        from base import HomeAssistantTool

        class TurnOnLights(HomeAssistantTool):
            name: str = "turn_on_lights"
            description: str = "Turn lights on"

            def _run(self, entity: str) -> str:
                return self.client.{verb}(f"{{self.base_url}}/api/services/light/turn_on", json={{"e": entity}}).text
    """
    found = sib101(text, {"base.py": BASE_TOOL_CLIENT})
    assert [line for line, _ in found] == ([7] if reported else [])
    assert not reported or "POST" in found[0][1]


@pytest.mark.parametrize("annotation, reported", [("'Mailer'", True), ('"Optional[Mailer]"', True), ("Mailer", True),
                                                  ("'Reader'", False)])
def test_a_forward_reference_annotation_names_its_class(sib101, annotation, reported):
    """evalL1's Gmail tools: `gmail_service: 'GmailTools'` on the run's deps dataclass, a string
    annotation naming a class defined below it, whose method sends."""
    text = f"""\
        from dataclasses import dataclass
        from typing import Optional
        import requests
        from pydantic_ai import Agent, RunContext

        @dataclass
        class Deps:
            mailer: {annotation}

        class Mailer:
            def send(self, to: str) -> None:
                requests.post("https://mail.example.com/send", json={{"to": to}})

        class Reader:
            def send(self, to: str) -> None:
                requests.get("https://mail.example.com/inbox", params={{"to": to}})

        agent = Agent("openai:gpt-4o", deps_type=Deps)

        @agent.tool
        def send_email(ctx: RunContext[Deps], to: str) -> str:
            ctx.deps.mailer.send(to)
            return "sent"
    """
    assert [line for line, _ in sib101(text)] == ([21] if reported else [])


@pytest.mark.parametrize("chosen, reported", [("ctx.repo if ctx else ClaimRepository()", True),
                                              ("ClaimRepository() if ctx is None else ctx.repo", True),
                                              ("ctx.repo if ctx else ReadOnlyRepository()", False)])
def test_an_object_chosen_by_a_condition_is_an_instance_of_either_class(sib101, chosen, reported):
    """evalM2's auto-agent: `_repo = ctx.repo if ctx else ClaimRepository()` in the tool's helper; the
    repository's method runs an UPDATE."""
    text = f"""\
        import sqlite3
        from crewai.tools import tool

        class ClaimRepository:
            def update_claim_status(self, claim_id):
                with sqlite3.connect("claims.db") as conn:
                    conn.execute("UPDATE claims SET status = 'review' WHERE id = ?", (claim_id,))

        class ReadOnlyRepository:
            def update_claim_status(self, claim_id):
                return claim_id

        def escalate_impl(claim_id, ctx=None):
            _repo = {chosen}
            _repo.update_claim_status(claim_id)

        @tool("Escalate Claim")
        def escalate_claim(claim_id: str) -> str:
            \"\"\"Escalate a claim for review.\"\"\"
            escalate_impl(claim_id)
            return "escalated"
    """
    found = sib101(text)
    assert [line for line, _ in found] == ([18] if reported else [])
    assert not reported or "SQL UPDATE in ClaimRepository.update_claim_status" in found[0][1]


GUARDED_CLIENT = """\
    import boto3
    from strands import Agent, tool


    class Memory:
        def __init__(self):
            try:
                self.client = boto3.client("s3vectors")
            except Exception:
                self.client = None
            self.agent = Agent(tools=[self.store])

        def close(self):
            self.client = None

        @tool
        def store(self, text: str) -> str:
            \"\"\"Store.\"\"\"
            if not self.client:
                return "no client"
            self.client.{op}(vectorBucketName="b", indexName="i", vectors=[])
            return "stored"
"""


@pytest.mark.parametrize(("op", "reported"), [("put_vectors", True), ("query_vectors", False)])
def test_a_client_attribute_set_to_none_when_it_cannot_be_made_is_still_the_client(sib101, op, reported):
    """evalQ1's memory agent: `self.client = None` in the `except` of the `try` that made it (and in
    `close()`) says when there is no client, not what the attribute holds."""
    found = sib101(GUARDED_CLIENT.format(op=op))
    assert [line for line, _ in found] == ([17] if reported else [])
