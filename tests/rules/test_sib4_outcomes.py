"""SIB406 and the facts it reads (`return_sites`, `try_sites`): the smallest code that shows it,
fixed twins, traps, and a helper in another module."""

from __future__ import annotations

import textwrap

import pytest
from siblint.lint.engine import facts_from_text
from siblint.settings.config import Config

BASE = """\
import httpx, logging
from agents import function_tool
log = logging.getLogger()

@function_tool
async def refund(order: str) -> str:
    try:
        async with httpx.AsyncClient() as c:
            (await c.post("https://pay.example.com/refunds", json={{"o": order}})).raise_for_status()
{body_tail}    except {catches}:
{handler}
{after}"""


def sib406(lint, tmp_path, text, files=None):
    found = lint(textwrap.dedent(text), files, Config(root=str(tmp_path), select=("SIB406",)))
    return [d for d in found if d.code == "SIB406"]


CASES = [
    # (body tail, catches, handler, after, reported)
    ("", "Exception", "        log.warning('no')", "    return 'refund issued'\n", True),
    ("", "httpx.HTTPError", "        pass", "    return 'refund issued'\n", True),
    ("        return 'refund issued'\n", "Exception", "        return 'refund issued'", "", True),
    ("        return 'refund issued'\n", "Exception", "        return 'refund failed'", "", False),
    ("", "Exception", "        log.warning('no')\n        raise", "    return 'refund issued'\n", False),
    ("", "Exception as e", "        return f'refund failed: {e}'", "    return 'refund issued'\n", False),
    ("", "Exception", "        return 'refund failed; nothing was refunded'", "    return 'refund issued'\n", False),
    # An f-string reading a name the handler sets says what happened.
    ("        status = 'issued'\n", "Exception", "        status = 'not issued'", "    return f'refund {status}'\n", False),
    ("        status = 'issued'\n", "Exception", "        log.warning('x')", "    return f'refund for {order} issued'\n", True),
    # A statement between the try and the return that may branch: not followed.
    ("", "Exception", "        pass", "    if order:\n        return 'refund issued'\n    return 'x'\n", False),
    # Logging between the try and the return: still the same return.
    ("", "Exception", "        pass", "    log.info('done')\n    return 'refund issued'\n", True),
]


@pytest.mark.parametrize("tail,catches,handler,after,reported", CASES)
def test_sib406_shapes(lint, tmp_path, tail, catches, handler, after, reported):
    text = BASE.format(body_tail=tail, catches=catches, handler=handler, after=after)
    found = sib406(lint, tmp_path, text)
    assert bool(found) == reported, text
    if reported:
        [d] = found
        assert d.loc.line == 7 and "refund returns" in d.message and "POST" in d.message
        assert {r.message for r in d.related} == {"the handler that swallows the failure", "the success path's return"}


def test_sib406_no_side_effect_in_the_try(lint, tmp_path):
    text = BASE.format(body_tail="", catches="Exception", handler="        pass", after="    return 'ok'\n")
    text = text.replace('(await c.post("https://pay.example.com/refunds", json={"o": order})).raise_for_status()',
                        '(await c.get("https://pay.example.com/refunds")).raise_for_status()')
    assert sib406(lint, tmp_path, text) == []


def test_sib406_handler_with_its_own_side_effect_records_the_failure(lint, tmp_path):
    handler = "        async with httpx.AsyncClient() as c2:\n            await c2.post('https://outbox', json={'o': order})"
    text = BASE.format(body_tail="", catches="Exception", handler=handler, after="    return 'refund queued'\n")
    assert sib406(lint, tmp_path, text) == []


def test_sib406_side_effect_in_a_helper_of_another_module(lint, tmp_path):
    files = {"payments.py": "import requests\n\ndef refund_order(o):\n    requests.post('https://pay', json={'o': o})\n"}
    text = """\
    from agents import function_tool
    from payments import refund_order

    @function_tool
    def refund(order: str) -> str:
        try:
            refund_order(order)
        except Exception:
            pass
        return "refund issued"
    """
    [d] = sib406(lint, tmp_path, text, files)
    assert d.loc.line == 6
    twin = text.replace("refund_order(order)", "int(order)")
    assert sib406(lint, tmp_path, twin, files) == []


def test_sib406_not_a_tool_and_look_alike_decorator(lint, tmp_path):
    text = BASE.format(body_tail="", catches="Exception", handler="        pass", after="    return 'refund issued'\n")
    assert sib406(lint, tmp_path, text.replace("@function_tool\n", "")) == []
    trap = text.replace("from agents import function_tool", "from mylib import function_tool")
    assert sib406(lint, tmp_path, trap) == []


def test_return_and_try_facts():
    facts = facts_from_text(textwrap.dedent("""\
        def f(x):
            try:
                y = g(x)
            except (KeyError, ValueError) as e:
                note = str(e)
            log(x)
            return f"{x} done"
        """), "m.py")
    fn = facts.functions["f"]
    [t] = fn.try_sites
    assert t.body_falls_through and t.handler_falls_through == (True,)
    assert t.handler_binds == (("e", "note"),)
    [r] = fn.return_sites
    assert t.next_return == r.loc and r.reads == ("x",) and r.guarded_by == () and r.in_handler is None
    assert r.value.values[0].text == "x"


def test_sib406_a_best_effort_extra_beside_the_main_action_is_not_judged(lint, tmp_path):
    """The tool's own action runs outside the try; the try only guards a secondary write (a
    history row): the success text can still be true, so nothing is reported."""
    text = """\
    import requests
    from agents import function_tool

    @function_tool
    def set_status(text: str) -> str:
        requests.put("https://chat.example.com/status", json={"text": text})
        try:
            requests.post("https://history.example.com/rows", json={"text": text})
        except Exception:
            pass
        return "Status set."
    """
    assert sib406(lint, tmp_path, text) == []
    only_the_guarded_write = text.replace('requests.put("https://chat.example.com/status", json={"text": text})',
                                          "text = text.strip()")
    assert [d.loc.line for d in sib406(lint, tmp_path, only_the_guarded_write)] == [7]


def test_sib406_a_handler_that_changes_what_the_return_reads(lint, tmp_path):
    """`errors.append(...)` / `status["refund"] = ...` in the handler change the f-string the tool
    returns: the texts differ, so nothing is reported; an unrelated log call does not."""
    for change in ("errors.append(str(e))", "status['refund'] = 'failed'"):
        handler = f"        {change}"
        text = BASE.format(body_tail="", catches="Exception as e", handler=handler,
                           after="    return f'refund issued {errors} {status}'\n")
        text = text.replace("async def refund(order: str) -> str:\n",
                            "async def refund(order: str) -> str:\n    errors, status = [], {}\n")
        assert sib406(lint, tmp_path, text) == [], change
    logged = BASE.format(body_tail="", catches="Exception as e", handler="        log.warning(str(e))",
                         after="    return f'refund issued for {order}'\n")
    assert len(sib406(lint, tmp_path, logged)) == 1
