"""Calls that look like side effects but only read or only touch a scratch area. Each exemption
is narrow: every test pairs the exempt call with a twin that stays a side effect."""

from __future__ import annotations

import textwrap

import pytest
from siblint.effects import effect_of
from siblint.lint.engine import facts_from_text
from siblint.model.semantic import Scope
from siblint.settings.config import Config


def described(code: str) -> dict[int, str]:
    """line -> description of every call in `code` the table classifies as a side effect."""
    facts = facts_from_text(textwrap.dedent(code), "m.py")
    return {site.call.loc.line: eff.description
            for fn in facts.functions.values() for site in fn.calls
            if (eff := effect_of(site.call, Scope(facts, fn.name), awaited=site.awaited)) is not None}


def sib101_lines(lint, tmp_path, text: str) -> list[tuple[int, int]]:
    """(tool line, effect line) of each SIB101 finding."""
    found = lint(textwrap.dedent(text), config=Config(root=str(tmp_path), select=("SIB101",)))
    return sorted((d.loc.line, r.loc.line) for d in found for r in d.related)


# ---- POSTs that only read ---------------------------------------------------------------------

@pytest.mark.parametrize("read, write", [
    ('httpx.post("https://search.example.com/v1/search", json={"q": q})',
     'httpx.post("https://search.example.com/v1/documents", json={"q": q})'),
    ('requests.post("https://api.tavily.com/extract", json={"urls": [q]})',
     'requests.post("https://hooks.example.com/extract", json={"urls": [q]})'),
    ('requests.post("https://api.openai.com/v1/chat/completions", json={})',
     'requests.post("https://api.openai.com/v1/files", files={})'),
    ('requests.post("https://api.anthropic.com/v1/messages", json={})',
     'requests.post("https://api.twilio.com/2010-04-01/Accounts/A/Messages.json", data={})'),
    # An OAuth token grant exchanges credentials; creating an API token is a write.
    ('requests.post(f"https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token", data={})',
     'requests.post("https://api.example.com/v1/tokens", json={})'),
    ('httpx.post("https://auth.example.com/oauth/token", data={})',
     'httpx.post("https://auth.example.com/oauth/token/revoke/create", data={})'),
    ('requests.post("http://localhost:8000/v1/embeddings", json={})',
     'requests.post("http://localhost:8000/v1/embeddings/delete", json={})'),
    ('requests.post("http://es:9200/docs/_search", json={})',
     'requests.post("http://es:9200/docs/_update_by_query", json={})'),
    ('requests.post(f"{BASE}/api/query", json={})',
     'requests.post(f"{BASE}/api/orders", json={})'),
    ('requests.post("https://api.github.com/graphql", json={"query": "query { viewer { login } }"})',
     'requests.post("https://api.github.com/graphql", json={"query": "mutation { addStar(input: {}) { clientMutationId } }"})'),
    ('requests.post(GRAPHQL, json={"query": VIEWER})',
     'requests.post(GRAPHQL, json={"query": q})'),
    # RPC-style endpoints named by a camelCase verb (H9's logistics API).
    ('httpx.post(f"{BASE}/api/searchChannelPrice", json={})',
     'httpx.post(f"{BASE}/api/order/createForecast", json={})'),
    ('httpx.post(f"{BASE}/api/order/pageOrders", json={})',
     'httpx.post(f"{BASE}/api/order/updateOrders", json={})'),
    ('httpx.post(f"{BASE}/api/track", json={})',
     'httpx.post(f"{BASE}/api/trackAndCancel", json={})'),
    # W17's claims copilot: Azure AI Search's query endpoint (the last segment names the operation,
    # the index's name holds "index"); documents are uploaded at `docs/index`.
    ('httpx.post(f"{BASE}/indexes/claims-index/docs/search?api-version=2024-07-01", json={})',
     'httpx.post(f"{BASE}/indexes/claims-index/docs/index?api-version=2024-07-01", json={})'),
    # J18's gym tracker: one RPC endpoint, the operation named in the body.
    ('requests.post(f"{BASE}/api/rpc", json={"action": "list_orders", "payload": {}})',
     'requests.post(f"{BASE}/api/rpc", json={"action": "cancel_order", "payload": {}})'),
    # W13's hotel desk: a booking's preview prices it; the booking itself is the write.
    ('requests.post(f"{BASE}/bookings/preview", json={})',
     'requests.post(f"{BASE}/bookings/preview/confirm", json={})'),
], ids=["search-path", "search-host", "llm-completions", "llm-messages", "oauth2-token", "oauth-token", "embeddings", "es-search",
        "relative-query", "graphql-query", "graphql-bound", "camel-search", "camel-page", "track", "azure-search", "rpc-action", "preview"])
def test_read_only_posts_and_their_twins(read, write):
    code = f"""\
        import httpx, requests

        BASE = "https://api.example.com"
        GRAPHQL = "https://api.example.com/graphql"
        VIEWER = "query {{ viewer {{ login }} }}"

        def f(q):
            {read}
            {write}
    """
    assert list(described(code)) == [9]  # the twin only
    assert described(code)[9].startswith("POST")


def test_put_to_a_search_path_still_writes():
    assert described("""\
        import requests

        def f():
            requests.put("https://search.example.com/v1/search/index", json={})
    """) == {4: "PUT to https://search.example.com/v1/search/index via requests"}


def test_web_search_tool_beside_a_webhook(lint, tmp_path):
    assert sib101_lines(lint, tmp_path, """\
        import os
        import httpx
        from agents import function_tool

        @function_tool
        def web_search(query: str) -> str:
            \"\"\"Search the web.\"\"\"
            resp = httpx.post("https://api.tavily.com/search",
                              json={"api_key": os.environ["TAVILY_API_KEY"], "query": query, "max_results": 5})
            return "\\n".join(r["url"] for r in resp.json()["results"])

        @function_tool
        def summarise(text: str) -> str:
            resp = httpx.post("https://api.openai.com/v1/chat/completions",
                              json={"model": "gpt-4o-mini", "messages": [{"role": "user", "content": text}]})
            return resp.json()["choices"][0]["message"]["content"]

        @function_tool
        def notify(text: str) -> str:
            httpx.post("https://hooks.slack.com/services/T/B/X", json={"text": text})
            return "sent"
    """) == [(19, 20)]


# ---- read-only commands -------------------------------------------------------------------------

@pytest.mark.parametrize("read, write", [
    ('subprocess.run(["git", "ls-files", p], capture_output=True)',
     'subprocess.run(["git", "clean", "-fdx", p], capture_output=True)'),
    ('subprocess.run(["git", "-C", p, "status", "--short"])', 'subprocess.run(["git", "-C", p, "push"])'),
    ('subprocess.check_output(["git", "log", "-n", "5"])', 'subprocess.check_output(["git", sub, "-n", "5"])'),
    ('subprocess.run(["git", "diff", "HEAD"])', 'subprocess.run(["git", "diff", "--output=changes.patch"])'),
    ('subprocess.run(["find", p, "-name", "*.pyc"])', 'subprocess.run(["find", p, "-name", "*.pyc", "-delete"])'),
    ('subprocess.run(["find", p, "-type", "f"])', 'subprocess.run(["find", p, "-exec", "rm", "{}", ";"])'),
    ('subprocess.run(["rg", "-n", "TODO", p])', 'subprocess.run(["rg", "--pre", "./fix.sh", "TODO", p])'),
    ('subprocess.run(["/usr/bin/grep", "-r", "x", p])', 'subprocess.run(["sed", "-i", "s/x/y/", p])'),
    ('subprocess.run(["ls", "-la", p])', 'subprocess.run(["ls", *args])'),
    ('subprocess.run("git status", shell=True)', 'subprocess.run("ls > listing.txt", shell=True)'),
    ('os.system("cat /etc/hostname")', 'os.system("cat /etc/hostname; reboot")'),
    ('os.popen("ls -1")', 'os.popen(f"ls {p}")'),
    ('subprocess.run(["kubectl", "-n", p, "get", "pods", "-o", "json"])',
     'subprocess.run(["kubectl", "-n", p, "delete", "pod", sub])'),
    ('subprocess.run(["kubectl", "logs", sub, "--tail", "100"])', 'subprocess.run(["kubectl", "apply", "-f", p])'),
    ('subprocess.run("kubectl describe deployment web", shell=True)',
     'subprocess.run("kubectl scale deployment web --replicas=0", shell=True)'),
    ('subprocess.run(["docker", "ps", "--format", "{{.Names}}"])', 'subprocess.run(["docker", "rm", "-f", sub])'),
    ('subprocess.run(["docker", "logs", "--tail", "50", sub])', 'subprocess.run(["docker", "run", "-d", sub])'),
    ('subprocess.run(["helm", "list", "-A"])', 'subprocess.run(["helm", "upgrade", "--install", sub, p])'),
    ('subprocess.run(["kubectl", "get", "pods", "--output=json"])', 'subprocess.run(["kubectl", sub, "pods"])'),
    ('subprocess.run(["dig", "+short", p])', 'subprocess.run(["date", "-s", p])'),
    ('subprocess.run(["git", "branch", "--show-current"])', 'subprocess.run(["git", "branch", "--unset-upstream"])'),
    ('subprocess.run(["git", "tag", "-l"])', 'subprocess.run(["git", "tag", p])'),
    # Credential logins (H9's co-cli) leave only the user's credential cache.
    ('subprocess.run(["gcloud", "auth", "application-default", "login", f"--scopes={p}"])',
     'subprocess.run(["gcloud", "run", "deploy", sub])'),
    ('subprocess.run(["gh", "auth", "token"], capture_output=True)', 'subprocess.run(["gh", "pr", "merge", sub])'),
    # A query with one operand reads; a second operand is the value it sets (evalI3's weitzer).
    ('subprocess.run(["git", "symbolic-ref", "refs/remotes/origin/HEAD"], check=True)',
     'subprocess.run(["git", "symbolic-ref", "HEAD", "refs/heads/main"])'),
    ('subprocess.run(["git", "config", "--get", "user.email"])', 'subprocess.run(["git", "config", "user.email", p])'),
    ('subprocess.run(["git", "config", "user.email"])', 'subprocess.run(["git", "config", "--unset", "user.email"])'),
], ids=["git-ls-files", "git-C-status", "git-log", "git-diff", "find", "find-exec", "rg", "grep-path", "ls",
        "shell-string", "os-system", "os-popen", "kubectl-n-get", "kubectl-logs", "kubectl-describe-string",
        "docker-ps", "docker-logs", "helm-list", "subcommand-variable", "dig", "git-branch-listing",
        "git-tag-listing", "gcloud-auth", "gh-auth", "git-symbolic-ref", "git-config-get", "git-config-unset"])
def test_read_only_commands_and_their_twins(read, write):
    code = f"""\
        import os, subprocess

        def f(p, sub, args):
            {read}
            {write}
    """
    assert described(code) == {5: "a subprocess"}


def test_async_exec_of_a_read_only_command():
    assert described("""\
        import asyncio

        async def f(p):
            await asyncio.create_subprocess_exec("git", "log", "-1", cwd=p)
            await asyncio.create_subprocess_exec("git", "commit", "-am", "wip", cwd=p)
    """) == {5: "a subprocess"}


def test_list_files_tool_beside_a_deploy_tool(lint, tmp_path):
    assert sib101_lines(lint, tmp_path, """\
        import subprocess
        from agents import function_tool

        @function_tool
        def list_files(path: str) -> str:
            \"\"\"List the tracked files under a path.\"\"\"
            return subprocess.run(["git", "ls-files", path], capture_output=True, text=True).stdout

        @function_tool
        def search_code(pattern: str) -> str:
            out = subprocess.run(["rg", "--line-number", pattern, "."], capture_output=True, text=True)
            return out.stdout[:4000]

        @function_tool
        def deploy(ref: str) -> str:
            subprocess.run(["git", "push", "origin", ref], check=True)
            return "pushed"
    """) == [(15, 16)]


# ---- scratch areas ------------------------------------------------------------------------------

def test_writes_inside_a_temporary_directory_and_their_twins():
    assert described("""\
        import os, shutil, tempfile
        from pathlib import Path

        def f(code, out, src):
            with tempfile.TemporaryDirectory() as d:
                Path(d, "main.py").write_text(code)
                Path(d).joinpath("data.json").write_text(code)
                with open(os.path.join(d, "run.sh"), "w") as fh:
                    fh.write(code)
                shutil.copy(src, d)
                shutil.move(src, d)
                Path(out, "main.py").write_text(code)
            tmp = tempfile.mkdtemp()
            Path(tmp, "x").write_bytes(b"")
            with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as nt:
                open(nt.name, "w")
            Path(out).write_text(code)
    """) == {
        11: "a file change",  # `move` also removes the source, which lies outside the scratch area
        12: "a file write",
        17: "a file write",
    }


def test_a_download_cached_in_the_system_temp_folder():
    # H7's PDF tools download a URL into `tempfile.gettempdir()` before reading it.
    assert described("""\
        import os, tempfile
        from pathlib import Path

        def f(url, data, out):
            tmp_path = os.path.join(tempfile.gettempdir(), os.path.basename(url))
            with open(tmp_path, "wb") as fh:
                fh.write(data)
            Path(tempfile.gettempdir(), "cache.json").write_bytes(data)
            Path(out, "cache.json").write_bytes(data)
    """) == {9: "a file write"}


def test_code_runner_tool_with_a_scratch_dir(lint, tmp_path):
    assert sib101_lines(lint, tmp_path, """\
        import subprocess
        import sys
        import tempfile
        from pathlib import Path
        from agents import function_tool

        @function_tool
        def lint_snippet(code: str) -> str:
            \"\"\"Check a snippet with pyflakes in a scratch directory.\"\"\"
            with tempfile.TemporaryDirectory() as d:
                Path(d, "snippet.py").write_text(code)
                return subprocess.run([sys.executable, "-m", "pyflakes", d], capture_output=True, text=True).stdout

        @function_tool
        def save_snippet(name: str, code: str) -> str:
            Path("snippets", f"{name}.py").write_text(code)
            return "saved"
    """) == [(8, 12), (15, 16)]  # running a program is a side effect; the scratch write is not


def test_helpers_read_the_arguments_their_caller_passes(lint, tmp_path):
    """`_run_git(["status"])` runs `git status`; `_call_api(path, "GET")` sends a GET: each call
    path is judged by what it passes, and the writing twin on the same helper still reports."""
    assert sib101_lines(lint, tmp_path, """\
        import subprocess
        import urllib.request
        from agents import function_tool

        def _run_git(args: list[str], timeout: int = 30) -> str:
            command = ["git", *args]
            return subprocess.run(command, capture_output=True, text=True, timeout=timeout).stdout

        def _call_api(path: str, method: str) -> bytes:
            req = urllib.request.Request("https://api.example.com" + path, data=b"{}", method=method)
            return urllib.request.urlopen(req).read()

        @function_tool
        def git_status() -> str:
            return _run_git(["status", "--short"], timeout=10)

        @function_tool
        def git_push() -> str:
            return _run_git(["push"])

        @function_tool
        def list_slots() -> bytes:
            return _call_api("/slots", "GET")

        @function_tool
        def book_slot() -> bytes:
            return _call_api(path="/book", method="POST")
    """) == [(18, 7), (26, 11)]


def test_a_helpers_star_args_are_what_its_caller_passes(lint, tmp_path):
    """evalQ2's ai_army: `_run_git(repo, *args)` builds `["git", *args]`; its callers pass the
    subcommand as extra positional arguments, directly or through a helper that passes its own
    `*args` on. A keyword-only parameter after `*args` takes no positional argument."""
    assert sib101_lines(lint, tmp_path, """\
        import subprocess
        from agents import function_tool

        def _run_git(repo, *args: str, timeout: int = 60) -> str:
            return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, timeout=timeout).stdout

        def _run_git_in(repo, *args):
            return _run_git(repo, *args)

        @function_tool
        def branch_status(branch: str) -> str:
            out = _run_git_in(".", "rev-parse", "--abbrev-ref", "HEAD") + _run_git(".", "branch", "-a")
            return out + _run_git_in(".", "log", f"main..{branch}", "--oneline")

        @function_tool
        def checkout(branch: str) -> str:
            return _run_git_in(".", "checkout", branch)

        @function_tool
        def push() -> str:
            return _run_git(".", "push", "origin")
    """) == [(16, 5), (20, 5)]


def test_a_two_argument_replace_is_text_even_on_a_path(lint, tmp_path):
    """evalQ2's ai_army: `repo_slug(repo: str | Path)` returns `repo.replace("/", "_")`; given a
    `Path`, a `replace` of two arguments is still `str.replace` (`Path.replace` takes one)."""
    assert sib101_lines(lint, tmp_path, """\
        from pathlib import Path
        from agents import function_tool

        def repo_slug(repo: str | Path) -> str:
            if isinstance(repo, Path):
                return repo.name
            return repo.replace("/", "_")

        @function_tool
        def search(q: str) -> str:
            return repo_slug(Path(q))

        @function_tool
        def publish(q: str) -> None:
            Path(q).replace(Path("/srv/www") / q)
    """) == [(14, 15)]


@pytest.mark.parametrize("read, write", [
    ('requests.post(f"https://chrome.browserless.io/content?token={k}", json={"url": u})',
     'requests.post(f"https://chrome.browserless.io/function?token={k}", json={"code": u})'),
    ('requests.post("https://scrapeninja.p.rapidapi.com/scrape", json={"url": u})',
     'requests.post("https://api.example.com/pages", json={"url": u})'),
    ('requests.post("https://html.duckduckgo.com/html/", data={"q": u})',
     'requests.post("https://duckduckgo.com/feedback", data={"q": u})'),
    ('requests.post(f"https://generativelanguage.googleapis.com/v1beta/models/{m}:generateContent", json={})',
     'requests.post("https://generativelanguage.googleapis.com/v1beta/files", json={})'),
    ('requests.post(PPLX, json={"model": m})', 'requests.post(HOOK, json={"model": m})'),
    ('requests.post("https://www.googleapis.com/calendar/v3/freeBusy", json={})',
     'requests.post("https://www.googleapis.com/calendar/v3/calendars/primary/events", json={})'),
    ('requests.post("https://overpass-api.de/api/interpreter", data={"data": u})',
     'requests.post("https://api.openstreetmap.org/api/0.6/changeset/create", data={"data": u})'),
    ('requests.post("https://crm.example.com/v1/contacts?page=" + str(u) + "&limit=10", json={"searchTerm": u})',
     'requests.post("https://crm.example.com/v1/contacts?notify=" + str(u), json={"name": u})'),
    # evalW3 frok: the app's own export route renders the document and answers with it; evalW2's
    # enrichment lookup.
    ('requests.post(f"{u}/api/export/pdf", json={"html": k})', 'requests.post(f"{u}/api/export/pdf/save", json={"html": k})'),
    ('requests.post("https://demo.gotenberg.dev/forms/chromium/convert/html", files={"f": k})',
     'requests.post("https://api.example.com/exports", json={"html": k})'),
    ('requests.post(f"{u}/enrich", json={"company": k})', 'requests.post(f"{u}/companies", json={"company": k})'),
    # evalX4's sandbox: image generation answers with the image.
    ('requests.post("https://api.openai.com/v1/images/generations", json={"prompt": k})',
     'requests.post("https://api.openai.com/v1/files", json={"purpose": k})'),
    ('requests.post("https://api.getimg.ai/v1/seedream-v4/text-to-image", json={"prompt": k})',
     'requests.post("https://api.example.com/v1/images", json={"prompt": k})'),
    # evalY2's advisor: HubSpot's batch read of notes; a batch create stays a write.
    ('requests.post(f"{u}/crm/v3/objects/notes/batch/read", json={"inputs": k})',
     'requests.post(f"{u}/crm/v3/objects/notes/batch/create", json={"inputs": k})'),
    ('requests.post(f"{u}/v4/spreadsheets/{k}/values:batchGet", json={})',
     'requests.post(f"{u}/v4/spreadsheets/{k}/values:batchUpdate", json={})'),
    # evalS1's memory tools: DeepInfra's hosted inference (an embedding) and an embed endpoint.
    ('httpx.post("https://api.deepinfra.com/v1/inference/BAAI/bge-m3", json={"inputs": [k]})',
     'httpx.post("https://api.deepinfra.com/deploy/llm", json={"inputs": [k]})'),
    ('requests.post(f"{u}/v1/embed", json={"texts": [k]})',
     'requests.post(f"{u}/v1/embed/create", json={"texts": [k]})'),
    # evalJ29's hot-metal: a crawling service's `POST /crawl` fetches and parses a page.
    ('requests.post(f"{u}/crawl", json={"url": k})', 'requests.post(f"{u}/crawls/schedule", json={"url": k})'),
], ids=["render", "scrape", "duckduckgo", "gemini-colon", "env-default", "freebusy", "overpass", "paginated",
        "export-pdf", "convert-html", "enrich", "openai-images", "getimg", "batch-read", "batch-get", "inference",
        "embed", "crawl"])
def test_read_only_posts_to_render_scrape_search_and_model_apis(read, write):
    code = f"""\
        import os, httpx, requests

        PPLX = os.getenv("PPLX_BASE_URL", "https://api.perplexity.ai/chat/completions")
        HOOK = os.getenv("HOOK_URL", "https://hooks.example.com/notify")

        def f(k, u, m):
            {read}
            {write}
    """
    assert list(described(code)) == [8]


def test_credential_and_cache_upkeep_in_helpers_is_not_the_tools_effect(lint, tmp_path):
    """A read tool whose shared helpers refresh a token file, fetch an API token or fill a cache
    folder has no effect; a write tool on the same helpers is reported at its real write, and a
    tool whose own body writes the token is still reported."""
    found = lint(textwrap.dedent("""\
        import json
        from pathlib import Path
        import httpx
        from agents import function_tool

        TOKEN = Path("token.json")

        def get_credentials() -> dict:
            creds = json.loads(TOKEN.read_text())
            TOKEN.write_text(json.dumps(creds))
            return creds

        class Client:
            def _fetch_token(self) -> str:
                return httpx.post("https://gramps.example.com/api/token/", json={}).json()["access"]

            def put(self, path: str, body: dict) -> dict:
                headers = {"Authorization": "Bearer " + self._fetch_token()}
                return httpx.put("https://gramps.example.com/api" + path, json=body, headers=headers).json()

            def get(self, path: str) -> dict:
                headers = {"Authorization": "Bearer " + self._fetch_token()}
                return httpx.get("https://gramps.example.com/api" + path, headers=headers).json()

        class CacheManager:
            def set(self, key: str, value: object) -> None:
                Path(".cache", key + ".json").write_text(json.dumps(value))

        cache = CacheManager()
        client = Client()

        @function_tool
        def list_events() -> str:
            get_credentials()
            events = client.get("/events")
            cache.set("events", events)
            return json.dumps(events)

        @function_tool
        def rename_person(handle: str, name: str) -> str:
            return json.dumps(client.put("/people/" + handle, {"name": name}))

        @function_tool
        def save_token(token: str) -> str:
            TOKEN.write_text(token)
            return "saved"
    """), config=Config(root=str(tmp_path), select=("SIB101",)))
    assert sorted((d.loc.line, [r.loc.line for r in d.related], d.message.split(" and performs ")[1].split(": ")[0])
                  for d in found) == [
        (40, [19], "PUT to https://gramps.example.com/api/people/{} via httpx in Client.put"),
        (44, [45], "a file write"),
    ]


def test_a_helper_called_without_its_method_argument_uses_the_default(lint, tmp_path):
    assert sib101_lines(lint, tmp_path, """\
        import json
        import urllib.request
        from agents import function_tool

        def _api(path: str, method: str = "GET", body: dict | None = None) -> dict:
            data = json.dumps(body).encode() if body else None
            req = urllib.request.Request("https://www.googleapis.com/calendar/v3" + path, data=data, method=method)
            return json.loads(urllib.request.urlopen(req).read())

        @function_tool
        def list_events() -> str:
            return json.dumps(_api("/calendars/primary/events"))

        @function_tool
        def delete_event(event_id: str) -> str:
            return json.dumps(_api("/calendars/primary/events/" + event_id, "DELETE"))

        @function_tool
        def add_event(summary: str) -> str:
            return json.dumps(_api("/calendars/primary/events", method="POST", body={"summary": summary}))

        def _gcal(path: str, method: str = "GET", body: dict | None = None) -> dict:
            url = f"{API}{path}"
            req = urllib.request.Request(url, data=json.dumps(body).encode(), method=method)
            return json.loads(urllib.request.urlopen(req).read())

        API = "https://www.googleapis.com/calendar/v3"

        @function_tool
        def free_busy(start: str, end: str) -> str:
            return json.dumps(_gcal("/freeBusy", method="POST", body={"timeMin": start, "timeMax": end}))

        @function_tool
        def quick_add(text: str) -> str:
            return json.dumps(_gcal("/calendars/primary/events/quickAdd", method="POST", body={"text": text}))
    """) == [(15, 8), (19, 8), (34, 25)]


def test_a_generic_request_helper_that_carries_a_token_is_still_the_tools_effect(lint, tmp_path):
    assert sib101_lines(lint, tmp_path, """\
        import httpx
        from agents import function_tool

        def _request_with_token(method: str, path: str, body: dict) -> dict:
            return httpx.request(method, "https://crm.example.com" + path, json=body).json()

        @function_tool
        def close_deal(deal_id: str) -> str:
            return str(_request_with_token("PATCH", "/deals/" + deal_id, {"stage": "won"}))
    """) == [(8, 5)]


def test_a_credentials_method_of_an_api_class_is_bookkeeping(lint, tmp_path):
    """sa-assistant's shape: `GoogleAPI.save_credentials` rewrites the token file on a read; the
    class's name (`...API`) does not make its credential upkeep a request of the tool's."""
    assert sib101_lines(lint, tmp_path, """\
        import json
        from agents import function_tool

        class GoogleAPI:
            def save_credentials(self, creds: dict) -> None:
                with open(self.credentials_file, "w") as f:
                    json.dump(creds, f)

            def post_event(self, event: dict) -> None:
                with open("events.json", "w") as f:
                    json.dump(event, f)

        api = GoogleAPI()

        @function_tool
        def list_events() -> str:
            api.save_credentials({"token": "t"})
            return "[]"

        @function_tool
        def add_event(summary: str) -> str:
            api.post_event({"summary": summary})
            return "added"
    """) == [(21, 10)]


def test_text_made_of_a_path_is_not_a_path(lint, tmp_path):
    """deer-flow's shape: `path.relative_to(root).as_posix()` is a str, and the helper it is passed
    to calls `str.replace`; a path's own `.replace(dest)` still moves the file."""
    assert sib101_lines(lint, tmp_path, """\
        from pathlib import Path
        from agents import function_tool

        def normalize(path: str) -> str:
            return path.replace("\\\\", "/").strip()

        def relative(path: Path, root: Path) -> str:
            return normalize(path.relative_to(root).as_posix())

        @function_tool
        def list_package(root: str) -> str:
            return ",".join(relative(p, Path(root)) for p in Path(root).iterdir())

        @function_tool
        def archive(src: str, dest: str) -> str:
            Path(src).relative_to("/data").replace(dest)
            return "moved"
    """) == [(15, 16)]


def test_a_unit_of_work_commit_is_not_the_tools_effect(lint, tmp_path):
    """solvait-ai's shape: `with get_db_session() as db:` commits when its body ends, read or write;
    the commit of a `@contextmanager` helper or an `__exit__` is no effect, the body's writes are.
    An ORM session's staged rows (`db.add(row)`, H8's shape) land only through that commit."""
    assert sib101_lines(lint, tmp_path, """\
        import sqlite3
        from contextlib import contextmanager
        from agents import function_tool

        @contextmanager
        def get_db_session():
            db = sqlite3.connect("hr.db")
            try:
                yield db
                db.commit()
            finally:
                db.close()

        class Scope:
            def __enter__(self):
                self.db = sqlite3.connect("hr.db")
                return self.db

            def __exit__(self, *exc):
                self.db.commit()

        @function_tool
        def leave_balance(employee: str) -> str:
            with get_db_session() as db:
                return str(db.execute("SELECT days FROM leave WHERE e = ?", (employee,)).fetchone())

        @function_tool
        def payslip(employee: str) -> str:
            with Scope() as db:
                return str(db.execute("SELECT * FROM payslips WHERE e = ?", (employee,)).fetchone())

        @function_tool
        def apply_leave(employee: str, days: int) -> str:
            with get_db_session() as db:
                db.execute("INSERT INTO leave_requests VALUES (?, ?)", (employee, days))
            return "applied"

        @function_tool
        def add_event(title: str) -> str:
            with get_db_session() as db:
                db.add(Event(title=title))
                db.flush()
            return "added"

        @function_tool
        def count_events(tags: set) -> str:
            with get_db_session() as db:
                tags.add("all")
                return str(db.query(Event).count())
    """) == [(33, 35), (39, 10)]  # add_event's ORM session stages the row; the scope's commit writes it


def test_a_unit_of_works_commit_of_rows_a_service_stages(lint, tmp_path):
    """A blind set's to-do server: the body hands the session to a service (`TaskService(session)`)
    whose method stages the row (`self.session.add(task)`); the scope's commit writes it. A service
    method that only reads leaves the commit writing nothing."""
    assert sib101_lines(lint, tmp_path, """\
        from contextlib import contextmanager
        from sqlmodel import Session, create_engine, select
        from agents import function_tool

        engine = create_engine("sqlite:///todo.db")

        @contextmanager
        def get_session_context():
            session = Session(engine)
            try:
                yield session
                session.commit()
            finally:
                session.close()

        class TaskService:
            def __init__(self, session: Session):
                self.session = session

            def create_task(self, title: str):
                self.session.add(Task(title=title))
                self.session.flush()

            def list_tasks(self):
                return self.session.exec(select(Task)).all()

        @function_tool
        def add_task(title: str) -> str:
            with get_session_context() as session:
                TaskService(session).create_task(title)
            return "added"

        @function_tool
        def list_tasks() -> str:
            with get_session_context() as session:
                return str(TaskService(session).list_tasks())
    """) == [(28, 12)]


@pytest.mark.parametrize("path, reported", [("/0/private/Balance", False), ("/0/private/AddOrder", True)])
def test_url_concatenated_with_plus_is_read(path, reported):
    code = f"""\
        import requests

        def f(data):
            urlpath = "{path}"
            return requests.post("https://api.kraken.com" + urlpath, data=data)
    """
    found = described(code)
    assert (5 in found) is reported
    if reported:
        assert "POST to https://api.kraken.com/0/private/AddOrder via requests" in found[5]


def test_what_a_credential_helper_delegates_is_bookkeeping_too(lint, tmp_path):
    """HRMS's shape: `_get_token()` has `_encrypt(value)` POST the password before it logs in; the
    read tool's only request of its own is the GET. A tool calling `_encrypt` itself still sends it."""
    assert sib101_lines(lint, tmp_path, """\
        import httpx
        from agents import function_tool

        def _encrypt(value: str) -> str:
            return httpx.post("https://hr.example.com/encrypt", json=value).text

        def _get_token() -> str:
            user = _encrypt("me")
            return httpx.post("https://hr.example.com/login", json={"u": user}).json()["token"]

        @function_tool
        def leave_balance() -> str:
            return httpx.get("https://hr.example.com/balance", headers={"token": _get_token()}).text

        @function_tool
        def encrypt_note(note: str) -> str:
            return _encrypt(note)
    """) == [(16, 5)]


def test_credentials_kept_in_the_apps_database_are_bookkeeping(lint, tmp_path):
    """evalJ2's shape: a read tool's OAuth refresh stores the new token with
    `MongoManager.update_user_credentials` (a database write named for credentials), or writes it
    to a file named by a variable that says so (`ctx.calendar_token_path`) or `token1.json`. A row
    the tool is about (`authorize_payment`, no credential word) is its effect."""
    assert sib101_lines(lint, tmp_path, """\
        from agents import function_tool
        from pymongo import MongoClient

        class MongoManager:
            def __init__(self) -> None:
                self.users = MongoClient()["app"]["users"]

            def update_user_credentials(self, user_id: str, creds: str) -> None:
                self.users.update_one({"_id": user_id}, {"$set": {"creds": creds}})

            def authorize_payment(self, user_id: str, amount: int) -> None:
                self.users.update_one({"_id": user_id}, {"$push": {"payments": amount}})

        db = MongoManager()

        def refresh(user_id: str, token_path: str) -> None:
            db.update_user_credentials(user_id, "new")
            with open(token_path, "w") as f:
                f.write("new")
            with open("token1.json", "w") as f:
                f.write("new")

        @function_tool
        def list_events(user_id: str, token_path: str) -> str:
            refresh(user_id, token_path)
            return "[]"

        @function_tool
        def pay(user_id: str, amount: int) -> str:
            db.authorize_payment(user_id, amount)
            return "paid"
    """) == [(29, 12)]


def test_an_index_synced_with_its_sources_on_the_way_to_a_search_is_bookkeeping(lint, tmp_path):
    """evalH2's DefectDojo knowledge tools: a search tool's store first upserts the changed chunks of
    its Markdown library into Qdrant (`sync_markdown_library`); a tool that adds a memory is its effect."""
    assert sib101_lines(lint, tmp_path, """\
        from crewai.tools import tool
        from qdrant_client import QdrantClient

        class KnowledgeStore:
            def __init__(self) -> None:
                self.client = QdrantClient(url="http://localhost:6333")

            def sync_markdown_library(self, points: list) -> None:
                self.client.upsert(collection_name="kb", points=points)

            def add_memory(self, points: list) -> None:
                self.client.upsert(collection_name="memories", points=points)

        store = KnowledgeStore()

        @tool("search")
        def search(query: str) -> str:
            \"\"\"Search the knowledge base.\"\"\"
            store.sync_markdown_library([])
            return "[]"

        @tool("remember")
        def remember(text: str) -> str:
            \"\"\"Remember a fact.\"\"\"
            store.add_memory([text])
            return "ok"
    """) == [(23, 12)]


def test_the_apps_log_file_is_bookkeeping_a_log_named_business_write_is_not(lint, tmp_path):
    """evalU4's ClaudIA: every read tool logs through `Logger.writeToFile` (`fs.appendFileSync` of
    `logs/claudia.log`); a helper named `log_expense` writing the expenses file is the tool's effect."""
    found = lint(textwrap.dedent("""\
        from pathlib import Path
        from agents import function_tool

        class Logger:
            def write_to_file(self, line: str) -> None:
                with open(LOG_PATH, "a") as fh:
                    fh.write(line)

        def append_line(line: str) -> None:
            with open("logs/agent.log", "a") as fh:
                fh.write(line)

        def log_expense(amount: int) -> None:
            Path("expenses.json").write_text(str(amount))

        def write_to_log_file(line: str) -> None:  # evalX4's discord bot: `devLog` -> `writeToLogFile`
            with open(SETTINGS.log_path, "a") as fh:
                fh.write(line)

        logger = Logger()

        @function_tool
        def list_boards() -> str:
            logger.write_to_file("listing")
            append_line("listing")
            write_to_log_file("listing")
            return "boards"

        @function_tool
        def add_expense(amount: int) -> str:
            log_expense(amount)
            return "added"
    """), config=Config(root=str(tmp_path), select=("SIB101",)))
    assert [d.loc.line for d in found] == [30]


def test_a_log_call_shipping_the_log_over_http_is_bookkeeping(lint, tmp_path):
    """evalJ31's thewodapp: every tool logs through `logInfo`, which POSTs the record to PostHog's
    log intake (`sendLogToPostHog`); `log_payment` posting to the payments API is the tool's effect."""
    found = lint(textwrap.dedent("""\
        import requests
        from agents import function_tool

        ENDPOINT = "https://us.i.posthog.com/i/v1/logs"

        def send_log_to_posthog(message: str) -> None:
            requests.post(ENDPOINT, json={"body": message}, timeout=5)

        def log_info(message: str) -> None:
            send_log_to_posthog(message)

        def log_payment(amount: int) -> None:
            requests.post("https://payments.example.com/charges", json={"amount": amount})

        @function_tool
        def get_roster() -> str:
            log_info("reading the roster")
            return "roster"

        @function_tool
        def pay(amount: int) -> str:
            log_payment(amount)
            return "paid"
    """), config=Config(root=str(tmp_path), select=("SIB101",)))
    assert [d.loc.line for d in found] == [21]


@pytest.mark.parametrize("early_return, reported", [(True, False), (False, True)])
def test_a_helpers_read_through_cache_is_not_the_tools_effect(lint, tmp_path, early_return, reported):
    """evalJ2 and evalJ3: a helper answers from its stored copy when it has one, else reads the
    value elsewhere, stores it and returns it; the store is a cache of the read. Without the early
    answer from the copy, the same helper imports what it read: the tool's effect."""
    cached = "    if row:\n        return row[0]\n" if early_return else ""
    found = lint(textwrap.dedent("""\
        import sqlite3
        import requests
        from agents import function_tool

        def user_timezone(db, email):
            row = db.execute("SELECT tz FROM users WHERE email = ?", (email,)).fetchone()
        {cached}    tz = requests.get("https://calendar.example.com/settings/timezone").json()["value"]
            db.execute("UPDATE users SET tz = ? WHERE email = ?", (tz, email))
            return tz

        @function_tool
        def get_timezone(email: str) -> str:
            return user_timezone(sqlite3.connect("app.db"), email)
    """).replace("{cached}", cached.replace("\n    ", "\n        ")), config=Config(root=str(tmp_path), select=("SIB101",)))
    assert [d.loc.line for d in found] == ([12 + (2 if early_return else 0)] if reported else [])


def test_an_early_error_answer_after_the_read_is_no_stored_copy(lint, tmp_path):
    """evalW2's aletheia: `_run_kubernetes_command` runs kubectl, answers a failure early from that
    run, else stores its output (`session.save_data`) and returns it. The early answer comes after
    the read (`process.stdout.decode()` is a method of `process = subprocess.run(...)`): an import,
    the tool's effect, not a read-through cache."""
    found = lint(textwrap.dedent("""\
        import subprocess
        from pathlib import Path
        from agents import function_tool

        def run_logged(command: list, save_key: str) -> str:
            process = subprocess.run(command, capture_output=True, check=False)
            if process.returncode != 0:
                return "failed: " + process.stderr.decode()
            output = process.stdout.decode()
            Path("session", save_key).write_text(output)
            return output

        @function_tool
        def pod_logs(pod: str) -> str:
            return run_logged(["kubectl", "logs", pod], save_key=pod + "_logs")
    """), config=Config(root=str(tmp_path), select=("SIB101",)))
    assert [d.loc.line for d in found] == [14]


def test_a_query_helper_committing_after_a_select_commits_nothing(lint, tmp_path):
    """evalW4's telecom desk: `execute_query(sql)` runs what it is given and commits unless the SQL
    starts with SELECT. Called with a SELECT, its commit commits nothing; called with an UPDATE, it
    writes."""
    found = lint(textwrap.dedent("""\
        import psycopg2
        from agents import function_tool

        class Database:
            def __init__(self):
                self.conn = psycopg2.connect("dbname=shop")

            def run_sql(self, query: str, params: tuple = ()):
                with self.conn.cursor() as cursor:
                    cursor.execute(query, params)
                    if query.strip().upper().startswith("SELECT"):
                        return cursor.fetchall()
                    self.conn.commit()
                    return cursor.rowcount

        db = Database()

        @function_tool
        def plans() -> str:
            return str(db.run_sql("SELECT plan_id, price FROM plans ORDER BY plan_id"))

        @function_tool
        def cancel_plan(plan_id: int) -> str:
            return str(db.run_sql("UPDATE plans SET active = false WHERE plan_id = %s", (plan_id,)))
    """), config=Config(root=str(tmp_path), select=("SIB101",)))
    assert [d.loc.line for d in found] == [23]
