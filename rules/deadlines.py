"""SIB401: dependency timeouts that cannot fire before the tool's own budget.

The analysis is in `siblint.analyses.deadlines`; which calls take a timeout is data in
`siblint.effects.timeouts`; where a framework gives a tool its budget is framework data
(`ToolSpec.budget`). Runtime evidence: tests/runtime/test_sib4_runtime.py (arms A1/A2).
"""

from __future__ import annotations

from collections.abc import Iterator

from siblint.common.diagnostics import Diagnostic, Related
from siblint.rule_api.fixes import DISPLAY_ONLY, FixSpec
from siblint.rule_api.rule import Context, Invalid, Rule, Valid

_OPENAI = "import httpx\nfrom agents import function_tool\n\n"
_PYDANTIC = "import httpx\nfrom pydantic_ai import Agent\nagent = Agent('test')\n"


def _seconds(n: float) -> str:
    return "without limit" if n == float("inf") else f"{n:g} s"


class DependencyTimeoutExceedsToolTimeout(Rule):
    """
    ## What it does
    Flags a call inside a tool (or a helper it calls) whose explicit timeout is at least the tool's
    own time budget: `@function_tool(timeout=6)` or `FunctionTool(timeout_seconds=6)` (OpenAI
    Agents SDK), `@agent.tool(timeout=6)` / `Tool(fn, timeout=6)` or, for tools without their own,
    `Agent(..., tool_timeout=6)` in the same module (pydantic-ai), or the node that runs a
    `ToolNode` (`builder.add_node("tools", ToolNode([...]), timeout=6)` or
    `timeout=TimeoutPolicy(run_timeout=6)`, LangGraph), around
    `httpx.AsyncClient(timeout=20)`, `requests.post(..., timeout=30)`, `asyncio.wait_for(aw, 10)`,
    `asyncio.timeout(10)`, `anyio.fail_after(10)`, `AsyncOpenAI(timeout=60)`,
    `stripe.HTTPXClient(timeout=80)`, or an explicit `timeout=None`. For a `(connect, read)` tuple
    or an `httpx.Timeout(...)` the largest phase counts. Only literal numbers (and names bound to
    one, `timedelta(...)` of literals) are compared; library defaults are not.

    ## Why is this bad?
    The framework enforces the tool's budget from outside (`asyncio.wait_for`): when it expires the
    tool is cancelled. A child timeout at or above the budget can never fire first, so the code
    written for it (record the outcome as unknown, reconcile, tell the model what to check) never
    runs, and the model is told only that the tool timed out. Measured with openai-agents 0.24.0
    (runtime test `test_child_timeout_above_the_budget`): the payment request was accepted, the
    tool was cancelled, the model called again, and the card was charged twice; with the child
    timeout below the budget the tool recorded the unknown outcome and reconciled instead.

    ## Example
    ```python
    @function_tool(timeout=6)
    async def book_courier(parcel_id: str) -> str:
        async with httpx.AsyncClient(timeout=20) as http:
            r = await http.post(URL, json={"parcel": parcel_id})
        return r.json()["booking"]
    ```

    Use instead:
    ```python
    @function_tool(timeout=6)
    async def book_courier(parcel_id: str) -> str:
        async with httpx.AsyncClient(timeout=4) as http:  # 2 s left to record the outcome
            r = await http.post(URL, json={"parcel": parcel_id})
        return r.json()["booking"]
    ```

    ## Options
    None. A computed timeout (`deadline - loop.time() - 1.5`) is never reported. A helper in
    another module is reported at the tool's call into it (`# noqa` goes there), with the helper's
    timeout as a related location.
    """

    code = "SIB401"
    name = "dependency-timeout-exceeds-tool-timeout"
    summary = "a call in a tool may wait at least as long as the tool's own timeout"
    message = (
        "{call} may wait {child}, but {tool} is cancelled after {budget}: its own timeout handling never "
        "runs and the outcome is lost; give the call less than the tool's budget and keep time to record the result"
    )
    fix = FixSpec(
        DISPLAY_ONLY,
        "give the call a timeout below the tool's own (or raise the tool's). Display-only: which bound is "
        "right is the author's to decide",
    )
    VALID = [
        Valid(_OPENAI + "@function_tool(timeout=6)\nasync def book(p: str) -> str:\n"
              "    async with httpx.AsyncClient(timeout=4) as http:\n        r = await http.post('https://x', json={'p': p})\n"
              "    return r.text\n"),
        # No budget: the framework does not cancel the tool.
        Valid(_OPENAI + "@function_tool\nasync def book(p: str) -> str:\n"
              "    async with httpx.AsyncClient(timeout=20) as http:\n        r = await http.post('https://x', json={'p': p})\n"
              "    return r.text\n"),
        # A computed child timeout is not read.
        Valid(_OPENAI + "import time\n@function_tool(timeout=6)\nasync def book(p: str, end: float) -> str:\n"
              "    async with httpx.AsyncClient(timeout=end - time.monotonic()) as http:\n"
              "        r = await http.post('https://x', json={'p': p})\n    return r.text\n"),
        # Name trap: a look-alike decorator is not a tool maker.
        Valid("import httpx\nfrom mylib import function_tool\n\n@function_tool(timeout=6)\nasync def book(p: str) -> str:\n"
              "    async with httpx.AsyncClient(timeout=20) as http:\n        r = await http.post('https://x', json={'p': p})\n"
              "    return r.text\n"),
        Valid(_PYDANTIC + "@agent.tool_plain(timeout=6)\nasync def book(p: str) -> str:\n"
              "    async with httpx.AsyncClient(timeout=httpx.Timeout(3, connect=1)) as http:\n"
              "        r = await http.post('https://x', json={'p': p})\n    return r.text\n"),
    ]
    INVALID = [
        Invalid(_OPENAI + "@function_tool(timeout=6)\nasync def book(p: str) -> str:\n"
                "    async with httpx.AsyncClient(timeout=20) as http:\n        r = await http.post('https://x', json={'p': p})\n"
                "    return r.text\n", lines=(6,)),
        # Equal is not below: the framework's timer started first.
        Invalid(_OPENAI + "import asyncio\nBUDGET = 5\n@function_tool(timeout=BUDGET)\nasync def wait(p: str) -> str:\n"
                "    async with httpx.AsyncClient() as http:\n"
                "        r = await asyncio.wait_for(http.post('https://x', json={'p': p}), 5.0)\n    return r.text\n",
                lines=(9,)),
        Invalid(_OPENAI + "import requests\nfrom datetime import timedelta\n@function_tool(timeout=timedelta(seconds=3))\n"
                "def ship(p: str) -> str:\n    return requests.post('https://x', json={'p': p}, timeout=(2, 10)).text\n",
                lines=(8,)),
        Invalid(_PYDANTIC + "@agent.tool_plain(timeout=6)\nasync def book(p: str) -> str:\n"
                "    async with httpx.AsyncClient(timeout=None) as http:\n        r = await http.post('https://x', json={'p': p})\n"
                "    return r.text\n", lines=(6,)),
        Invalid(_PYDANTIC + "from pydantic_ai import Tool\nCLIENT = httpx.AsyncClient(timeout=30)\n"
                "async def book(p: str) -> str:\n    r = await CLIENT.post('https://x', json={'p': p})\n    return r.text\n"
                "book_tool = Tool(book, timeout=10)\n", lines=(5,)),
        Invalid("import httpx\nfrom langchain_core.tools import tool\nfrom langgraph.graph import StateGraph\n"
                "from langgraph.prebuilt import ToolNode\n\n@tool\nasync def book(p: str) -> str:\n    \"\"\"Book.\"\"\"\n"
                "    async with httpx.AsyncClient(timeout=10) as http:\n"
                "        return (await http.post('https://x', json={'p': p})).text\n\n"
                "builder = StateGraph(dict)\nbuilder.add_node('tools', ToolNode([book]), timeout=5)\n", lines=(9,)),
        # A helper in another module: reported at the tool's call into it.
        Invalid(_OPENAI + "from courier import post_booking\n\n@function_tool(timeout=6)\nasync def book(p: str) -> str:\n"
                "    return await post_booking(p)\n", lines=(8,),
                files={"courier.py": "import httpx\n\nasync def post_booking(p):\n"
                       "    async with httpx.AsyncClient(timeout=30) as http:\n"
                       "        return (await http.post('https://x', json={'p': p})).text\n"}),
    ]

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        from siblint.analyses.deadlines import overruns

        for o in overruns(ctx.facts, ctx.project, ctx.config, ctx.groups):
            related: tuple[Related, ...] = (Related(ctx.path, o.budget_loc, f"{o.tool}'s budget"),)
            if o.path != ctx.path:
                related += (Related(o.path, o.set_at, f"the timeout of {o.call_text}"),)
            yield self.finding(ctx, o.loc, related, call=o.call_text, child=_seconds(o.child), tool=o.tool,
                               budget=_seconds(o.budget))
