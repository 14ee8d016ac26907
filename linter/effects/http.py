"""HTTP clients: a request that mutates (POST, PUT, PATCH, DELETE) is a side effect, a GET is a read.

`request(method, ...)` with a method that is not a literal may mutate and counts (`check="http"`).
The read-only API data below exempts POSTs that only read: search, retrieval and model inference.
"""

from __future__ import annotations

import re

from .rows import MUTATING_HTTP, Row


def _http(lib: str, blocking: bool) -> list[Row]:
    """`lib.post(...)`, ..., and `lib.request("POST", ...)` as module functions."""
    rows = [Row("call", f"{lib}.{m.lower()}", (), "{method} via " + lib, blocking, "http", m, "http")
            for m in sorted(MUTATING_HTTP)]
    return rows + [Row("call", f"{lib}.request", (), "{method} via " + lib, blocking, "http", kind="http")]


def _client(ctor: str, lib: str, blocking: bool) -> list[Row]:
    """`client.post(...)` / `client.request("POST", ...)` on a client object `ctor` built."""
    rows = [Row("method", ctor, (m.lower(),), "{method} via " + lib, blocking, "http", m, "http")
            for m in sorted(MUTATING_HTTP)]
    return rows + [Row("method", ctor, ("request", "stream"), "{method} via " + lib, blocking, "http", kind="http")]


ROWS: tuple[Row, ...] = (
    *_http("requests", True),
    *_http("httpx", True),
    *_client("requests.Session", "requests", True),
    *_client("requests.session", "requests", True),
    *_client("requests.sessions.Session", "requests", True),
    *_client("httpx.Client", "httpx", True),
    *_client("httpx.AsyncClient", "httpx", False),
    *_client("aiohttp.ClientSession", "aiohttp", False),
    Row("call", "aiohttp.request", (), "{method} via aiohttp", False, "http", kind="http"),
    Row("method", "urllib3.PoolManager", ("request", "urlopen"), "{method} via urllib3", True, "http", kind="http"),
    Row("call", "urllib3.request", (), "{method} via urllib3", True, "http", kind="http"),
    Row("method", "http.client.HTTPConnection", ("request",), "{method} via http.client", True, "http", kind="http"),
    Row("method", "http.client.HTTPSConnection", ("request",), "{method} via http.client", True, "http", kind="http"),
    Row("call", "urllib.request.urlopen", (), "{method} via urllib", True, "urlopen", kind="http"),
    # Any client's GraphQL call with a mutation (`octokit.graphql(`mutation ...`)`), and a request
    # that names a mutating method: in a route string (`octokit.request("POST /repos/{o}/{r}/issues")`),
    # first (`client.request("POST", url)`) or in its options (`client.request(url, { method })`, a
    # method chosen at run time too), or whose document is a mutation (graphql-request's `client.request(doc)`).
    Row("any", "", ("graphql",), "a GraphQL mutation", None, "graphql", kind="http"),
    Row("any", "", ("request",), "{method} via an API client", None, "route", kind="http"),
)

# A route string: the method, a space, the path (Octokit's `request`).
ROUTE = re.compile(r"^(POST|PUT|PATCH|DELETE) (/\S*)")
_MUTATION = re.compile(r"(?:^|\})\s*mutation\b")  # an operation of the document's top level


def graphql_mutation(document: str) -> bool:
    """Whether a GraphQL document holds a mutation operation."""
    return bool(_MUTATION.search(re.sub(r"#[^\n]*", "", document)))


# ---- POSTs that only read -----------------------------------------------------------------------
# A URL path word (split at / . _ - ? and between camelCase words) that names a read: search and
# retrieval endpoints, vector queries, model inference, and the verbs of RPC-style read endpoints
# (`/api/searchPrice`, `/api/order/pageOrders`, `/api/track`). A path that also names a write
# (`_update_by_query`, `/api/order/createForecast`) is not exempt.
READ_PATH_WORDS = frozenset({"search", "query", "retrieve", "embeddings", "embedding", "embed", "inference",
                             "completions", "rerank",
                             "generatecontent", "embedcontent", "counttokens", "scrape", "crawl", "freebusy", "balance",
                             "get", "list", "find", "lookup", "track", "page", "estimate", "quote",
                             # a model asked about a text or an image (`/api/detect/detectText`)
                             "detect", "classify", "predict", "moderations", "translate", "validate",
                             # a lookup that fills in a record (`/enrich`, Clearbit's, Apollo's)
                             "enrich", "enrichment",
                             # a dry run of a write (`/bookings/preview`): the write is a path of its own
                             "preview", "simulate"})
# A batch read names the batch and its read verb together (HubSpot's `/crm/v3/objects/notes/batch/read`,
# Google's `values:batchGet`): "batch" alone stays a write word.
BATCH_READ_VERBS = frozenset({"read", "get"})
# A conversion service answers with the document it renders (`/api/export/pdf`, Gotenberg's
# `/forms/chromium/convert/html`): a verb of rendering beside a document format reads.
RENDER_VERBS = frozenset({"render", "convert", "export"})
DOCUMENT_FORMATS = frozenset({"pdf", "docx", "pptx", "xlsx", "csv", "html", "markdown", "png", "jpg", "jpeg", "svg"})
# "indexes" is not one: a collection (`/indexes/{name}/docs/search` reads; `/docs/index` uploads).
WRITE_PATH_WORDS = frozenset({"update", "delete", "insert", "upsert", "create", "write", "index",
                              "batch", "bulk", "put", "send", "upload", "remove", "drop", "mutation", "mutate",
                              "add", "set", "save", "edit", "modify", "cancel", "submit", "assign", "approve",
                              "reject", "book", "reserve", "pay", "charge", "refund", "publish", "archive", "confirm",
                              "otp"})  # an OTP endpoint sends a code (`/getOTP`)
# Paths of well-known APIs whose POST only reads, matched at the end of the URL's path: Home
# Assistant's `/api/template` renders a template over the current states and answers with the text.
READ_PATH_ENDS = ("/api/template",)
# Query parameters that page through a listing (`/contacts?page=1&limit=10`): a POST carrying them
# reads a page (its body a search filter), unless the path names a write.
PAGINATION_KEYS = frozenset({"page", "limit", "offset", "per_page", "page_size", "pagesize", "cursor", "skip", "take"})
# An OAuth token grant (`/oauth2/v2.0/token`, `/oauth/token`) exchanges credentials: the URL's
# words hold one of these sets.
TOKEN_GRANT_WORDS = (frozenset({"oauth2", "token"}), frozenset({"oauth", "token"}))
# Web-search and map-query APIs: every endpoint reads.
SEARCH_HOSTS = frozenset({"api.tavily.com", "google.serper.dev", "api.search.brave.com", "serpapi.com", "api.exa.ai",
                          "s.jina.ai", "r.jina.ai", "api.perplexity.ai", "api.bing.microsoft.com", "api.you.com", "html.duckduckgo.com",
                          "lite.duckduckgo.com", "scrapeninja.p.rapidapi.com",
                          # OpenStreetMap's Overpass API: a POSTed query over map data, read-only.
                          "overpass-api.de", "overpass.kumi.systems", "overpass.openstreetmap.fr"})
# Hosted model inference: every endpoint runs a model on the input and returns its output
# (`api-inference.huggingface.co/models/<model>`).
INFERENCE_HOSTS = frozenset({"api-inference.huggingface.co", "router.huggingface.co",
                             # image generation: the image comes back in the answer (or a link to it)
                             "api.getimg.ai", "api.stability.ai", "api.ideogram.ai", "api.bfl.ai", "api.bfl.ml"})
# Page-rendering services (a headless browser behind an API): rendering a page reads it.
RENDER_HOST_SUFFIXES = ("browserless.io",)
RENDER_PATH_WORDS = frozenset({"content", "scrape", "screenshot", "pdf", "unblock"})
# LLM providers: their inference endpoints read (`/v1/messages` is Anthropic's completion call,
# not a message sent), other endpoints (files, fine-tuning jobs, batches) stay writes.
LLM_HOSTS = frozenset({"api.openai.com", "api.anthropic.com", "generativelanguage.googleapis.com", "api.mistral.ai",
                       "api.groq.com", "openrouter.ai", "api.together.xyz", "api.deepseek.com", "api.cohere.com",
                       "api.cohere.ai", "api.fireworks.ai", "api.x.ai"})
LLM_PATH_WORDS = frozenset({"completions", "messages", "responses", "embeddings", "chat", "generate", "moderations",
                            "generatecontent", "embedcontent", "rerank", "images"})  # `/v1/images/generations`
