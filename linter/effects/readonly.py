"""Calls that match a side-effect row but only read or only touch a scratch area: a POST to a
search, retrieval or model-inference API or an OAuth token grant, a GraphQL query, a literal read-only command, a write
into a temporary directory the tool made, an image saved into an in-memory buffer.

Each exemption is narrow on purpose: it needs the literal text (URL, query, argv) or a binding
the resolver can follow, and anything it cannot read stays a side effect.
"""

from __future__ import annotations

import re
import shlex

from ..syntax.facts import Call, Mapping, Ref, Seq, Slash, Starred, Value
from . import files, http, processes
from .resolve import Resolver, method_name, receiver_of

_URL_WORD = re.compile(r"[/._:\-]+")  # `models/gemini-pro:generateContent`


def reads_only(url: str, call: Call, r: Resolver) -> bool:
    """A POST that reads: a GraphQL query (not a `mutation`), or a URL naming a read-only API."""
    query = _graphql_query(call, r)
    if query is not None:
        return "mutation" not in query.lower()
    if not url:
        return False
    host, path = "", url.replace("{}", "")
    if "://" in url:
        host, _, path = url.split("://", 1)[1].partition("/")
        host = host.lower()
    words = {w for w in _URL_WORD.split(path.partition("?")[0].lower()) if w}
    if words & http.WRITE_PATH_WORDS:
        return False
    if any(grant <= words for grant in http.TOKEN_GRANT_WORDS):
        return True
    host = host.partition(":")[0]
    if host in http.SEARCH_HOSTS:
        return True
    if host.endswith(http.RENDER_HOST_SUFFIXES):
        return bool(words & http.RENDER_PATH_WORDS)
    if host in http.LLM_HOSTS:
        return bool(words & http.LLM_PATH_WORDS)
    return bool(words & http.READ_PATH_WORDS)


def _graphql_query(call: Call, r: Resolver) -> str | None:
    """The text of `json={"query": "..."}` when the source spells it out."""
    body = call.kwarg("json")
    if isinstance(body, Ref):
        body = r.value(body.text)
    if not isinstance(body, Mapping):
        return None
    return r.text(body.get("query"))


def read_only_command(call: Call, r: Resolver) -> bool:
    """The call runs one literal command that only reads (`git status`, `ls`, `rg`, `find` without
    `-delete`/`-exec`). Arguments that are variables are allowed (a path); the program, a git
    subcommand and every flag that decides what it does must be literal."""
    if call.callee == "asyncio.create_subprocess_exec":
        argv = _items(call.args, r)
    else:
        first = call.arg(0, "args") or call.kwarg("command") or call.kwarg("cmd")
        if isinstance(first, Ref) and isinstance(r.value(first.text), Seq):
            first = r.value(first.text)
        argv = _items(first.items, r) if isinstance(first, Seq) else _split(r.text(first))
    if not argv or argv[0] is None:
        return False
    program = argv[0].rpartition("/")[2]
    literals = [a for a in argv[1:] if a is not None]
    if program in processes.READ_ONLY_SUBCOMMANDS:
        reads, value_options, writing = processes.READ_ONLY_SUBCOMMANDS[program]
        listings = processes.READ_ONLY_LISTINGS.get(program, {})
        return _subcommand_reads(argv[1:], reads, value_options, listings) and not any(
            a.startswith(writing) for a in literals if writing)
    banned = processes.READ_ONLY_PROGRAMS.get(program)
    if banned is None:
        return False
    return not any(a.split("=", 1)[0] in banned for a in literals)


def _items(values: tuple[Value, ...], r: Resolver) -> list[str | None] | None:
    """Literal argv items (None for a variable); None when a `*args` hides what runs. A `*args`
    bound to a list the source spells out (`["git", *args]` called with `["status"]`) is expanded."""
    out: list[str | None] = []
    for v in values:
        if isinstance(v, Starred):
            spread = r.value(v.value.text) if isinstance(v.value, Ref) else v.value
            if not isinstance(spread, Seq) or any(isinstance(i, Starred) for i in spread.items):
                return None
            out.extend(r.text(i) for i in spread.items)
        else:
            out.append(r.text(v))
    return out


def _split(command: str | None) -> list[str | None] | None:
    if not command or "{}" in command or any(c in processes.SHELL_OPERATORS for c in command):
        return None
    try:
        return list(shlex.split(command))
    except ValueError:
        return None


def _subcommand_reads(args: list[str | None], reads: frozenset[str], value_options: frozenset[str],
                      listings: dict[str, frozenset[str]]) -> bool:
    """The first argument that is not an option of the program itself is a read-only subcommand,
    or a listing one followed only by its listing options (`git branch --show-current`)."""
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
            if a in listings:
                return all(rest is not None and rest in listings[a] for rest in args[i + 1:])
            return a in reads
    return False


def in_scratch(value: Value | None, r: Resolver, depth: int = 0) -> bool:
    """`value` is a path inside a scratch area the code made: `d` bound by `with
    tempfile.TemporaryDirectory() as d`, `Path(d, "x")`, `os.path.join(d, "x")`, `tmp.name`."""
    if value is None or depth > 6:
        return False
    if isinstance(value, Ref):
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
    "asyncpg", "pymysql", "aiosqlite",
})
