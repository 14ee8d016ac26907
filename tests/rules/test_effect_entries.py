"""The effect table's entries for the libraries real agent tools call: each on the smallest code
(what `effect_of` returns, structured) and in a realistic tool (the SIB101 finding it gives)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from siblint.effects import LIBRARY_ROOTS, effect_of
from siblint.frameworks import import_roots
from siblint.lint.engine import facts_from_text
from siblint.model.semantic import Scope
from siblint.settings.config import Config
from siblint.syntax.facts import Call, Const, Value


def effects(code: str) -> list[tuple[int, str, str, str, str]]:
    """(line, description, kind, method, target) of every call the table classifies."""
    facts = facts_from_text(textwrap.dedent(code), "m.py")
    out = []
    for fn in facts.functions.values():
        for site in fn.calls:
            eff = effect_of(site.call, Scope(facts, fn.name), awaited=site.awaited)
            if eff is not None:
                out.append((site.call.loc.line, eff.description, eff.kind, eff.method, eff.target))
    return sorted(out)


def sib101(lint, tmp_path: Path, text: str) -> list[tuple[int, int, str]]:
    """(tool line, effect line, effect) of each SIB101 finding in `text`: the finding's related location."""
    found = lint(textwrap.dedent(text), config=Config(root=str(tmp_path), select=("SIB101",)))
    return sorted((d.loc.line, r.loc.line, r.message) for d in found for r in d.related)


# ---- structure --------------------------------------------------------------------------------

def test_existing_rows_are_structured_with_unchanged_descriptions():
    assert effects("""\
        import requests, smtplib, subprocess

        def f(to, msg):
            requests.post("https://payments.example.com/charges", json={})
            smtplib.SMTP("localhost").sendmail("a@example.com", to, msg)
            subprocess.run(["make", "deploy"])
            open("out.txt", "w")
    """) == [
        (4, "POST to https://payments.example.com/charges via requests", "http", "POST",
         "https://payments.example.com/charges"),
        (5, "email via smtplib", "email", "sendmail", ""),
        (6, "a subprocess", "subprocess", "run", ""),
        (7, "a file write", "file", "open", "out.txt"),
    ]


class _Resolver:
    """Not `Scope`: anything with `value`, `constructor` and `text` can resolve names."""

    def value(self, text: str) -> Value | None:
        return None

    def constructor(self, value: Value | None) -> str:
        return "stripe.StripeClient"

    def text(self, value: Value | None) -> str | None:
        return value.value if isinstance(value, Const) and isinstance(value.value, str) else None


def test_the_classifier_needs_only_a_resolver():
    facts = facts_from_text("def f(c):\n    c.v1.refunds.create(params={})\n", "m.py")
    call = facts.functions["f"].calls[0].call
    assert isinstance(call, Call)
    assert effect_of(call) is None  # nothing says what `c` is
    eff = effect_of(call, _Resolver())
    assert (eff.description, eff.kind, eff.method) == ("c.v1.refunds.create (payments)", "payment", "create")


def test_framework_roots_come_from_framework_data():
    assert set(import_roots()) <= LIBRARY_ROOTS
    package = Path(__import__("siblint.effects", fromlist=["x"]).__file__).parent
    roots = set(import_roots())
    for path in package.glob("*.py"):
        consts = {n.value for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Constant)}
        assert not consts & roots, path.name


# ---- supabase ---------------------------------------------------------------------------------

def test_supabase_builder_writes():
    assert effects("""\
        from supabase import create_client

        def f(db):
            sb = create_client("https://x.supabase.co", "key")
            sb.table("orders").insert({"sku": "a"}).execute()
            db.table("orders").update({"paid": True}).eq("id", 1).execute()
            db.table("orders").upsert({"id": 1}).execute()
            db.from_("orders").delete().eq("id", 1).execute()
            db.table("orders").select("*").eq("id", 1).execute()
    """) == [
        (5, "Supabase INSERT on orders", "sql", "INSERT", "orders"),
        (6, "Supabase UPDATE on orders", "sql", "UPDATE", "orders"),
        (7, "Supabase UPSERT on orders", "sql", "UPSERT", "orders"),
        (8, "Supabase DELETE on orders", "sql", "DELETE", "orders"),
    ]


def test_pocketbase_record_writes_not_reads():
    """The PocketBase SDK (evalI1's choresir): `pb.collection(c).create/update/delete`; listing,
    fetching and logging in read."""
    assert effects("""\
        from pocketbase import PocketBase

        def f(data):
            pb = PocketBase("http://127.0.0.1:8090")
            pb.collection("chores").create(data)
            pb.collection("chores").update("id1", data)
            pb.collection("chores").delete("id1")
            pb.collection("chores").get_list(1, 20)
            pb.collection("chores").get_one("id1")
            pb.collection("_superusers").auth_with_password("a@b.c", "pw")
    """) == [
        (5, "create (PocketBase write)", "nosql", "create", ""),
        (6, "update (PocketBase write)", "nosql", "update", ""),
        (7, "delete (PocketBase write)", "nosql", "delete", ""),
    ]


def test_served_vector_store_writes_not_in_memory_ones():
    """evalJ2's JARVIS: `Neo4jVector.add_texts` writes to the database; a FAISS index is in memory
    until saved, and searches read."""
    assert effects("""\
        from langchain_community.vectorstores import FAISS, Neo4jVector
        from langchain_pinecone import PineconeVectorStore

        def f(emb, texts):
            Neo4jVector(embedding=emb, index_name="main").add_texts(texts=texts)
            Neo4jVector.from_existing_index(emb, index_name="main").similarity_search("q")
            PineconeVectorStore(index_name="i", embedding=emb).delete(ids=["1"])
            FAISS.from_texts(texts, emb).add_texts(texts)
    """) == [
        (5, "add_texts (vector store)", "vector", "add_texts", ""),
        (7, "delete (vector store)", "vector", "delete", ""),
    ]


def test_a_client_a_dependency_injection_lookup_hands_out():
    """`injector.get(httpx.Client)`: a container's lookup by class is an instance of that class;
    one by a token that names no known class tells nothing."""
    assert effects("""\
        import httpx

        def f(injector, body):
            injector.get(httpx.Client).post("https://x.example.com/orders", json=body)
            injector.get("http").post("https://x.example.com/orders", json=body)
    """) == [(4, "POST to https://x.example.com/orders via httpx", "http", "POST", "https://x.example.com/orders")]


def test_supabase_in_a_realistic_tool(lint, tmp_path):
    assert sib101(lint, tmp_path, """\
        import os
        from agents import function_tool
        from supabase import Client, create_client

        supabase: Client = create_client(os.environ["SUPABASE_URL"], os.environ["SUPABASE_KEY"])

        @function_tool
        def save_lead(name: str, email: str) -> str:
            \"\"\"Store a sales lead.\"\"\"
            row = {"name": name, "email": email, "source": "chat"}
            result = supabase.table("leads").insert(row).execute()
            return f"saved lead {result.data[0]['id']}"

        @function_tool
        def find_lead(email: str) -> str:
            result = supabase.table("leads").select("*").eq("email", email).execute()
            return str(result.data)
    """) == [(8, 11, "save_lead: sync, Supabase INSERT on leads")]


# ---- mem0 -------------------------------------------------------------------------------------

def test_mem0_writes_not_searches():
    assert effects("""\
        from mem0 import AsyncMemory, Memory, MemoryClient

        async def f(text, uid):
            MemoryClient(api_key="k").add(text, user_id=uid)
            MemoryClient(api_key="k").search(text, user_id=uid)
            m = Memory.from_config({"vector_store": {}})
            m.update(memory_id="m1", data=text)
            m.delete(memory_id="m1")
            m.get_all(user_id=uid)
            am = AsyncMemory()
            await am.add(text, user_id=uid)
    """) == [
        (4, "add (memory store)", "memory", "add", ""),
        (7, "m.update (memory store)", "memory", "update", ""),
        (8, "m.delete (memory store)", "memory", "delete", ""),
        (11, "am.add (memory store)", "memory", "add", ""),
    ]


def test_mem0_in_a_realistic_tool(lint, tmp_path):
    assert sib101(lint, tmp_path, """\
        import os
        from agents import function_tool
        from mem0 import MemoryClient

        memory = MemoryClient(api_key=os.environ["MEM0_API_KEY"])

        @function_tool
        def remember(user_id: str, fact: str) -> str:
            \"\"\"Remember a fact about the user for later conversations.\"\"\"
            memory.add([{"role": "user", "content": fact}], user_id=user_id)
            return "noted"

        @function_tool
        def recall(user_id: str, query: str) -> str:
            hits = memory.search(query, user_id=user_id, limit=5)
            return "\\n".join(h["memory"] for h in hits)
    """) == [(8, 10, "remember: sync, memory.add (memory store)")]


# ---- desktop automation -------------------------------------------------------------------------

def test_desktop_automation():
    assert effects("""\
        import pyautogui
        from pynput.keyboard import Controller

        def f(text, win):
            pyautogui.typewrite(text, interval=0.05)
            pyautogui.hotkey("ctrl", "s")
            pyautogui.click(100, 200)
            pyautogui.position()
            pyautogui.screenshot()
            Controller().type(text)
            win.child_window(title="OK").click_input()
    """) == [
        (5, "pyautogui.typewrite (desktop automation)", "desktop", "typewrite", ""),
        (6, "pyautogui.hotkey (desktop automation)", "desktop", "hotkey", ""),
        (7, "pyautogui.click (desktop automation)", "desktop", "click", ""),
        (10, "type (desktop automation)", "desktop", "type", ""),
        (11, "click_input (desktop automation)", "desktop", "click_input", ""),
    ]


def test_desktop_automation_in_a_realistic_tool(lint, tmp_path):
    assert sib101(lint, tmp_path, """\
        import time
        import pyautogui
        from agents import function_tool

        @function_tool
        def type_in_notepad(text: str) -> str:
            \"\"\"Open Notepad and type the text.\"\"\"
            pyautogui.press("win")
            time.sleep(0.5)
            pyautogui.write("notepad")
            pyautogui.press("enter")
            time.sleep(1)
            pyautogui.typewrite(text, interval=0.02)
            return "typed"

        @function_tool
        def screen_size() -> str:
            width, height = pyautogui.size()
            return f"{width}x{height}"
    """) == [
        (6, 8, "type_in_notepad: sync, pyautogui.press (desktop automation)"),
        (6, 10, "type_in_notepad: sync, pyautogui.write (desktop automation)"),
        (6, 11, "type_in_notepad: sync, pyautogui.press (desktop automation)"),
        (6, 13, "type_in_notepad: sync, pyautogui.typewrite (desktop automation)"),
    ]


# ---- images, workbooks, plots -------------------------------------------------------------------

def test_image_workbook_and_plot_saves():
    assert effects("""\
        import io
        import matplotlib.pyplot as plt
        import openpyxl
        import xlwings as xw
        from PIL import Image

        def f(src, df):
            Image.open(src).convert("L").save("gray.png")
            buf = io.BytesIO()
            Image.open(src).save(buf, format="PNG")
            wb = openpyxl.load_workbook("report.xlsx")
            wb.save("report.xlsx")
            xw.Book("model.xlsx").save()
            plt.savefig("chart.png")
            plt.savefig(buf, format="png")
            df.to_csv("out.csv", index=False)
            text = df.to_csv(index=False)
    """) == [
        (8, "save (image file)", "file", "save", "gray.png"),
        (12, "wb.save (office file)", "file", "save", "report.xlsx"),
        (13, "save (office file)", "file", "save", ""),
        (14, "matplotlib.pyplot.savefig (image file)", "file", "savefig", "chart.png"),
        (16, "df.to_csv (data file)", "file", "to_csv", "out.csv"),
    ]


def test_image_and_workbook_in_realistic_tools(lint, tmp_path):
    assert sib101(lint, tmp_path, """\
        import base64
        import io
        from agents import function_tool
        from openpyxl import load_workbook
        from PIL import Image

        @function_tool
        def make_thumbnail(path: str) -> str:
            \"\"\"Write a 256px thumbnail next to the image.\"\"\"
            img = Image.open(path)
            img.thumbnail((256, 256))
            out = path.rsplit(".", 1)[0] + "_thumb.png"
            img.save(out)
            return out

        @function_tool
        def preview(path: str) -> str:
            \"\"\"A base64 preview for the chat (nothing written).\"\"\"
            buf = io.BytesIO()
            Image.open(path).save(buf, format="PNG")
            return base64.b64encode(buf.getvalue()).decode()

        @function_tool
        def log_expense(amount: float, note: str) -> str:
            wb = load_workbook("expenses.xlsx")
            wb.active.append([amount, note])
            wb.save("expenses.xlsx")
            return "logged"
    """) == [
        (8, 13, "make_thumbnail: sync, img.save (image file)"),
        (24, 27, "log_expense: sync, wb.save (office file)"),
    ]


# ---- SQLAlchemy Core in method form -------------------------------------------------------------

def test_sqlalchemy_core_method_form():
    assert effects("""\
        import sqlalchemy as sa

        orders = sa.Table("orders", sa.MetaData())

        def f(conn, oid):
            conn.execute(orders.update().where(orders.c.id == oid).values(status="paid"))
            conn.execute(orders.insert().values(sku="a"))
            stmt = orders.delete().where(orders.c.id == oid)
            conn.execute(stmt)
            conn.execute(sa.update(orders).values(status="x"))
            conn.execute(sa.select(orders).where(orders.c.id == oid))
            conn.execute(orders.select())
    """) == [
        (6, "SQL UPDATE", "sql", "UPDATE", "orders"),
        (7, "SQL INSERT", "sql", "INSERT", "orders"),
        (9, "SQL DELETE", "sql", "DELETE", "orders"),
        (10, "SQL UPDATE", "sql", "UPDATE", "orders"),
    ]


def test_sqlalchemy_core_in_a_realistic_tool(lint, tmp_path):
    assert sib101(lint, tmp_path, """\
        from agents import function_tool
        from sqlalchemy import Column, Integer, MetaData, String, Table, create_engine

        engine = create_engine("postgresql://localhost/shop")
        metadata = MetaData()
        orders = Table("orders", metadata, Column("id", Integer, primary_key=True), Column("status", String))

        @function_tool
        def cancel_order(order_id: int) -> str:
            \"\"\"Cancel an order.\"\"\"
            with engine.begin() as conn:
                conn.execute(orders.update().where(orders.c.id == order_id).values(status="cancelled"))
            return "cancelled"

        @function_tool
        def order_status(order_id: int) -> str:
            with engine.connect() as conn:
                row = conn.execute(orders.select().where(orders.c.id == order_id)).first()
            return row.status if row else "unknown"
    """) == [(9, 12, "cancel_order: sync, SQL UPDATE")]


# ---- HTTP requests whose method is chosen at run time -------------------------------------------

def test_http_method_not_a_literal_may_mutate():
    assert effects("""\
        import httpx, requests

        async def f(method, url):
            requests.request(method=method.upper(), url=url)
            requests.request("GET", url)
            requests.request("get", url)
            httpx.request(method, "https://api.example.com/items")
            async with httpx.AsyncClient() as client:
                await client.request(method, url)
                await client.request("HEAD", url)
    """) == [
        (4, "an HTTP request with a method chosen at run time (may mutate) via requests", "http", "", ""),
        (7, "an HTTP request with a method chosen at run time (may mutate) to https://api.example.com/items "
            "via httpx", "http", "", "https://api.example.com/items"),
        (9, "an HTTP request with a method chosen at run time (may mutate) via httpx", "http", "", ""),
    ]


def test_http_method_chosen_by_the_model_in_a_realistic_tool(lint, tmp_path):
    assert sib101(lint, tmp_path, """\
        import json
        import requests
        from agents import function_tool

        @function_tool
        def api_request(url: str, method: str = "GET", body: str = "{}") -> str:
            \"\"\"Send an HTTP request (GET, POST, PUT, DELETE) and return the response.\"\"\"
            try:
                response = requests.request(method=method.upper(), url=url, json=json.loads(body), timeout=10)
                response.raise_for_status()
                return response.text
            except requests.RequestException as exc:
                return f"error: {exc}"

        @function_tool
        def fetch(url: str) -> str:
            return requests.request("GET", url, timeout=10).text
    """) == [(6, 9, "api_request: sync, an HTTP request with a method chosen at run time (may mutate) via requests")]


# ---- Stripe's client ------------------------------------------------------------------------------

def test_stripe_client_chains_and_async_variants():
    assert effects("""\
        import stripe
        from stripe import StripeClient

        async def f(cid):
            client = StripeClient("sk_test")
            client.v1.customers.create(params={"email": "a@example.com"})
            client.v1.customers.retrieve(cid)
            client.customers.update(cid, params={})
            await client.v1.refunds.create_async(params={"charge": "ch_1"})
            await stripe.PaymentIntent.create_async(amount=100, currency="usd")
            await stripe.PaymentIntent.retrieve_async("pi_1")
    """) == [
        (6, "client.v1.customers.create (payments)", "payment", "create", ""),
        (8, "client.customers.update (payments)", "payment", "update", ""),
        (9, "client.v1.refunds.create_async (payments)", "payment", "create_async", ""),
        (10, "stripe.PaymentIntent.create_async (payments)", "payment", "create_async", ""),
    ]


def test_stripe_client_in_a_realistic_tool(lint, tmp_path):
    assert sib101(lint, tmp_path, """\
        import os
        from agents import function_tool
        from stripe import StripeClient

        class Billing:
            def __init__(self) -> None:
                self.client = StripeClient(os.environ["STRIPE_SECRET_KEY"])

            def refund(self, payment_intent: str, cents: int) -> str:
                refund = self.client.v1.refunds.create(params={"payment_intent": payment_intent, "amount": cents})
                return refund.id

        billing = Billing()

        @function_tool
        def issue_refund(payment_intent: str, cents: int) -> str:
            \"\"\"Refund part of a payment.\"\"\"
            return f"refund {billing.refund(payment_intent, cents)} issued"
    """) == [(16, 10, "issue_refund: sync, self.client.v1.refunds.create (payments) (via Billing.refund)")]


# ---- AWS ----------------------------------------------------------------------------------------

def test_boto3_write_verbs_not_reads_or_model_calls():
    assert effects("""\
        import boto3

        def f(item, key):
            table = boto3.resource("dynamodb").Table("bookings")
            table.put_item(Item=item)
            table.delete_item(Key=key)
            table.get_item(Key=key)
            with table.batch_writer() as batch:
                batch.put_item(Item=item)
            boto3.resource("s3").Object("bucket", "k").put(Body=b"x")
            boto3.client("s3").upload_file("a.txt", "bucket", "a.txt")
            boto3.client("sqs").send_message(QueueUrl="q", MessageBody="m")
            boto3.client("ecs").run_task(cluster="c", taskDefinition="t")
            boto3.client("lambda").invoke(FunctionName="f")
            boto3.client("bedrock-runtime").invoke_model(modelId="m", body="{}")
            boto3.client("bedrock-runtime").converse(modelId="m", messages=[])
            boto3.client("logs").start_query(logGroupName="g", startTime=0, endTime=1, queryString="fields @message")
            boto3.client("ec2").start_instances(InstanceIds=["i-1"])
    """) == [
        (5, "table.put_item (AWS)", "cloud", "put_item", ""),
        (6, "table.delete_item (AWS)", "cloud", "delete_item", ""),
        (9, "batch.put_item (AWS)", "cloud", "put_item", ""),
        (10, "put (AWS)", "cloud", "put", ""),
        (11, "upload_file (AWS)", "cloud", "upload_file", ""),
        (12, "send_message (AWS)", "cloud", "send_message", ""),
        (13, "run_task (AWS)", "cloud", "run_task", ""),
        (14, "invoke (AWS)", "cloud", "invoke", ""),
        (18, "start_instances (AWS)", "cloud", "start_instances", ""),
    ]


def test_boto3_in_a_realistic_tool(lint, tmp_path):
    assert sib101(lint, tmp_path, """\
        import uuid
        import boto3
        from agents import function_tool

        dynamodb = boto3.resource("dynamodb")

        @function_tool
        def create_booking(date: str, hour: str, restaurant: str, guests: int) -> str:
            \"\"\"Book a table.\"\"\"
            table = dynamodb.Table("bookings")
            booking_id = str(uuid.uuid4())[:8]
            table.put_item(Item={"booking_id": booking_id, "date": date, "hour": hour,
                                 "restaurant_name": restaurant, "guests": guests})
            return f"booking {booking_id} created"

        @function_tool
        def get_booking(booking_id: str, restaurant: str) -> str:
            table = dynamodb.Table("bookings")
            return str(table.get_item(Key={"booking_id": booking_id, "restaurant_name": restaurant}))
    """) == [(8, 12, "create_booking: sync, table.put_item (AWS)")]


# ---- messages and email -----------------------------------------------------------------------

def test_message_and_email_senders():
    assert effects("""\
        import smtplib
        import pywhatkit
        from discord_webhook import DiscordWebhook
        from sendgrid import SendGridAPIClient
        from slack_bolt import App
        from twilio.rest import Client

        def f(msg, to):
            App(token="t").client.chat_postMessage(channel="#ops", text=msg)
            Client("sid", "token").messages.create(to=to, from_="+1", body=msg)
            SendGridAPIClient("key").send(msg)
            with smtplib.SMTP_SSL("smtp.example.com") as s:
                s.send_message(msg)
            DiscordWebhook(url="https://discord.com/api/webhooks/1", content=msg).execute()
            pywhatkit.sendwhatmsg_instantly(to, msg)
            pywhatkit.playonyt(msg)
    """) == [
        (9, "chat_postMessage (messaging)", "message", "chat_postMessage", ""),
        (10, "create (messaging)", "message", "create", ""),
        (11, "email via sendgrid", "email", "send", ""),
        (13, "email via smtplib", "email", "send_message", ""),
        (14, "execute (messaging)", "message", "execute", ""),
        (15, "pywhatkit.sendwhatmsg_instantly (messaging)", "message", "sendwhatmsg_instantly", ""),
        (16, "pywhatkit.playonyt (desktop automation)", "desktop", "playonyt", ""),
    ]


def test_email_in_a_realistic_tool(lint, tmp_path):
    assert sib101(lint, tmp_path, """\
        import os
        import smtplib
        from email.mime.text import MIMEText
        from agents import function_tool

        @function_tool
        def send_email(to: str, subject: str, body: str) -> str:
            \"\"\"Send an email from the assistant's account.\"\"\"
            msg = MIMEText(body)
            msg["Subject"], msg["To"] = subject, to
            server = smtplib.SMTP("smtp.gmail.com", 587)
            server.starttls()
            server.login(os.environ["EMAIL_USER"], os.environ["EMAIL_PASS"])
            server.sendmail(os.environ["EMAIL_USER"], to, msg.as_string())
            server.quit()
            return "sent"
    """) == [(7, 14, "send_email: sync, email via smtplib")]


# ---- Google APIs --------------------------------------------------------------------------------

def test_google_api_requests_with_and_without_a_visible_build():
    assert effects("""\
        from googleapiclient.discovery import build

        def f(service, event, eid):
            calendar = build("calendar", "v3", credentials=None)
            calendar.events().insert(calendarId="primary", body=event).execute()
            calendar.events().get(calendarId="primary", eventId=eid).execute()
            service.events().delete(calendarId="primary", eventId=eid).execute()
            service.events().list(calendarId="primary").execute()
            service.spreadsheets().values().append(spreadsheetId="s", range="A1", body={}).execute()
            service.execute()
            request = service.videos().insert(part="snippet", body=event)  # evalW26's YouTube upload
            request.execute()
            listing = service.videos().list(part="snippet", id=eid)
            listing.execute()
    """) == [
        (5, "events.insert (Google API)", "google_api", "insert", "events"),
        (7, "events.delete (Google API)", "google_api", "delete", "events"),
        (9, "values.append (Google API)", "google_api", "append", "values"),
        (12, "videos.insert (Google API)", "google_api", "insert", "videos"),
    ]


def test_an_openai_binary_response_streamed_into_a_file():
    # evalW26's YouTube shorts maker: text to speech saved as an mp3.
    assert effects("""\
        import io, openai

        def f(text, path):
            response = openai.OpenAI().audio.speech.create(model="tts-1", voice="alloy", input=text)
            response.stream_to_file(f"voiceover_{path}.mp3")
            response.write_to_file(io.BytesIO())
    """) == [(5, "response.stream_to_file (file)", "file", "stream_to_file", "voiceover_{}.mp3")]


def test_google_api_write_verbs_named_with_their_resource():
    """The People API spells its writes with the resource (evalL2's Skippy: `createContact`,
    `updateContact`); `searchContacts` and `batchGet` read."""
    assert effects("""\
        def f(people, body, name):
            people.people().createContact(body=body).execute()
            people.people().updateContact(resourceName=name, body=body).execute()
            people.people().batchDeleteContacts(body=body).execute()
            people.people().searchContacts(query=name).execute()
            people.people().getBatchGet(resourceNames=[name]).execute()
    """) == [
        (2, "people.createContact (Google API)", "google_api", "createContact", "people"),
        (3, "people.updateContact (Google API)", "google_api", "updateContact", "people"),
        (4, "people.batchDeleteContacts (Google API)", "google_api", "batchDeleteContacts", "people"),
    ]


def test_google_calendar_in_a_realistic_tool(lint, tmp_path):
    assert sib101(lint, tmp_path, """\
        from agents import function_tool
        from calendar_auth import get_calendar_service

        @function_tool
        def create_event(summary: str, start: str, end: str) -> str:
            \"\"\"Create a calendar event.\"\"\"
            service = get_calendar_service()
            event = {"summary": summary, "start": {"dateTime": start}, "end": {"dateTime": end}}
            event = service.events().insert(calendarId="primary", body=event).execute()
            return event.get("htmlLink", "")

        @function_tool
        def list_events() -> str:
            service = get_calendar_service()
            items = service.events().list(calendarId="primary", maxResults=10).execute()
            return str(items.get("items", []))
    """) == [(5, 9, "create_event: sync, events.insert (Google API)")]


# ---- ticketing and code hosts -------------------------------------------------------------------

def test_ticketing_and_code_hosts():
    assert effects("""\
        import gitlab
        from atlassian import Jira
        from ghapi.all import GhApi
        from github import Github

        def f(payload):
            Jira(url="https://x.atlassian.net").issue_create_or_update(payload)
            Jira(url="https://x.atlassian.net").jql("project = X")
            Github("t").get_repo("o/r").create_issue(title="bug")
            GhApi(owner="o", repo="r").issues.create(title="bug")
            gitlab.Gitlab("https://gitlab.example.com").projects.get(1).issues.create({"title": "bug"})
    """) == [
        (7, "issue_create_or_update (ticketing)", "ticket", "issue_create_or_update", ""),
        (9, "create_issue (ticketing)", "ticket", "create_issue", ""),
        (10, "create (ticketing)", "ticket", "create", ""),
        (11, "create (ticketing)", "ticket", "create", ""),
    ]


def test_pygithub_assignees_and_reviews_change_a_pull_request():
    # H5's misses: assigning and requesting reviewers write to GitHub; listing them reads.
    found = effects("""\
        from github import Github

        def f(n, who):
            pr = Github("t").get_repo("o/r").get_pull(n)
            pr.get_review_requests()
            pr.create_review_request(reviewers=[who])
            pr.as_issue().add_to_assignees(who)
            pr.get_reviews()
    """)
    assert [(line, name) for line, _, _, name, _ in found] == [(6, "create_review_request"), (7, "add_to_assignees")]


def test_a_jira_issue_changed_through_its_resource():
    # H9's Jira agent: `jira.issue(key).update(...)` writes; reading its fields does not.
    found = effects("""\
        from jira import JIRA

        def f(key, label, who):
            jira = JIRA(server="https://x.atlassian.net")
            issue = jira.issue(key)
            issue.fields.labels.append(label)
            issue.update(fields={"labels": issue.fields.labels})
            jira.add_watcher(issue, who)
            jira.search_issues("project = X")
    """)
    assert [(line, name) for line, _, _, name, _ in found] == [(7, "update"), (8, "add_watcher")]


def test_slack_posts_on_a_client_the_source_does_not_type():
    # H9's co-cli: `ctx.deps.slack_client` is `Any`; Slack's method names say what it is.
    found = effects("""\
        def f(ctx, channel, text):
            client = ctx.deps.slack_client
            client.chat_postMessage(channel=channel, text=text)
            client.conversations_list()

        async def g(ctx, channel, text):
            await ctx.deps.slack_client.chat_postMessage(channel=channel, text=text)

        def h(channel, ts, text):  # a blind set's ADK assistant: `client = get_slack_client()`
            client = get_slack_client()
            client.chat_update(channel=channel, ts=ts, text=text)
            client.chat_delete(channel=channel, ts=ts)
    """)
    assert [(line, name) for line, _, _, name, _ in found] == [
        (3, "chat_postMessage"), (7, "chat_postMessage"), (11, "chat_update"), (12, "chat_delete")]


def test_a_local_alias_of_a_library_function_is_that_function():
    # HandyBook's `const fetchFn = globalThis.fetch`, in Python: `send = requests.post`.
    found = effects("""\
        import requests

        def f(url):
            send = requests.post
            send(url, json={})
            read = requests.get
            read(url)
    """)
    assert [(line, kind) for line, _, kind, _, _ in found] == [(5, "http")]


def test_jira_in_a_realistic_tool(lint, tmp_path):
    assert sib101(lint, tmp_path, """\
        import os
        from atlassian import Jira
        from agents import function_tool

        jira = Jira(url=os.environ["JIRA_URL"], username=os.environ["JIRA_USER"], password=os.environ["JIRA_TOKEN"])

        @function_tool
        def create_jira_ticket(summary: str, description: str, project: str = "OPS") -> str:
            \"\"\"Create a Jira ticket.\"\"\"
            payload = {"fields": {"project": {"key": project}, "summary": summary, "description": description,
                                  "issuetype": {"name": "Task"}}}
            jira.issue_create_or_update(payload)
            return "ticket created"
    """) == [(8, 12, "create_jira_ticket: sync, jira.issue_create_or_update (ticketing)")]


# ---- subprocesses -------------------------------------------------------------------------------

def test_subprocess_and_os_system():
    assert effects("""\
        import os, subprocess

        def f(cmd, app):
            os.system("shutdown /s /t 0")
            subprocess.run(cmd, shell=True, capture_output=True)
            subprocess.Popen(["start", app], shell=True)
    """) == [
        (4, "a subprocess", "subprocess", "system", ""),
        (5, "a subprocess", "subprocess", "run", ""),
        (6, "a subprocess", "subprocess", "Popen", ""),
    ]


def test_subprocess_in_a_realistic_tool(lint, tmp_path):
    assert sib101(lint, tmp_path, """\
        import subprocess
        from agents import function_tool

        @function_tool
        def run_command(command: str) -> str:
            \"\"\"Run a shell command and return its output.\"\"\"
            result = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=30)
            return result.stdout or result.stderr
    """) == [(5, 7, "run_command: sync, a subprocess")]


# ---- cloud deployments, jobs and queries -------------------------------------------------------

def test_cloud_deploys_jobs_and_bigquery_dml():
    assert effects("""\
        from google.cloud import aiplatform, bigquery, run_v2

        def f(spec, sql):
            run_v2.ServicesClient().create_service(parent="p", service=spec, service_id="s")
            run_v2.JobsClient().run_job(name="projects/p/locations/l/jobs/j")
            run_v2.ServicesClient().get_service(name="s")
            aiplatform.CustomJob(display_name="train", worker_pool_specs=spec).submit()
            aiplatform.Model.upload(display_name="m", artifact_uri="gs://b/m")
            client = bigquery.Client()
            client.query("MERGE ds.t USING ds.s ON t.id = s.id WHEN MATCHED THEN DELETE")
            client.query("SELECT * FROM ds.t")
            client.insert_rows_json("ds.t", [{"a": 1}])
            client.query(sql)
    """) == [
        (4, "create_service (cloud deploy)", "cloud", "create_service", ""),
        (5, "run_job (cloud deploy)", "cloud", "run_job", ""),
        (7, "submit (cloud job)", "cloud", "submit", ""),
        (8, "google.cloud.aiplatform.Model.upload (cloud deploy)", "cloud", "upload", ""),
        (10, "SQL MERGE", "sql", "MERGE", "ds.t"),
        (12, "client.insert_rows_json (BigQuery)", "sql", "insert_rows_json", ""),
        # A query job whose SQL cannot be read (a parameter: model-written BQML such as CREATE MODEL)
        # may write, and BigQuery runs it to completion whatever the caller does.
        (13, "a query job with SQL siblint cannot read (it may write)", "sql", "query", ""),
    ]


def test_google_cloud_generated_clients_share_their_verbs():
    # nick-youngblut/arc-reactor: `batch_v1.BatchServiceClient().delete_job(...)` in an async tool.
    assert effects("""\
        from google.cloud import batch_v1, compute_v1, firestore, storage
        from google.cloud.tasks_v2 import CloudTasksAsyncClient

        async def f(name, job, task):
            client = batch_v1.BatchServiceClient()
            client.create_job(parent="p", job=job)
            client.delete_job(name=name)
            client.get_job(name=name)
            client.list_jobs(parent="p")
            compute_v1.InstancesClient().stop(project="p", zone="z", instance=name)
            compute_v1.InstancesClient().insert(project="p", zone="z", instance_resource=job)
            await CloudTasksAsyncClient().create_task(parent="p", task=task)
            storage.Client().bucket("b").blob(name).download_as_text()
            firestore.AsyncClient().collection("c").document(name).get()
    """) == [
        (6, "client.create_job (Google Cloud)", "cloud", "create_job", ""),
        (7, "client.delete_job (Google Cloud)", "cloud", "delete_job", ""),
        (10, "stop (Google Cloud)", "cloud", "stop", ""),
        (11, "insert (Google Cloud)", "cloud", "insert", ""),
        (12, "create_task (Google Cloud)", "cloud", "create_task", ""),
    ]


def test_bigquery_in_a_realistic_tool(lint, tmp_path):
    assert sib101(lint, tmp_path, """\
        from agents import function_tool
        from google.cloud import bigquery

        client = bigquery.Client()

        @function_tool
        def archive_old_orders(days: int) -> str:
            \"\"\"Move orders older than `days` into the archive table.\"\"\"
            job = client.query(
                "INSERT INTO shop.orders_archive SELECT * FROM shop.orders "
                "WHERE created < DATE_SUB(CURRENT_DATE(), INTERVAL 90 DAY)"
            )
            job.result()
            return "archived"

        @function_tool
        def count_orders() -> str:
            rows = client.query("SELECT COUNT(*) AS n FROM shop.orders").result()
            return str(next(iter(rows)).n)
    """) == [(7, 9, "archive_old_orders: sync, SQL INSERT")]


def test_docker_sdk():
    assert effects("""\
        import docker

        def f(code):
            client = docker.from_env()
            client.containers.run("python:3.12", ["python", "-c", code], remove=True)
            client.containers.list()
    """) == [(5, "client.containers.run (container)", "container", "run", "")]


def test_exec_of_code_chosen_at_run_time():
    assert effects("""\
        def f(code, scope):
            exec(code, scope)
            exec("result = 1 + 1", scope)
            eval("1 + 1")
    """) == [(2, "code executed at run time (exec)", "exec", "exec", "")]


def test_exec_in_a_realistic_code_tool(lint, tmp_path):
    assert sib101(lint, tmp_path, """\
        import contextlib
        import io
        from agents import function_tool

        @function_tool
        def execute_code(code: str) -> str:
            \"\"\"Run Python the model wrote and return what it printed.\"\"\"
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(code, {"__name__": "__agent__"})
            return out.getvalue()
    """) == [(6, 10, "execute_code: sync, code executed at run time (exec)")]


def test_the_other_spellings_of_each_family():
    assert effects("""\
        import boto3, pexpect
        import docx
        from atlassian import Confluence, Jira
        from googleapiclient.discovery import build_from_document
        from google.cloud import aiplatform
        from mailjet_rest import Client as Mailjet
        from PIL import ImageGrab
        from postmarker.core import PostmarkClient
        from pynput.mouse import Controller as Mouse
        from slack_bolt.async_app import AsyncApp
        from vertexai import agent_engines

        async def f(doc, msg, df):
            PostmarkClient(server_token="t").emails.send(From="a", To="b", Subject="s", HtmlBody=msg)
            Mailjet(auth=("k", "s"), version="v3.1").send.create(data={})
            await AsyncApp(token="t").client.chat_postMessage(channel="#c", text=msg)
            pexpect.spawn("ssh host")
            Confluence(url="u").update_page(page_id=1, title="t", body=msg)
            Jira(url="u").issue_update("OPS-1", {})
            build_from_document(doc).events().quickAdd(calendarId="primary", text=msg).execute()
            aiplatform.Endpoint("e").deploy(model=None)
            agent_engines.create(agent_engine=None)
            boto3.client("rds-data").execute_statement(sql="DELETE FROM t", resourceArn="a", secretArn="s")
            boto3.client("s3").upload_fileobj(msg, "b", "k")
            Mouse().click(None, 1)
            ImageGrab.grab().save("screen.png")
            docx.Document().save("letter.docx")
            df.to_excel("report.xlsx")
    """) == [
        (14, "email via postmark", "email", "send", ""),
        (15, "email via mailjet", "email", "create", ""),
        (16, "chat_postMessage (messaging)", "message", "chat_postMessage", ""),
        (17, "a subprocess", "subprocess", "spawn", ""),
        (18, "update_page (ticketing)", "ticket", "update_page", ""),
        (19, "issue_update (ticketing)", "ticket", "issue_update", ""),
        (20, "events.quickAdd (Google API)", "google_api", "quickAdd", "events"),
        (21, "deploy (cloud deploy)", "cloud", "deploy", ""),
        (22, "vertexai.agent_engines.create (cloud deploy)", "cloud", "create", ""),
        (23, "execute_statement (AWS)", "cloud", "execute_statement", ""),
        (24, "upload_fileobj (AWS)", "cloud", "upload_fileobj", ""),
        (25, "click (desktop automation)", "desktop", "click", ""),
        (26, "save (image file)", "file", "save", "screen.png"),
        (27, "save (office file)", "file", "save", "letter.docx"),
        (28, "df.to_excel (data file)", "file", "to_excel", "report.xlsx"),
    ]


# ---- libraries added for issue 23 (each with its read-only twin) -------------------------------

def test_neo4j_cypher_writes_not_match_queries_or_prompts():
    assert effects("""\
        from neo4j import GraphDatabase

        def f(q, name):
            driver = GraphDatabase.driver("bolt://localhost", auth=("u", "p"))
            with driver.session() as session:
                session.run("MERGE (p:Person {name: $name}) RETURN p", name=name)
                session.run("MATCH (p:Person) RETURN p LIMIT 5")
                session.run("MATCH (p:Person {name: $n}) DETACH DELETE p", n=name)
                session.run("MATCH (p) SET p.seen = true")
                session.run("Create a summary of the graph")
                session.run(q)
                session.execute_write(lambda tx: tx.run(q))
                session.execute_read(lambda tx: tx.run(q))
            driver.execute_query("CREATE (n:Note {text: $t})", t=q)
            driver.execute_query("MATCH (n:Note) RETURN n")
    """) == [
        (6, "Cypher MERGE", "graph", "MERGE", ""),
        (8, "Cypher DELETE", "graph", "DELETE", ""),
        (9, "Cypher SET", "graph", "SET", ""),
        (12, "a graph write transaction (session.execute_write)", "graph", "execute_write", ""),
        (14, "Cypher CREATE", "graph", "CREATE", ""),
    ]


def test_search_vector_and_key_value_stores_write_but_search_and_get_read():
    assert effects("""\
        import aerospike, chromadb
        from elasticsearch import Elasticsearch, helpers
        from opensearchpy import AsyncOpenSearch

        async def f(q, docs):
            es = Elasticsearch("http://localhost:9200")
            es.index(index="notes", document={"text": q})
            es.search(index="notes", query={"match": {"text": q}})
            es.get(index="notes", id="1")
            es.delete_by_query(index="notes", query={"match_all": {}})
            helpers.bulk(es, docs)
            await AsyncOpenSearch().delete(index="notes", id="1")
            coll = chromadb.PersistentClient(path="db").get_or_create_collection("notes")
            coll.upsert(ids=["1"], documents=[q])
            coll.query(query_texts=[q])
            chromadb.Client().get_or_create_collection("scratch").add(ids=["1"], documents=[q])
            kv = aerospike.client({"hosts": [("127.0.0.1", 3000)]}).connect()
            kv.put(("test", "notes", "k"), {"text": q})
            kv.get(("test", "notes", "k"))
    """) == [
        (7, "es.index (search index)", "index", "index", ""),
        (10, "es.delete_by_query (search index)", "index", "delete_by_query", ""),
        (11, "elasticsearch.helpers.bulk (search index)", "index", "bulk", ""),
        (12, "delete (search index)", "index", "delete", ""),
        (14, "coll.upsert (vector store)", "vector", "upsert", ""),
        (18, "kv.put (key-value store)", "kv", "put", ""),
    ]


def test_browser_clicks_and_saved_screenshots_not_navigation_or_typing():
    assert effects("""\
        from playwright.sync_api import sync_playwright
        from selenium import webdriver

        def f(url, q):
            d = webdriver.Chrome()
            d.get(url)
            d.find_element("name", "q").send_keys(q)
            d.find_element("id", "buy").click()
            d.save_screenshot("page.png")
            d.get_screenshot_as_png()
            with sync_playwright() as pw:
                page = pw.chromium.launch().new_page()
                page.goto(url)
                page.fill("#q", q)
                page.locator("#submit").click()
                page.screenshot(path="shot.png")
                return page.screenshot()
    """) == [
        (8, "click (browser action)", "browser", "click", ""),
        (9, "d.save_screenshot (image file)", "file", "save_screenshot", "page.png"),
        (15, "click (browser action)", "browser", "click", ""),
        (16, "page.screenshot (file)", "file", "screenshot", "shot.png"),
    ]


def test_pdf_audio_qr_and_wave_files_not_in_memory_renders():
    assert effects("""\
        import io, wave
        import fitz, qrcode
        from pydub import AudioSegment
        from weasyprint import HTML

        def f(a, b, html, data):
            doc = fitz.open(a)
            doc.insert_pdf(fitz.open(b))
            doc.save("merged.pdf")
            HTML(string=html).write_pdf("report.pdf")
            pdf = HTML(string=html).write_pdf()
            AudioSegment.from_file(a).export("clip.mp3", format="mp3")
            buf = io.BytesIO()
            qrcode.make(data).save(buf)
            qrcode.make(data).save("qr.png")
            w = wave.open("tone.wav", "wb")
            wave.open(a, "rb")
            return pdf
    """) == [
        (9, "doc.save (PDF file)", "file", "save", "merged.pdf"),
        (10, "write_pdf (PDF file)", "file", "write_pdf", "report.pdf"),
        (12, "export (audio file)", "file", "export", "clip.mp3"),
        (15, "save (image file)", "file", "save", "qr.png"),
        (16, "a file write", "file", "open", "tone.wav"),
    ]


def test_audio_images_and_arrays_written_by_module_functions():
    # H7's recorder tool: `sf.write(wav_file, audio, rate)` saves a recording; no path, no file.
    assert effects("""\
        import cv2, imageio, io, numpy as np, soundfile as sf
        from scipy.io import wavfile

        def f(audio, frame, arr, out):
            sf.write("rec.wav", audio, 44100)
            wavfile.write(out, 44100, audio)
            cv2.imwrite("frame.png", frame)
            imageio.imwrite("frame.jpg", frame)
            np.save("arr.npy", arr)
            np.save(io.BytesIO(), arr)
            sf.read("rec.wav")
            np.load("arr.npy")
    """) == [
        (5, "soundfile.write (audio file)", "file", "write", "rec.wav"),
        (6, "scipy.io.wavfile.write (audio file)", "file", "write", ""),
        (7, "cv2.imwrite (image file)", "file", "imwrite", "frame.png"),
        (8, "imageio.imwrite (image file)", "file", "imwrite", "frame.jpg"),
        (9, "numpy.save (data file)", "file", "save", "arr.npy"),
    ]


def test_reportlab_documents_write_the_file_they_were_made_on():
    # SalesShortcut's proposal tool: `SimpleDocTemplate(path).build(story)`; a buffer is no file.
    assert effects("""\
        import io
        from reportlab.pdfgen import canvas
        from reportlab.platypus import SimpleDocTemplate

        def f(story, path):
            doc = SimpleDocTemplate(path, pagesize=(600, 800))
            doc.build(story)
            buf = io.BytesIO()
            SimpleDocTemplate(buf).build(story)
            c = canvas.Canvas("invoice.pdf")
            c.save()
    """) == [
        (7, "doc.build (PDF file)", "file", "build", ""),
        (11, "c.save (PDF file)", "file", "save", "invoice.pdf"),
    ]


def test_fpdf_writes_the_file_its_output_names_not_the_bytes_it_returns():
    # evalM2's TextToPDFTool: `FPDF().output(output_path)`; `output()` returns the document's bytes.
    assert effects("""\
        from fpdf import FPDF

        def f(text, path):
            pdf = FPDF()
            pdf.output(path)
            FPDF().output(name="report.pdf")
            return bytes(pdf.output())
    """) == [
        (5, "pdf.output (PDF file)", "file", "output", ""),
        (6, "output (PDF file)", "file", "output", "report.pdf"),
    ]


def test_a_file_opened_in_a_mode_chosen_by_a_condition():
    # evalN2's ReportFileTool: `mode = "a" if append else "w"`; a choice of two reads reads.
    assert effects("""\
        def f(path, append, binary):
            mode = "a" if append else "w"
            with open(path, mode) as fh:
                fh.write("x")
            with open(path, "rb" if binary else "r") as fh:
                return fh.read()
    """) == [(3, "a file write", "file", "open", "")]


def test_kubernetes_writes_on_a_client_of_unknown_type():
    # evalN1's AgenticAIOps: `apps_v1` is `client.AppsV1Api()` in a `try`, `None` in its `except`;
    # the "any receiver" rows' prefixes (`patch_namespaced_*`) match as their exact names do.
    assert effects("""\
        def f(apps_v1, name):
            apps_v1.read_namespaced_deployment(name=name, namespace="default")
            apps_v1.patch_namespaced_deployment(name=name, namespace="default", body={})
            apps_v1.delete_collection_namespaced_pod(namespace="default")
    """) == [
        (3, "apps_v1.patch_namespaced_deployment (Kubernetes)", "cloud", "patch_namespaced_deployment", ""),
        (4, "apps_v1.delete_collection_namespaced_pod (Kubernetes)", "cloud", "delete_collection_namespaced_pod", ""),
    ]


def test_pinecone_and_qdrant_writes_not_their_queries():
    assert effects("""\
        from pinecone import Pinecone
        from qdrant_client import QdrantClient

        def f(vectors):
            index = Pinecone(api_key="k").Index("memories")
            index.upsert(vectors=vectors)
            index.query(vector=[0.1], top_k=3)
            qc = QdrantClient(url="http://localhost:6333")
            qc.upsert(collection_name="c", points=[])
            qc.search(collection_name="c", query_vector=[0.1])
    """) == [
        (6, "index.upsert (vector store)", "vector", "upsert", ""),
        (9, "qc.upsert (vector store)", "vector", "upsert", ""),
    ]


def test_broker_and_exchange_orders_on_any_client():
    # evalM2's alpatrade: `_get_trading_client().submit_order(req)` of a cached factory, and an
    # index-option helper given the client as a parameter; ccxt's exchanges each have a constructor.
    assert effects("""\
        import ccxt

        def f(client, req, symbol):
            client.submit_order(req)
            client.get_all_positions()
            ex = ccxt.kraken({"apiKey": "k"})
            ex.create_market_buy_order(symbol, 1)
            ex.fetch_balance()
            client.close_all_positions(cancel_orders=True)
    """) == [
        (4, "client.submit_order (broker order)", "payment", "submit_order", ""),
        (7, "ex.create_market_buy_order (broker order)", "payment", "create_market_buy_order", ""),
        (9, "client.close_all_positions (broker order)", "payment", "close_all_positions", ""),
    ]


def test_notion_box_hue_and_s3_compatible_clients():
    assert effects("""\
        import ibm_boto3
        from box_sdk_gen import BoxClient
        from notion_client import Client
        from phue import Bridge

        def f(auth, body, page_id):
            notion = Client(auth="secret")
            notion.pages.create(parent={"page_id": page_id}, properties={})
            notion.blocks.children.append(block_id=page_id, children=[])
            notion.databases.query(database_id=page_id)
            box = BoxClient(auth)
            box.uploads.upload_file(body, None)
            box.folders.get_folder_items("0")
            hue = Bridge("192.168.1.2")
            hue.set_light(1, "on", True)
            hue.get_light(1)
            cos = ibm_boto3.client("s3", endpoint_url="https://s3.cloud-object-storage.appdomain.cloud")
            cos.put_object(Bucket="b", Key="k", Body=body)
            cos.get_object(Bucket="b", Key="k")
    """) == [
        (8, "notion.pages.create (ticketing)", "ticket", "create", ""),
        (9, "notion.blocks.children.append (ticketing)", "ticket", "append", ""),
        (12, "box.uploads.upload_file (cloud storage)", "cloud", "upload_file", ""),
        (15, "hue.set_light (device)", "device", "set_light", ""),
        (18, "cos.put_object (AWS)", "cloud", "put_object", ""),
    ]


def test_boto3_operations_outside_the_verb_list_and_query_jobs():
    assert effects("""\
        import boto3

        def f(sql, path):
            s3 = boto3.client("s3")
            s3.copy({"Bucket": "a", "Key": "k"}, "b", "k")
            s3.download_file("b", "k", path)
            s3.download_fileobj("b", "k", None)
            boto3.client("bedrock-agent").ingest_knowledge_base_documents(knowledgeBaseId="kb", documents=[])
            athena = boto3.client("athena")
            athena.start_query_execution(QueryString="SELECT count(*) FROM logs")
            athena.start_query_execution(QueryString="INSERT INTO summary SELECT * FROM logs")
            athena.start_query_execution(QueryString=sql)
            lam = boto3.client("lambda")
            lam.invoke(FunctionName="report", InvocationType="DryRun")
            lam.invoke(FunctionName="report", InvocationType="RequestResponse")
    """) == [
        (5, "s3.copy (AWS)", "cloud", "copy", ""),
        (6, "s3.download_file (AWS)", "cloud", "download_file", ""),
        (8, "ingest_knowledge_base_documents (AWS)", "cloud", "ingest_knowledge_base_documents", ""),
        (11, "athena.start_query_execution (AWS)", "cloud", "start_query_execution", "summary"),
        (15, "lam.invoke (AWS)", "cloud", "invoke", ""),
    ]


def test_a_new_library_in_a_realistic_tool(lint, tmp_path):
    assert sib101(lint, tmp_path, """\
        from neo4j import GraphDatabase
        from strands import tool

        driver = GraphDatabase.driver("bolt://localhost:7687", auth=("neo4j", "pw"))

        @tool
        def remember_person(name: str) -> str:
            \"\"\"Store a person in the knowledge graph.\"\"\"
            with driver.session() as session:
                session.run("MERGE (p:Person {name: $name})", name=name)
            return "stored"

        @tool
        def list_people() -> str:
            \"\"\"List the people in the knowledge graph.\"\"\"
            with driver.session() as session:
                return ", ".join(r["p"]["name"] for r in session.run("MATCH (p:Person) RETURN p"))
    """) == [(7, 10, "remember_person: sync, Cypher MERGE")]


def test_pywhatkit_drives_the_browser_but_info_reads():
    assert effects("""\
        import pywhatkit

        def f(song, phone, text):
            pywhatkit.playonyt(song)
            pywhatkit.sendwhatmsg_instantly(phone, text)
            pywhatkit.info(song, lines=2)
    """) == [
        (4, "pywhatkit.playonyt (desktop automation)", "desktop", "playonyt", ""),
        (5, "pywhatkit.sendwhatmsg_instantly (messaging)", "message", "sendwhatmsg_instantly", ""),
    ]


def test_gitpython_and_pygithub_changes_beside_their_reads():
    # GitPython runs git: clone, commit, push and checkout change a repository; status, log read.
    # PyGithub: creating or deleting a repository beside listing them.
    found = effects("""\
        from git import Repo
        from github import Github

        def f(url, path, name):
            Repo.clone_from(url, path)
            repo = Repo(path)
            repo.git.status()
            repo.iter_commits()
            repo.index.commit("msg")
            repo.remotes.origin.push()
            repo.git.checkout("main")
            user = Github("token").get_user()
            user.get_repos()
            user.create_repo(name)
            user.get_repo(name).delete()
    """)
    assert [(line, kind) for line, _, kind, _, _ in found] == [
        (5, "subprocess"), (9, "subprocess"), (10, "subprocess"), (11, "subprocess"), (14, "ticket"), (15, "ticket")]


def test_social_posts_saved_vector_stores_and_their_reads():
    found = effects("""\
        import tweepy
        from langchain_community.vectorstores import FAISS

        def f(text, path, emb):
            client = tweepy.Client(bearer_token="t")
            client.create_tweet(text=text)
            client.search_recent_tweets(query=text)
            db = FAISS.load_local(path, emb)
            db.similarity_search(text)
            db.save_local(path)
    """)
    assert [(line, kind) for line, _, kind, _, _ in found] == [(6, "message"), (10, "vector")]


def test_picnic_grocery_orders_and_their_reads():
    # evalK1's radbot: python-picnic-api2's cart and delivery slot (the slot places the order).
    found = effects("""\
        from python_picnic_api2 import PicnicAPI

        def f(user, password, product, slot):
            api = PicnicAPI(username=user, password=password, country_code="DE")
            api.search("milk")
            api.get_cart()
            api.add_product(product, count=2)
            api._post("/cart/set_delivery_slot", {"slot_id": slot})
    """)
    assert [(line, kind) for line, _, kind, _, _ in found] == [(7, "payment"), (8, "payment")]


def test_facebook_graph_api_posts_and_its_reads():
    # evalU1's posting assistant: facebook-sdk's `put_object(page_id, "feed", message=...)` publishes.
    found = effects("""\
        import facebook

        def f(token, page, text):
            graph = facebook.GraphAPI(access_token=token)
            graph.put_object(parent_object=page, connection_name="feed", message=text)
            graph.get_object(id=page)
            graph.get_connections(id=page, connection_name="feed")
            graph.delete_object(id=page)
    """)
    assert [(line, kind) for line, _, kind, _, _ in found] == [(5, "message"), (8, "message")]


def test_qiita_client_posts_and_its_reads():
    # evalW1's editor agent: the Qiita API's generated client posts an article.
    found = effects("""\
        from qiita import Qiita

        def f(token, body, item):
            qiita = Qiita(access_token=token)
            qiita.create_item_with_http_info(body)
            qiita.get_item(item)
            qiita.get_authenticated_user_items()
            qiita.delete_item(item)
    """)
    assert [(line, kind) for line, _, kind, _, _ in found] == [(5, "message"), (8, "message")]


def test_pysnow_table_api_writes_and_its_reads():
    # evalW4's utility support desk: ServiceNow incidents resolved and deleted through pysnow.
    found = effects("""\
        import pysnow

        def f(number):
            client = pysnow.Client(instance="dev", user="u", password="p")
            incidents = client.resource(api_path="/table/incident")
            incidents.get(query={"number": number}, limit=1)
            incidents.update(query={"number": number}, payload={"state": "6"})
            incidents.delete(query={"number": number})
    """)
    assert [(line, kind) for line, _, kind, _, _ in found] == [(7, "ticket"), (8, "ticket")]


def test_hosted_inference_posts_read_and_an_atomic_write_lands():
    found = effects("""\
        import requests, tempfile
        from pathlib import Path

        def f(data, dest):
            requests.post("https://api-inference.huggingface.co/models/facebook/dinov2-base", data=data)
            tmp = tempfile.NamedTemporaryFile(delete=False)
            Path(tmp.name).write_text("x")
            Path(tmp.name).replace(dest)
            Path(tmp.name).unlink()
    """)
    # The scratch file's own write and removal stay scratch; moved to `dest`, it lands.
    assert [(line, kind) for line, _, kind, _, _ in found] == [(8, "file")]


def test_firestore_writes_not_its_reads():
    # evalP1's agentic-facebook: `db.collection("users").document(uid)...set(data)` of a module-level client.
    assert effects("""\
        from google.cloud import firestore
        from firebase_admin import firestore as admin_firestore

        db = firestore.Client(project="p")

        def f(uid, data):
            db.collection("users").document(uid).collection("plans").document("current").set(data)
            ref = db.collection("users").document()
            ref.update(data)
            db.collection("users").document(uid).get()
            list(db.collection("users").where("a", "==", 1).stream())
            admin_firestore.client().collection("x").add(data)
    """) == [
        (7, "set (Firestore write)", "nosql", "set", ""),
        (9, "ref.update (Firestore write)", "nosql", "update", ""),
        (12, "add (Firestore write)", "nosql", "add", ""),
    ]


def test_odoo_methods_run_by_name_write_unless_they_read():
    # evalP2's Odoo tools: `execute_kw(db, uid, password, model, method, ...)` on a ServerProxy or a
    # client of any type; the method is data, and only a method siblint can read is judged.
    assert effects("""\
        import xmlrpc.client

        def f(client, vals, method):
            models = xmlrpc.client.ServerProxy("https://odoo.example.com/xmlrpc/2/object")
            models.execute_kw("db", 1, "pw", "sale.order", "create", [vals])
            models.execute_kw("db", 1, "pw", "res.partner", "search_read", [[]])
            client.models.execute_kw("db", 1, "pw", "purchase.order", "button_confirm", [[1]])
            models.execute("db", 1, "pw", "stock.picking", "read", [1])
            models.execute_kw("db", 1, "pw", "sale.order", method, [vals])
    """) == [
        (5, "an Odoo create of sale.order", "orm", "create", "sale.order"),
        (7, "an Odoo button_confirm of purchase.order", "orm", "button_confirm", "purchase.order"),
    ]


def test_a_graphql_mutation_is_a_write_on_any_client():
    assert effects("""\
        from gql import Client, gql

        MUTATION = gql("mutation Add($b: String!) { addComment(body: $b) { id } }")

        def f(client, session):
            client.execute(MUTATION, variable_values={"b": "x"})
            client.execute(gql("query { viewer { login } }"))
            session.graphql("# add one\\nmutation { addStar(id: 1) { ok } }")
            session.graphql("{ viewer { login } }")
    """) == [
        (6, "a GraphQL mutation via client.execute", "http", "mutation", ""),
        (8, "a GraphQL mutation via session.graphql", "http", "mutation", ""),
    ]


def test_a_request_on_any_client_that_names_a_mutating_method():
    assert effects("""\
        def f(client, octokit, body):
            client.request("POST", "https://api.example.com/v1/orders", json=body)
            client.request("GET", "https://api.example.com/v1/orders")
            octokit.request("PUT /repos/o/r/contents/a.md", body)
            octokit.request("GET /repos/o/r")
            client.request(method="DELETE", url="https://api.example.com/v1/orders/1")
            client.request("https://api.example.com/v1/orders")
    """) == [
        (2, "POST to https://api.example.com/v1/orders via an API client", "http", "POST",
         "https://api.example.com/v1/orders"),
        (4, "PUT /repos/o/r/contents/a.md via octokit.request", "http", "PUT", "/repos/o/r/contents/a.md"),
        (6, "DELETE to https://api.example.com/v1/orders/1 via an API client", "http", "DELETE",
         "https://api.example.com/v1/orders/1"),
    ]


def test_gitpython_reads_a_commit_up_and_writes_through_its_index():
    # evalQ2's gitcheckpoint: `repo.commit(sha)` looks a checkpoint up; `repo.index.commit(msg)`
    # and `repo.git.commit(...)` make a commit; a Repo made by `Repo.init` is a Repo.
    assert effects("""\
        import git

        def f(path, sha, conn):
            repo = git.Repo.init(path)
            repo.commit(sha).tree
            repo.index.commit("checkpoint")
            repo.git.commit("-m", "x")
            repo.git.merge("feature", no_edit=True)
            conn.commit()
            name = str(path).replace("/", "_")
    """) == [
        (4, "git.Repo.init (git)", "subprocess", "init", ""),
        (6, "repo.index.commit (git)", "subprocess", "commit", ""),
        (7, "repo.git.commit (git)", "subprocess", "commit", ""),
        (8, "repo.git.merge (git)", "subprocess", "merge", ""),
        (9, "a database commit", "sql", "commit", ""),
    ]


def test_telnyx_messages_and_a_hue_bridge_of_unknown_type():
    # evalR1's AiPRL (Telnyx SMS) and angie (`bridge = ctx.deps`, a phue Bridge the source does not type).
    assert effects("""\
        import telnyx

        def f(bridge, to):
            telnyx.Telnyx(api_key="k").messages.send(from_="+1", to=to, text="hi")
            bridge.set_light("desk", "on", True)
            bridge.get_light_objects("name")
    """) == [
        (4, "send (messaging)", "message", "send", ""),
        (5, "bridge.set_light (device)", "device", "set_light", ""),
    ]


def test_a_post_to_a_url_read_from_the_environment_is_judged_by_the_variables_name():
    # evalR1's insurance bot: `requests.post(os.getenv("MOTOR_QUOTE_API_URL"), ...)` computes a quote;
    # `SAVE_QUOTE_URL` stores one; `/getOTP` sends a code.
    assert effects("""\
        import os
        import requests

        def f(body, base):
            url = os.getenv("MOTOR_QUOTE_API_URL")
            requests.post(url, data=body)
            requests.post(os.getenv("SAVE_QUOTE_URL"), data=body)
            requests.post(f"{base}/getOTP", data=body)
    """) == [
        (7, "POST via requests", "http", "POST", "$SAVE_QUOTE_URL"),
        (8, "POST via requests", "http", "POST", "{}/getOTP"),
    ]


def test_an_environment_variable_inside_a_url_is_a_name_not_words_of_the_path():
    # evalW17's claims copilot: `f"{ENDPOINT}/indexes/{SEARCH_INDEX}/docs/search"`, the index's name
    # read from `AZURE_SEARCH_INDEX` (holding "index"); uploading to the index writes.
    assert [(line, method) for line, _, _, method, _ in effects("""\
        import os
        import httpx

        ENDPOINT = os.getenv("AZURE_SEARCH_ENDPOINT")
        SEARCH_INDEX = os.getenv("AZURE_SEARCH_INDEX")

        def f(body):
            httpx.post(f"{ENDPOINT}/indexes/{SEARCH_INDEX}/docs/search?api-version=2024-07-01", json=body)
            httpx.post(f"{ENDPOINT}/indexes/{SEARCH_INDEX}/docs/index?api-version=2024-07-01", json=body)
    """)] == [(9, "POST")]


def test_zotero_library_writes_and_saved_folium_maps():
    # evalW18: a research assistant saves papers with pyzotero's `create_items`; a transit assistant
    # saves each route's folium map as an HTML page. Listing the library reads.
    assert [(line, kind) for line, _, kind, _, _ in effects("""\
        import folium
        from pyzotero import zotero

        def f(items, path):
            zot = zotero.Zotero("1", "user", "key")
            zot.create_items(items)
            zot.collections()
            folium.Map(location=[0, 0]).save(path)
    """)] == [(6, "ticket"), (8, "file")]


def test_redis_writes_not_its_reads_on_either_client():
    assert [(line, desc, kind) for line, desc, kind, *_ in effects("""\
        import redis
        import redis.asyncio

        r = redis.Redis()
        ar = redis.asyncio.from_url("redis://localhost")

        async def f(cart):
            r.get("cart:1")
            r.hset("cart:1", mapping=cart)
            r.delete("cart:1")
            await ar.hgetall("cart:1")
            await ar.expire("cart:1", 60)
    """)] == [(9, "r.hset (Redis write)", "kv"), (10, "r.delete (Redis write)", "kv"),
              (12, "ar.expire (Redis write)", "kv")]


def test_a_redis_write_is_the_tools_unless_a_cache_helper_makes_it(lint, tmp_path):
    assert sib101(lint, tmp_path, """\
        import json

        import redis
        from strands import tool

        r = redis.Redis()

        def cached_rates():
            rates = {"EUR": 0.9}
            r.setex("rates", 60, json.dumps(rates))
            return rates

        @tool
        def convert(amount: float) -> str:
            \"\"\"Convert an amount to EUR.\"\"\"
            return str(amount * cached_rates()["EUR"])

        @tool
        def add_to_cart(item: str) -> str:
            \"\"\"Add an item to the cart.\"\"\"
            r.rpush("cart", item)
            return "added"
    """) == [(19, 21, "add_to_cart: sync, r.rpush (Redis write)")]


def test_a_client_reset_to_none_on_failure_is_still_the_client(lint, tmp_path):
    assert sib101(lint, tmp_path, """\
        import httpx
        from strands import tool

        def get_client():
            client = httpx.Client(base_url="https://pay.example.com")
            try:
                client.get("/health")
            except httpx.HTTPError:
                client = None
            return client

        @tool
        def charge(amount: int) -> str:
            \"\"\"Charge the card.\"\"\"
            get_client().post("/charges", json={"amount": amount})
            return "charged"
    """) == [(13, 15, "charge: sync, POST via httpx")]


def test_a_post_asking_a_model_about_a_text_reads():
    """evalT1's ta-agent: an AI-text detector's `POST /api/detect/detectText` changes nothing."""
    assert [(line, method) for line, _, _, method, _ in effects("""\
        import requests

        def f(text):
            requests.post("https://api.zerogpt.com/api/detect/detectText", json={"input_text": text})
            requests.post("https://moderation.example.com/v1/classify", json={"text": text})
            requests.post("https://canvas.example.com/api/v1/courses/1/quizzes/2/validate_access_code", json={})
            requests.post("https://api.example.com/v1/detections/create", json={"text": text})
    """)] == [(7, "POST")]


def test_canvas_lms_changes_through_a_factory_and_a_chain_of_names_not_its_reads(lint, tmp_path):
    """evalT1's ta-agent: the course, then the assignment, each a name bound on the way."""
    assert sib101(lint, tmp_path, """\
        from canvasapi import Canvas
        from strands import tool

        def get_canvas():
            return Canvas("https://canvas.example.com", "key")

        @tool
        def edit_assignment(course_id: int, assignment_id: int, name: str) -> str:
            \"\"\"Rename an assignment.\"\"\"
            canvas = get_canvas()
            course = canvas.get_course(course_id)
            assignment = course.get_assignment(assignment_id)
            assignment.edit(assignment={"name": name})
            return "renamed"

        @tool
        def list_assignments(course_id: int) -> str:
            \"\"\"List a course's assignments.\"\"\"
            course = get_canvas().get_course(course_id)
            return ", ".join(a.name for a in course.get_assignments())
    """) == [(8, 13, "edit_assignment: sync, assignment.edit (Canvas LMS)")]


def test_google_sheets_writes_through_gspread_in_another_module_not_its_reads(lint, tmp_path):
    """evalU1's expense agent: the worksheet is built once in a helper module, the tools import it."""
    (tmp_path / "sheets.py").write_text(
        "import gspread\n\ngc = gspread.service_account(filename='creds.json')\n"
        "sheet = gc.open_by_key('key').worksheet('Expenses')\n")
    assert sib101(lint, tmp_path, """\
        from strands import tool
        from sheets import sheet

        @tool
        def add_expense(name: str, amount: float) -> str:
            \"\"\"Add a row.\"\"\"
            sheet.append_row([name, amount])
            return "added"

        @tool
        def list_expenses() -> str:
            \"\"\"Read the rows.\"\"\"
            return str(sheet.get_all_records())
    """) == [(5, 7, "add_expense: sync, sheet.append_row (Google Sheets)")]


def test_appwrite_document_writes_not_its_reads():
    """Appwrite's Python SDK, as evalU3's MathX uses its Node twin: `Databases(client)` writes documents."""
    assert [(line, description) for line, description, _, _, _ in effects("""\
        from appwrite.client import Client
        from appwrite.services.databases import Databases

        db = Databases(Client().set_endpoint("https://cloud.appwrite.io/v1"))

        def f(doc_id):
            db.create_document("db", "contests", doc_id, {"title": "x"})
            db.list_documents("db", "contests")
            db.get_document("db", "contests", doc_id)
            db.delete_document("db", "contests", doc_id)
    """)] == [(7, "db.create_document (Appwrite write)"), (10, "db.delete_document (Appwrite write)")]


def test_hubspot_crm_writes_through_the_clients_services_not_its_reads():
    """evalW2's CRM agent: `hubspot.Client.create(...)` and `HubSpot(...)`, whose nested services write."""
    assert [(line, description) for line, description, _, _, _ in effects("""\
        import hubspot
        from hubspot import HubSpot

        client = hubspot.Client.create(access_token="t")
        api = HubSpot(access_token="t")

        def f(deal_id, props):
            client.crm.deals.basic_api.create(simple_public_object_input_for_create=props)
            client.crm.deals.basic_api.get_page(limit=10)
            api.crm.contacts.search_api.do_search(public_object_search_request=props)
            api.crm.contacts.basic_api.archive(deal_id)
    """)] == [(8, "client.crm.deals.basic_api.create (HubSpot CRM)"),
              (11, "api.crm.contacts.basic_api.archive (HubSpot CRM)")]


def test_a_replicate_job_started_not_a_model_run():
    """evalX4's sandbox: `predictions.create` starts a job that runs on detached; `run` waits for the answer."""
    assert [(line, description) for line, description, _, _, _ in effects("""\
        import replicate

        client = replicate.Client(api_token="t")

        def f(prompt):
            replicate.run("owner/model", input={"prompt": prompt})
            replicate.predictions.create(model="owner/video", input={"prompt": prompt})
            client.trainings.create(destination="me/model", input={})
    """)] == [(7, "replicate.predictions.create (cloud job)"), (8, "client.trainings.create (cloud job)")]


def test_an_mcp_servers_tool_called_by_a_name_that_writes():
    """The Python MCP client's `call_tool(name, arguments)`: the remote tool's name says what it does."""
    assert [(line, description) for line, description, _, _, _ in effects("""\
        from mcp import ClientSession

        async def f(session: ClientSession, name):
            await session.call_tool("create_issue", {"title": "x"})
            await session.call_tool("search_issues", {"q": "x"})
            await session.call_tool(name, {})
            await session.call_tool("ping", {})
    """)] == [(4, "session.call_tool (MCP tool create_issue)")]


def test_a_request_helper_upper_casing_its_method_sends_what_its_caller_says(lint, tmp_path):
    """evalV2's Magento client: `session.request(method=method.upper(), url=...)`, `method` the
    caller's; `path.lstrip("/")` of a literal path is read the same way."""
    assert sib101(lint, tmp_path, """\
        import requests
        from langchain_core.tools import tool

        class Client:
            def __init__(self):
                self.session = requests.Session()

            def send(self, endpoint: str, method: str = "GET", data: dict | None = None) -> dict:
                url = "https://shop.example.com/rest/V1/" + endpoint.lstrip("/")
                return self.session.request(method=method.upper(), url=url, json=data).json()

        client = Client()

        @tool
        def list_countries() -> dict:
            \"\"\"List countries.\"\"\"
            return client.send("/directory/countries", method="get")

        @tool
        def get_order(order_id: int) -> dict:
            \"\"\"Read an order.\"\"\"
            return client.send(f"orders/{order_id}")

        @tool
        def cancel_order(order_id: int) -> dict:
            \"\"\"Cancel an order.\"\"\"
            return client.send(f"orders/{order_id}/cancel", method="post")
    """) == [(25, 10, "cancel_order: sync, POST to https://shop.example.com/rest/V1/orders/{}/canc… via requests "
                       "(via Client.send)")]


def test_sql_read_through_str_methods_of_its_text():
    """`.strip()` of a literal, `.strip(chars)` of a bound text: the text they make (a strip's argument
    was read as the text before)."""
    assert [(line, description) for line, description, _, _, _ in effects("""\
        def f(cursor):
            sql = "\\nDELETE FROM t\\n"
            cursor.execute("  UPDATE t SET a = 1  ".strip())
            cursor.execute(sql.strip("\\n"))
            cursor.execute("  select 1  ".strip())
    """)] == [(3, "SQL UPDATE"), (4, "SQL DELETE")]


def test_bluesky_reddit_and_mastodon_posts_and_their_reads():
    # evalW5's content engine: crewAI publisher tools post through atproto and praw.
    found = effects("""\
        from atproto import Client
        import praw
        from mastodon import Mastodon

        def f(text, handle, pw):
            client = Client()
            client.login(handle, pw)
            client.send_post(text=text)
            client.get_timeline()
            reddit = praw.Reddit(client_id="i", client_secret="s", user_agent="a")
            reddit.subreddit("test").submit(title=text, selftext=text)
            reddit.subreddit("test").hot(limit=5)
            Mastodon(access_token="t").status_post(text)
    """)
    assert [(line, kind) for line, _, kind, _, _ in found] == [(8, "message"), (11, "message"), (13, "message")]


def test_apscheduler_jobs_added_and_removed_and_their_reads():
    # A blind set's property manager: `schedule_sms` adds a job (an SMS sent later, a row in its
    # SQLAlchemy job store) to its scheduler, typed by a module-level annotation.
    found = effects("""\
        from apscheduler.schedulers.asyncio import AsyncIOScheduler
        from apscheduler import AsyncScheduler

        _scheduler: AsyncIOScheduler | None = None

        def f(job_id, when):
            scheduler = AsyncIOScheduler()
            scheduler.add_job(print, "date", run_date=when, id=job_id)
            scheduler.get_jobs()
            _scheduler.remove_job(job_id)

        async def g(job_id):
            s = AsyncScheduler()
            await s.add_schedule(print, "interval", id=job_id)
            await s.get_schedules()
    """)
    assert [(line, description) for line, description, _, _, _ in found] == [
        (8, "scheduler.add_job (scheduled job)"), (10, "_scheduler.remove_job (scheduled job)"),
        (14, "s.add_schedule (scheduled job)")]


def test_mqtt_publishes_and_subscriptions():
    # evalW5's MQTT light agent: paho's `client.publish(topic, message)` switches a light.
    found = effects("""\
        import paho.mqtt.client as mqtt
        import paho.mqtt.publish as publish
        import aiomqtt

        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)

        def f(topic, message):
            client.publish(topic, message)
            client.subscribe(topic)
            publish.single(topic, message, hostname="broker")

        async def g(topic, message):
            async with aiomqtt.Client("broker") as c:
                await c.publish(topic, message)
    """)
    assert [(line, description) for line, description, _, _, _ in found] == [
        (8, "client.publish (MQTT message)"), (10, "paho.mqtt.publish.single (MQTT message)"), (14, "c.publish (MQTT message)")]


def test_code_run_in_an_e2b_sandbox():
    # evalW6's trading agent: LLM-written code run in an E2B code interpreter.
    found = effects("""\
        from e2b_code_interpreter import CodeInterpreter, Sandbox

        def f(code):
            interpreter = CodeInterpreter()
            interpreter.notebook.exec_cell(code)
            interpreter.close()
            sandbox = Sandbox()
            sandbox.run_code(code)
            sandbox.files.write("/tmp/a.txt", code)
            sandbox.files.read("/tmp/a.txt")
    """)
    assert [(line, kind) for line, _, kind, _, _ in found] == [(5, "subprocess"), (8, "subprocess"), (9, "subprocess")]


def test_strands_mcp_client_calls_a_tool_by_name_its_key_or_its_keyword():
    """evalW5's smart-home agent: strands' `MCPClient.call_tool_sync(tool_use_id, name, arguments)`,
    the name a gateway's (`SmartHome___control_device`) or looked up by the tool's own name."""
    assert [(line, description) for line, description, _, _, _ in effects("""\
        from strands.tools.mcp import MCPClient

        def f(names, uid):
            client = MCPClient(lambda: None)
            client.call_tool_sync(tool_use_id=uid, name="SmartHome___control_device", arguments={})
            client.call_tool_sync(uid, "SmartHome___discover_devices", {})
            client.call_tool_sync(tool_use_id=uid, name=names["turn_on_light"], arguments={})
            client.call_tool_sync(tool_use_id=uid, name=names["query_knowledge_base"], arguments={})
            client.call_tool_sync(uid, "restart_service", {})
    """)] == [(5, "client.call_tool_sync (MCP tool SmartHome___control_device)"),
              (7, "client.call_tool_sync (MCP tool turn_on_light)"),
              (9, "client.call_tool_sync (MCP tool restart_service)")]


def test_a_factory_parameter_is_the_client_this_module_passes_it(lint, tmp_path):
    """evalW5's voice agent: a tool closure made by `_build(mcp_client)` calls the client it was
    handed; the module calls the factory with an `MCPClient`. A parameter no call gives a known
    client stays unknown."""
    text = """\
        from strands import Agent, tool
        from strands.tools.mcp import MCPClient

        def _build(mcp_client):
            @tool
            def turn_on_all() -> str:
                mcp_client.call_tool_sync(tool_use_id="1", name="Home___control_device", arguments={})
                return "ok"
            return turn_on_all

        def _other(client):
            @tool
            def turn_off_all() -> str:
                client.call_tool_sync(tool_use_id="1", name="Home___control_device", arguments={})
                return "ok"
            return turn_off_all

        def main(url, thing):
            mcp_client = None
            mcp_client = MCPClient(lambda: url)
            Agent(tools=[_build(mcp_client), _other(thing)])
    """
    assert sib101(lint, tmp_path, text) == [(6, 7, "turn_on_all: sync, mcp_client.call_tool_sync (MCP tool Home___control_device)")]


def test_azure_storage_cosmos_messaging_and_their_reads():
    # evalW8's civic agent: a complaint saved with Cosmos DB's `container.create_item` (a container
    # client handed out by the database client); evalW6's accelerator uploads a PNG to Blob storage.
    found = effects("""\
        from azure.cosmos import CosmosClient
        from azure.storage.blob import BlobServiceClient
        from azure.communication.email import EmailClient
        from azure.storage.blob.aio import BlobServiceClient as AsyncBlobs

        def f(item, data, message):
            container = CosmosClient("u", credential="k").get_database_client("d").get_container_client("c")
            container.create_item(body=item)
            container.read_item(item="1", partition_key="p")
            list(container.query_items("SELECT * FROM c"))
            blobs = BlobServiceClient.from_connection_string("cs")
            blobs.get_blob_client(container="c", blob="b").upload_blob(data, overwrite=True)
            blobs.get_blob_client(container="c", blob="b").download_blob()
            EmailClient.from_connection_string("cs").begin_send(message)

        async def g(data):
            await AsyncBlobs.from_connection_string("cs").get_container_client("c").upload_blob("b", data)
    """)
    assert [(line, kind) for line, _, kind, _, _ in found] == [(8, "nosql"), (12, "cloud"), (14, "email"), (17, "cloud")]


def test_a_client_read_back_from_the_cache_a_class_fills():
    # A blind set's Cosmos retail sample: `_get_container` returns `self._containers[name]`, which
    # it fills with the database client's container clients; what the cache holds under any key
    # (or under a literal key) is read back by a subscript with a name or a literal.
    found = effects("""\
        import boto3
        from azure.cosmos import CosmosClient

        class Store:
            def __init__(self):
                self._database = CosmosClient("u", credential="k").get_database_client("d")
                self._containers = {}
                self._clients = {}
                self._clients["s3"] = boto3.client("s3")

            def _get_container(self, name):
                if name not in self._containers:
                    self._containers[name] = self._database.get_container_client(name)
                return self._containers[name]

            def create_return(self, data, name):
                self._containers[name].create_item(data)
                self._clients["s3"].put_object(Bucket="b", Key="k", Body=b"")
                self._containers["returns"].read_item(item="1", partition_key="p")
                self._other[name].create_item(data)
    """)
    assert [(line, kind) for line, _, kind, _, _ in found] == [(17, "nosql"), (18, "cloud")]


def test_a_tool_writing_through_a_getter_of_cached_clients(lint, tmp_path):
    text = """\
        from agents import function_tool
        from azure.cosmos import CosmosClient

        class Store:
            def __init__(self):
                self._database = CosmosClient("u", credential="k").get_database_client("d")
                self._containers = {}

            def _get_container(self, name):
                if name not in self._containers:
                    self._containers[name] = self._database.get_container_client(name)
                return self._containers[name]

        @function_tool
        async def create_return(order_id: str) -> str:
            Store()._get_container("returns").create_item({"id": order_id})
            return "ok"
    """
    assert [(d.code, d.loc.line) for d in lint(textwrap.dedent(text), None, Config(root=str(tmp_path)))] == [("SIB103", 15)]


def test_azure_resource_manager_operations_and_supabase_admin_auth():
    # evalW16: an IT-operations agent runs a command on a VM (`begin_run_command`) through the
    # Resource Manager's compute client; a citizen desk creates Supabase Auth users. Gets and lists read.
    found = effects("""\
        from azure.mgmt.compute import ComputeManagementClient
        from supabase import create_client

        def f(cred, sub, params, user):
            compute = ComputeManagementClient(cred, sub)
            compute.virtual_machines.begin_run_command("rg", "vm", params).result()
            compute.virtual_machines.get("rg", "vm")
            list(compute.virtual_machines.list("rg"))
            client = create_client("u", "k")
            client.auth.admin.create_user(user)
            client.auth.admin.list_users()
    """)
    assert [(line, kind) for line, _, kind, _, _ in found] == [(6, "cloud"), (10, "sql")]


def test_a_command_a_helper_builds_per_platform_reads_when_every_list_it_returns_does(lint, tmp_path):
    """evalW7's network diagnostics: `command = _command_for(host)` returns a traceroute argv per
    platform (`shutil.which("tracert")` on Windows), with `*(["-6"] if v6 else [])`; one that can
    return a writing command is a write."""
    text = """\
        import shutil
        import subprocess
        from agents import function_tool


        def _command_for(destination, write):
            if write:
                return ["git", "push"] if destination == "origin" else None
            executable = shutil.which("tracert") if destination.startswith("win") else shutil.which("traceroute")
            if not executable:
                return None
            version = ["-6"] if ":" in destination else []
            return [executable, *version, "-n", "-m", "8", destination]


        @function_tool
        def trace(destination: str) -> str:
            command = _command_for(destination, False)
            return subprocess.run(command, capture_output=True, text=True).stdout
    """
    assert sib101(lint, tmp_path, text) == [(17, 19, "trace: sync, a subprocess")]
    reads_only = text.replace('["git", "push"]', '["traceroute", "-n"]')
    assert sib101(lint, tmp_path / "reads", reads_only) == []


def test_ynab_budget_writes_and_reads():
    # evalW9's budget-buddy: YNAB's generated client, built in a wrapper class's `__init__`.
    found = effects("""\
        from ynab import ApiClient, Configuration, TransactionsApi, CategoriesApi

        def f(budget, tx, data):
            client = ApiClient(Configuration(access_token="t"))
            TransactionsApi(client).delete_transaction(budget, tx)
            TransactionsApi(client).get_transactions(budget)
            CategoriesApi(client).update_month_category(budget, "2025-01-01", "c", data)
    """)
    assert [(line, kind) for line, _, kind, _, _ in found] == [(5, "ticket"), (7, "ticket")]


def test_a_cache_file_read_back_when_it_exists_and_schema_setup_commits(lint, tmp_path):
    """evalW9's CVE tools: a lookup that loads its JSON cache when the file exists, else fetches and
    writes it; a payee matcher whose `init_db()` commits only `CREATE TABLE IF NOT EXISTS`. Neither
    changes what the next call reads; a plain report write does."""
    text = """\
        import json
        import os
        import sqlite3
        import requests
        from agents import function_tool


        def init_db():
            conn = sqlite3.connect("rules.db")
            conn.execute("CREATE TABLE IF NOT EXISTS rules (id INTEGER PRIMARY KEY, pattern TEXT)")
            conn.commit()


        @function_tool
        def lookup(cwe_id: str) -> str:
            init_db()
            path = os.path.join(os.path.expanduser("~/.cfg"), "defs.json")
            if os.path.exists(path):
                with open(path, "r") as f:
                    data = json.load(f)
            else:
                data = requests.get("https://cwe.example.com/defs.json").json()
                with open(path, "w") as f:
                    json.dump(data, f)
            return data.get(cwe_id, "unknown")


        @function_tool
        def report(text: str) -> str:
            with open("report.txt", "w") as f:
                f.write(text)
            return "ok"
    """
    assert [line for line, _, _ in sib101(lint, tmp_path, text)] == [29]


def test_commands_run_in_a_container_read_or_write(lint, tmp_path):
    """evalW10's Jira fixer: `container.exec_run(["sh", "-c", command])` of a literal `git diff` only
    reads; a file put into the container (`put_archive`) and a model-chosen command write."""
    text = """\
        import docker
        from langchain_core.tools import tool

        container = docker.from_env().containers.get("ticket")


        def _exec(command):
            return container.exec_run(["sh", "-c", command]).output.decode()


        @tool
        def git_diff() -> str:
            \"\"\"The diff.\"\"\"
            return _exec("git diff")


        @tool
        def run_shell(command: str) -> str:
            \"\"\"Run a command.\"\"\"
            return _exec(command)


        @tool
        def write_file(path: str, data: bytes) -> str:
            \"\"\"Write a file.\"\"\"
            container.put_archive("/repo", data)
            return "ok"
    """
    assert [line for line, _, _ in sib101(lint, tmp_path, text)] == [18, 24]


def test_cost_tracking_and_a_collection_made_when_missing_are_bookkeeping(lint, tmp_path):
    """evalW10's sales agent records each model call's cost (`_track_cost`); its support desk makes
    its Chroma collection when missing (`get_or_create_collection`). A tool that saves a lead does write."""
    text = """\
        import chromadb
        import sqlite3
        from langchain_core.tools import tool

        client = chromadb.PersistentClient(path="kb")


        def get_or_create_collection():
            try:
                return client.get_collection(name="kb")
            except Exception:
                return client.create_collection(name="kb")


        def _track_cost(model, usd):
            conn = sqlite3.connect("costs.db")
            conn.execute("INSERT INTO costs VALUES (?, ?)", (model, usd))
            conn.commit()


        @tool
        def search(q: str) -> str:
            \"\"\"Search.\"\"\"
            _track_cost("m", 0.01)
            return str(get_or_create_collection().query(query_texts=[q]))


        @tool
        def save_lead(name: str) -> str:
            \"\"\"Save a lead.\"\"\"
            conn = sqlite3.connect("crm.db")
            conn.execute("INSERT INTO leads VALUES (?)", (name,))
            conn.commit()
            return "saved"
    """
    assert [line for line, _, _ in sib101(lint, tmp_path, text)] == [29, 29]


def test_a_cache_file_through_pathlib_is_filled_not_written(lint, tmp_path):
    """`_fills_a_cache` also for path methods (`check="path"`): `p.exists()`, `p.read_text()`,
    `p.write_text(...)`; a path written without being read back stays a write."""
    text = """\
        from pathlib import Path
        import requests
        from agents import function_tool


        @function_tool
        def lookup(key: str) -> str:
            cache = Path("defs.json")
            if cache.exists():
                return cache.read_text()
            body = requests.get("https://defs.example.com/all").text
            cache.write_text(body)
            return body


        @function_tool
        def save(body: str) -> str:
            out = Path("report.txt")
            out.write_text(body)
            return "ok"
    """
    assert [line for line, _, _ in sib101(lint, tmp_path, text)] == [17]


def test_a_file_the_caller_names_is_edited_not_cached(lint, tmp_path):
    """corpus2's RA.Aid `file_str_replace(filepath, ...)`: `if not path.exists(): return ...`, then
    `path.read_text()` and `path.write_text(...)` of `Path(filepath)`: a read-modify-write of the
    file the model names, not a cache the function fills."""
    text = """\
        from pathlib import Path
        from agents import function_tool


        @function_tool
        def file_str_replace(filepath: str, old: str, new: str) -> str:
            path = Path(filepath)
            if not path.exists():
                return "not found"
            content = path.read_text()
            path.write_text(content.replace(old, new))
            return "ok"
    """
    assert [line for line, _, _ in sib101(lint, tmp_path, text)] == [6]


def test_a_table_an_ensure_helper_creates_when_missing_is_setup(lint, tmp_path):
    """evalW22's lead finder: a read tool calls `ensure_leads_table_exists`, which creates the
    BigQuery table only where `get_table` finds none; its upload tool inserts rows: a write."""
    text = """\
        from google.cloud import bigquery
        from google.cloud.exceptions import NotFound
        from langchain_core.tools import tool

        client = bigquery.Client()


        def ensure_leads_table_exists(table_ref):
            try:
                client.get_table(table_ref)
            except NotFound:
                client.create_table(bigquery.Table(table_ref))
            return table_ref


        @tool
        def query_leads(city: str) -> str:
            \"\"\"Query leads.\"\"\"
            ref = ensure_leads_table_exists("p.d.leads")
            return str(list(client.query(f"SELECT * FROM `{ref}` WHERE city = @c")))


        @tool
        def upload_leads(rows: list) -> str:
            \"\"\"Upload leads.\"\"\"
            ref = ensure_leads_table_exists("p.d.leads")
            client.insert_rows_json(ref, rows)
            return "ok"
    """
    assert [line for line, _, _ in sib101(lint, tmp_path, text)] == [24]


def test_sql_another_module_exports_is_read_there_and_a_warm_run_sees_it_change(tmp_path):
    """`from queries import STATEMENT; cur.execute(STATEMENT)`: the constant's text in its module.
    A SELECT reads; an edit of that module to an INSERT makes the unchanged tool's module a write
    in a warm run (the text was looked up through the project, which the cache's trace records)."""
    from support import cli_findings, write

    tool = ("import sqlite3\nfrom agents import function_tool\nfrom queries import STATEMENT\n\n\n"
            "@function_tool\ndef save(x: str) -> str:\n    sqlite3.connect('app.db').execute(STATEMENT, (x,))\n    return 'ok'\n")
    write(tmp_path, {"tools.py": tool, "queries.py": "STATEMENT = 'SELECT name FROM t WHERE id = ?'\n"})
    cache = ["--cache-dir", str(tmp_path.parent / f"{tmp_path.name}-cache")]
    assert cli_findings(["."], tmp_path, cache) == []
    write(tmp_path, {"queries.py": "STATEMENT = 'INSERT INTO t (name) VALUES (?)'\n"})
    assert [(f[0], f[1], f[3]) for f in cli_findings(["."], tmp_path, cache)] == [("tools.py", 7, "SIB101")]


def test_what_a_memoised_initializer_sets_up_is_not_the_tools_effect(lint, tmp_path):
    """A blind set's DuckDB analytics agent: every read tool calls `get_settings()`, an
    `@lru_cache(maxsize=1)` getter whose first call copies the bundled default skills into the
    user's folder. That runs once a process. A memoised function with an argument runs once per
    argument, and the tool that writes a row itself still writes."""
    text = """\
        import shutil
        import sqlite3
        from functools import lru_cache, cache
        from pathlib import Path
        from langchain_core.tools import tool


        class Settings:
            def prepare(self):
                Path("data").mkdir(exist_ok=True)
                shutil.copytree("templates/skills", "data/skills")


        @lru_cache(maxsize=1)
        def get_settings():
            s = Settings()
            s.prepare()
            return s


        @cache
        def open_report(name):
            Path(name).write_text("")
            return name


        @tool
        def list_tables(q: str) -> str:
            \"\"\"List tables.\"\"\"
            return str(get_settings())


        @tool
        def start_report(name: str) -> str:
            \"\"\"Start a report.\"\"\"
            return open_report(name)


        @tool
        def save_row(name: str) -> str:
            \"\"\"Save a row.\"\"\"
            get_settings()
            conn = sqlite3.connect("crm.db")
            conn.execute("INSERT INTO leads VALUES (?)", (name,))
            conn.commit()
            return "saved"
    """
    assert [(tool, effect) for tool, effect, _ in sib101(lint, tmp_path, text)] == [(34, 23), (40, 44), (40, 45)]


def test_discord_writes_on_the_client_and_what_it_hands_out():
    code = """\
        import discord
        from discord.ext import commands

        bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())

        async def f(guild_id, channel_id, text):
            guild = bot.get_guild(guild_id)
            await guild.create_scheduled_event(name=text)
            channel = bot.get_channel(channel_id)
            await channel.send(text)
            await guild.fetch_members()
            await channel.history(limit=5)
            member = await guild.fetch_member(1)
            await member.add_roles(None)

        async def on_command(ctx: commands.Context, msg: discord.Message):
            await ctx.send("hi")
            await msg.delete()
    """
    assert [(line, method) for line, _, _, method, _ in effects(code)] == [
        (8, "create_scheduled_event"), (10, "send"), (14, "add_roles"), (17, "send"), (18, "delete")]


def test_discord_from_a_sync_tool_through_the_bots_loop(lint, tmp_path):
    """A blind set's Discord bot: a sync tool hands the coroutine to the bot's loop
    (`run_coroutine_threadsafe(...).result()`) and waits; an async tool that awaits the send is cancellable."""
    text = """\
        import asyncio
        import discord
        from discord.ext import commands
        from agents import function_tool

        bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())


        async def _create(guild_id: int, name: str):
            guild = bot.get_guild(guild_id)
            await guild.create_scheduled_event(name=name)


        @function_tool
        def schedule_event(guild_id: int, name: str) -> str:
            \"\"\"Schedule an event.\"\"\"
            asyncio.run_coroutine_threadsafe(_create(guild_id, name), bot.loop).result()
            return "ok"


        @function_tool
        async def post(channel_id: int, text: str) -> str:
            \"\"\"Post a message.\"\"\"
            await bot.get_channel(channel_id).send(text)
            return "ok"


        @function_tool
        def list_members(guild_id: int) -> str:
            \"\"\"List members.\"\"\"
            return str(asyncio.run_coroutine_threadsafe(bot.get_guild(guild_id).fetch_members(), bot.loop).result())
    """
    assert [(tool, effect) for tool, effect, _ in sib101(lint, tmp_path, text)] == [(15, 11)]


def test_an_rpc_body_naming_a_read_operation_reads(lint, tmp_path):
    """A blind set's Salt agent: one helper POSTs `[{"client": "local", "fun": fun, ...}]` to a URL
    read from configuration, and each caller names the function: `disk.usage` and `service.status`
    read, `cmd.run` runs whatever it is given. JSON-RPC names it `method` (Zabbix's `host.get` reads,
    `host.create` writes)."""
    text = """\
        import requests
        from langchain_core.tools import tool


        class Salt:
            def __init__(self, cfg):
                self.url = cfg["url"]
                self.session = requests.Session()

            def _call(self, tgt, fun, arg=None):
                lowstate = {"client": "local", "tgt": tgt, "fun": fun}
                if arg:
                    lowstate["arg"] = arg
                return self.session.post(self.url, json=[lowstate]).json()


        salt = Salt({"url": "x"})


        def zabbix(method, params):
            return requests.post(ZABBIX_URL, json={"jsonrpc": "2.0", "method": method, "params": params}).json()


        @tool
        def disk_usage(minion: str) -> str:
            \"\"\"Disk usage.\"\"\"
            return str(salt._call(minion, "disk.usage"))


        @tool
        def service_status(minion: str, name: str) -> str:
            \"\"\"Service status.\"\"\"
            return str(salt._call(minion, "service.status", [name]))


        @tool
        def run(minion: str, cmd: str) -> str:
            \"\"\"Run a command.\"\"\"
            return str(salt._call(minion, "cmd.run", [cmd]))


        @tool
        def hosts() -> str:
            \"\"\"List hosts.\"\"\"
            return str(zabbix("host.get", {}))


        @tool
        def add_host(name: str) -> str:
            \"\"\"Add a host.\"\"\"
            return str(zabbix("host.create", {"host": name}))
    """
    assert [tool for tool, _, _ in sib101(lint, tmp_path, text)] == [37, 49]


def test_an_in_memory_vector_store_dumped_to_a_file_after_reloading_itself(lint, tmp_path):
    """A blind set's LangGraph template: `self.vector_store = store` of `store =
    self.vector_store.load(path)` is still the `InMemoryVectorStore` that `__init__` made, and its
    `dump(path)` writes the file; adding documents to it alone stays in memory."""
    text = """\
        from langchain_core.tools import tool
        from langchain_core.vectorstores import InMemoryVectorStore


        class VectorStore:
            def __init__(self, vector_store: InMemoryVectorStore = None):
                self.vector_store = vector_store if vector_store else InMemoryVectorStore(None)

            def load(self, path: str = "store.json"):
                store = self.vector_store.load(path, embedding=None)
                self.vector_store = store
                return self.vector_store

            def add(self, docs):
                self.load()
                self.vector_store.add_documents(docs)

            def save(self, docs):
                self.add(docs)
                self.vector_store.dump("store.json")


        @tool
        def add_docs(docs: list) -> str:
            \"\"\"Add documents.\"\"\"
            VectorStore().add(docs)
            return "ok"


        @tool
        def save_docs(docs: list) -> str:
            \"\"\"Save documents.\"\"\"
            VectorStore().save(docs)
            return "ok"
    """
    assert [(tool, effect) for tool, effect, _ in sib101(lint, tmp_path, text)] == [(31, 20)]


def test_a_log_of_the_agents_own_actions_is_bookkeeping(lint, tmp_path):
    """A blind set's clinic agent: a read tool records what the agent did (`log_agent_action_service`
    adding an `AgentLog` row); a tool logging an expense writes the books."""
    text = """\
        import sqlite3
        from langchain_core.tools import tool


        def log_agent_action(action: str) -> None:
            conn = sqlite3.connect("app.db")
            conn.execute("INSERT INTO agent_log VALUES (?)", (action,))
            conn.commit()


        def log_expense(amount: int) -> None:
            conn = sqlite3.connect("app.db")
            conn.execute("INSERT INTO expenses VALUES (?)", (amount,))
            conn.commit()


        @tool
        def list_appointments(patient: str) -> str:
            \"\"\"List appointments.\"\"\"
            log_agent_action("listed")
            return "none"


        @tool
        def add_expense(amount: int) -> str:
            \"\"\"Add an expense.\"\"\"
            log_expense(amount)
            return "ok"
    """
    assert sorted({tool for tool, _, _ in sib101(lint, tmp_path, text)}) == [25]


def test_a_repository_a_service_is_constructed_with(lint, tmp_path):
    """A blind set's restaurant MCP server: `booking_service = BookingService(reservation_repo=
    SQLReservationRepository())` at module level, and `self.reservation_repo.insert(row)` in its
    method: the repository its constructions pass, unannotated, in another module too."""
    from conftest import lint_files

    repos = """\
        import sqlite3


        class SQLRepo:
            def insert(self, row):
                conn = sqlite3.connect("r.db")
                conn.execute("INSERT INTO r VALUES (?)", (row,))
                conn.commit()

            def find(self, row):
                return sqlite3.connect("r.db").execute("SELECT * FROM r WHERE x = ?", (row,)).fetchone()
    """
    service = """\
        class Service:
            def __init__(self, repo, cal=None):
                self.repo = repo

            def create(self, row):
                self.repo.insert(row)

            def get(self, row):
                return self.repo.find(row)
    """
    server = """\
        from agents import function_tool
        from repos import SQLRepo
        from service import Service

        service = Service(repo=SQLRepo())


        @function_tool
        def reserve(row: str) -> str:
            \"\"\"Reserve.\"\"\"
            service.create(row)
            return "ok"


        @function_tool
        def look_up(row: str) -> str:
            \"\"\"Look up.\"\"\"
            return str(service.get(row))
    """
    files = {"repos.py": textwrap.dedent(repos), "service.py": textwrap.dedent(service), "server.py": textwrap.dedent(server)}
    config = Config(root=str(tmp_path), select=("SIB101",))
    assert [d.loc.line for d in lint_files(tmp_path, files, "server.py", config)] == [9]


def test_a_file_an_ensure_helper_makes_when_missing_is_setup(lint, tmp_path):
    """A blind set's notes server: `read_notes` calls `ensure_file()`, which creates the empty notes
    file when it is missing, then reads it; `add_note` appends to it itself."""
    text = """\
        import os
        from langchain_core.tools import tool

        NOTES = "notes.txt"


        def ensure_file():
            if not os.path.exists(NOTES):
                with open(NOTES, "w") as f:
                    f.write("")


        @tool
        def read_notes() -> str:
            \"\"\"Read notes.\"\"\"
            ensure_file()
            with open(NOTES) as f:
                return f.read()


        @tool
        def add_note(message: str) -> str:
            \"\"\"Add a note.\"\"\"
            ensure_file()
            with open(NOTES, "a") as f:
                f.write(message)
            return "saved"
    """
    assert [(tool, effect) for tool, effect, _ in sib101(lint, tmp_path, text)] == [(22, 25)]


def test_an_mcp_tools_call_posted_as_json_rpc_is_what_its_tool_does(lint, tmp_path):
    """A blind set's grants agent: `_call_mcp("tools/call", {"name": "opportunity_discovery", ...})`
    POSTs a JSON-RPC request to an MCP server over HTTP; the tool it names says whether it writes,
    as for an MCP client's `call_tool` (`siblint.effects.mcp`)."""
    text = """\
        import os
        import httpx
        from langchain_core.tools import tool


        def _call_mcp(method: str, params: dict) -> dict:
            url = os.getenv("MCP_URL", "http://localhost:8081/mcp")
            with httpx.Client() as client:
                return client.post(url, json={"jsonrpc": "2.0", "method": method, "params": params, "id": 1}).json()


        @tool
        def search_grants(query: str) -> str:
            \"\"\"Search grants.\"\"\"
            return str(_call_mcp("tools/call", {"name": "opportunity_discovery", "arguments": {"q": query}}))


        @tool
        def apply_for_grant(grant: str) -> str:
            \"\"\"Apply.\"\"\"
            return str(_call_mcp("tools/call", {"name": "submit_application", "arguments": {"g": grant}}))
    """
    assert [tool for tool, _, _ in sib101(lint, tmp_path, text)] == [19]
