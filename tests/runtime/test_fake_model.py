"""The fake model and payments service the runtime scenarios rely on."""

from __future__ import annotations

import json
import time

import pytest
import requests

from .fake_model import answer, answer_responses

pytestmark = pytest.mark.runtime


def _tool(name: str, **props: str) -> dict:
    return {"type": "function", "function": {
        "name": name, "parameters": {"type": "object", "properties": {k: {"type": t} for k, t in props.items()}},
    }}


TOOLS = [_tool("charge_card", order_id="integer"), _tool("lookup_tax", region="string")]
USER = [{"role": "user", "content": "charge and look up tax"}]


def _calls(reply: dict) -> list[tuple[str, dict]]:
    message = reply["choices"][0]["message"]
    return [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in message.get("tool_calls") or []]


def test_first_request_calls_every_tool_once_in_order():
    reply = answer({"model": "fake/each-tool", "messages": USER, "tools": TOOLS})
    assert _calls(reply) == [("charge_card", {"order_id": 1}), ("lookup_tax", {"region": "x"})]
    assert reply["choices"][0]["finish_reason"] == "tool_calls"
    ids = [c["id"] for c in reply["choices"][0]["message"]["tool_calls"]]
    assert len(set(ids)) == len(ids) and all(i.endswith(n) for i, n in zip(ids, ["charge_card", "lookup_tax"]))


def test_reversed_and_twice_modes():
    rev = answer({"model": "fake/each-tool-reversed", "messages": USER, "tools": TOOLS})
    assert [n for n, _ in _calls(rev)] == ["lookup_tax", "charge_card"]
    twice = answer({"model": "fake/each-tool-twice", "messages": USER, "tools": TOOLS[:1]})
    assert _calls(twice) == [("charge_card", {"order_id": 1}), ("charge_card", {"order_id": 2})]


def test_plain_answer_once_the_transcript_has_a_tool_result():
    messages = USER + [
        {"role": "assistant", "tool_calls": [{"id": "call_0_charge_card", "type": "function",
                                               "function": {"name": "charge_card", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_0_charge_card", "content": "charged"},
    ]
    reply = answer({"model": "fake/each-tool", "messages": messages, "tools": TOOLS})
    assert _calls(reply) == []
    assert reply["choices"][0]["finish_reason"] == "stop"
    assert "charged" in reply["choices"][0]["message"]["content"]
    # Stateless: the same request gets the same answer.
    assert answer({"model": "fake/each-tool", "messages": messages, "tools": TOOLS}) == reply


def test_payments_are_recorded_per_run_with_monotonic_times(fake_server):
    a, b = fake_server.urls("unit-a"), fake_server.urls("unit-b")
    before = time.monotonic()
    assert requests.post(a["FAKE_PAYMENTS_URL"], json={"order_id": 7}, timeout=5).status_code == 201
    after = time.monotonic()
    reply = requests.post(a["FAKE_MODEL_URL"] + "/chat/completions", timeout=5,
                          json={"model": "fake/each-tool", "messages": USER, "tools": TOOLS,
                                "parallel_tool_calls": False}).json()
    assert [n for n, _ in _calls(reply)] == ["charge_card", "lookup_tax"]

    log = requests.get(a["FAKE_LOG_URL"], timeout=5).json()
    assert [p["body"] for p in log["payments"]] == [{"order_id": 7}]
    assert before <= log["payments"][0]["t"] <= after
    assert [(r["parallel_tool_calls"], r["tool_calls"]) for r in log["model_requests"]] == [(False, 2)]
    assert requests.get(b["FAKE_LOG_URL"], timeout=5).json() == {"model_requests": [], "payments": [], "failures": []}
    assert requests.post(a["FAKE_MODEL_URL"] + "/embeddings", json={}, timeout=5).status_code == 404


RESPONSES_TOOLS = [{"type": "function", **t["function"]} for t in TOOLS]  # the Responses API's flat shape


def test_responses_api_plans_the_same_calls_then_answers():
    first = answer_responses({"model": "gpt-x", "input": [{"role": "user", "content": "go"}], "tools": RESPONSES_TOOLS})
    calls = [(i["name"], json.loads(i["arguments"]), i["call_id"]) for i in first["output"]]
    assert calls == [("charge_card", {"order_id": 1}, "call_0_charge_card"), ("lookup_tax", {"region": "x"}, "call_1_lookup_tax")]
    assert {i["type"] for i in first["output"]} == {"function_call"} and first["status"] == "completed"
    twice = answer_responses({"model": "fake/each-tool-twice", "input": "go", "tools": RESPONSES_TOOLS[:1]})
    assert [json.loads(i["arguments"]) for i in twice["output"]] == [{"order_id": 1}, {"order_id": 2}]
    done = answer_responses({"model": "gpt-x", "tools": RESPONSES_TOOLS, "input": [
        {"type": "function_call", "call_id": "call_0_charge_card", "name": "charge_card", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_0_charge_card", "output": "charged"},
    ]})
    assert [i["type"] for i in done["output"]] == ["message"] and "charged" in done["output"][0]["content"][0]["text"]


def test_slow_and_down_dependencies(fake_server):
    urls = fake_server.urls("unit-deps")
    started = time.monotonic()
    assert requests.get(urls["FAKE_SLOW_URL"] + "?ms=200", timeout=5).json() == {"ok": True}
    assert time.monotonic() - started >= 0.2
    before = time.monotonic()
    assert requests.get(urls["FAKE_DOWN_URL"] + "?cart=42", timeout=5).status_code == 503
    failures = requests.get(urls["FAKE_LOG_URL"], timeout=5).json()["failures"]
    assert len(failures) == 1 and before <= failures[0]["t"] <= time.monotonic()
    sent = time.monotonic()
    assert requests.post(urls["FAKE_PAYMENTS_URL"] + "?ms=200", json={"n": 1}, timeout=5).status_code == 201
    replied = time.monotonic()
    charged = requests.get(urls["FAKE_LOG_URL"], timeout=5).json()["payments"][0]["t"]
    assert replied - sent >= 0.2 and charged < replied - 0.15  # charged on arrival, answered later
    reply = requests.post(urls["FAKE_MODEL_URL"] + "/responses", timeout=5,
                          json={"model": "gpt-x", "input": "go", "tools": RESPONSES_TOOLS})
    assert [i["name"] for i in reply.json()["output"]] == ["charge_card", "lookup_tax"]
    log = requests.get(urls["FAKE_LOG_URL"], timeout=5).json()
    assert [(r["api"], r["tool_calls"]) for r in log["model_requests"]] == [("responses", 2)]
