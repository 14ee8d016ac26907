"""semantic-kernel (issue 25): `@kernel_function` plugin methods (agent `plugins=[...]` and
`kernel.add_plugin`), a raising AUTO_FUNCTION_INVOCATION filter as SIB202 (reported once, where it
is registered) and the mix it makes (SIB301). Nothing is cancelled, so awaiting members count too.

Measured behaviour behind these expectations: tests/runtime/test_semantic_kernel_runtime.py.
"""

from __future__ import annotations

import pytest

from tests.frameworks.wave3_lint import found, line_of, lines  # noqa: F401  (found is a fixture)

IMPORTS = '''\
import httpx
import requests
from semantic_kernel import Kernel
from semantic_kernel.agents import ChatCompletionAgent
from semantic_kernel.filters import AutoFunctionInvocationContext, FilterTypes
from semantic_kernel.functions import kernel_function
'''

PLUGIN = '''

class Billing:
    @kernel_function(description="Charge the card.")
    async def charge_card(self, customer_id: str, amount_cents: int) -> str:
        """Awaiting: semantic-kernel cancels nothing, so it lands after the raise all the same."""
        async with httpx.AsyncClient() as c:
            return (await c.post("https://payments.example.com/charges", json={"c": customer_id})).text

    @kernel_function
    async def lookup_customer(self, customer_id: str) -> str:
        async with httpx.AsyncClient() as c:
            r = await c.get(f"https://crm.example.com/customers/{customer_id}")
            r.raise_for_status()
            return r.text
'''

ABORT = '''

async def abort_on_error(context: AutoFunctionInvocationContext, next):
    await next(context)
    if "error occurred" in str(context.function_result.value):
        raise RuntimeError(f"{context.function.name} failed: aborting")
'''

TERMINATE = ABORT.replace('        raise RuntimeError(f"{context.function.name} failed: aborting")',
                          "        context.terminate = True")

KERNEL = '''
kernel = Kernel()
kernel.add_filter({filter_type}, abort_on_error)
'''

AGENT = '''agent = ChatCompletionAgent(service=None, kernel=kernel, name="checkout", plugins=[Billing()])
'''


def _kernel(filter_type: str = "FilterTypes.AUTO_FUNCTION_INVOCATION") -> str:
    return KERNEL.format(filter_type=filter_type)


def test_raising_auto_invocation_filter_makes_the_mix(found):
    text = IMPORTS + PLUGIN + ABORT + _kernel() + AGENT
    got = found(text)
    assert lines(got, "SIB202") == [line_of(text, "kernel.add_filter")]  # once, where it is registered
    assert lines(got, "SIB301") == [line_of(text, "agent = ")]
    assert not [c for c, _ in got if c.startswith("SIB10")]  # awaiting: no SIB1xx, yet a victim


def test_plugins_added_to_the_kernel_are_members(found):
    text = IMPORTS + PLUGIN + ABORT + _kernel() + 'kernel.add_plugin(Billing(), plugin_name="billing")\n' + \
        'agent = ChatCompletionAgent(service=None, kernel=kernel, name="checkout")\n'
    assert lines(found(text), "SIB301") == [line_of(text, "agent = ")]


def test_sync_function_runs_inline_and_still_loses_its_record(found):
    text = IMPORTS + PLUGIN.replace(
        '    async def charge_card(self, customer_id: str, amount_cents: int) -> str:\n'
        '        """Awaiting: semantic-kernel cancels nothing, so it lands after the raise all the same."""\n'
        '        async with httpx.AsyncClient() as c:\n'
        '            return (await c.post(',
        '    def charge_card(self, customer_id: str, amount_cents: int) -> str:\n'
        '        return (requests.post(') + ABORT + _kernel() + AGENT
    got = found(text)
    assert lines(got, "SIB103") == [line_of(text, "def charge_card")]  # inline: it blocks the loop
    assert lines(got, "SIB101") == []  # no worker thread here
    assert lines(got, "SIB301") == [line_of(text, "agent = ")]


@pytest.mark.parametrize("fix", [
    # the safe form: stop gracefully
    IMPORTS + PLUGIN + TERMINATE + _kernel() + AGENT,
    # a FUNCTION_INVOCATION filter's raise reaches the model
    IMPORTS + PLUGIN + ABORT + _kernel("FilterTypes.FUNCTION_INVOCATION") + AGENT,
    # a filter type of another library
    IMPORTS + PLUGIN + ABORT + _kernel("other.FilterTypes.AUTO_FUNCTION_INVOCATION") + AGENT,
])
def test_safe_filters_are_clean(found, fix):
    got = found(fix)
    assert lines(got, "SIB202") == [] and lines(got, "SIB301") == []


def test_read_only_plugin_is_clean(found):
    text = IMPORTS + PLUGIN.replace('c.post("https://payments.example.com/charges", json={"c": customer_id})',
                                    'c.get("https://payments.example.com/charges")') + ABORT + _kernel() + AGENT
    got = found(text)
    assert lines(got, "SIB301") == [] and lines(got, "SIB202") == [line_of(text, "kernel.add_filter")]


def test_undecorated_methods_and_other_decorators_are_not_functions(found):
    text = IMPORTS + "from mylib import kernel_function as kf\n" + PLUGIN.replace(
        '    @kernel_function(description="Charge the card.")\n', "    @kf\n") + ABORT + _kernel() + AGENT
    assert lines(found(text), "SIB301") == []


# ---- across modules ---------------------------------------------------------------------------
def test_plugin_and_filter_from_other_modules(found):
    main = ("from semantic_kernel import Kernel\nfrom semantic_kernel.agents import ChatCompletionAgent\n"
            "from semantic_kernel.filters import FilterTypes\nfrom app.billing import Billing\n"
            "from app.filters import abort_on_error\n\nkernel = Kernel()\n"
            "kernel.add_filter(FilterTypes.AUTO_FUNCTION_INVOCATION, abort_on_error)\n"
            "agent = ChatCompletionAgent(service=None, kernel=kernel, plugins=[Billing()])\n")
    files = {"app/__init__.py": "", "app/billing.py": IMPORTS + PLUGIN, "app/filters.py": IMPORTS + ABORT}
    got = found(main, files)
    assert lines(got, "SIB202") == [8] and lines(got, "SIB301") == [9]
    safe = {**files, "app/filters.py": IMPORTS + TERMINATE}
    assert lines(found(main, safe), "SIB301") == []


DECORATED = '''
kernel = Kernel()


@kernel.filter({filter_type})
async def abort_on_error(context: AutoFunctionInvocationContext, next):
    await next(context)
    if "error occurred" in str(context.function_result.value):
        {action}
'''


def _decorated(filter_type: str = "FilterTypes.AUTO_FUNCTION_INVOCATION",
               action: str = 'raise RuntimeError(f"{context.function.name} failed: aborting")') -> str:
    return DECORATED.replace("{filter_type}", filter_type).replace("{action}", action)


def test_filter_registered_by_decorator(found):
    text = IMPORTS + PLUGIN + _decorated() + AGENT
    got = found(text)
    assert lines(got, "SIB202") == [line_of(text, "async def abort_on_error")]  # once, at the filter
    assert lines(got, "SIB301") == [line_of(text, "agent = ")]


@pytest.mark.parametrize("filter_type, action", [
    ("FilterTypes.AUTO_FUNCTION_INVOCATION", "context.terminate = True"),  # the safe form
    ("FilterTypes.FUNCTION_INVOCATION", 'raise RuntimeError("x")'),  # its raise reaches the model
])
def test_decorated_filter_benign_twins(found, filter_type, action):
    got = found(IMPORTS + PLUGIN + _decorated(filter_type, action) + AGENT)
    assert not [c for c, _ in got if c in ("SIB202", "SIB301")], got


def test_decorator_on_another_object_is_not_a_kernel_filter(found):
    text = IMPORTS + PLUGIN + _decorated().replace("@kernel.filter(", "@router.filter(") + AGENT
    text = text.replace("kernel = Kernel()\n", "kernel = Kernel()\nrouter = object()\n")
    got = found(text)
    assert lines(got, "SIB301") == [], got
