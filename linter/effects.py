"""Which calls write to the outside world: the side-effect table (data) and its classifier.

A side effect is what cannot be taken back once it lands: a mutating HTTP request, an email, a
subprocess, a file write, SQL that is not a read, an ORM write or commit, a payment, a message, an
upload, a ticket. Reads are not side effects (GET, SELECT, opening a file for reading), and neither
is a function whose body only returns text, whatever it is called.

Everything the classifier knows is in `TABLE`, one row per spelling. Rows match in four ways:

* `call`: the callee's dotted name after imports are resolved (`requests.post`, `os.remove`);
* `family`: a dotted prefix plus the final name (`stripe.` + `create` covers `stripe.Charge.create`);
* `method`: a method called on an object a known constructor built, followed through local
  assignments, `with ... as name`, `self.x = ...` in the class, module-level names and call chains
  (`client = httpx.AsyncClient(); client.post(...)`, `boto3.client("s3").put_object(...)`);
* `any`: a method name distinctive enough to count on any receiver (`cursor.execute("INSERT ...")`,
  `session.commit()`, `coll.insert_one(...)`, `p.write_text(...)`), usually with an argument check.

Whether an effect *blocks* (sync I/O that holds its thread or the event loop) comes from the row;
rows that serve both sync and async drivers (`execute`, `commit`) decide by whether the call is
awaited.

User configuration (`[tool.siblint]`): `extend-side-effect-calls` and `pure-calls` are lists of
dotted names, compared with the resolved callee (`myapp.billing.charge`) and, for a method on a
known object, with `<constructor>.<method>` (`mylib.Client.send`). A name ending in `.*` matches
every name under that prefix (`mylib.*`). `pure-calls` wins over the table and over
`extend-side-effect-calls`; a pure project function is not followed into either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from siblint.facts import Attr, Call, Const, FString, FunctionFacts, ModuleFacts, Ref, Value

# ---- the table ----------------------------------------------------------------------------------

MUTATING_HTTP = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class Row:
    match: str  # "call" | "family" | "method" | "any"
    name: str  # dotted callee, family prefix, constructor, or "" for "any"
    verbs: tuple[str, ...]  # final names that match ("put_*" is a prefix); () for "call"
    what: str  # description; "{method}" is the HTTP method, "{lib}" the library
    blocking: bool | None  # None: blocking when the call is not awaited
    check: str = ""  # argument check, see `_CHECKS`: "http", "open", "sql", "urlopen", "manager"
    method: str = ""  # the HTTP method of `requests.post`-style rows ("" = read it from the arguments)


def _calls(names: str, what: str, blocking: bool | None, check: str = "") -> list[Row]:
    return [Row("call", n, (), what, blocking, check) for n in names.split()]


def _http(lib: str, blocking: bool, prefix: str | None = None) -> list[Row]:
    """`lib.post(...)`, ..., and `lib.request("POST", ...)` as module functions."""
    prefix = lib if prefix is None else prefix
    rows = [Row("call", f"{prefix}.{m.lower()}", (), "{method} via " + lib, blocking, "http", m) for m in sorted(MUTATING_HTTP)]
    return rows + [Row("call", f"{prefix}.request", (), "{method} via " + lib, blocking, "http")]


def _http_client(ctor: str, lib: str, blocking: bool) -> list[Row]:
    """`client.post(...)` / `client.request("POST", ...)` on a client object `ctor` built."""
    rows = [Row("method", ctor, (m.lower(),), "{method} via " + lib, blocking, "http", m) for m in sorted(MUTATING_HTTP)]
    return rows + [Row("method", ctor, ("request", "stream"), "{method} via " + lib, blocking, "http")]


def _methods(ctors: str, verbs: str, what: str, blocking: bool | None) -> list[Row]:
    return [Row("method", c, tuple(verbs.split()), what, blocking) for c in ctors.split()]


_PAYMENT_VERBS = "create modify update delete cancel confirm capture pay refund void finalize_invoice send_invoice attach detach"
_BOTO3_VERBS = (
    "put_* upload_* delete_* create_* update_* modify_* send_* publish publish_* copy_* invoke invoke_* start_* "
    "stop_* terminate_* run_instances batch_write_item transact_write_items"
)

TABLE: tuple[Row, ...] = (
    # -- HTTP that mutates (a GET is a read) --
    *_http("requests", True),
    *_http("httpx", True),
    *_http_client("requests.Session", "requests", True),
    *_http_client("requests.session", "requests", True),
    *_http_client("requests.sessions.Session", "requests", True),
    *_http_client("httpx.Client", "httpx", True),
    *_http_client("httpx.AsyncClient", "httpx", False),
    *_http_client("aiohttp.ClientSession", "aiohttp", False),
    Row("call", "aiohttp.request", (), "{method} via aiohttp", False, "http"),
    Row("method", "urllib3.PoolManager", ("request", "urlopen"), "{method} via urllib3", True, "http"),
    Row("call", "urllib3.request", (), "{method} via urllib3", True, "http"),
    Row("method", "http.client.HTTPConnection", ("request",), "{method} via http.client", True, "http"),
    Row("method", "http.client.HTTPSConnection", ("request",), "{method} via http.client", True, "http"),
    Row("call", "urllib.request.urlopen", (), "{method} via urllib", True, "urlopen"),
    # -- email --
    *_methods("smtplib.SMTP smtplib.SMTP_SSL smtplib.LMTP", "sendmail send_message", "email via smtplib", True),
    *_calls("aiosmtplib.send", "email via aiosmtplib", False),
    *_methods("aiosmtplib.SMTP", "sendmail send_message", "email via aiosmtplib", False),
    *_methods("sendgrid.SendGridAPIClient sendgrid.sendgrid.SendGridAPIClient", "send post", "email via sendgrid", True),
    *_methods("yagmail.SMTP", "send", "email via yagmail", True),
    Row("family", "resend.Emails.", ("send",), "email via resend", True),
    Row("any", "", ("sendmail",), "email via smtplib", None),
    # -- subprocesses --
    *_calls(
        "subprocess.run subprocess.call subprocess.check_call subprocess.check_output subprocess.Popen "
        "subprocess.getoutput subprocess.getstatusoutput os.system os.popen os.startfile "
        "os.execv os.execve os.execvp os.execvpe os.execl os.execlp os.spawnv os.spawnl os.posix_spawn",
        "a subprocess", True,
    ),
    *_calls("asyncio.create_subprocess_exec asyncio.create_subprocess_shell", "a subprocess", False),
    # -- files (reading is not a side effect; directory creation is left out as idempotent) --
    *_calls("open builtins.open io.open codecs.open gzip.open bz2.open lzma.open", "a file write", True, "open"),
    *_calls("aiofiles.open", "a file write", False, "open"),
    *_calls(
        "shutil.move shutil.copy shutil.copy2 shutil.copyfile shutil.copytree shutil.rmtree "
        "os.remove os.unlink os.rename os.replace os.rmdir os.removedirs os.truncate",
        "a file change", True,
    ),
    *_methods("pathlib.Path pathlib.PurePath", "unlink rename replace rmdir touch", "a file change", True),
    Row("method", "pathlib.Path", ("open",), "a file write", True, "open"),
    Row("any", "", ("write_text", "write_bytes"), "a file write", True),
    # -- SQL and ORMs (a SELECT is a read) --
    Row("any", "", ("execute", "executemany", "executescript", "exec_driver_sql"), "SQL {method}", None, "sql"),
    Row("any", "", ("commit",), "a database commit", None),
    Row("any", "", ("create", "bulk_create", "update_or_create", "get_or_create", "update", "bulk_update", "delete"),
        "an ORM write (Django)", None, "manager"),
    Row("any", "", ("insert_one", "insert_many", "update_one", "update_many", "replace_one", "delete_one", "delete_many",
                    "bulk_write", "find_one_and_update", "find_one_and_delete", "find_one_and_replace"),
        "a MongoDB write", None),
    # -- payments --
    Row("family", "stripe.", tuple(_PAYMENT_VERBS.split()), "{name} (payments)", True),
    *_methods("stripe.StripeClient", _PAYMENT_VERBS, "{name} (payments)", True),
    Row("family", "braintree.Transaction.", ("sale", "submit_for_settlement", "refund", "void"), "{name} (payments)", True),
    # -- messaging --
    *_methods("twilio.rest.Client", "create update delete", "{name} (messaging)", True),
    *_methods(
        "slack_sdk.WebClient slack_sdk.web.WebClient slack_sdk.web.client.WebClient slack.WebClient",
        "chat_postMessage chat_postEphemeral chat_update chat_delete chat_scheduleMessage files_upload "
        "files_upload_v2 conversations_create conversations_invite reactions_add",
        "{name} (messaging)", True,
    ),
    *_methods(
        "slack_sdk.web.async_client.AsyncWebClient slack_sdk.web.AsyncWebClient",
        "chat_postMessage chat_postEphemeral chat_update chat_delete chat_scheduleMessage files_upload "
        "files_upload_v2 conversations_create conversations_invite reactions_add",
        "{name} (messaging)", False,
    ),
    *_methods("slack_sdk.webhook.WebhookClient", "send send_dict", "{name} (messaging)", True),
    *_methods("telegram.Bot", "send_*", "{name} (messaging)", False),
    # -- cloud storage and queues --
    *_methods("boto3.client boto3.resource boto3.Session boto3.session.Session", _BOTO3_VERBS, "{name} (AWS)", True),
    *_methods("google.cloud.storage.Client", "upload_from_string upload_from_filename upload_from_file delete copy_blob "
              "rename_blob", "{name} (cloud storage)", True),
    Row("any", "", ("upload_from_string", "upload_from_filename", "upload_from_file", "upload_blob", "delete_blob"),
        "{name} (cloud storage)", None),
    # -- Google APIs: `service.users().messages().send(...).execute()` (the effect is `.execute()`) --
    Row("method", "googleapiclient.discovery.build", ("execute",), "{name} (Google API)", True, "google_api"),
    # -- ticketing --
    *_methods("jira.JIRA", "create_issue create_issues add_comment transition_issue assign_issue create_issue_link",
              "{name} (ticketing)", True),
    *_methods("atlassian.Jira", "create_issue issue_create issue_add_comment issue_transition set_issue_status "
              "update_issue_field", "{name} (ticketing)", True),
    *_methods("github.Github", "create_issue create_pull create_comment create_issue_comment create_file update_file "
              "delete_file merge edit", "{name} (ticketing)", True),
    *_methods("zenpy.Zenpy", "create update delete", "{name} (ticketing)", True),
)

# Libraries whose names are never project code: the classifier answers for them, no module lookup.
LIBRARY_ROOTS = frozenset(
    r.name.split(".")[0] for r in TABLE if r.match in ("call", "family", "method")
) | {"asyncio", "concurrent", "functools", "contextlib", "anyio", "starlette", "logging", "json", "time", "agents"}


# ---- lookups built from the table ---------------------------------------------------------------

def _index() -> tuple[dict[str, Row], list[Row], dict[str, list[Row]], dict[str, Row]]:
    calls: dict[str, Row] = {}
    families: list[Row] = []
    methods: dict[str, list[Row]] = {}
    anys: dict[str, Row] = {}
    for row in TABLE:
        if row.match == "call":
            calls[row.name] = row
        elif row.match == "family":
            families.append(row)
        elif row.match == "method":
            methods.setdefault(row.name, []).append(row)
        else:
            for verb in row.verbs:
                anys[verb] = row
    return calls, families, methods, anys


_CALLS, _FAMILIES, _METHODS, _ANY = _index()
CONSTRUCTORS = frozenset(_METHODS)


def _verb_matches(verbs: tuple[str, ...], name: str) -> bool:
    return any(name.startswith(v[:-1]) if v.endswith("*") else name == v for v in verbs)


# ---- names bound in a function ------------------------------------------------------------------

class Bindings:
    """What the names of one function were bound to: `with ... as`, local and class assignments,
    module-level names. Enough to know that `client` is an `httpx.AsyncClient` or `sql` an INSERT."""

    def __init__(self, facts: ModuleFacts | None = None, fn: FunctionFacts | None = None) -> None:
        self.facts = facts
        self.fn = fn

    def value(self, text: str) -> Value | None:
        if self.facts is None:
            return None
        scopes: list[str] = []
        if self.fn is not None:
            if text in self.fn.with_bindings:
                return self.fn.with_bindings[text]
            scope = self.fn.name
            while scope:  # the function, then the functions it is nested in
                scopes.append(scope)
                scope = scope.rpartition(".")[0]
        for wanted in (*scopes, ""):
            for a in reversed(self.facts.assignments):
                if a.target == text and a.scope == wanted and a.op == "=":
                    return a.value
        if text.startswith("self.") and self.fn is not None and self.fn.class_name:
            # `self.client = httpx.AsyncClient()` in any method of the class (usually `__init__`).
            prefix = self.fn.class_name + "."
            for a in reversed(self.facts.assignments):
                if a.target == text and a.scope.startswith(prefix) and a.op == "=":
                    return a.value
        return None

    def constructor(self, value: Value | None, depth: int = 0) -> str:
        """The known constructor that built `value` ("" if none), through bindings and call chains:
        `repo = Github(t).get_repo(n)` makes `repo` a `github.Github` object for the table."""
        if value is None or depth > 8:
            return ""
        if isinstance(value, Ref):
            text = value.text
            while text:
                bound = self.value(text)
                if bound is not None:
                    return self.constructor(bound, depth + 1)
                text = text.rpartition(".")[0]
            return ""
        if isinstance(value, Call):
            name = value.callee
            if name in CONSTRUCTORS:
                return name
            # A method of a known object (`g.get_repo(...)`), else the callee itself (`mylib.Mailer()`),
            # which the user's `extend-side-effect-calls` may name as `mylib.Mailer.send`.
            return self.constructor(receiver_of(value.func), depth + 1) or name
        if isinstance(value, Attr):
            return self.constructor(value.receiver, depth + 1)
        return ""

    def text(self, value: Value | None, depth: int = 0) -> str | None:
        """The literal text of a string argument, through bindings, f-strings and `text("...")`."""
        if value is None or depth > 4:
            return None
        if isinstance(value, Const):
            return value.value if isinstance(value.value, str) else None
        if isinstance(value, FString):
            return value.text
        if isinstance(value, Ref):
            return self.text(self.value(value.text), depth + 1)
        if isinstance(value, Call) and value.args:
            if value.callee.rpartition(".")[2] in ("text", "dedent", "strip"):  # sqlalchemy.text, textwrap.dedent
                return self.text(value.args[0], depth + 1)
            if isinstance(value.func, Attr) and value.func.attr in ("format", "strip"):  # "...".format(x)
                return self.text(value.func.receiver, depth + 1)
        return None


def receiver_of(func: Value) -> Value | None:
    """`client` for `client.post`, `boto3.client("s3")` for `boto3.client("s3").put_object`."""
    if isinstance(func, Ref) and "." in func.text:
        # Imports replace only the head of a dotted name, so both spellings end in the same attribute.
        return Ref(func.name.rpartition(".")[0], func.text.rpartition(".")[0], func.loc)
    if isinstance(func, Attr):
        return func.receiver
    return None


def method_name(func: Value) -> str:
    if isinstance(func, Ref):
        return func.text.rpartition(".")[2]
    if isinstance(func, Attr):
        return func.attr
    return ""


# ---- the classifier -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Effect:
    description: str  # "POST to https://payments.example.com/… via requests", "a subprocess"
    blocking: bool  # sync I/O: holds its thread, or the event loop when called from async code
    call: Call
    configured: bool = False  # named by `extend-side-effect-calls`


def _matches(patterns: tuple[str, ...], names: tuple[str, ...]) -> bool:
    for p in patterns:
        for n in names:
            if not n:
                continue
            if p.endswith(".*") and (n.startswith(p[:-1]) or n == p[:-2]):
                return True
            if n == p:
                return True
    return False


def names_of(call: Call, bindings: Bindings | None = None) -> tuple[str, ...]:
    """The names config entries are compared with: the callee, and `<constructor>.<method>`."""
    ctor = (bindings or Bindings()).constructor(receiver_of(call.func))
    return (call.callee, f"{ctor}.{method_name(call.func)}" if ctor else "")


def is_pure(call: Call, bindings: Bindings | None, pure_calls: tuple[str, ...]) -> bool:
    return bool(pure_calls) and _matches(pure_calls, names_of(call, bindings))


def effect_of(
    call: Call,
    bindings: Bindings | None = None,
    *,
    awaited: bool = False,
    extend: tuple[str, ...] = (),
    pure: tuple[str, ...] = (),
) -> Effect | None:
    """The side effect `call` performs, or None for reads, pure calls and unknown calls.

    `bindings` resolves receivers and string arguments in the calling function; `awaited` says
    whether the call is awaited (for rows that serve sync and async drivers alike); `extend` and
    `pure` are the user's `extend-side-effect-calls` and `pure-calls`.
    """
    b = bindings or Bindings()
    names = names_of(call, b)
    if pure and _matches(pure, names):
        return None
    if extend and _matches(extend, names):
        name = next(n for n in names if n and _matches(extend, (n,)))
        return Effect(f"{name} (configured side effect)", not awaited, call, configured=True)
    callee = call.callee
    meth = method_name(call.func)
    rows: list[Row] = []
    if callee in _CALLS:
        rows.append(_CALLS[callee])
    if callee:
        rows.extend(r for r in _FAMILIES if callee.startswith(r.name) and _verb_matches(r.verbs, meth))
    if not rows and meth:
        ctor = names[1].rpartition(".")[0] if names[1] else ""
        rows.extend(r for r in _METHODS.get(ctor, ()) if _verb_matches(r.verbs, meth))
        if not rows and meth in _ANY and receiver_of(call.func) is not None:
            rows.append(_ANY[meth])
    for row in rows:
        described = _CHECKS[row.check](row, call, b) if row.check else _describe(row, call, "")
        if described is not None:
            blocking = (not awaited) if row.blocking is None else row.blocking
            return Effect(described, blocking, call)
    return None


def _shown_name(call: Call) -> str:
    func = call.func
    if isinstance(func, Ref):
        return func.name if func.name.split(".")[0] in LIBRARY_ROOTS else func.text
    return method_name(func)


def _describe(row: Row, call: Call, method: str) -> str:
    return row.what.format(method=method, name=_shown_name(call))


def _url(value: Value | None, b: Bindings) -> str:
    text = b.text(value)
    if not text or not text.startswith(("http://", "https://")):
        return ""
    return text if len(text) <= 48 else text[:47] + "…"


def _check_http(row: Row, call: Call, b: Bindings) -> str | None:
    if row.method:
        method, url_arg = row.method, call.arg(0, "url")
    else:
        method = (b.text(call.arg(0, "method")) or "").upper()
        url_arg = call.arg(1, "url")
        if method not in MUTATING_HTTP:
            return None
    url = _url(url_arg, b)
    lib = row.what.split(" via ", 1)[1]
    return f"{method} to {url} via {lib}" if url else f"{method} via {lib}"


_WRITE_MODE = re.compile(r"[wax+]")


def _check_open(row: Row, call: Call, b: Bindings) -> str | None:
    # `open(file, mode)`; `Path(...).open(mode)` takes the mode first.
    index = 0 if row.match == "method" else 1
    mode = b.text(call.arg(index, "mode"))
    if mode is None or not _WRITE_MODE.search(mode):
        return None  # default "r", or a mode we cannot read: a read as far as we can tell
    return _describe(row, call, "")


_SQL_WRITE = ("INSERT", "UPDATE", "DELETE", "REPLACE", "MERGE", "UPSERT", "CREATE", "DROP", "ALTER", "TRUNCATE",
              "GRANT", "REVOKE")
_SQL_WORD = re.compile(r"[A-Za-z]+")


def _check_sql(row: Row, call: Call, b: Bindings) -> str | None:
    first = call.arg(0, None)
    stmt: Value | None = first
    for _ in range(8):  # `insert(t).values(...).returning(...)`: find the sqlalchemy constructor
        if not isinstance(stmt, Call):
            break
        if stmt.callee.startswith("sqlalchemy.") and stmt.callee.rpartition(".")[2] in ("insert", "update", "delete"):
            return f"SQL {stmt.callee.rpartition('.')[2].upper()}"
        stmt = receiver_of(stmt.func)
        stmt = stmt if isinstance(stmt, Call) else None
    sql = b.text(first)
    if not sql:
        return None  # a statement we cannot read: not assumed to write
    words = [w.upper() for w in _SQL_WORD.findall(re.sub(r"--[^\n]*|/\*.*?\*/", " ", sql, flags=re.S))]
    if not words:
        return None
    verb = words[0]
    if verb == "WITH":  # `WITH x AS (...) DELETE ...`
        verb = next((w for w in words[1:] if w in ("INSERT", "UPDATE", "DELETE", "MERGE")), "")
    return f"SQL {verb}" if verb in _SQL_WRITE else None


def _check_urlopen(row: Row, call: Call, b: Bindings) -> str | None:
    target = call.arg(0, "url")
    if isinstance(target, Ref):
        target = b.value(target.text) or target
    method = ""
    if call.arg(1, "data") is not None:
        method = "POST"
    if isinstance(target, Call) and target.callee in ("urllib.request.Request",):
        given = (b.text(target.arg(3, "method")) or "").upper()
        method = given or ("POST" if target.arg(1, "data") is not None else method)
    if method not in MUTATING_HTTP:
        return None
    url = _url(target.arg(0, "url") if isinstance(target, Call) else target, b)
    return f"{method} to {url} via urllib" if url else f"{method} via urllib"


def _check_manager(row: Row, call: Call, b: Bindings) -> str | None:
    """Django manager writes: `Order.objects.create(...)`, `Order.objects.filter(...).update(...)`."""
    value: Value | None = receiver_of(call.func)
    for _ in range(8):
        if isinstance(value, Ref):
            return _describe(row, call, "") if value.text.endswith(".objects") or ".objects." in value.text else None
        if isinstance(value, Call):
            value = receiver_of(value.func)
        elif isinstance(value, Attr):
            if value.attr == "objects":
                return _describe(row, call, "")
            value = value.receiver
        else:
            return None
    return None


_GOOGLE_WRITES = frozenset({"insert", "update", "patch", "delete", "send", "create", "modify", "trash", "untrash",
                            "move", "copy", "import_", "batchUpdate", "batchModify", "batchDelete", "append", "clear"})


def _check_google_api(row: Row, call: Call, b: Bindings) -> str | None:
    """`<resource>.<verb>(...).execute()`: a write when the verb mutates (`insert`, `send`), not `get`/`list`."""
    request = receiver_of(call.func)
    if not isinstance(request, Call):
        return None
    verb = method_name(request.func)
    if verb not in _GOOGLE_WRITES:
        return None
    resource = receiver_of(request.func)
    noun = method_name(resource.func) if isinstance(resource, Call) else ""
    return row.what.format(name=f"{noun}.{verb}" if noun else verb)


_CHECKS = {"google_api": _check_google_api, "http": _check_http, "open": _check_open, "sql": _check_sql, "urlopen": _check_urlopen,
           "manager": _check_manager}
