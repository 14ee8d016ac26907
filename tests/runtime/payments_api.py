"""A loopback payments API and a re-calling fake model, for the SIB4xx runtime tests.

One `LoopbackServer` (a ThreadingHTTPServer) on 127.0.0.1 (ephemeral port, daemon threads); each run has its own
prefix `/runs/<id>/` and its own settings (`configure`):

* `POST /runs/<id>/v1/<resource>` (JSON or Stripe's form encoding): records a charge *when the
  request arrives*, then answers after `delay` seconds, or never answers (`unanswered`): "hold"
  keeps the connection open until the client hangs up (the "accepted, then slow" case, whatever
  the client's timeout and however loaded the machine), "drop" closes it at once (the answer lost:
  a client's network retry follows at once). Or it answers `fail_status` at once and records
  nothing. An `Idempotency-Key` seen before creates nothing and replays the first answer, as
  Stripe documents.
* `GET /runs/<id>/v1/<resource>?order=...`: the charges recorded for that order (reconciliation).
* `POST /runs/<id>/v1/chat/completions`: the fake model of `fake_model.answer` (every tool called
  once), plus one re-call: when the last tool output reads like a failure ("error", "try again",
  "timed out", "unknown", "failed") and the model has called tools only once, it repeats the same
  calls with new call ids, as a model does that takes "Please try again." at its word.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlsplit

from .fake_model import LoopbackServer, answer, send_json

FAILURE_WORDS = re.compile(r"error|try again|timed out|unknown|failed", re.I)


def model_answer(body: dict[str, Any]) -> dict[str, Any]:
    messages = body.get("messages") or []
    turns = [m for m in messages if m.get("role") == "assistant" and m.get("tool_calls")]
    outputs = [m for m in messages if m.get("role") == "tool"]
    if len(turns) == 1 and outputs and FAILURE_WORDS.search(str(outputs[-1].get("content") or "")):
        calls = [dict(c, id=f"{c['id']}_again") for c in turns[0]["tool_calls"]]
        reply = answer({**body, "messages": []})  # the shape of a tool-calling answer
        reply["choices"][0]["message"] = {"role": "assistant", "content": None, "tool_calls": calls}
        reply["choices"][0]["finish_reason"] = "tool_calls"
        return reply
    return answer(body)


@dataclass
class Run:
    delay: float = 0.0
    fail_status: int = 0
    unanswered: str = ""  # "hold" or "drop" (the module docstring)
    posts: list[dict[str, Any]] = field(default_factory=list)  # every POST: {key, body}
    charges: list[dict[str, Any]] = field(default_factory=list)  # what was created: {id, order, key}
    replies: dict[str, dict[str, Any]] = field(default_factory=dict)  # idempotency key -> first answer


def _until_hung_up(connection: socket.socket, limit: float = 60.0) -> None:
    """Wait until the client closes the connection (it gave up), at most `limit` seconds."""
    connection.settimeout(limit)
    try:
        while connection.recv(1024):
            pass
    except OSError:  # reset, or the limit
        pass


class PaymentsAPI:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._runs: dict[str, Run] = {}
        self._httpd: LoopbackServer | None = None

    def configure(self, run_id: str, delay: float = 0.0, fail_status: int = 0, unanswered: str = "") -> str:
        """Settings of one run; returns its base URL."""
        assert unanswered in ("", "hold", "drop"), unanswered
        with self._lock:
            self._runs[run_id] = Run(delay, fail_status, unanswered)
        return f"{self.base}/runs/{run_id}"

    def run(self, run_id: str) -> Run:
        with self._lock:
            return self._runs[run_id]

    @property
    def base(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def _payment(self, run: Run, resource: str, key: str | None, body: dict[str, Any]) -> tuple[int, dict[str, Any], float]:
        with self._lock:
            run.posts.append({"key": key, "body": body})
            if run.fail_status:
                return run.fail_status, {"error": {"message": "payments unavailable", "type": "api_error"}}, 0.0
            if key is not None and key in run.replies:
                return 200, run.replies[key], run.delay
            charge = {"id": f"pi_{len(run.charges) + 1}", "object": resource.rstrip("s"), "status": "succeeded",
                      "order": body.get("order") or body.get("description"), "amount": body.get("amount")}
            run.charges.append({**charge, "key": key})
            if key is not None:
                run.replies[key] = charge
            return 200, charge, run.delay

    def start(self) -> "PaymentsAPI":
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _route(self) -> tuple[Run | None, str, dict[str, list[str]]]:
                parts = urlsplit(self.path)
                run_id, _, rest = parts.path.removeprefix("/runs/").partition("/")
                with api._lock:
                    run = api._runs.get(run_id)
                return run, rest.rstrip("/"), parse_qs(parts.query)

            def do_POST(self) -> None:  # noqa: N802
                run, rest, _ = self._route()
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                if rest == "v1/chat/completions":
                    self._send(200, model_answer(json.loads(raw or b"{}")))
                    return
                if run is None or not rest.startswith("v1/"):
                    self._send(404, {"error": {"message": f"no route for POST {self.path}"}})
                    return
                if "json" in (self.headers.get("content-type") or ""):
                    body = json.loads(raw or b"{}")
                else:  # Stripe's form encoding
                    body = {k: v[0] for k, v in parse_qs(raw.decode()).items()}
                status, reply, delay = api._payment(run, rest[3:], self.headers.get("Idempotency-Key"), body)
                if run.unanswered and not run.fail_status:  # recorded; no answer will come
                    self.close_connection = True
                    if run.unanswered == "hold":
                        _until_hung_up(self.connection)
                    return
                time.sleep(delay)
                self._send(status, reply)

            def do_GET(self) -> None:  # noqa: N802
                run, rest, query = self._route()
                if run is None:
                    self._send(404, {"error": {"message": "unknown run"}})
                    return
                order = (query.get("order") or [""])[0]
                with api._lock:
                    found = [c for c in run.charges if c["order"] == order]
                self._send(200, {"object": "list", "data": found})

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                send_json(self, status, payload)  # a client that gave up (its timeout): the charge stays

        self._httpd = LoopbackServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._httpd.serve_forever, name="payments-api", daemon=True).start()
        return self

    def close(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
