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


def sib101_of(lint, tmp_path, code: str) -> dict[int, str]:
    """tool line -> its SIB101 message."""
    found = lint(textwrap.dedent(code), {}, Config(root=str(tmp_path)))
    return {d.loc.line: d.message for d in found if d.code == "SIB101"}


def test_arms_of_a_method_switch_follow_the_literal_passed(lint, tmp_path):
    sib101 = sib101_of(lint, tmp_path, HELPER)
    assert sorted(sib101) == [30, 38, 42, 46]
    assert "POST to https://clinic.example/book via requests" in sib101[30]
    assert "PUT via requests" in sib101[38]
    assert "DELETE via requests" in sib101[42]
    assert "requests" in sib101[46]  # a method chosen at run time: every arm may run


FLAGS = """\
    import requests
    from agents import function_tool

    class Drive:
        def folder_id(self, path: str, create_if_missing: bool = False):
            found = requests.get("https://drive.example/files", params={"q": path}).json()
            if found:
                return found[0]
            if create_if_missing:
                return requests.post("https://drive.example/files", json={"name": path}).json()
            return None

        def download(self, file_id: str, download_path: str | None = None):
            data = requests.get(f"https://drive.example/files/{file_id}").content
            if download_path is not None:
                with open(download_path, "wb") as f:
                    f.write(data)
            return data

        def publish(self, text: str, dry_run: bool = False):
            if not dry_run:
                requests.post("https://drive.example/publish", json={"t": text})

    drive = Drive()

    @function_tool
    def find_folder(path: str) -> str:
        return drive.folder_id(path)

    @function_tool
    def make_folder(path: str) -> str:
        return drive.folder_id(path, create_if_missing=True)

    @function_tool
    def read_file(file_id: str) -> bytes:
        return drive.download(file_id)

    @function_tool
    def save_file(file_id: str) -> bytes:
        return drive.download(file_id, "/tmp/out.bin")

    @function_tool
    def preview(text: str) -> None:
        drive.publish(text, dry_run=True)

    @function_tool
    def publish(text: str) -> None:
        drive.publish(text)

    @function_tool
    def chosen(path: str, create: bool = False) -> str:
        return drive.folder_id(path, create)
"""


def test_arms_guarded_by_a_flag_or_none_follow_the_value_passed_or_defaulted(lint, tmp_path):
    # `if create_if_missing:`, `if download_path is not None:` and `if not dry_run:` arms run on a
    # call path only when the argument given (or the literal default left) lets them.
    sib101 = sib101_of(lint, tmp_path, FLAGS)
    assert sorted(sib101) == [31, 39, 47, 51]
    assert "POST to https://drive.example/files" in sib101[31]
    assert "file write" in sib101[39]
    assert "POST to https://drive.example/publish" in sib101[47]
    assert "POST to https://drive.example/files" in sib101[51]  # the model picks `create`


UNREACHABLE = """\
    import requests
    from agents import function_tool

    def _seo(name: str) -> dict:
        meta = requests.get(f"https://shop.example/categories/{name}").json()
        return meta
        requests.put(f"https://shop.example/categories/{name}", json=meta)

    @function_tool
    def suggest_seo(name: str) -> dict:
        return _seo(name)

    @function_tool
    def retire(name: str) -> str:
        raise NotImplementedError("retire is disabled")
        requests.delete(f"https://shop.example/categories/{name}")

    @function_tool
    def tag_all(names: list[str]) -> str:
        for name in names:
            if not name:
                continue
                requests.delete(f"https://shop.example/categories/{name}")
            requests.post(f"https://shop.example/tags/{name}")
        return "ok"
"""


def test_statements_after_a_return_raise_or_continue_do_not_run(lint, tmp_path):
    sib101 = sib101_of(lint, tmp_path, UNREACHABLE)
    assert sorted(sib101) == [19]
    assert "POST to https://shop.example/tags/{} via requests" in sib101[19]
    assert "DELETE" not in sib101[19]
