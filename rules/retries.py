"""SIB404, SIB405, SIB407-SIB409: retries that repeat a side effect, never stop, or do nothing.

A retry is only as safe as what it repeats: after a failure whose outcome is unknown (a read
timeout, a 5xx, a dropped connection after the request left), the server may already have acted,
and the repeat acts again. Measured with tenacity 9.2.1, backoff 2.2.1, stamina 26.1.0,
langgraph 1.2.24 and openai-agents 0.24.0 by tests/runtime/test_retries_runtime.py.

The analyses are `siblint.analyses.retries`, `siblint.analyses.retries` and `siblint.analyses.retries`; library knowledge is `siblint.analyses.retries`, framework
knowledge the `retries` part of each `siblint.frameworks` module.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from siblint.analyses.retries import PERMANENT_STATUSES
from siblint.common.diagnostics import Diagnostic, Related
from siblint.rule_api.fixes import DISPLAY_ONLY, UNSAFE, AddBound, Bound, DropListItems, FixSpec
from siblint.rule_api.rule import Context, Invalid, Rule, Valid
from siblint.rules.side_effects import in_every_framework

if TYPE_CHECKING:
    from siblint.analyses.retries import Finding


def _library(ctx: Context) -> list["Finding"]:
    from siblint.analyses.retries import library_retries, middleware_retries

    return ctx.once("retries.library", lambda: library_retries(ctx.facts, ctx.project, ctx.config)
                    + middleware_retries(ctx.facts, ctx.groups(), ctx.project, ctx.config))


def _related(f: "Finding") -> tuple[Related, ...]:
    out: list[Related] = []
    if f.wrapper_at is not None and f.wrapper_at[0] != f.path:
        out.append(Related(f.wrapper_at[0], f.wrapper_at[1], f"the retry wrapper ({f.wrapper})"))
    for r in f.repeated:
        eff = r.site.effect
        out.append(Related(r.site.facts.path, r.site.call.loc, f"{r.tool.name}: {eff.description if eff else 'this call'}"))
    for t in f.tools:
        if not f.repeated:
            out.append(Related(t.path, t.loc, f"reached from the tool {t.name}"))
    return tuple(out)


def _effect(f: "Finding") -> str:
    first = f.repeated[0]
    more = f" (and {len(f.repeated) - 1} more)" if len(f.repeated) > 1 else ""
    return f"{first.site.effect.description if first.site.effect else 'a side effect'} in {first.tool.name}{more}"


_TICKET = """\
import httpx
from tenacity import retry, stop_after_attempt, wait_exponential
from agents import function_tool

@retry(stop=stop_after_attempt(4), wait=wait_exponential(max=3))
async def _open_ticket(subject: str) -> str:
    async with httpx.AsyncClient(timeout=5) as http:
        r = await http.post("https://helpdesk.example.com/tickets", json={"subject": subject}{key})
    return r.text

@function_tool
async def open_ticket(subject: str) -> str:
    return await _open_ticket(subject)
"""


class RetryRepeatsSideEffect(Rule):
    """
    ## What it does
    Flags a retry wrapper reached from a tool (tenacity `@retry` / `Retrying` / `AsyncRetrying`,
    backoff `on_exception` / `on_predicate`, stamina `retry` / `retry_context`, LangChain
    `ToolRetryMiddleware`) whose retried code performs a side effect with no stable idempotency
    key. Not flagged: a wrapper that retries only connect-phase errors (`httpx.ConnectError`,
    `httpx.ConnectTimeout`, `requests.exceptions.ConnectTimeout`), a PUT, PATCH or DELETE (a
    repeat sets the same state again), a call that sends a stable `Idempotency-Key` header or
    `idempotency_key=`.

    ## Why is this bad?
    A failure after the request left (a read timeout, a 5xx, a reset connection) is an unknown
    outcome: the server may have acted. The libraries retry every exception by default, so each
    attempt may land again. Measured: `stop_after_attempt(3)`, backoff `max_tries=3` and stamina
    `attempts=3` around a POST whose answer timed out made 3 charges each, and so did
    `ToolRetryMiddleware(max_retries=2)` around a tool making that POST; retrying only
    `httpx.ConnectError` made 1, and so did a stable key.

    A wrapper in a helper module is reported where a tool of the checked module reaches it, at
    the tool's `def` line (the wrapper is a related location): that is where `# noqa` is read.

    ## Example
    ```python
    @retry(stop=stop_after_attempt(4))
    async def _open_ticket(subject: str) -> str:
        async with httpx.AsyncClient(timeout=5) as http:
            r = await http.post(HELPDESK, json={"subject": subject})
    ```

    Use instead:
    ```python
    @retry(stop=stop_after_attempt(4), retry=retry_if_exception_type(httpx.ConnectError))
    async def _open_ticket(subject: str) -> str:
        ...  # or send headers={"Idempotency-Key": f"ticket:{thread_id}"}
    ```

    ## Options
    `extend-side-effect-calls` and `pure-calls` decide what a side effect is (see `siblint explain
    SIB101`). A predicate siblint cannot read (`retry=retry_if_exception(fn)`, backoff `giveup=`)
    is not an exemption: a 503 may also come after the server acted; add `# noqa: SIB404` when
    the server deduplicates on a business field.
    """

    code = "SIB404"
    name = "retry-repeats-side-effect"
    summary = "a retry wrapper re-runs a side effect after failures whose outcome is unknown"
    message = ("{wrapper} re-runs {effect} after failures whose outcome is unknown; retry only connect errors, "
               "or send a stable idempotency key")
    fix = FixSpec(
        DISPLAY_ONLY,
        'retry only failures where the request never left (connect errors), or send an idempotency key. '
        'Display-only: the exception list depends on the client',
    )
    VALID = in_every_framework([
        Valid(_TICKET.replace("stop=stop_after_attempt(4), wait=wait_exponential(max=3)",
                              "stop=stop_after_attempt(4), retry=retry_if_exception_type(httpx.ConnectError)")
              .replace("from tenacity import retry,", "from tenacity import retry, retry_if_exception_type,")
              .replace("{key}", "")),
        Valid(_TICKET.replace("{key}", ', headers={"Idempotency-Key": f"ticket:{subject}"}')),
        Valid(_TICKET.replace("http.post(", "http.put(").replace("{key}", "")),
        Valid(_TICKET.replace("from tenacity import retry, stop_after_attempt, wait_exponential",
                              "from myretry import retry, stop_after_attempt, wait_exponential").replace("{key}", "")),
        Valid("import httpx, stamina\nfrom agents import function_tool\n\n@function_tool\n"
              "async def weather(city: str) -> str:\n    async for attempt in stamina.retry_context(on=httpx.HTTPError):\n"
              "        with attempt:\n            async with httpx.AsyncClient() as c:\n"
              "                r = await c.get(f'https://wttr.in/{city}')\n    return r.text\n"),
    ])
    INVALID = in_every_framework([
        Invalid(_TICKET.replace("{key}", ""), lines=(5,)),
        Invalid(_TICKET.replace("{key}", ', headers={"Idempotency-Key": str(uuid.uuid4())}')
                .replace("import httpx\n", "import httpx, uuid\n"), lines=(5,)),
        Invalid("import backoff, requests\nfrom agents import function_tool\n\n"
                "@function_tool\n@backoff.on_exception(backoff.expo, requests.RequestException, max_tries=3)\n"
                "def charge(order: str) -> str:\n"
                "    requests.post('https://pay.example.com/charges', json={'order': order})\n    return 'ok'\n",
                lines=(5,)),
        Invalid("import httpx, stamina\nfrom agents import function_tool\n\n@function_tool\n"
                "async def notify(to: str) -> str:\n    async for attempt in stamina.retry_context(on=httpx.HTTPError):\n"
                "        with attempt:\n            async with httpx.AsyncClient() as c:\n"
                "                await c.post('https://mail.example.com/send', json={'to': to})\n    return 'sent'\n",
                lines=(6,)),
    ]) + [
        Invalid("import httpx\nfrom langchain_core.tools import tool\nfrom langchain.agents import create_agent\n"
                "from langchain.agents.middleware import ToolRetryMiddleware\n\n@tool\n"
                "async def post_message(text: str) -> str:\n    \"\"\"Post a message.\"\"\"\n"
                "    async with httpx.AsyncClient() as c:\n        await c.post('https://chat.example.com/m', json={'t': text})\n"
                "    return 'posted'\n\n@tool\ndef search_wiki(q: str) -> str:\n    \"\"\"Search.\"\"\"\n    return q\n\n"
                "agent = create_agent('m', tools=[post_message, search_wiki], middleware=[ToolRetryMiddleware()])\n",
                lines=(18,)),
    ]
    VALID += [
        Valid("import httpx\nfrom langchain_core.tools import tool\nfrom langchain.agents import create_agent\n"
              "from langchain.agents.middleware import ToolRetryMiddleware\n\n@tool\n"
              "async def post_message(text: str) -> str:\n    \"\"\"Post a message.\"\"\"\n"
              "    async with httpx.AsyncClient() as c:\n        await c.post('https://chat.example.com/m', json={'t': text})\n"
              "    return 'posted'\n\n@tool\ndef search_wiki(q: str) -> str:\n    \"\"\"Search.\"\"\"\n    return q\n\n"
              "agent = create_agent('m', tools=[post_message, search_wiki], middleware=[ToolRetryMiddleware(tools=[search_wiki])])\n"),
    ]

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        for f in _library(ctx):
            if f.reason == "repeats_effect":
                yield self.finding(ctx, f.loc, _related(f), wrapper=f.wrapper, effect=_effect(f))


class UnboundedRetryInTool(Rule):
    """
    ## What it does
    Flags a retry wrapper reached from a tool that never stops: tenacity `@retry`, `@retry()`,
    `Retrying()` / `AsyncRetrying()` without `stop=` (or with `stop=stop_never`); backoff
    `on_exception` / `on_predicate` with neither `max_tries` nor `max_time`; stamina `retry` /
    `retry_context` with both `attempts=None` and `timeout=None`.

    ## Why is this bad?
    tenacity's default is `stop_never` with no wait, and backoff's limits default to None: while
    the dependency fails, the tool retries for ever, the turn never ends unless something cancels
    it, and with a side effect every attempt may land. Measured: a bare `@tenacity.retry` around a
    POST sent 7 requests, 7 charges, in 2 seconds before an outer timeout stopped it.

    ## Example
    ```python
    @retry(wait=wait_fixed(2))
    async def fetch_rates() -> dict: ...
    ```

    Use instead:
    ```python
    @retry(stop=stop_after_delay(20), wait=wait_fixed(2))
    async def fetch_rates() -> dict: ...
    ```

    ## Options
    None. A `stop=` given as a variable counts as a bound; `@stamina.retry(on=...)` is bounded by
    its defaults (10 attempts, 45 s). The same decorator on code no tool reaches is not flagged;
    in a helper module it is reported at the tool that reaches it.
    """

    code = "SIB409"
    name = "unbounded-retry-in-tool"
    summary = "a retry wrapper reached from a tool never stops retrying"
    message = ("{wrapper} never stops retrying: {tool} cannot finish while the dependency fails; "
               "add stop=stop_after_delay(...) / max_time=...")
    fix = FixSpec(
        UNSAFE,
        "adds a bound of 60 seconds: `stop=stop_after_delay(60)` to tenacity's `retry` / `Retrying` / "
        "`AsyncRetrying` (importing `stop_after_delay` beside the module's `from tenacity import ...`, or "
        "through its `import tenacity`), `max_time=60` to backoff's decorators, `timeout=60` in place of "
        "stamina's `timeout=None`. Unsafe: the wrapper now gives up; make the bound fit the tool's own "
        'deadline',
        AddBound((Bound("tenacity", "stop", "stop_after_delay(60)", "stop_after_delay"),
                  Bound("backoff", "max_time", "60"), Bound("stamina", "timeout", "60"))),
    )
    VALID = in_every_framework([
        Valid("import httpx\nfrom tenacity import retry, stop_after_attempt\nfrom agents import function_tool\n\n"
              "@retry(stop=stop_after_attempt(5))\nasync def rates() -> str:\n    async with httpx.AsyncClient() as c:\n"
              "        return (await c.get('https://fx.example.com')).text\n\n@function_tool\nasync def fx() -> str:\n"
              "    return await rates()\n"),
        Valid("import backoff, requests\nfrom agents import function_tool\n\n@function_tool\n"
              "@backoff.on_exception(backoff.expo, requests.RequestException, max_time=45)\n"
              "def fx() -> str:\n    return requests.get('https://fx.example.com').text\n"),
        Valid("import httpx, stamina\nfrom agents import function_tool\n\n@function_tool\n@stamina.retry(on=httpx.HTTPError)\n"
              "async def fx() -> str:\n    async with httpx.AsyncClient() as c:\n"
              "        return (await c.get('https://fx.example.com')).text\n"),
        Valid("import httpx, tenacity\n\n@tenacity.retry\nasync def batch_job() -> str:\n    async with httpx.AsyncClient() as c:\n"
              "        return (await c.get('https://fx.example.com')).text\n"),
        Valid("import httpx\nfrom myretry import retry\nfrom agents import function_tool\n\n@function_tool\n@retry\n"
              "async def fx() -> str:\n    async with httpx.AsyncClient() as c:\n"
              "        return (await c.get('https://fx.example.com')).text\n"),
    ])
    INVALID = in_every_framework([
        Invalid("import httpx, tenacity\nfrom agents import function_tool\n\n@tenacity.retry\nasync def rates() -> str:\n"
                "    async with httpx.AsyncClient() as c:\n        return (await c.get('https://fx.example.com')).text\n\n"
                "@function_tool\nasync def fx() -> str:\n    return await rates()\n", lines=(4,)),
        Invalid("import backoff, requests\nfrom agents import function_tool\n\n@function_tool\n"
                "@backoff.on_exception(backoff.constant, requests.RequestException)\n"
                "def fx() -> str:\n    return requests.get('https://fx.example.com').text\n", lines=(5,)),
        Invalid("import httpx\nfrom tenacity import AsyncRetrying, wait_fixed\nfrom agents import function_tool\n\n"
                "@function_tool\nasync def fx() -> str:\n    async for attempt in AsyncRetrying(wait=wait_fixed(2)):\n"
                "        with attempt:\n            async with httpx.AsyncClient() as c:\n"
                "                return (await c.get('https://fx.example.com')).text\n    return ''\n", lines=(7,)),
        Invalid("import httpx, stamina\nfrom agents import function_tool\n\n@function_tool\n"
                "@stamina.retry(on=httpx.HTTPError, attempts=None, timeout=None)\n"
                "async def fx() -> str:\n    async with httpx.AsyncClient() as c:\n"
                "        return (await c.get('https://fx.example.com')).text\n", lines=(5,)),
    ])

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        for f in _library(ctx):
            if f.reason == "unbounded":
                names = ", ".join(sorted({t.name for t in f.tools}))
                yield self.finding(ctx, f.loc, _related(f), wrapper=f.wrapper, tool=names or "the tool")


_GRAPH = """\
import httpx
from langchain_core.tools import tool
from langgraph.graph import StateGraph, MessagesState
from langgraph.prebuilt import ToolNode
from langgraph.types import RetryPolicy

@tool
async def place_order(sku: str) -> str:
    \"\"\"Order an item.\"\"\"
    async with httpx.AsyncClient() as c:
        await c.post("https://shop.example.com/orders", json={{"sku": sku}})
    return "ordered"

@tool
def check_stock(sku: str) -> str:
    \"\"\"Stock level.\"\"\"
    return "3"

orders = StateGraph(MessagesState)
{line}
"""


class NodeRetryRerunsToolCalls(Rule):
    """
    ## What it does
    Flags a LangGraph retry policy on the node that runs a `ToolNode` holding a tool with a side
    effect: `add_node(name, ToolNode([...]), retry_policy=RetryPolicy(...))` (or the deprecated
    `retry=`), chained builder calls included, and `set_node_defaults(retry_policy=...)` for a
    tools node added without its own policy. Not flagged: `RetryPolicy(max_attempts=1)`, a policy
    whose `retry_on` is a tuple of connect-phase errors, a ToolNode with
    `handle_tool_errors=True` (its failures become messages), members whose effects are PUT /
    PATCH / DELETE or carry a stable idempotency key.

    ## Why is this bad?
    The node is the unit of retry: when any call of the turn raises past the ToolNode, the whole
    node runs again, and every tool call of the turn with it, including the ones that already
    succeeded. Measured with langgraph 1.2.24: `charge_card` beside a `lookup_tax` that raised
    `ConnectionError` charged 3 times under `RetryPolicy(max_attempts=3)` (also through
    `set_node_defaults` and `retry=`), once without the policy or with `handle_tool_errors=True`.

    ## Example
    ```python
    orders.add_node("tools", ToolNode([place_order, check_stock]), retry_policy=RetryPolicy(max_attempts=4))
    ```

    Use instead:
    ```python
    orders.add_node("tools", ToolNode([place_order, check_stock], handle_tool_errors=True))
    orders.add_node("model", call_model, retry_policy=RetryPolicy(max_attempts=4))
    ```

    ## Options
    `extend-side-effect-calls` and `pure-calls` decide what a side effect is (see `siblint explain SIB101`).
    """

    code = "SIB405"
    name = "node-retry-reruns-tool-calls"
    summary = "a LangGraph retry policy on a ToolNode node re-runs every tool call of the turn"
    message = ("retrying the {node} node re-runs every tool call of the turn, including {effect} that may "
               "already have succeeded; retry inside the tool, or let tool errors reach the model (handle_tool_errors)")
    fix = FixSpec(
        DISPLAY_ONLY,
        'drop the retry policy from the tool node, or retry inside each tool. Display-only: the policy '
        'may be wanted for the other nodes it covers',
    )
    VALID = [
        Valid(_GRAPH.format(line='orders.add_node("tools", ToolNode([place_order, check_stock]))')),
        Valid(_GRAPH.format(line='orders.add_node("tools", ToolNode([place_order], handle_tool_errors=True), '
                                 'retry_policy=RetryPolicy(max_attempts=4))')),
        Valid(_GRAPH.format(line='orders.add_node("tools", ToolNode([check_stock]), retry_policy=RetryPolicy())')),
        Valid(_GRAPH.format(line='orders.add_node("tools", ToolNode([place_order]), retry_policy=RetryPolicy(max_attempts=1))')),
        Valid(_GRAPH.format(line='orders.add_node("model", check_stock, retry_policy=RetryPolicy())\n'
                                 'orders.add_node("tools", ToolNode([place_order]))')),
        Valid(_GRAPH.format(line='orders.add_node("tools", ToolNode([place_order]), '
                                 'retry_policy=RetryPolicy(retry_on=(httpx.ConnectError,)))')),
    ]
    INVALID = [
        Invalid(_GRAPH.format(line='orders.add_node("tools", ToolNode([place_order, check_stock]), '
                                   'retry_policy=RetryPolicy(max_attempts=4))'), lines=(20,)),
        Invalid(_GRAPH.format(line='orders.set_node_defaults(retry_policy=RetryPolicy())\n'
                                   'orders.add_node("tools", ToolNode([place_order]))'), lines=(20,)),
        Invalid(_GRAPH.format(line='tools = ToolNode([place_order])\n'
                                   'orders.add_node("model", check_stock).add_node("tools", tools, retry=RetryPolicy())'),
                lines=(21,)),
        Invalid(_GRAPH.format(line='graph = StateGraph(MessagesState).add_node(ToolNode([place_order]), '
                                   'retry_policy=[RetryPolicy()]).compile()'), lines=(20,)),
    ]

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        from siblint.analyses.retries import node_retries

        for f in node_retries(ctx.facts, ctx.groups(), ctx.project, ctx.config):
            yield self.finding(ctx, f.loc, _related(f), node=repr(f.detail), effect=_effect(f))


_SETTINGS = """\
from agents import Agent, ModelSettings, ModelRetrySettings, retry_policies

agent = Agent(
    name="support",
    model_settings=ModelSettings(retry={settings}),
)
"""


# The policy SIB407's fix adds: what the provider says is retryable, and network errors.
_POLICY = "retry_policies.any(retry_policies.provider_suggested(), retry_policies.network_error())"


class RetrySettingsWithoutPolicy(Rule):
    """
    ## What it does
    Flags OpenAI Agents SDK model retry settings given to `ModelSettings(retry=...)` with no
    policy: `ModelRetrySettings(max_retries=5)` (any import spelling, directly or through a name)
    or a dict `{"max_retries": 4}`. Not flagged: a `policy=`; `max_retries=0` (an explicit
    opt-out); settings whose `policy` is assigned later in the module or set by
    `dataclasses.replace`; settings merged with others (`base.resolve(override)`); and every
    settings object of a module that also gives some retry settings a policy (the runner resolves
    an agent's settings under `RunConfig.model_settings`, so that policy may be the other half).
    A `ModelRetrySettings` never given to a `ModelSettings` (a test of the class) is not judged.

    ## Why is this bad?
    The runner never retries without a policy (openai-agents 0.24.0, `_evaluate_retry`): the
    count is dead configuration. Measured: `ModelRetrySettings(max_retries=3)` and one 503 from the
    model: the run raised after 1 model request (client retries off); with the client's own
    defaults, the 3 requests seen were the openai client's two retries, nothing from the runner.

    ## Example
    ```python
    ModelSettings(retry=ModelRetrySettings(max_retries=5, backoff={"max_delay": 1.0}))
    ```

    Use instead:
    ```python
    ModelSettings(retry=ModelRetrySettings(
        max_retries=5, policy=retry_policies.any(retry_policies.provider_suggested(), retry_policies.network_error())))
    ```

    ## Options
    None.
    """

    code = "SIB407"
    name = "retry-settings-without-policy"
    summary = "ModelRetrySettings with max_retries but no policy: the runner never retries"
    message = ("max_retries without a policy: the runner never retries (only the client's own retries apply); "
               "add policy=retry_policies.any(...)")
    fix = FixSpec(
        UNSAFE,
        'adds `policy=retry_policies.any(retry_policies.provider_suggested(), retry_policies.network_error())` '
        '(or replaces `policy=None`), importing `retry_policies` from `agents` if needed. Unsafe: the runner '
        'now retries the model call, as `max_retries` asked (tests/runtime/test_fix_runtime.py: a 503 is '
        'retried and the run succeeds); `max_retries=0` may have been meant. Settings given as a dict get no '
        'edit',
        AddBound((Bound("agents", "policy", _POLICY, "retry_policies"),)),
    )
    VALID = [
        Valid(_SETTINGS.format(settings="ModelRetrySettings(max_retries=3, policy=retry_policies.any("
                                        "retry_policies.provider_suggested(), retry_policies.network_error(), "
                                        "retry_policies.http_status([429, 502, 503])))")),
        Valid(_SETTINGS.format(settings="ModelRetrySettings(max_retries=0)")),
        Valid(_SETTINGS.format(settings='{"max_retries": 2, "policy": retry_policies.network_error()}')),
        Valid("from agents import ModelRetrySettings, ModelSettings, retry_policies\n\nretry = ModelRetrySettings(max_retries=3)\n"
              "retry.policy = retry_policies.network_error()\nsettings = ModelSettings(retry=retry)\n"),
        Valid("from agents import ModelSettings\nfrom mylib import ModelRetrySettings\n\n"
              "settings = ModelSettings(retry=ModelRetrySettings(max_retries=3))\n"),
    ]
    INVALID = [
        Invalid(_SETTINGS.format(settings='ModelRetrySettings(max_retries=5, backoff={"max_delay": 1.0})'), lines=(5,)),
        Invalid(_SETTINGS.format(settings='{"max_retries": 4}'), lines=(5,)),
        Invalid("from agents import ModelSettings\nfrom agents.retry import ModelRetrySettings as MRS\n\n"
                "RETRY = MRS(max_retries=3, policy=None)\nSETTINGS = ModelSettings(retry=RETRY)\n", lines=(4,)),
    ]

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        from siblint.analyses.retries import model_retry_settings

        for f in model_retry_settings(ctx.facts):
            count = f"max_retries={f.detail}" if f.detail else "max_retries"
            related = () if f.wrapper_at is None else (
                Related(*f.wrapper_at, f"{f.wrapper}: the runner looks for a retry policy here, finds none, "
                                       f"and never uses {count}"),)
            yield self.finding(ctx, f.loc, related)


class RetryOnPermanentStatus(Rule):
    """
    ## What it does
    Flags `retry_policies.http_status([...])` (OpenAI Agents SDK, any import spelling) whose
    literal list of statuses holds 400, 401, 403, 404, 405, 410 or 422.

    ## Why is this bad?
    These answers do not change on their own: the same request gets the same answer, so each
    retry spends a model request and the backoff delay for nothing, and a 401 / 403 retried in a
    loop hammers the provider with a bad credential. The SDK does not veto them: measured,
    `http_status([400, 503])` retried two 400 answers (4 model requests). 408, 409, 425, 429 and
    5xx are transient and stay allowed.

    ## Example
    ```python
    retry_policies.http_status([404, 429, 502])
    ```

    Use instead:
    ```python
    retry_policies.http_status([408, 409, 425, 429, 500, 502, 503, 504])
    ```

    ## Options
    None. A gateway that answers 404 during a rollout is a reason for `# noqa: SIB408`.
    """

    code = "SIB408"
    name = "retry-on-permanent-status"
    summary = "a model retry policy retries HTTP statuses that do not change on retry"
    severity = "warning"
    message = "http_status retries {codes}: these answers do not change on retry; keep 408, 409, 425, 429 and 5xx"
    fix = FixSpec(
        UNSAFE,
        'removes 400, 401, 403, 404, 405, 410 and 422 from the literal list of statuses (never the last '
        "one: a list left empty is the author's call). Unsafe: those answers are no longer retried (what "
        'the rule asks)',
        DropListItems(frozenset(PERMANENT_STATUSES)),
    )
    VALID = [
        Valid("from agents import retry_policies\n\nPOLICY = retry_policies.http_status([408, 409, 425, 429, 500, 502, 503, 504])\n"),
        Valid("from agents import retry_policies\n\ndef policy(codes):\n    return retry_policies.http_status(codes)\n"),
        Valid("from mylib import retry_policies\n\nPOLICY = retry_policies.http_status([404])\n"),
    ]
    INVALID = [
        Invalid("from agents import retry_policies\n\nPOLICY = retry_policies.http_status([404, 429, 502])\n", lines=(3,)),
        Invalid("from agents.retry import retry_policies as rp\n\nPOLICY = rp.any(rp.network_error(), rp.http_status({403, 422, 504}))\n",
                lines=(3,)),
    ]

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        from siblint.analyses.retries import permanent_status_retries

        for f in permanent_status_retries(ctx.facts):
            yield self.finding(ctx, f.loc, codes=f.detail)
