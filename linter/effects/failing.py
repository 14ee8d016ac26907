"""Which calls do I/O that can raise: a side effect, or a read of a network, file, database,
subprocess, SDK or chat-model client. A default-fatal group (LangGraph's ToolNode, pydantic-ai)
ends the run when such a call raises in a member outside a broad `try`.

Building a client (`httpx.AsyncClient()`, `ChatOpenAI(model=...)`) is not I/O; its calls are.
"""

from __future__ import annotations

from ..frameworks import import_roots
from ..syntax.facts import Call
from .classify import effect_of
from .resolve import Resolver, method_name, receiver_of
from .table import TABLE_ROOTS

# Roots of the table's libraries that also hold pure helpers (`os.path.join`, `plt.plot`): their
# calls count only through a row or `IO_CALLS`.
_MIXED = frozenset({"os", "asyncio", "builtins", "io", "codecs", "gzip", "bz2", "lzma", "pathlib", "shutil",
                    "matplotlib", "PIL", "docx", "pptx", "pynput"})
# Clients that only read, or whose writes the table does not list: any call under them is I/O.
_READ_CLIENTS = frozenset({
    "sqlite3", "psycopg", "psycopg2", "asyncpg", "aiosqlite", "pymysql", "pymongo", "motor", "redis", "sqlalchemy",
    "openai", "anthropic", "cohere", "mistralai", "groq", "ollama", "litellm", "together", "huggingface_hub",
    "tavily", "duckduckgo_search", "ddgs", "wikipedia", "yfinance", "serpapi", "exa_py", "firecrawl", "pinecone",
    "qdrant_client", "chromadb", "weaviate", "elasticsearch", "socket", "ftplib", "paramiko", "docker", "supabase",
})
# A framework's own roots hold pure helpers too (prompts, runnables); its model calls are `is_chat_model`'s.
IO_ROOTS = (TABLE_ROOTS - _MIXED - frozenset(import_roots())) | _READ_CLIENTS
IO_CALLS = frozenset({"open", "builtins.open", "io.open", "os.listdir", "os.scandir", "os.stat", "shutil.which",
                      "os.system", "os.popen"})
# Methods whose whole point is to raise on a failed I/O result, on any receiver (`resp.raise_for_status()`).
RAISING_METHODS = frozenset({"raise_for_status"})
# The base exceptions (last dotted part) that catch every failure a library's calls raise: I/O under
# `except requests.RequestException:` fails inside the tool (its handler answers the model), as
# under `except Exception:`. requests' JSONDecodeError and HTTPError are RequestExceptions (2.27+);
# httpx's HTTPError covers its transport and status errors; aiohttp's ClientError its client errors.
LIBRARY_ERRORS: dict[str, frozenset[str]] = {
    "requests": frozenset({"RequestException"}),
    "httpx": frozenset({"HTTPError"}),
    "aiohttp": frozenset({"ClientError"}),
}
# ... and what a raising method raises, on a response of any of them.
RAISING_METHOD_ERRORS = frozenset({"RequestException", "HTTPError", "ClientError"})
# What a chat model (or a runnable derived from one: `llm.with_structured_output(S)`) does over the
# network. Which objects are chat models is read from where they come from (`is_chat_model`).
MODEL_CALLS = frozenset({"invoke", "ainvoke", "batch", "abatch", "stream", "astream", "astream_events", "generate",
                         "agenerate", "predict", "apredict", "batch_as_completed", "abatch_as_completed"})


def can_fail(call: Call, resolver: Resolver) -> str:
    """A description of the I/O `call` does that can raise (`"POST via requests"`,
    `"openai.OpenAI.create()"`), or "" when it does none the table or the data above knows."""
    eff = effect_of(call, resolver, awaited=True)
    if eff is not None:
        return eff.description
    callee = call.callee
    if callee.rpartition(".")[2][:1].isupper():
        return ""  # building a client object is not I/O; its calls are
    if callee in IO_CALLS or callee.startswith("subprocess."):
        return f"{callee}()"
    root = callee.split(".")[0] if callee else ""
    if root in IO_ROOTS and "." in callee:
        return f"{callee}()"
    meth = method_name(call.func)
    if meth in RAISING_METHODS and receiver_of(call.func) is not None:
        return f".{meth}()"
    ctor = resolver.constructor(receiver_of(call.func))
    if ctor and (ctor.split(".")[0] in IO_ROOTS or (meth in MODEL_CALLS and is_chat_model(ctor))):
        return f"{ctor}.{meth}()"
    return ""


def caught_by_its_library(call: Call, resolver: Resolver, caught: frozenset[str]) -> bool:
    """Does a handler catching `caught` (last dotted parts) catch every failure of `call`'s I/O,
    its library's base exception (`requests.RequestException` around `requests.get(...)`)?"""
    if not caught:
        return False
    if method_name(call.func) in RAISING_METHODS and receiver_of(call.func) is not None:
        return bool(caught & RAISING_METHOD_ERRORS)
    receiver = receiver_of(call.func)
    made_by = resolver.constructor(receiver) if receiver is not None else ""  # `requests.get(...).json()`
    return any(caught & LIBRARY_ERRORS.get(name.split(".")[0], frozenset()) for name in (call.callee, made_by) if name)


def is_chat_model(ctor: str) -> bool:
    """`ctor` builds a chat model: anything from a framework's `chat_models` module
    (`init_chat_model`), or a `*Chat*` class of a framework's partner package (`<root>_openai`)."""
    parts = ctor.split(".")
    roots = import_roots()
    partner = parts[0] not in roots and any(parts[0].startswith(f"{r}_") for r in roots)
    if "chat_models" in parts[:-1] and (partner or parts[0] in roots):
        return True
    return partner and "Chat" in parts[-1]
