"""A fake Chat Completions model and a fake payments service, on one loopback HTTP server.

The server listens on 127.0.0.1 at an ephemeral port, in a daemon thread. Every scenario run gets
its own URL prefix, `/runs/<run_id>/`, so runs in parallel subprocesses never mix their logs:

* `POST /runs/<id>/v1/chat/completions`: the fake model. Its answer depends only on the request
  (stateless). The model name picks the mode:

  - `fake/each-tool`: the first request of a turn (no `role: "tool"` message in the transcript yet)
    is answered with one tool call for every advertised tool, in advertised order;
  - `fake/each-tool-reversed`: the same, in reverse order;
  - `fake/each-tool-twice`: every advertised tool is called twice (a tool is its own sibling).

  Arguments are dummies shaped by the tool's JSON schema. Integer arguments carry the 1-based copy
  number of the call (always 1, except for the second copy in the `-twice` mode), so a tool can tell
  its two calls apart. Once the transcript carries a `role: "tool"` message, the answer is a plain
  assistant message quoting the tool outputs the model saw.

* `POST /runs/<id>/v1/responses`: the same fake model on the Responses API (the JS SDK's default),
  planning its calls from the request's `tools` and `input` the same way.

* `GET /runs/<id>/slow?ms=N`: a dependency that answers after N ms (a read that takes time);
  `GET /runs/<id>/down`: a dependency that is down (503), its arrival recorded under `failures`, so
  a run's fatal failure has a time to compare with the payments'.

* `POST /runs/<id>/payments`: the fake payments service. It records the JSON body with the
  `time.monotonic()` of arrival (the charge is made then); with `?ms=N` it answers N ms later, so a
  client can give up on a charge that was already made. CLOCK_MONOTONIC is system-wide on Linux, so these times compare
  directly with `time.monotonic()` taken in the scenario's subprocess.

* `GET /runs/<id>/log`: what the run did: the model requests (observation only: the model,
  `parallel_tool_calls` as sent, how many tool calls were answered), the payments received and the
  failures served.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

MODES = ("fake/each-tool", "fake/each-tool-reversed", "fake/each-tool-twice")


def _dummy(schema: dict[str, Any], copy: int) -> Any:
    kind = schema.get("type")
    if isinstance(kind, list):  # e.g. ["string", "null"]
        kind = next((k for k in kind if k != "null"), "string")
    return {
        "integer": copy,
        "number": float(copy),
        "boolean": True,
        "array": [],
        "object": {},
    }.get(kind, "x")


def _plan(model: str, tools: list[dict[str, Any]], saw_tool_output: bool) -> list[tuple[str, str]]:
    """(tool name, JSON arguments) of every call the fake model makes for one request."""
    calls: list[tuple[str, str]] = []
    if tools and not saw_tool_output:
        ordered = list(reversed(tools)) if model.endswith("-reversed") else tools
        copies = 2 if model.endswith("-twice") else 1
        for fn in ordered:
            props = (fn.get("parameters") or {}).get("properties") or {}
            for copy in range(1, copies + 1):
                args = {name: _dummy(schema, copy) for name, schema in props.items()}
                calls.append((fn["name"], json.dumps(args)))
    return calls


def answer(body: dict[str, Any]) -> dict[str, Any]:
    """The chat completion the fake model returns for one request body."""
    model = body.get("model") or MODES[0]
    messages = body.get("messages") or []
    tools = [t["function"] for t in body.get("tools") or [] if t.get("type") == "function"]
    calls = [{"id": f"call_{i}_{name}", "type": "function", "function": {"name": name, "arguments": args}}
             for i, (name, args) in enumerate(_plan(model, tools, any(m.get("role") == "tool" for m in messages)))]

    if calls:
        message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": calls}
        finish = "tool_calls"
    else:
        seen = [m.get("content") for m in messages if m.get("role") == "tool"]
        message = {"role": "assistant", "content": "done; tool outputs: " + json.dumps(seen)}
        finish = "stop"
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def answer_responses(body: dict[str, Any]) -> dict[str, Any]:
    """The Responses API answer of the same fake model: `function_call` items, or a final message."""
    model = body.get("model") or MODES[0]
    items = [i for i in body.get("input") or [] if isinstance(i, dict)]  # a bare string is a user turn
    tools = [t for t in body.get("tools") or [] if t.get("type") == "function"]
    outputs = [i.get("output") for i in items if i.get("type") == "function_call_output"]
    output: list[dict[str, Any]] = [
        {"type": "function_call", "id": f"fc_{i}", "call_id": f"call_{i}_{name}", "name": name,
         "arguments": args, "status": "completed"}
        for i, (name, args) in enumerate(_plan(model, tools, bool(outputs)))
    ]
    if not output:
        output = [{"type": "message", "id": "msg_fake", "role": "assistant", "status": "completed",
                   "content": [{"type": "output_text", "annotations": [],
                                "text": "done; tool outputs: " + json.dumps(outputs)}]}]
    return {
        "id": "resp_fake",
        "object": "response",
        "created_at": 0,
        "status": "completed",
        "model": model,
        "output": output,
        "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
                  "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}},
    }


class LoopbackServer(ThreadingHTTPServer):
    """A threading HTTP server for many clients at once. The standard listen backlog of 5 overflows
    when a dozen runs connect together (drive.mjs runs every JS arm at once): the kernel then drops
    the SYN and the client retries after a second, which reorders a run's requests on a loaded
    machine (a failure answered after a charge it was meant to precede)."""

    request_queue_size = 256
    daemon_threads = True


def send_json(handler: BaseHTTPRequestHandler, status: int, payload: dict[str, Any]) -> None:
    """Answer with `payload` as JSON; a client that has gone away (it aborted, or timed out) is no error:
    what the server did on arrival stays recorded."""
    data = json.dumps(payload).encode()
    try:
        handler.send_response(status)
        handler.send_header("content-type", "application/json")
        handler.send_header("content-length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)
    except (BrokenPipeError, ConnectionResetError):
        pass


def _pause(query: str) -> None:
    """Wait the `ms=N` of a request's query string."""
    time.sleep(int(parse_qs(query).get("ms", ["0"])[0]) / 1000)


def _empty_log() -> dict[str, list[dict[str, Any]]]:
    return {"model_requests": [], "payments": [], "failures": []}


class FakeServer:
    """Start with `FakeServer().start()`; `urls(run_id)` gives the environment for one run."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._logs: dict[str, dict[str, list[dict[str, Any]]]] = {}
        self._httpd: ThreadingHTTPServer | None = None

    # ---- lifecycle ---------------------------------------------------------------------------
    def start(self) -> "FakeServer":
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def do_POST(self) -> None:  # noqa: N802
                arrived = time.monotonic()
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {"unparsed": raw.decode("utf-8", "replace")}
                run, _, rest = self.path.removeprefix("/runs/").partition("/")
                rest, _, query = rest.partition("?")
                rest = rest.rstrip("/")
                if rest in ("v1/chat/completions", "v1/responses"):
                    if rest == "v1/responses":
                        reply = answer_responses(body)
                        calls = sum(item["type"] == "function_call" for item in reply["output"])
                    else:
                        reply = answer(body)
                        calls = len(reply["choices"][0]["message"].get("tool_calls") or [])
                    server._record(run, "model_requests", {
                        "t": arrived,
                        "api": rest.removeprefix("v1/"),
                        "model": body.get("model"),
                        "parallel_tool_calls": body.get("parallel_tool_calls", "<absent>"),
                        "tool_calls": calls,
                    })
                    self._send(200, reply)
                elif rest.startswith("v1/messages"):
                    self._anthropic(run, rest, body, arrived)
                elif rest == "payments":
                    server._record(run, "payments", {"t": arrived, "body": body})
                    _pause(query)  # the charge is made on arrival; its reply may take a while
                    self._send(201, {"status": "charged"})
                else:
                    self._send(404, {"error": {"message": f"no route for POST {self.path}"}})

            def do_GET(self) -> None:  # noqa: N802
                arrived = time.monotonic()
                run, _, rest = self.path.removeprefix("/runs/").partition("/")
                route, _, query = rest.partition("?")
                route = route.rstrip("/")
                if route == "log":
                    self._send(200, server.log(run))
                elif route == "slow":
                    _pause(query)
                    self._send(200, {"ok": True})
                elif route == "down":
                    server._record(run, "failures", {"t": arrived})
                    self._send(503, {"error": {"message": "service unavailable"}})
                else:
                    self._send(404, {"error": {"message": f"no route for GET {self.path}"}})

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                send_json(self, status, payload)

            def _anthropic(self, run: str, rest: str, body: dict[str, Any], arrived: float) -> None:
                """The Messages API (fake_anthropic.py); `count_tokens` and the like get a small answer."""
                from .fake_anthropic import answer_messages, sse_events
                if rest != "v1/messages":
                    self._send(200, {"input_tokens": 1})
                    return
                reply = answer_messages(body)
                calls = sum(b["type"] == "tool_use" for b in reply["content"])
                server._record(run, "model_requests", {"t": arrived, "api": "messages", "model": body.get("model"),
                                                       "parallel_tool_calls": "<absent>", "tool_calls": calls})
                if not body.get("stream"):
                    self._send(200, reply)
                    return
                data = sse_events(reply)
                try:
                    self.send_response(200)
                    self.send_header("content-type", "text/event-stream")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self._httpd = LoopbackServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._httpd.serve_forever, name="fake-model", daemon=True).start()
        return self

    def close(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    # ---- addresses and logs ------------------------------------------------------------------
    @property
    def base(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def urls(self, run_id: str) -> dict[str, str]:
        prefix = f"{self.base}/runs/{run_id}"
        return {
            "FAKE_MODEL_URL": f"{prefix}/v1",
            "FAKE_PAYMENTS_URL": f"{prefix}/payments",
            "FAKE_LOG_URL": f"{prefix}/log",
            "FAKE_SLOW_URL": f"{prefix}/slow",
            "FAKE_DOWN_URL": f"{prefix}/down",
        }

    def _record(self, run: str, kind: str, entry: dict[str, Any]) -> None:
        with self._lock:
            log = self._logs.setdefault(run, _empty_log())
            log[kind].append(entry)

    def log(self, run_id: str) -> dict[str, list[dict[str, Any]]]:
        with self._lock:
            log = self._logs.get(run_id, _empty_log())
            return {kind: [dict(e) for e in entries] for kind, entries in log.items()}
