"""SIB103 after the first await (issue 23): a blocking side effect between two awaits lands (it holds
the loop), and a cancellation delivered at the later await discards the tool's result. With no await
after it, the tool runs to completion and its result is recorded (openai-agents-runtime.md, arm 4):
SIB103 reports it as it reports one before any await (once started, nothing stops it and the turn's
other calls wait), but it orphans nothing, so it is no SIB301 victim."""

from __future__ import annotations

import textwrap

from siblint.settings.config import Config

TOOL = """\
    import asyncio
    import httpx
    import requests
    from agents import function_tool

    @function_tool
    async def refund(order: str) -> str:
        async with httpx.AsyncClient() as client:
            await client.get(f"https://shop.example/orders/{{order}}")
        requests.{verb}("https://pay.example/refunds", json={{"o": order}})
        {after}
        return "ok"
"""


def _sib103(lint, tmp_path, verb: str, after: str) -> list[tuple[int, str]]:
    found = lint(textwrap.dedent(TOOL.format(verb=verb, after=after)), None, Config(root=str(tmp_path)))
    return [(d.loc.line, d.message) for d in found if d.code == "SIB103"]


def test_blocking_effect_between_awaits(lint, tmp_path):
    [(line, message)] = _sib103(lint, tmp_path, "post", "await asyncio.sleep(1)")
    assert line == 7
    assert "POST to https://pay.example/refunds via requests with a blocking call after an await" in message


def test_blocking_read_between_awaits_is_quiet(lint, tmp_path):
    assert _sib103(lint, tmp_path, "get", "await asyncio.sleep(1)") == []


def test_blocking_effect_after_the_last_await_completes_and_is_recorded(lint, tmp_path):
    """evalZ1's image tool and evalW2's cancel_order: the labels count it, as SIB103 counts one before any await."""
    [(line, message)] = _sib103(lint, tmp_path, "post", "pass")
    assert line == 7 and "via requests with a blocking call after its last await" in message
    assert _sib103(lint, tmp_path, "get", "pass") == []


def test_blocking_effect_after_the_last_await_is_no_sibling_victim(lint, tmp_path):
    """The tool returns and its result is kept: a raising sibling orphans nothing."""
    text = textwrap.dedent(TOOL.format(verb="post", after="pass")) + textwrap.dedent("""\
        from agents import Agent

        @function_tool(failure_error_function=None)
        def lookup(order: str) -> str:
            raise RuntimeError("down")

        agent = Agent(name="shop", tools=[refund, lookup])
    """)
    found = lint(text, None, Config(root=str(tmp_path)))
    assert "SIB103" in {d.code for d in found} and "SIB301" not in {d.code for d in found}
    between = textwrap.dedent(TOOL.format(verb="post", after="await asyncio.sleep(1)")) + text[text.index("from agents import Agent"):]
    assert "SIB301" in {d.code for d in lint(between, None, Config(root=str(tmp_path)))}


HELPER = """\
    import asyncio
    import requests
    from agents import function_tool

    async def mark_inactive(session: str) -> None:
        requests.{verb}("https://db.example/buzz", json={{"s": session, "active": False}})

    async def current(session: str) -> str:
        await asyncio.sleep(0)
        return session

    @function_tool
    async def next_buzz(session: str) -> str:
        await current(session)
        await mark_inactive(session)
        {after}
"""


def test_blocking_effect_in_a_helper_before_a_later_await_of_the_tool(lint, tmp_path):
    """The helper never awaits after its write, but the tool does: the cancellation is delivered
    there, after the write landed."""
    found = lint(textwrap.dedent(HELPER.format(verb="patch", after="return await current(session)")), None,
                 Config(root=str(tmp_path)))
    [(line, message)] = [(d.loc.line, d.message) for d in found if d.code == "SIB103"]
    assert line == 13 and "PATCH to https://db.example/buzz via requests" in message


def test_blocking_effect_in_a_helper_with_no_await_after_it_is_after_the_last_await(lint, tmp_path):
    found = lint(textwrap.dedent(HELPER.format(verb="patch", after="return session")), None,
                 Config(root=str(tmp_path)))
    [message] = [d.message for d in found if d.code == "SIB103"]
    assert "PATCH to https://db.example/buzz via requests in mark_inactive with a blocking call after its last await" in message


HOLLOW = """\
    import asyncio
    import requests
    from agents import function_tool

    async def get_record(key: str) -> dict:
        {lookup}
        return requests.get(f"https://db.example/records/{{key}}").json()

    async def delete_record(key: str) -> None:
        requests.delete(f"https://db.example/records/{{key}}")

    @function_tool
    async def remove(key: str) -> str:
        if await get_record(key):
            await delete_record(key)
        return "removed"
"""


def test_awaits_of_coroutines_that_never_suspend_deliver_no_cancellation(lint, tmp_path):
    """choresir's shape: `async def` wrappers around a sync client. Awaiting one never yields to the
    loop, so the tool runs to completion like an `async def` with no await (runtime reference B3):
    its delete lands before any cancellation could be delivered. A wrapper that really awaits
    (`asyncio.sleep(0)`) is a point where the cancellation can arrive first: the delete is then after
    the tool's last await."""
    found = lint(textwrap.dedent(HOLLOW.format(lookup="pass")), None, Config(root=str(tmp_path)))
    [(line, message)] = [(d.loc.line, d.message) for d in found if d.code == "SIB103"]
    assert line == 13 and "DELETE to https://db.example/records/{} via requests in delete_record with a blocking call before any await" in message
    found = lint(textwrap.dedent(HOLLOW.format(lookup="await asyncio.sleep(0)")), None, Config(root=str(tmp_path)))
    [message] = [d.message for d in found if d.code == "SIB103"]
    assert "in delete_record with a blocking call after its last await" in message
