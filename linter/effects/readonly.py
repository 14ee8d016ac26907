"""Calls that match a side-effect row but only read or only touch a scratch area: a POST to a
search, retrieval or model-inference API or an OAuth token grant, a GraphQL query, a literal read-only command, a write
into a temporary directory the tool made, an image saved into an in-memory buffer.

Each exemption is narrow on purpose: it needs the literal text (URL, query, argv) or a binding
the resolver can follow, and anything it cannot read stays a side effect.
"""

from __future__ import annotations

import re
import shlex
from typing import NamedTuple

from ..syntax.facts import Call, Either, Mapping, Ref, Seq, Slash, Starred, Value
from . import files, http, javascript, processes
from .readonly_programs import INERT_STATEMENTS, LOOKUPS, PROGRAM_FINDERS, SCRIPT_SHELLS, SHELL_SETUP_OPTIONS, Lookup
from .resolve import Resolver, method_name, receiver_of

_URL_WORD = re.compile(r"[/._:\-]+")  # `models/gemini-pro:generateContent`
_ENV_NAME = re.compile(r"\$[A-Za-z_][A-Za-z0-9_]*")
_CAMEL_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")  # `searchChannelPrice`: search, channel, price


def camel_words(text: str) -> set[str]:
    """The lower-cased words of a camel-, snake- or kebab-case name (`API-post-page`: api, post, page)."""
    return {w.lower() for w in _CAMEL_WORD.findall(text)}


def reads_only(url: str, call: Call, r: Resolver) -> bool:
    """A POST that reads: a GraphQL query (not a `mutation`), or a URL naming a read-only API."""
    query = _graphql_query(call, r)
    if query is not None:
        return not http.graphql_mutation(query)
    if not url:  # a URL from configuration: the operation its body names, if any, says
        return _action_reads(call, r)
    # Parts it could not read are "{}", or `$NAME` for an environment variable's name: a part of the
    # path so named is a name (`/indexes/$SEARCH_INDEX/docs`), a whole URL so named is judged by its
    # words (`$MOTOR_QUOTE_API_URL`).
    path = url.replace("{}", "")
    host, path = "", path if _ENV_NAME.fullmatch(path) else _ENV_NAME.sub("", path)
    if "://" in path:
        host, _, path = path.split("://", 1)[1].partition("/")
        host = host.lower()
    path, _, params = path.partition("?")
    words = _words(path)
    # The last segment names the operation (`/indexes/claims-index/docs/search`, Elasticsearch's
    # `/orders-index/_search`): a read there is a read, whatever names the path holds before it.
    if ("/" + path.strip("/")).endswith(http.READ_PATH_ENDS):
        return True
    last = _words(path.rstrip("/").rpartition("/")[2])
    if last & http.READ_PATH_WORDS and not last & http.WRITE_PATH_WORDS:
        return True
    batch_read = "batch" in words and bool(words & http.BATCH_READ_VERBS)
    if (words - {"batch"} if batch_read else words) & http.WRITE_PATH_WORDS:
        return False
    if batch_read:
        return True
    if words & http.RENDER_VERBS and words & http.DOCUMENT_FORMATS:
        return True
    if {key.partition("=")[0].lower() for key in params.split("&")} & http.PAGINATION_KEYS:
        return True  # `/contacts?page=1&limit=10`: a page of a listing
    if any(grant <= words for grant in http.TOKEN_GRANT_WORDS):
        return True
    host = host.partition(":")[0]
    if host in http.SEARCH_HOSTS or host in http.INFERENCE_HOSTS:
        return True
    if host.endswith(http.RENDER_HOST_SUFFIXES):
        return bool(words & http.RENDER_PATH_WORDS)
    if host in http.LLM_HOSTS:
        return bool(words & http.LLM_PATH_WORDS)
    return bool(words & http.READ_PATH_WORDS) or _action_reads(call, r)


def _words(path: str) -> set[str]:
    """The lower-cased words of a URL path, split at / . _ : - and between camelCase words."""
    return {w.lower() for w in _URL_WORD.split(path) if w} | camel_words(path)


# Calls that serialise an object to a JSON body (`body: JSON.stringify({ query, variables })`).
_JSON_ENCODERS = frozenset({"JSON.stringify", "json.dumps"})
# Keys of a JSON body naming the operation an RPC-style endpoint runs: `{ action: "get_routines" }`,
# JSON-RPC's `{"method": "host.get"}` (Zabbix, Ethereum's `eth_getBalance`), Salt's `{"fun": "disk.usage"}`.
_ACTION_KEYS = ("action", "op", "operation", "method", "fun", "function")
# An operation so named reads with these words too (`service.status`, `disk.usage`, `test.ping`),
# which a URL's path does not say alone (a POST to `/orders/7/status` sets it).
_OPERATION_READ_WORDS = http.READ_PATH_WORDS | {"status", "usage", "info", "describe", "show", "ping", "version",
                                                "read", "fetch"}


def _json_bodies(call: Call, r: Resolver) -> list[Mapping] | None:
    """The objects a JSON body spells out (`json={...}`, `data=json.dumps({...})`, `body:
    JSON.stringify({ ... })`; each of a batch, `json=[lowstate]`), else None."""
    for key in ("json", "data", "body"):
        body = call.kwarg(key)
        if isinstance(body, Ref):
            body = r.value(body.text)
        if isinstance(body, Call) and body.callee in _JSON_ENCODERS and body.args:
            body = body.args[0]
        if isinstance(body, Mapping):
            return [body]
        if isinstance(body, Seq) and body.items:
            items = [r.value(v.text) if isinstance(v, Ref) else v for v in body.items]
            return [v for v in items if isinstance(v, Mapping)] if all(isinstance(v, Mapping) for v in items) else None
    return None


def _graphql_query(call: Call, r: Resolver) -> str | None:
    """The text of the `query` of a JSON body when the source spells it out."""
    bodies = _json_bodies(call, r)
    return r.text(bodies[0].get("query")) if bodies and len(bodies) == 1 else None


def _action_reads(call: Call, r: Resolver) -> bool:
    """A POST to one RPC endpoint whose body names a read operation (`{ action: "get_routines" }`,
    the action its helper was given), each of a batch: the operation's words read and none writes."""
    bodies = _json_bodies(call, r) or []
    return bool(bodies) and all(_names_a_read(body, r) for body in bodies)


def _names_a_read(body: Mapping, r: Resolver) -> bool:
    if r.text(body.get("method")) == "tools/call":  # MCP's JSON-RPC over HTTP: the tool it calls says
        from .mcp import writes

        params = body.get("params")
        params = r.value(params.text) if isinstance(params, Ref) else params
        tool = r.text(params.get("name")) if isinstance(params, Mapping) else None
        return tool is not None and not writes(tool)
    for key in _ACTION_KEYS:
        text = r.text(body.get(key))
        if text:
            words = camel_words(text)
            return bool(words & _OPERATION_READ_WORDS) and not words & http.WRITE_PATH_WORDS
    return False


class Arg(NamedTuple):
    """One argv item: its literal text (None for a variable), the value it came from (None in a
    split command string) and the resolver that reads that value (the caller's for `*args`)."""

    text: str | None
    value: Value | None
    scope: Resolver


def read_only_command(call: Call, r: Resolver) -> bool:
    """The call runs one literal command that only reads (`git status`, `ls`, `rg`, `find` without
    `-delete`/`-exec`, a lookup CLI whose reports land in a scratch directory, a sound). Arguments
    that are variables are allowed (a path); the program, a git subcommand and every flag that
    decides what it does must be literal. A program found with `shutil.which("a") or
    shutil.which("b")` is either: both must only read."""
    if call.callee == "asyncio.create_subprocess_exec":
        argv = _items(call.args, r)
    elif call.callee in javascript.ARGV_CALLS:  # `execFile('git', ['status'])`
        rest = call.arg(1, None)
        if isinstance(rest, Ref) and isinstance(r.value(rest.text), Seq):
            rest = r.value(rest.text)
        if not call.args or (rest is not None and not isinstance(rest, Seq)):
            return False  # arguments chosen at run time
        argv = _items((call.args[0], *(rest.items if isinstance(rest, Seq) else ())), r)
    else:
        first, r = _argv_list(call.arg(0, "args") or call.kwarg("command") or call.kwarg("cmd"), r)
        returned = getattr(r, "returned_lists", None)
        made = returned(first) if returned is not None and not isinstance(first, Seq) else None
        if made:  # `command = _command_for(host)`: each list the helper can return must only read
            return all(_argv_reads(_items(seq.items, inner), inner) for seq, inner in made)
        argv = _items(first.items, r) if isinstance(first, Seq) else _split(r.text(first, numbers=True), r)
    return _argv_reads(argv, r)


_POSIX_SHELLS = frozenset({"sh", "bash", "zsh", "dash"})


def _argv_reads(argv: list[Arg] | None, r: Resolver) -> bool:
    if not argv:
        return False
    if len(argv) == 3 and argv[1].text == "-c" and (argv[0].text or "").rpartition("/")[2] in _POSIX_SHELLS:
        return _argv_reads(_split(argv[2].text, r), r)  # `sh -c "git diff"`: the one command it runs
    programs = [argv[0].text] if argv[0].text is not None else _programs(argv[0].value, r)
    return bool(programs) and all(_reads(p.rpartition("/")[2], argv[1:]) for p in programs)


def _argv_list(first: Value | None, r: Resolver, depth: int = 0) -> tuple[Value | None, Resolver]:
    """The list an argv argument names, with the resolver to read its items in: through a parameter
    bound on the model's call path to the caller's list (`_run(cmd)`), a helper that maps each item
    of its argument (`sanitize_command(cmd)`, quoting each word), and additions to a list display
    (`cmd.extend(["get", "pods"])`)."""
    if depth > 4:
        return first, r
    if isinstance(first, Call):
        mapped = getattr(r, "mapped_argument", None)
        given = mapped(first) if mapped is not None else None
        if given is not None:
            return _argv_list(given, r, depth + 1)
    if not isinstance(first, Ref) or "." in first.text:
        return first, r
    arguments = getattr(r, "arguments", None) or {}
    if first.text in arguments and isinstance(arguments[first.text][1], Ref) and _unbound(r, first.text):
        caller, given = arguments[first.text]
        return _argv_list(given, caller, depth + 1)
    grow = getattr(r, "grown_list", None)
    grown = grow(first.text) if grow is not None else None
    if grown is not None:
        return grown, r
    bound = r.value(first.text)
    return (bound, r) if isinstance(bound, Seq) else (first, r)


def _unbound(r: Resolver, name: str) -> bool:
    binding = getattr(r, "binding", None)
    return binding is None or binding(name) is None


def _reads(program: str, args: list[Arg]) -> bool:
    texts = [a.text for a in args]
    literals = [a for a in texts if a is not None]
    if program in processes.READ_ONLY_SUBCOMMANDS:
        reads, value_options, writing = processes.READ_ONLY_SUBCOMMANDS[program]
        listings = processes.READ_ONLY_LISTINGS.get(program, {})
        queries = processes.READ_ONLY_QUERIES.get(program, {})
        return (_subcommand_reads(texts, reads, value_options, listings, queries) and not any(
            a.startswith(writing) for a in literals if writing)) or (program in processes.VERB_CLIS and _read_verb(texts))
    if program in processes.READ_ONLY_OPERATIONS:  # `pacman -Ss NAME`: a literal first option decides
        first = texts[0] if texts else None
        return first is not None and processes.READ_ONLY_OPERATIONS[program].fullmatch(first) is not None
    if program in LOOKUPS:
        return _lookup_reads(LOOKUPS[program], args)
    if program in SCRIPT_SHELLS:
        return _inert_script(texts, SCRIPT_SHELLS[program])
    banned = processes.READ_ONLY_PROGRAMS.get(program)
    if banned is None:
        return program not in processes.COMMAND_RUNNERS and _read_verb(texts)
    return not any(a.split("=", 1)[0] in banned for a in literals)


def _read_verb(args: list[str | None]) -> bool:
    """A subcommand CLI no table knows, asked to look something up: its leading literal words
    (before any option or value chosen at run time) hold a read verb and no write verb."""
    words: list[str] = []
    for a in args[:processes.LEADING_WORDS]:
        if a is None or a.startswith("-"):
            break
        words.append(a.lower())
    return any(w in processes.READ_VERBS for w in words) and not any(w in processes.WRITE_VERBS for w in words)


def _programs(value: Value | None, r: Resolver, depth: int = 0) -> list[str]:
    """The programs a path found at run time stands for: `shutil.which("afplay")`, through a
    binding, or each option of `which(a) or which(b)`; [] when any of them cannot be read."""
    if isinstance(value, Ref) and depth < 4:
        return _programs(r.value(value.text), r, depth + 1)
    if isinstance(value, Either):
        found = [_programs(o, r, depth + 1) for o in value.options]
        return [p for f in found for p in f] if all(found) else []
    if isinstance(value, Call) and value.callee in PROGRAM_FINDERS and value.args:
        name = r.text(value.args[0])
        return [name] if name else []
    return []


def _lookup_reads(lookup: Lookup, args: list[Arg]) -> bool:
    """A lookup CLI writes nothing the tool keeps: no report option, or every report goes into a
    scratch directory (its own value or the `into` folder)."""
    def scratch_value(options: frozenset[str]) -> bool | None:
        """True when the options of `options` given name scratch paths, False when one names
        another path, None when none is given."""
        found = None
        for i, arg in enumerate(args):
            name, eq, _ = (arg.text or "").partition("=")
            if name not in options:
                continue
            if eq:
                return False  # `--output=file`: a literal path outside any scratch area
            given = args[i + 1] if i + 1 < len(args) else None
            found = given is not None and in_scratch(given.value, given.scope) and found is not False
        return found

    names = {n for a in args for n in _option_names(a.text, lookup.clustered)}
    if names & lookup.sends:
        return False
    into = scratch_value(lookup.into)
    if into is False:
        return False
    if lookup.unless and not names & lookup.unless and not into:
        return False  # it writes its default report into the working directory
    return not names & lookup.writes or bool(into) or bool(scratch_value(lookup.writes))


def _option_names(arg: str | None, clustered: bool) -> list[str]:
    """`--output=f` names `--output`; with clustered short options `-sSo` names -s, -S and -o."""
    name = (arg or "").partition("=")[0]
    if clustered and len(name) > 2 and name[0] == "-" and name[1] != "-":
        return [f"-{c}" for c in name[1:]]
    return [name]


def _inert_script(args: list[str | None], script_options: frozenset[str]) -> bool:
    """`powershell -NoProfile -Command "<script>"` whose every statement only loads an assembly,
    binds a literal or plays a sound."""
    for i, a in enumerate(args):
        if a in script_options:
            if i + 2 != len(args) or args[i + 1] is None:
                return False
            statements = [s.strip() for s in re.split(r"[;\n]", args[i + 1] or "") if s.strip()]
            return bool(statements) and all(any(p.fullmatch(s) for p in INERT_STATEMENTS) for s in statements)
        if a not in SHELL_SETUP_OPTIONS:
            return False
    return False


def _items(values: tuple[Value, ...], r: Resolver) -> list[Arg] | None:
    """Literal argv items (text None for a variable); None when a `*args` hides what runs. A
    `*args` bound to a list the source spells out (`["git", *args]` called with `["status"]`) is
    expanded, its items read where that list was written."""
    out: list[Arg] = []
    for v in values:
        if isinstance(v, Starred):
            spread = r.value(v.value.text) if isinstance(v.value, Ref) else v.value
            where = r
            if isinstance(spread, Seq) and v in spread.items and isinstance(v.value, Ref):
                # `args = ["--kubeconfig", path, ...args]`: the list the parameter held before.
                where, spread = _given(v.value.text, r)
            if isinstance(spread, Either):  # `*(["-6"] if v6 else [])`: every flag either option may add
                spread = _either_flags(spread, r)
            if not isinstance(spread, Seq) or any(isinstance(i, Starred) for i in spread.items):
                return None
            where = _caller_of(v.value, spread, where)
            out.extend(Arg(where.text(i), i, where) for i in spread.items)
        else:
            out.append(Arg(r.text(v), v, r))
    return out


def _either_flags(spread: Either, r: Resolver) -> Seq | None:
    """The options of a conditional list of flags as one list holding them all; None unless each
    option is a list display of literal options (`-6`), which cannot move a subcommand."""
    items = [i for o in spread.options if isinstance(o, Seq) for i in o.items]
    flags = all(isinstance(o, Seq) for o in spread.options) and all((r.text(i) or "").startswith("-") for i in items)
    return Seq(tuple(items), spread.loc) if flags else None


def _given(param: str, r: Resolver) -> tuple[Resolver, Value | None]:
    """What the caller passed for `param` on the model's call path, and the caller's resolver."""
    arguments = getattr(r, "arguments", None) or {}
    if param not in arguments:
        return r, None
    caller, given = arguments[param]
    return caller, caller.value(given.text) if isinstance(given, Ref) else given


def _caller_of(value: Value, bound: Seq, r: Resolver) -> Resolver:
    """The resolver for the list a parameter was given: the caller's, on a call path that binds
    the parameter to it (`arguments` of the model's call-path scope), else `r` itself."""
    if isinstance(value, Ref):
        caller, given = _given(value.text, r)
        if caller is not r and given == bound:
            return caller
    return r


def _split(command: str | None, r: Resolver) -> list[Arg] | None:
    if not command or "{}" in command or any(c in processes.SHELL_OPERATORS for c in command):
        return None
    try:
        return [Arg(a, None, r) for a in shlex.split(command)]
    except ValueError:
        return None


def _subcommand_reads(args: list[str | None], reads: frozenset[str], value_options: frozenset[str],
                      listings: dict[str, frozenset[str]], queries: dict[str, frozenset[str]]) -> bool:
    """The first argument that is not an option of the program itself is a read-only subcommand,
    a listing one followed only by its listing options (`git branch --show-current`), or a query
    given one operand at most (`git symbolic-ref HEAD`)."""
    skip = False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if a is None:
            return False  # a subcommand chosen at run time
        if a in value_options:
            skip = True
        elif not a.startswith("-"):
            rest = args[i + 1:]
            if a in listings:
                return all(r is not None and r in listings[a] for r in rest)
            if a in queries:
                return None not in rest and sum(not r.startswith("-") for r in rest if r is not None) <= 1 \
                    and all(r in queries[a] for r in rest if r is not None and r.startswith("-"))
            return a in reads
    return False


def in_scratch(value: Value | None, r: Resolver, depth: int = 0) -> bool:
    """`value` is a path inside a scratch area the code made: `d` bound by `with
    tempfile.TemporaryDirectory() as d`, `Path(d, "x")`, `os.path.join(d, "x")`, `tmp.name`, Node's
    `await mkdtemp(path.join(tmpdir(), "x-"))`; also where a caller on the call path made it."""
    if value is None or depth > 6:
        return False
    if isinstance(value, Ref):
        arguments = getattr(r, "arguments", None) or {}
        if value.text in arguments and _unbound(r, value.text):  # a path the caller made, read where it did
            caller, given = arguments[value.text]
            return in_scratch(given, caller, depth + 1)
        entries = getattr(r, "returned_entries", None)
        returned = entries(value) if entries is not None else []
        if returned:  # `const { directory } = await makeTempDir()`: whatever the helper returns there
            return all(in_scratch(entry, inner, depth + 1) for entry, inner in returned)
        bound = r.value(value.text)
        if bound is None and value.text.endswith(".name"):
            bound = r.value(value.text[: -len(".name")])
        return in_scratch(bound, r, depth + 1)
    if isinstance(value, Slash):  # `Path(d) / "x.png"`
        return in_scratch(value.left, r, depth + 1)
    if not isinstance(value, Call):
        return False
    if value.callee in files.SCRATCH_MAKERS:
        return True
    if value.callee in files.PATH_BUILDERS:
        return bool(value.args) and in_scratch(value.args[0], r, depth + 1)
    if method_name(value.func) in ("joinpath", "with_name", "with_suffix", "resolve", "absolute"):
        return in_scratch(receiver_of(value.func), r, depth + 1)
    return False


def in_memory(value: Value | None, r: Resolver) -> bool:
    """`value` is an in-memory buffer (`io.BytesIO()`), directly or through a binding."""
    if isinstance(value, Ref):
        value = r.value(value.text)
    return isinstance(value, Call) and value.callee in files.MEMORY_BUFFERS


# Libraries whose calls need no row: they render, parse, validate, trace or compute, read a model,
# a search engine or market data, or (SQL drivers) write only through the `execute`/`commit` rows.
# `benchmarks/coverage.py` counts their calls as known; nothing in the engine reads this list.
READ_ONLY_LIBRARIES = frozenset({
    "rich", "bs4", "lxml", "html2text", "markdownify", "markdown", "markupsafe", "jinja2", "yaml", "toml", "tomli",
    "pydantic", "attrs", "dateutil", "pytz", "numpy", "pandas", "tiktoken", "wcmatch", "feedparser", "logfire",
    "opentelemetry", "structlog", "loguru", "fastapi", "ag_ui", "chatkit", "openai", "anthropic", "litellm",
    "langchain_openai", "langchain_anthropic", "langchain_google_genai", "langchain_aws", "langchain_deepseek",
    "langchain_fireworks", "langchain_groq", "langchain_ollama", "tavily", "exa_py", "firecrawl",
    "duckduckgo_search", "wikipedia", "arxiv", "yfinance", "qdrant_client", "sqlalchemy", "psycopg2", "psycopg",
    "asyncpg", "pymysql", "aiosqlite", "mysql", "pydantic_core", "dotenv", "PyPDF2", "pypdf",
    # The OAuth installed-app flow only obtains credentials (their cache file is upkeep, see `incidental`).
    "google_auth_oauthlib",
})
