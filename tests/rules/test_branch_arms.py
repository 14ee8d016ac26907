"""`if method == "GET":` arms of a generic helper (issue 23): on a call path that passes the
parameter a literal, the arm its test rejects does not run. Each shape beside its writing twin."""

from __future__ import annotations

import textwrap

from siblint.settings.config import Config

HELPER = """\
    import requests
    from agents import function_tool

    class Backend:
        def _call_api(self, endpoint: str, method: str = "GET", payload: dict | None = None):
            url = f"https://clinic.example/{endpoint}"
            if method == "GET":
                return requests.get(url, params=payload).json()
            else:
                return requests.post(url, json=payload).json()

        def _send(self, path: str, verb: str):
            if verb.upper() in ("GET", "HEAD"):
                return requests.get(path)
            elif verb != "DELETE":
                return requests.put(path)
            return requests.delete(path)

    api = Backend()

    @function_tool
    def get_slots(doctor: str) -> dict:
        return api._call_api("slots", "GET", {"doctor": doctor})

    @function_tool
    def list_doctors() -> dict:
        return api._call_api("doctors")

    @function_tool
    def book(doctor: str) -> dict:
        return api._call_api("book", "POST", {"doctor": doctor})

    @function_tool
    def head_page(path: str) -> dict:
        return api._send(path, "head")

    @function_tool
    def replace_page(path: str) -> dict:
        return api._send(path, "put")

    @function_tool
    def remove_page(path: str) -> dict:
        return api._send(path, "DELETE")

    @function_tool
    def any_method(path: str, verb: str) -> dict:
        return api._send(path, verb)
"""


def test_arms_of_a_method_switch_follow_the_literal_passed(lint, tmp_path):
    found = lint(textwrap.dedent(HELPER), {}, Config(root=str(tmp_path)))
    sib101 = {d.loc.line: d.message for d in found if d.code == "SIB101"}
    assert sorted(sib101) == [30, 38, 42, 46]
    assert "POST to https://clinic.example/book via requests" in sib101[30]
    assert "PUT via requests" in sib101[38]
    assert "DELETE via requests" in sib101[42]
    assert "requests" in sib101[46]  # a method chosen at run time: every arm may run
