"""The Anthropic Messages fake (fake_anthropic.py) that the Claude Code CLI talks to in the runtime suite."""

from __future__ import annotations

import json

from .fake_anthropic import answer_messages, sse_events

TOOLS = [{"name": "mcp__pay__lookup", "input_schema": {"properties": {"id": {"type": "string"}}}},
         {"name": "mcp__pay__charge", "input_schema": {"properties": {"amount": {"type": "integer"}}}},
         {"name": "Bash", "input_schema": {"properties": {"command": {"type": "string"}}}}]


def test_first_request_calls_every_in_process_tool_in_order():
    msg = answer_messages({"model": "m", "messages": [{"role": "user", "content": "go"}], "tools": TOOLS})
    assert msg["stop_reason"] == "tool_use"
    assert [(b["name"], b["input"]) for b in msg["content"]] == [("mcp__pay__lookup", {"id": "x"}),
                                                                ("mcp__pay__charge", {"amount": 1})]


def test_after_a_tool_result_and_without_tools_it_answers_in_text():
    seen = [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_00", "content": "ok"}]}]
    for body in ({"messages": seen, "tools": TOOLS}, {"messages": [], "tools": TOOLS[2:]}):
        msg = answer_messages(body)
        assert msg["stop_reason"] == "end_turn" and msg["content"][0]["type"] == "text"


def test_stream_carries_the_same_tool_calls():
    msg = answer_messages({"messages": [], "tools": TOOLS})
    events = [json.loads(line[len("data: "):]) for line in sse_events(msg).decode().splitlines()
              if line.startswith("data: ")]
    starts = [e["content_block"]["name"] for e in events if e["type"] == "content_block_start"]
    deltas = [json.loads(e["delta"]["partial_json"]) for e in events if e["type"] == "content_block_delta"]
    assert starts == ["mcp__pay__lookup", "mcp__pay__charge"] and deltas == [{"id": "x"}, {"amount": 1}]
    assert events[-2]["delta"]["stop_reason"] == "tool_use" and events[-1]["type"] == "message_stop"
