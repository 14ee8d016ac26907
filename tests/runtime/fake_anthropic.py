"""The fake model of `fake_model.FakeServer` on the Anthropic Messages API (`POST /runs/<id>/v1/messages`),
which the Claude Code CLI that claude-agent-sdk drives talks to (`ANTHROPIC_BASE_URL=<prefix>`).

Stateless, as the Chat Completions fake: the first request of a turn (no `tool_result` block yet)
is answered with one `tool_use` block for every advertised in-process tool (`mcp__...`), in
advertised order; later requests, and the CLI's side requests (no such tool), get a text answer.
`stream: true` gets the same message as server-sent events.
"""

from __future__ import annotations

import json
from typing import Any

from .fake_model import _dummy


def _saw_results(messages: list[dict[str, Any]]) -> bool:
    return any(isinstance(b, dict) and b.get("type") == "tool_result"
               for m in messages if isinstance(m.get("content"), list) for b in m["content"])


def answer_messages(body: dict[str, Any]) -> dict[str, Any]:
    """The Messages API answer for one request body."""
    tools = [t for t in body.get("tools") or [] if str(t.get("name", "")).startswith("mcp__")]
    content: list[dict[str, Any]] = []
    if tools and not _saw_results(body.get("messages") or []):
        for i, t in enumerate(tools):
            props = (t.get("input_schema") or {}).get("properties") or {}
            content.append({"type": "tool_use", "id": f"toolu_{i:02d}", "name": t["name"],
                            "input": {k: _dummy(v, 1) for k, v in props.items()}})
    if not content:
        content = [{"type": "text", "text": "done"}]
    stop = "tool_use" if content[0]["type"] == "tool_use" else "end_turn"
    return {"id": "msg_fake", "type": "message", "role": "assistant", "model": body.get("model", "fake"),
            "content": content, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1}}


def sse_events(msg: dict[str, Any]) -> bytes:
    """The same message as the stream of events the Messages API sends for `stream: true`."""
    events: list[tuple[str, dict[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": dict(msg, content=[], stop_reason=None)})]
    for i, b in enumerate(msg["content"]):
        if b["type"] == "text":
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": b["text"]}
        else:
            start = {"type": "tool_use", "id": b["id"], "name": b["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(b["input"])}
        events += [("content_block_start", {"type": "content_block_start", "index": i, "content_block": start}),
                   ("content_block_delta", {"type": "content_block_delta", "index": i, "delta": delta}),
                   ("content_block_stop", {"type": "content_block_stop", "index": i})]
    events += [("message_delta", {"type": "message_delta", "usage": {"output_tokens": 1},
                                  "delta": {"stop_reason": msg["stop_reason"], "stop_sequence": None}}),
               ("message_stop", {"type": "message_stop"})]
    return b"".join(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events)
