"""SIB1xx: side effects cancellation cannot stop; the side-effect table; `unstoppable()` for SIB301."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from siblint.analyses.cancellation import Hazard, unstoppable
from siblint.effects import effect_of
from siblint.lint.engine import facts_from_text, new_project
from siblint.model.semantic import Scope
from siblint.model.tools import tools_in
from siblint.settings.config import Config, from_table

from tests.conftest import lint_files

ALL = ("SIB101", "SIB102", "SIB103", "SIB104", "SIB105")


@pytest.fixture
def sib1(lint, tmp_path):
    """sib1(text, files=None, **config) -> [(code, line)] of SIB1xx findings in main.py (SIB105 on)."""

    def run(text: str, files: dict[str, str] | None = None, **options) -> list[tuple[str, int]]:
        config = Config(root=str(tmp_path), select=ALL, **options)
        found = lint(textwrap.dedent(text), {k: textwrap.dedent(v) for k, v in (files or {}).items()}, config)
        return sorted((d.code, d.loc.line) for d in found if d.code.startswith("SIB1"))

    return run


def effects(code: str) -> list[tuple[int, str, bool]]:
    """(line, description, blocking) of every call the table classifies, in the module's functions."""
    facts = facts_from_text(textwrap.dedent(code), "m.py")
    out = []
    for fn in facts.functions.values():
        for site in fn.calls:
            eff = effect_of(site.call, Scope(facts, fn.name), awaited=site.awaited)
            if eff is not None:
                out.append((site.call.loc.line, eff.description, eff.blocking))
    return sorted(out)


# ---- the smallest code for each rule ----------------------------------------------------------

def test_sib101_sync_tool_posting(sib1):
    assert sib1("""\
        import requests
        from agents import function_tool

        @function_tool
        def charge_card(amount: int) -> str:
            requests.post("https://payments.example.com/charges", json={"amount": amount})
            return "charged"
    """) == [("SIB101", 5)]


def test_a_tool_a_later_def_of_its_name_shadows_is_still_the_tool(sib1):
    """evalW23's Kharedo: `@function_tool def place_order` sends a WhatsApp message, the agent lists
    it, then a FastAPI route `def place_order` rebinds the name; the tool was made, and listed, first.
    A later tool of the same name is the name's tool, as Python binds it."""
    text = """\
        from agents import Agent, function_tool
        from fastapi import FastAPI
        from twilio.rest import Client

        client = Client("sid", "token")
        app = FastAPI()

        @function_tool
        def place_order(item: str) -> str:
            client.messages.create(body=item, from_="a", to="b")
            return "placed"

        agent = Agent(name="shop", tools=[place_order])

        @app.post("/place_order")
        def place_order(product_name: str) -> dict:
            return {"ok": product_name}
    """
    assert sib1(text) == [("SIB101", 9)]
    stub = "\n@function_tool\ndef place_order(item: str) -> str:\n    return 'queued'\n"
    assert sib1(textwrap.dedent(text) + stub) == []


def test_sib101_message_and_related_location(lint, tmp_path):
    found = lint(textwrap.dedent("""\
        import requests
        from agents import function_tool

        @function_tool
        def charge_card(amount: int) -> str:
            requests.post("https://payments.example.com/charges", json={"amount": amount})
            return "charged"
    """), config=Config(root=str(tmp_path), select=("SIB101",)))
    (d,) = found
    assert d.message.startswith("charge_card is sync and performs POST to https://payments.example.com/charges via requests")
    assert "make it `async def`" in d.message
    assert [(r.loc.line, r.loc.col) for r in d.related] == [(6, 4)]
    assert d.related[0].message == "charge_card: sync, POST to https://payments.example.com/charges via requests"


def test_sib102_to_thread_of_a_sync_helper(sib1):
    assert sib1("""\
        import asyncio, smtplib
        from agents import function_tool

        def _send(to: str) -> None:
            with smtplib.SMTP("localhost") as smtp:
                smtp.sendmail("bot@example.com", [to], "hello")

        @function_tool
        async def notify(to: str) -> str:
            await asyncio.to_thread(_send, to)
            return "sent"
    """) == [("SIB102", 9)]


def test_sib102_executor_submit_lambda_and_partial(sib1):
    assert sib1("""\
        import asyncio, functools, subprocess, requests
        from concurrent.futures import ThreadPoolExecutor
        from agents import function_tool

        pool = ThreadPoolExecutor()

        @function_tool
        async def a() -> str:
            await asyncio.to_thread(lambda: requests.delete("https://api.example.com/x/1"))
            return "ok"

        @function_tool
        async def b() -> str:
            await asyncio.get_running_loop().run_in_executor(None, functools.partial(subprocess.run, ["make"]))
            return "ok"

        @function_tool
        async def c() -> str:
            pool.submit(requests.put, "https://api.example.com/x", data="1")
            return "ok"
    """) == [("SIB102", 8), ("SIB102", 13), ("SIB102", 18)]


def test_a_thread_the_tool_starts_runs_its_target_with_its_args(sib1):
    # W13's hotel desk: `_run` starts `threading.Thread(target=self._later, args=(...))`, whose target
    # sends the email; nothing cancels a started thread. A thread over a pure target is no effect.
    assert sib1("""\
        import asyncio, smtplib, threading
        from agents import function_tool

        def _send(to: str) -> None:
            with smtplib.SMTP("localhost") as smtp:
                smtp.sendmail("bot@example.com", [to], "hello")

        def _tally(n: int) -> int:
            return n + 1

        class Desk:
            def later(self, to: str) -> None:
                _send(to)

            @function_tool
            def upgrade(self, to: str) -> str:
                threading.Thread(target=self.later, args=(to,), daemon=True).start()
                return "processing"

        @function_tool
        async def remind(to: str) -> str:
            threading.Timer(5.0, _send, kwargs={"to": to}).start()
            return "scheduled"

        @function_tool
        def count(n: int) -> str:
            threading.Thread(target=_tally, args=(n,)).start()
            return "counted"
    """) == [("SIB101", 16), ("SIB102", 21)]


def test_a_client_method_passed_to_a_helper_that_calls_it(sib1):
    # W14's SRE agent: `_create_or_patch(apps_v1().create_namespaced_deployment, ...)` calls
    # `create_fn(namespace, doc)`; a read method passed the same way is no effect.
    assert sib1("""\
        from kubernetes import client as k8s
        from langchain_core.tools import tool

        def apps_v1():
            return k8s.AppsV1Api()

        def _create_or_patch(create_fn, doc):
            create_fn("default", doc)
            return "created"

        def _first(read_fn, name):
            return read_fn(name, "default")

        @tool
        def apply_manifest(doc: dict) -> str:
            \"\"\"Apply a manifest.\"\"\"
            return _create_or_patch(apps_v1().create_namespaced_deployment, doc)

        @tool
        def show(name: str) -> str:
            \"\"\"Show a deployment.\"\"\"
            return str(_first(apps_v1().read_namespaced_deployment, name))
    """) == [("SIB101", 15)]


def test_a_factory_parameter_a_nested_tool_uses_is_what_its_callers_pass(tmp_path):
    # W14's SRE agent: `make_slack_tool(notifier)` nests `@tool def send(...)` calling
    # `notifier.send_alert(...)`, and another module passes `make_notifier()` for it.
    files = {
        "notify.py": """\
            from slack_sdk import WebClient

            class Notifier:
                def __init__(self, token):
                    self._client = WebClient(token=token)

                def send_alert(self, text):
                    return self._client.chat_postMessage(channel="#alerts", text=text)

            def make_notifier():
                return Notifier("xoxb")
        """,
        "slack_tool.py": """\
            from langchain_core.tools import tool

            def make_slack_tool(notifier):
                @tool
                def send(text: str) -> str:
                    \"\"\"Send an alert.\"\"\"
                    notifier.send_alert(text)
                    return "sent"
                return send
        """,
        "app.py": """\
            from notify import make_notifier
            from slack_tool import make_slack_tool

            slack = make_slack_tool(make_notifier())
        """,
    }
    config = Config(root=str(tmp_path), select=("SIB101",))
    assert [(d.code, d.loc.line) for d in lint_files(tmp_path, files, "slack_tool.py", config)] == [("SIB101", 5)]
    files["app.py"] = files["app.py"].replace("make_slack_tool(make_notifier())", "make_slack_tool(print)")
    assert lint_files(tmp_path / "twin", files, "slack_tool.py", config) == []


def test_each_step_of_a_pipeline_a_loop_runs(sib1):
    # W14's tf-out: `for step in build_pipeline(s): ctx = step(ctx)` over `[Reader(s).run, Writer(s).run]`.
    assert sib1("""\
        import subprocess
        from agents import function_tool

        class Reader:
            def run(self, ctx):
                return ctx

        class Applier:
            def run(self, ctx):
                subprocess.run(["terraform", "apply", "-auto-approve"], check=True)
                return ctx

        def build_pipeline():
            return [Reader().run, Applier().run]

        @function_tool
        def run_pipeline() -> str:
            ctx = {}
            for step in build_pipeline():
                ctx = step(ctx)
            return "done"
    """) == [("SIB101", 17)]


def test_clients_a_project_base_tool_class_holds_and_ad_platforms(sib1):
    # W18's ad-campaign agent: `class CreateContactTool(HubSpotLangchainTool)` calls
    # `self.client.crm.contacts.basic_api.create(...)`, the client set in the base's `__init__`;
    # Google Ads `mutate_*` through a service; Meta's `AdAccount(id).create_campaign(...)`, whose
    # `Campaign(id).update({...})` only sets fields locally.
    assert sib1("""\
        import hubspot
        from facebook_business.adobjects.adaccount import AdAccount
        from facebook_business.adobjects.campaign import Campaign
        from google.ads.googleads.client import GoogleAdsClient
        from langchain_core.tools import BaseTool

        class HubSpotTool(BaseTool):
            name: str = "hubspot"
            description: str = "HubSpot."
            client: hubspot.Client = None

            def __init__(self, **data):
                super().__init__(**data)
                self.client = hubspot.Client.create(access_token="t")

        class CreateContact(HubSpotTool):
            name: str = "create_contact"

            def _run(self, properties: dict) -> str:
                return str(self.client.crm.contacts.basic_api.create(simple_public_object_input=properties))

        class ListContacts(HubSpotTool):
            name: str = "list_contacts"

            def _run(self) -> str:
                return str(self.client.crm.contacts.basic_api.get_page())

        class CreateCampaign(BaseTool):
            name: str = "create_campaign"
            description: str = "Create."

            def _run(self, customer_id: str, ops: list) -> str:
                client = GoogleAdsClient.load_from_dict({})
                client.get_service("CampaignService").mutate_campaigns(customer_id=customer_id, operations=ops)
                AdAccount("act_1").create_campaign(params={"name": "n"})
                Campaign("1").update({"status": "PAUSED"})
                return "ok"
    """) == [("SIB101", 19), ("SIB101", 32)]


def test_sib102_aiofiles_writes_in_its_own_thread(sib1):
    # evalS1's write_skill_file: aiofiles runs each operation with `loop.run_in_executor`
    # (aiofiles 25.1.0, threadpool/utils.py:43), so a cancelled `await f.write(...)` leaves the
    # thread writing, as `asyncio.to_thread` does; an awaited async client is cancellable.
    assert sib1("""\
        import aiofiles, aiofiles.os, httpx
        from agents import function_tool

        @function_tool
        async def write_note(path: str, text: str) -> str:
            async with aiofiles.open(path, "w") as f:
                await f.write(text)
            return "written"

        @function_tool
        async def drop_note(path: str) -> str:
            await aiofiles.os.remove(path)
            return "removed"

        @function_tool
        async def read_note(path: str) -> str:
            async with aiofiles.open(path) as f:
                return await f.read()

        @function_tool
        async def post_note(text: str) -> str:
            async with httpx.AsyncClient() as c:
                await c.post("https://notes.example.com/notes", json={"text": text})
            return "posted"
    """) == [("SIB102", 5), ("SIB102", 11)]


def test_sib103_blocking_call_in_async_tool(sib1):
    assert sib1("""\
        import requests
        from agents import function_tool

        @function_tool
        async def charge_card(amount: int) -> str:
            requests.post("https://payments.example.com/charges", json={"amount": amount})
            return "charged"
    """) == [("SIB103", 5)]


def test_sib103_after_an_await_says_so(lint, tmp_path):
    # Cancellation can be delivered at the first await, before the blocking call starts; once it has
    # started, nothing stops it (the message says which).
    found = lint(textwrap.dedent("""\
        import asyncio, requests
        from agents import function_tool

        @function_tool
        async def charge_card(amount: int) -> str:
            await asyncio.sleep(0)
            requests.post("https://payments.example.com/charges", json={"amount": amount})
            return "charged"
    """), None, Config(root=str(tmp_path)))
    assert [(d.code, d.loc.line) for d in found] == [("SIB103", 5)]
    assert "with a blocking call after its last await" in found[0].message


@pytest.mark.parametrize("before, flagged", [
    ("if slot is None:\n        slot = await free_slot()", True),  # SalesShortcut: the other arm never awaits
    ("for _ in range(retries):\n        await asyncio.sleep(0)", True),  # the loop may not run
    ("try:\n        slot = await free_slot()\n    except ValueError:\n        slot = None", True),
    ("async with lock:\n        await asyncio.sleep(0)", False),  # a with body runs whenever it is reached
    ("try:\n        pass\n    finally:\n        await asyncio.sleep(0)", False),
])
def test_sib103_only_an_await_on_every_path_comes_first(lint, tmp_path, before, flagged):
    # Cancellation is delivered at an await only when the path taken has one before the blocking call:
    # `flagged` says "before any await", else the call is after the tool's last await.
    code = """\
        import asyncio, requests
        from agents import function_tool

        lock = asyncio.Lock()

        async def free_slot() -> str:
            return "9:00"

        @function_tool
        async def book(slot: str | None = None, retries: int = 0) -> str:
            BEFORE
            requests.post("https://calendar.example.com/events", json={"slot": slot})
            return "booked"
    """
    indented = before.replace("\n", "\n        ")
    found = lint(textwrap.dedent(code.replace("BEFORE", indented)), None, Config(root=str(tmp_path)))
    assert [(d.code, d.loc.line) for d in found] == [("SIB103", 10)]
    assert ("before any await" if flagged else "after its last await") in found[0].message


@pytest.mark.parametrize("handler", [
    "except asyncio.CancelledError:",
    "except asyncio.exceptions.CancelledError:",
    "except CancelledError:",
    "except BaseException:",
    "except:",
    "except (ValueError, asyncio.CancelledError):",
])
def test_sib104_swallowing_before_the_side_effect(sib1, handler):
    assert sib1(f"""\
        import asyncio, httpx
        from asyncio import CancelledError
        from agents import function_tool

        client = httpx.AsyncClient()

        @function_tool
        async def charge_card(amount: int) -> str:
            try:
                await asyncio.sleep(1)
            {handler}
                pass
            await client.post("https://payments.example.com/charges", json={{"amount": amount}})
            return "charged"
    """) == [("SIB104", 8)]


def test_sib104_side_effect_in_the_handler_and_suppress(sib1):
    assert sib1("""\
        import asyncio, contextlib, httpx
        from agents import function_tool

        client = httpx.AsyncClient()

        @function_tool
        async def a(amount: int) -> str:
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:
                await client.post("https://payments.example.com/charges")
            return "charged"

        @function_tool
        async def b(amount: int) -> str:
            with contextlib.suppress(asyncio.CancelledError):
                await client.post("https://payments.example.com/charges")
            return "charged"
    """) == [("SIB104", 7), ("SIB104", 15)]


@pytest.mark.parametrize("handler", ["except Exception:", "except asyncio.CancelledError:\n                raise"])
def test_sib104_not_for_except_exception_or_reraise(sib1, handler):
    assert sib1(f"""\
        import asyncio, httpx
        from agents import function_tool

        client = httpx.AsyncClient()

        @function_tool
        async def charge_card(amount: int) -> str:
            try:
                await asyncio.sleep(1)
            {handler}
            await client.post("https://payments.example.com/charges")
            return "charged"
    """) == []


SHIELDED = """\
    import asyncio, httpx
    from agents import function_tool

    client = httpx.AsyncClient()

    async def do_charge(amount: int) -> None:
        await client.post("https://payments.example.com/charges", json={"amount": amount})

    @function_tool
    async def charge_card(amount: int) -> str:
        await asyncio.shield(do_charge(amount))
        return "charged"

    @function_tool
    async def refund(order: str) -> str:
        task = asyncio.create_task(client.post("https://payments.example.com/refunds"))
        await asyncio.shield(task)
        return "ok"

    @function_tool
    async def audit(order: str) -> str:
        try:
            return await client.get("https://payments.example.com/orders")
        finally:
            await client.post("https://audit.example.com/log")
"""


def test_sib105_shield_task_and_finally(sib1):
    assert sib1(SHIELDED) == [("SIB105", 10), ("SIB105", 15), ("SIB105", 21)]


def test_sib105_is_off_by_default(lint, tmp_path):
    found = lint(textwrap.dedent(SHIELDED), config=Config(root=str(tmp_path)))
    assert [d.code for d in found if d.code.startswith("SIB1")] == []


def test_sib105_in_aexit_of_a_project_context_manager(sib1):
    assert sib1("""\
        import httpx
        from agents import function_tool

        class Receipt:
            async def __aenter__(self):
                return self
            async def __aexit__(self, *exc):
                async with httpx.AsyncClient() as c:
                    await c.post("https://mail.example.com/receipts")

        @function_tool
        async def checkout(cart: str) -> str:
            async with Receipt():
                return cart.upper()
    """) == [("SIB105", 12)]


def test_awaited_async_side_effect_is_cancellable(sib1):
    assert sib1("""\
        import httpx
        from agents import function_tool

        async def post_charge(amount: int) -> None:
            async with httpx.AsyncClient() as client:
                await client.post("https://payments.example.com/charges", json={"amount": amount})

        @function_tool
        async def charge_card(amount: int) -> str:
            await post_charge(amount)
            return "charged"
    """) == []


def test_archives_written_and_signals_sent_are_effects_their_reads_and_probes_are_not():
    # An archive built in memory and a child of the tool's own stopped (corpus: the SDK's test
    # helper `_tar_bytes`, RA.Aid's ripgrep timeout) write and stop nothing of anyone else's.
    assert effects("""\
        import io, os, shutil, signal, subprocess, tarfile, tempfile, zipfile

        def f(p, root, pid):
            zipfile.ZipFile(p, "w")
            zipfile.ZipFile(p)
            tarfile.open(p, "w:gz")
            tarfile.open(p, "r:gz")
            shutil.make_archive(p, "zip", root)
            os.kill(pid, signal.SIGTERM)
            os.kill(pid, 0)
            with tempfile.TemporaryDirectory() as tmp:
                zipfile.ZipFile(os.path.join(tmp, "x.zip"), "w")
            buffer = io.BytesIO()
            zipfile.ZipFile(buffer, "w")
            tarfile.open(fileobj=buffer, mode="w")
            proc = subprocess.Popen(["rg", "x"])
            os.killpg(os.getpgid(proc.pid), signal.SIGTERM)
            proc.kill()
    """) == [(4, "an archive written", True), (6, "an archive written", True), (8, "an archive written", True),
             (9, "a signal to a process (os.kill)", True)]


def test_sib103_an_async_tool_zipping_a_folder(sib1):
    # evalS1's package_skill: an async tool with no await writes a zip archive.
    assert sib1("""\
        import zipfile
        from pathlib import Path
        from agents import function_tool

        @function_tool
        async def package_skill(name: str) -> str:
            folder = Path("skills") / name
            with zipfile.ZipFile(f"skills/{name}.zip", "w", zipfile.ZIP_DEFLATED) as zf:
                for p in folder.rglob("*"):
                    zf.write(p, p.relative_to(folder))
            return "packaged"
    """) == [("SIB103", 6)]


def test_a_client_unpacked_from_a_helpers_tuple(sib1):
    # evalK1's radbot: `client, err = client_or_error(get_lidarr_client, "Lidarr")`, the helper
    # calling the factory it is given and returning `(client, None)`; the error item is no client.
    assert sib1("""\
        import requests
        from typing import Any, Callable, Optional, Tuple, TypeVar
        from agents import function_tool

        T = TypeVar("T")

        class LidarrClient:
            def __init__(self, url: str):
                self._session = requests.Session()
                self.url = url

            def add_artist(self, data: dict) -> Any:
                return self._session.post(f"{self.url}/api/v1/artist", json=data, timeout=15).json()

        def get_lidarr_client() -> Optional[LidarrClient]:
            return LidarrClient("http://lidarr:8686")

        def client_or_error(get_client_fn: Callable[[], Optional[T]], name: str) -> Tuple[Optional[T], Optional[dict]]:
            client = get_client_fn()
            if client is None:
                return None, {"status": "error", "message": f"{name} not configured"}
            return client, None

        @function_tool
        def add_artist(artist_id: str) -> dict:
            client, err = client_or_error(get_lidarr_client, "Lidarr")
            if err:
                return err
            return client.add_artist({"id": artist_id})

        @function_tool
        def report(artist_id: str) -> dict:
            client, err = client_or_error(get_lidarr_client, "Lidarr")
            return err.update({"id": artist_id}) or {}
    """) == [("SIB101", 25)]


# ---- precision --------------------------------------------------------------------------------

def test_demo_stubs_with_mutating_names_are_not_flagged(sib1):
    assert sib1("""\
        from agents import function_tool

        @function_tool
        def send_email(to: str, body: str) -> str:
            return f"(demo) would send an email to {to}"

        @function_tool
        async def charge_card(amount: int) -> str:
            print("charging", amount)
            return "charged"

        @function_tool
        def delete_account(user: str) -> str:
            \"\"\"Delete the account.\"\"\"
            return "deleted"
    """) == []


def test_read_only_tools_are_not_flagged(sib1):
    assert sib1("""\
        import json, sqlite3, requests, httpx
        from pathlib import Path
        from agents import function_tool

        @function_tool
        def weather(city: str) -> str:
            return requests.get(f"https://wttr.in/{city}").text

        @function_tool
        def orders(customer: str) -> str:
            cur = sqlite3.connect("shop.db").cursor()
            cur.execute("SELECT id FROM orders WHERE customer = ?", (customer,))
            return json.dumps(cur.fetchall())

        @function_tool
        def policy(name: str) -> str:
            with open(f"policies/{name}.md") as fh:
                return fh.read() + Path("x.md").read_text()

        @function_tool
        def head(url: str) -> str:
            return str(requests.request("HEAD", url).status_code) + httpx.Client().get(url).text
    """) == []


def test_idempotent_schema_setup_is_not_a_side_effect():
    # `CREATE TABLE IF NOT EXISTS` before a read (strands-agents/samples' get_agenda), as directory
    # creation: repeating it changes nothing. A plain CREATE still writes.
    code = """\
        import sqlite3

        def agenda(day):
            cur = sqlite3.connect("a.db").cursor()
            cur.execute("CREATE TABLE IF NOT EXISTS appointments (id TEXT PRIMARY KEY, date TEXT)")
            cur.execute("create index if not exists by_date on appointments (date)")
            cur.execute("CREATE TABLE appointments_copy (id TEXT)")
            return cur.execute("SELECT * FROM appointments WHERE date = ?", (day,)).fetchall()
    """
    assert [(line, what) for line, what, _ in effects(code)] == [(7, "SQL CREATE")]


def test_look_alike_decorator_and_local_names(sib1):
    assert sib1("""\
        import requests
        from mylib import function_tool

        @function_tool
        def charge_card(amount: int) -> str:
            requests.post("https://payments.example.com/charges")
            return "charged"

        def Agent(*tools):
            return tools

        def tool(fn):
            return fn

        @tool
        def refund(order: str) -> str:
            requests.post("https://payments.example.com/refunds")
            return "ok"

        agent = Agent(charge_card, refund)
    """) == []


def test_unknown_receivers_and_statements_are_not_guessed(sib1):
    # `client` comes from nowhere we can see, the SQL text is unknown, `.save()` is ambiguous.
    assert sib1("""\
        from agents import function_tool

        @function_tool
        def a(client, query: str, doc) -> str:
            client.post("https://api.example.com/x")
            client.cursor().execute(query)
            doc.save()
            return "ok"
    """) == []


def test_project_method_named_like_a_table_entry_is_followed_not_matched(sib1):
    assert sib1("""\
        from agents import function_tool

        class Ledger:
            def commit(self) -> str:
                return "noop"

        ledger = Ledger()

        @function_tool
        def close_day() -> str:
            return ledger.commit()
    """) == []


# ---- following calls ----------------------------------------------------------------------------

HELPERS = """\
    import requests

    def post_charge(amount: int) -> None:
        requests.post("https://payments.example.com/charges", json={"amount": amount})
"""


def test_cross_module_helper_sync_and_async_tools(sib1):
    assert sib1("""\
        from helpers import post_charge
        from agents import function_tool

        @function_tool
        def charge_sync(amount: int) -> str:
            post_charge(amount)
            return "charged"

        @function_tool
        async def charge_async(amount: int) -> str:
            post_charge(amount)
            return "charged"
    """, files={"helpers.py": HELPERS}) == [("SIB101", 5), ("SIB103", 10)]


def test_cross_module_package_relative_import_reports_the_helper_location(tmp_path):
    files = {
        "app/__init__.py": "",
        "app/billing.py": HELPERS,
        "app/tools.py": """\
            from agents import function_tool
            from .billing import post_charge as pc

            @function_tool
            def charge_card(amount: int) -> str:
                pc(amount)
                return "charged"
        """,
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(textwrap.dedent(text))
    config = Config(root=str(tmp_path))
    project = new_project(config)
    path = str(tmp_path / "app/tools.py")
    facts = facts_from_text((tmp_path / "app/tools.py").read_text(), path)
    project.add(facts)
    (tool,) = tools_in(facts)
    (hazard,) = unstoppable(tool, project, config)
    assert isinstance(hazard, Hazard)
    assert (hazard.reason, hazard.description) == ("sync_thread", "sync, POST to https://payments.example.com/charges via requests")
    assert Path(hazard.path) == tmp_path / "app/billing.py" and hazard.loc.line == 4
    assert hazard.tool is tool and hazard.via == ("post_charge",)


def test_depth_is_bounded_and_cycles_terminate(sib1):
    chain = """\
        import requests
        from agents import function_tool

        def f1(): f2()
        def f2(): f3()
        def f3(): f4()
        def f4(): requests.post("https://x.example.com")  # depth 4: followed
        def g1(): g2()
        def g2(): g3()
        def g3(): g4()
        def g4(): g5()
        def g5(): requests.post("https://x.example.com")  # depth 5: beyond the bound
        def ping(): pong()
        def pong(): ping()

        @function_tool
        def near() -> str:
            f1()
            return "ok"

        @function_tool
        def far() -> str:
            g1()
            ping()
            return "ok"
    """
    assert sib1(chain) == [("SIB101", 17)]


def test_methods_of_self_and_of_project_objects(sib1):
    assert sib1("""\
        import httpx
        from agents import function_tool

        class Billing:
            def __init__(self) -> None:
                self.http = httpx.Client(base_url="https://payments.example.com")

            def charge(self, amount: int) -> None:
                self.http.post("/charges", json={"amount": amount})

        billing = Billing()

        @function_tool
        async def charge_card(amount: int) -> str:
            billing.charge(amount)
            return "charged"
    """) == [("SIB103", 14)]


def test_function_tool_constructor_and_nested_call_form(sib1):
    assert sib1("""\
        import requests
        from agents import FunctionTool, function_tool

        async def invoke(ctx, args: str) -> str:
            requests.post("https://hooks.example.com/deploy", data=args)
            return "ok"

        deploy = FunctionTool(name="deploy", description="d", params_json_schema={}, on_invoke_tool=invoke)

        def make_tools():
            def wipe(path: str) -> str:
                import shutil
                shutil.rmtree(path)
                return "ok"
            return [function_tool(wipe)]
    """) == [("SIB101", 11), ("SIB103", 8)]  # a call-form tool of a nested function: at its def


# ---- configuration ------------------------------------------------------------------------------

CONFIGURED = """\
    from agents import function_tool
    from mylib.billing import charge
    from mylib import Mailer
    import requests

    @function_tool
    def a(amount: int) -> str:
        charge(amount)
        return "ok"

    @function_tool
    def b(to: str) -> str:
        m = Mailer()
        m.send(to)
        return "ok"

    @function_tool
    def c() -> str:
        requests.post("https://internal.example.com/metrics")
        return "ok"
"""


def test_extend_side_effect_calls_exact_method_and_prefix(sib1):
    assert sib1(CONFIGURED) == [("SIB101", 18)]
    assert sib1(CONFIGURED, extend_side_effect_calls=("mylib.billing.charge", "mylib.Mailer.send")) == [
        ("SIB101", 7), ("SIB101", 12), ("SIB101", 18)]
    assert sib1(CONFIGURED, extend_side_effect_calls=("mylib.*",)) == [("SIB101", 7), ("SIB101", 12), ("SIB101", 18)]


def test_pure_calls_remove_table_entries_and_project_functions(sib1):
    assert sib1(CONFIGURED, pure_calls=("requests.post",)) == []
    assert sib1("""\
        from helpers import post_charge
        from agents import function_tool

        @function_tool
        def charge_sync(amount: int) -> str:
            post_charge(amount)
            return "charged"
    """, files={"helpers.py": HELPERS}, pure_calls=("helpers.*",)) == []


def test_config_keys_from_pyproject_table(tmp_path):
    config = from_table({"extend-side-effect-calls": ["mylib.billing.charge"], "pure-calls": ["requests.*"]}, str(tmp_path))
    assert config.extend_side_effect_calls == ("mylib.billing.charge",)
    assert config.pure_calls == ("requests.*",)


# ---- the table ------------------------------------------------------------------------------------

def test_table_http_spellings():
    assert effects("""\
        import requests, httpx, aiohttp, urllib.request
        from requests import Session

        async def f(url, body):
            requests.request("POST", "https://a.example.com/x")
            requests.request(method="delete", url=url)
            requests.request("GET", url)
            s = Session()
            s.patch(url)
            async with httpx.AsyncClient() as client:
                await client.put(url)
                await client.get(url)
            async with aiohttp.ClientSession() as session:
                async with session.post(url, json=body) as resp:
                    pass
            urllib.request.urlopen(url, data=body)
            urllib.request.urlopen(urllib.request.Request(url, method="PUT"))
            urllib.request.urlopen(url)
    """) == [
        (5, "POST to https://a.example.com/x via requests", True),
        (6, "DELETE via requests", True),
        (9, "PATCH via requests", True),
        (11, "PUT via httpx", False),
        (14, "POST via aiohttp", False),
        (16, "POST via urllib", True),
        (17, "PUT via urllib", True),
    ]


def test_table_files_sql_and_orm():
    assert effects("""\
        import sqlite3, shutil, os
        from pathlib import Path
        from sqlalchemy import insert, text

        def f(p, table, session, cursor):
            open(p, "w")
            open(p, mode="a")
            open(p, "rb")
            open(p)
            Path(p).write_text("x")
            Path(p).read_text()
            shutil.move(p, "b")
            os.remove(p)
            cursor.execute(f"INSERT INTO {table} VALUES (?)", (1,))
            sql = "  -- refresh\\n  UPDATE t SET a = 1"
            cursor.execute(sql)
            cursor.execute("WITH old AS (SELECT 1) DELETE FROM t")
            cursor.execute("select * from t")
            session.execute(text("DELETE FROM t"))
            session.execute(insert(table).values(a=1))
            session.commit()
            Order.objects.create(a=1)
            Order.objects.filter(a=1).update(a=2)
            Order.objects.filter(a=1).first()
            db.orders.insert_one({"a": 1})
            db.orders.find_one({"a": 1})
    """) == [
        (6, "a file write", True),
        (7, "a file write", True),
        (10, "a file write", True),
        (12, "a file change", True),
        (13, "a file change", True),
        (14, "SQL INSERT", True),
        (16, "SQL UPDATE", True),
        (17, "SQL DELETE", True),
        (19, "SQL DELETE", True),
        (20, "SQL INSERT", True),
        (21, "a database commit", True),
        (22, "an ORM write (Django)", True),
        (23, "an ORM write (Django)", True),
        (25, "a MongoDB write", True),
    ]


def test_table_sdk_mutations_and_async_drivers():
    assert effects("""\
        import stripe, boto3, asyncpg, subprocess, asyncio
        from twilio.rest import Client
        from sendgrid import SendGridAPIClient
        from slack_sdk import WebClient
        from github import Github
        from googleapiclient.discovery import build

        async def f(conn, msg):
            stripe.Charge.create(amount=100, currency="usd")
            stripe.Charge.retrieve("ch_1")
            Client("sid", "token").messages.create(to="+1", body="hi")
            SendGridAPIClient("key").send(msg)
            WebClient(token="t").chat_postMessage(channel="#c", text="hi")
            boto3.client("s3").put_object(Bucket="b", Key="k", Body=b"")
            boto3.client("s3").get_object(Bucket="b", Key="k")
            repo = Github("t").get_repo("o/r")
            repo.create_issue(title="bug")
            await conn.execute("INSERT INTO t VALUES ($1)", 1)
            subprocess.run(["make", "deploy"])
            await asyncio.create_subprocess_exec("make", "deploy")
            gmail = build("gmail", "v1", credentials=None)
            gmail.users().messages().send(userId="me", body=msg).execute()
            gmail.users().messages().list(userId="me").execute()
    """) == [
        (9, "stripe.Charge.create (payments)", True),
        (11, "create (messaging)", True),
        (12, "email via sendgrid", True),
        (13, "chat_postMessage (messaging)", True),
        (14, "put_object (AWS)", True),
        (17, "repo.create_issue (ticketing)", True),
        (18, "SQL INSERT", False),
        (19, "a subprocess", True),
        (20, "a subprocess", False),
        (22, "messages.send (Google API)", True),
    ]


# ---- realistic agent modules --------------------------------------------------------------------

SUPPORT_DB = """\
    import sqlite3

    DB = "support.db"

    def open_ticket(customer: str, summary: str) -> int:
        conn = sqlite3.connect(DB)
        cur = conn.cursor()
        cur.execute("INSERT INTO tickets (customer, summary) VALUES (?, ?)", (customer, summary))
        conn.commit()
        return cur.lastrowid

    def ticket_status(ticket_id: int) -> str:
        conn = sqlite3.connect(DB)
        row = conn.execute("SELECT status FROM tickets WHERE id = ?", (ticket_id,)).fetchone()
        return row[0] if row else "unknown"
"""

SUPPORT_AGENT = """\
    import asyncio
    import os

    import httpx
    from agents import Agent, Runner, function_tool
    from sendgrid import SendGridAPIClient
    from sendgrid.helpers.mail import Mail

    from support_db import open_ticket, ticket_status

    NOTIFY_URL = os.environ.get("NOTIFY_URL", "https://hooks.example.com/support")


    @function_tool
    def create_ticket(customer: str, summary: str) -> str:
        \"\"\"Open a support ticket for the customer.\"\"\"
        ticket = open_ticket(customer, summary)
        return f"ticket {ticket} opened"


    @function_tool
    def get_ticket_status(ticket_id: int) -> str:
        \"\"\"Look up a ticket.\"\"\"
        return ticket_status(ticket_id)


    @function_tool
    async def email_customer(to: str, subject: str, body: str) -> str:
        \"\"\"Send an email to the customer.\"\"\"
        message = Mail(from_email="support@example.com", to_emails=to, subject=subject, html_content=body)
        sg = SendGridAPIClient(os.environ["SENDGRID_API_KEY"])
        response = sg.send(message)
        return f"sent ({response.status_code})"


    @function_tool
    async def page_on_call(reason: str) -> str:
        \"\"\"Page the on-call engineer.\"\"\"
        async with httpx.AsyncClient(timeout=10) as client:
            await client.post(NOTIFY_URL, json={"reason": reason})
        return "paged"


    @function_tool
    async def escalate(ticket_id: int) -> str:
        \"\"\"Escalate a ticket; the status update must survive a cancelled run.\"\"\"
        status = await asyncio.to_thread(ticket_status, ticket_id)
        try:
            await asyncio.sleep(0.1)
        except asyncio.CancelledError:
            pass
        async with httpx.AsyncClient() as client:
            await client.patch(f"{NOTIFY_URL}/tickets/{ticket_id}", json={"status": status})
        return "escalated"


    support_agent = Agent(
        name="support",
        instructions="Help customers.",
        tools=[create_ticket, get_ticket_status, email_customer, page_on_call, escalate],
    )
"""


def test_realistic_support_agent(sib1):
    assert sib1(SUPPORT_AGENT, files={"support_db.py": SUPPORT_DB}) == [
        ("SIB101", 15),  # create_ticket: INSERT + commit in support_db.open_ticket, in a worker thread
        ("SIB103", 28),  # email_customer: sendgrid's blocking send on the event loop
        ("SIB104", 45),  # escalate: swallows cancellation, then PATCHes
    ]


def test_realistic_support_agent_related_locations(lint, tmp_path):
    found = lint(textwrap.dedent(SUPPORT_AGENT), {"support_db.py": textwrap.dedent(SUPPORT_DB)},
                 Config(root=str(tmp_path), select=("SIB101",)))
    (d,) = found
    assert [(Path(r.path).name, r.loc.line) for r in d.related] == [("support_db.py", 8), ("support_db.py", 9)]
    assert d.related[0].message == "create_ticket: sync, SQL INSERT (via open_ticket)"
    assert d.message.startswith("create_ticket is sync and performs SQL INSERT in open_ticket (and 1 more)")


OPS_AGENT = """\
    import asyncio
    import subprocess
    from functools import partial
    from pathlib import Path

    import boto3
    from agents import Agent, function_tool

    REPORTS = Path("reports")
    s3 = boto3.client("s3")


    def _upload(name: str, data: bytes) -> None:
        s3.put_object(Bucket="ops-reports", Key=name, Body=data)


    class Runbook:
        def __init__(self, root: Path) -> None:
            self.root = root

        def read(self, name: str) -> str:
            return (self.root / f"{name}.md").read_text()


    runbook = Runbook(Path("runbooks"))


    @function_tool
    async def read_runbook(name: str) -> str:
        return runbook.read(name)


    @function_tool
    async def publish_report(name: str, text: str) -> str:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, partial(_upload, name, text.encode()))
        return "published"


    @function_tool
    async def restart_service(service: str) -> str:
        proc = await asyncio.create_subprocess_exec("systemctl", "restart", service)
        await proc.wait()
        return "restarted"


    @function_tool
    async def save_note(name: str, text: str) -> str:
        (REPORTS / name).write_text(text)
        return "saved"


    @function_tool
    def git_status() -> str:
        return subprocess.run(["git", "status"], capture_output=True, text=True).stdout


    ops = Agent(name="ops", tools=[read_runbook, publish_report, restart_service, save_note, git_status])
"""


def test_realistic_ops_agent(sib1):
    assert sib1(OPS_AGENT) == [
        # git_status (line 54) runs a literal read-only command (`git status`): not a side effect.
        ("SIB102", 34),  # publish_report: S3 upload in an executor thread
        ("SIB103", 48),  # save_note: blocking file write before any await
    ]
