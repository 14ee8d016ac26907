"""`siblint.effects.can_fail`: which calls do I/O that can raise (what makes a member of a
default-fatal group able to end the run); `siblint.analyses.error_policy` reads it."""

from __future__ import annotations

import textwrap

from siblint.effects import can_fail
from siblint.lint.engine import facts_from_text
from siblint.model.semantic import Scope


def failing(code: str, fn_name: str = "f") -> list[tuple[int, str]]:
    """(line, description) of every call in `fn_name` that can fail."""
    facts = facts_from_text(textwrap.dedent(code), "m.py")
    fn = facts.functions[fn_name]
    return sorted((s.call.loc.line, d) for s in fn.calls if (d := can_fail(s.call, Scope(facts, fn.name))))


def test_langchain_chat_model_calls():
    assert failing("""\
        from langchain.chat_models import init_chat_model
        from langchain_anthropic import ChatAnthropic
        from langchain_openai import AzureChatOpenAI, ChatOpenAI
        from pydantic import BaseModel

        class Verdict(BaseModel):
            ok: bool

        llm = ChatOpenAI(model="gpt-4o")

        async def f(text, tools):
            ChatOpenAI(model="gpt-4o").invoke(text)
            await llm.ainvoke(text)
            llm.with_structured_output(Verdict).invoke(text)
            llm.bind_tools(tools)
            init_chat_model("openai:gpt-4o").batch([text])
            AzureChatOpenAI(azure_deployment="d").stream(text)
            ChatAnthropic(model="claude").with_retry().invoke(text)
            ChatOpenAI(model="gpt-4o")
            llm.get_num_tokens(text)
    """) == [
        (12, "langchain_openai.ChatOpenAI.invoke()"),
        (13, "langchain_openai.ChatOpenAI.ainvoke()"),
        (14, "langchain_openai.ChatOpenAI.invoke()"),
        (16, "langchain.chat_models.init_chat_model.batch()"),
        (17, "langchain_openai.AzureChatOpenAI.stream()"),
        (18, "langchain_anthropic.ChatAnthropic.invoke()"),
    ]


def test_a_framework_class_that_is_not_a_chat_model_is_not_io():
    assert failing("""\
        from langchain_core.prompts import ChatPromptTemplate
        from langchain_core.runnables import RunnableLambda

        def f(text):
            RunnableLambda(str.upper).invoke(text)
            ChatPromptTemplate.from_messages([("user", "{x}")]).invoke({"x": text})
    """) == []


def test_sdk_clients_http_clients_and_pure_calls():
    assert failing("""\
        import json, os
        import anthropic, httpx, requests
        from openai import AsyncOpenAI

        client = AsyncOpenAI()

        async def f(q, path):
            await client.chat.completions.create(model="gpt-4o", messages=[])
            anthropic.Anthropic().messages.create(model="claude", max_tokens=10, messages=[])
            requests.get("https://example.com", timeout=5).raise_for_status()
            async with httpx.AsyncClient() as session:
                await session.get("https://example.com")
            requests.post("https://search.example.com/v1/search", json={"q": q})
            os.listdir(path)
            os.path.join(path, "x")
            json.dumps({"q": q})
            httpx.AsyncClient(timeout=5)
    """) == [
        (8, "openai.AsyncOpenAI.create()"),
        (9, "anthropic.Anthropic.create()"),
        (10, ".raise_for_status()"),
        (10, "requests.get()"),
        (12, "httpx.AsyncClient.get()"),
        (13, "requests.post()"),  # a read-only POST is no side effect, but it can still fail
        (14, "os.listdir()"),
    ]


def test_side_effects_can_fail_with_their_description():
    assert failing("""\
        import subprocess

        def f(p):
            subprocess.run(["git", "push"])
            subprocess.run(["git", "status"])
            open(p, "w")
    """) == [(4, "a subprocess"), (5, "subprocess.run()"), (6, "a file write")]


PARITY = """\
    import asyncio, json, os, shutil, sqlite3, subprocess
    import httpx, redis, requests, stripe
    from pathlib import Path

    r = redis.Redis()

    async def f(p, url, rows):
        requests.post(url, json={})
        requests.get(url)
        stripe.Charge.create(amount=1)
        sqlite3.connect("db").execute("INSERT INTO t VALUES (1)")
        r.get("k")
        shutil.which("git")
        Path(p).read_text()
        Path(p).write_text("x")
        os.path.exists(p)
        json.loads("{}")
        await asyncio.sleep(1)
        subprocess.run(["make"])
        httpx.Client().get(url)
"""


def test_what_the_policy_knew_before_the_move():
    facts = facts_from_text(textwrap.dedent(PARITY), "m.py")
    fn = facts.functions["f"]
    verdicts = [can_fail(s.call, Scope(facts, fn.name)) for s in fn.calls]
    assert sum(1 for v in verdicts if v) == 10, verdicts  # all but read_text, exists, loads and sleep


def test_summarise_tool_in_a_realistic_langgraph_module():
    assert failing("""\
        import os
        from langchain_core.tools import tool
        from langchain_openai import ChatOpenAI
        from langgraph.prebuilt import ToolNode

        summariser = ChatOpenAI(model="gpt-4o-mini", temperature=0)

        @tool
        def summarise(text: str) -> str:
            \"\"\"Summarise a document.\"\"\"
            prompt = f"Summarise in three bullet points:\\n\\n{text}"
            return summariser.invoke(prompt).content

        @tool
        def delete_upload(path: str) -> str:
            try:
                os.remove(path)
            except Exception:
                pass
            return "gone"

        node = ToolNode([summarise, delete_upload], handle_tool_errors=False)
    """, "summarise") == [(12, "langchain_openai.ChatOpenAI.invoke()")]
