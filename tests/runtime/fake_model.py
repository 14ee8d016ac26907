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

* `POST /runs/<id>/payments`: the fake payments service. It records the JSON body with the
  `time.monotonic()` of arrival. CLOCK_MONOTONIC is system-wide on Linux, so these times compare
  directly with `time.monotonic()` taken in the scenario's subprocess.

* `GET /runs/<id>/log`: what the run did: the model requests (observation only: the model,
  `parallel_tool_calls` as sent, how many tool calls were answered) and the payments received.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

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


def answer(body: dict[str, Any]) -> dict[str, Any]:
    """The chat completion the fake model returns for one request body."""
    model = body.get("model") or MODES[0]
    messages = body.get("messages") or []
    tools = [t["function"] for t in body.get("tools") or [] if t.get("type") == "function"]
    saw_tool_output = any(m.get("role") == "tool" for m in messages)

    calls: list[dict[str, Any]] = []
    if tools and not saw_tool_output:
        ordered = list(reversed(tools)) if model.endswith("-reversed") else tools
        copies = 2 if model.endswith("-twice") else 1
        for fn in ordered:
            props = (fn.get("parameters") or {}).get("properties") or {}
            for copy in range(1, copies + 1):
                args = {name: _dummy(schema, copy) for name, schema in props.items()}
                calls.append({
                    "id": f"call_{len(calls)}_{fn['name']}",
                    "type": "function",
                    "function": {"name": fn["name"], "arguments": json.dumps(args)},
                })

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
                rest = rest.rstrip("/")
                if rest == "v1/chat/completions":
                    reply = answer(body)
                    server._record(run, "model_requests", {
                        "t": arrived,
                        "model": body.get("model"),
                        "parallel_tool_calls": body.get("parallel_tool_calls", "<absent>"),
                        "tool_calls": len(reply["choices"][0]["message"].get("tool_calls") or []),
                    })
                    self._send(200, reply)
                elif rest == "payments":
                    server._record(run, "payments", {"t": arrived, "body": body})
                    self._send(201, {"status": "charged"})
                else:
                    self._send(404, {"error": {"message": f"no route for POST {self.path}"}})

            def do_GET(self) -> None:  # noqa: N802
                run, _, rest = self.path.removeprefix("/runs/").partition("/")
                if rest.rstrip("/") == "log":
                    self._send(200, server.log(run))
                else:
                    self._send(404, {"error": {"message": f"no route for GET {self.path}"}})

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
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
        }

    def _record(self, run: str, kind: str, entry: dict[str, Any]) -> None:
        with self._lock:
            log = self._logs.setdefault(run, {"model_requests": [], "payments": []})
            log[kind].append(entry)

    def log(self, run_id: str) -> dict[str, list[dict[str, Any]]]:
        with self._lock:
            log = self._logs.get(run_id, {"model_requests": [], "payments": []})
            return {kind: [dict(e) for e in entries] for kind, entries in log.items()}
