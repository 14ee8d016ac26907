"""Bookkeeping a shared helper does on the side: not the tool's effect.

A tool that reads a calendar still refreshes its OAuth token and writes it back to `token.json`
(in `get_credentials()`), fetches an API token with a POST (`_fetch_token`), stores a response
in a cache folder (`CacheManager.set`), or opens the lock file that serialises writers
(`_process_file_lock`). None of these is what the tool does to the world: the credential, the
cache and the lock are rebuilt on the next call. A file write or an HTTP request counts as
bookkeeping when it happens in a helper (not in the tool's own body) whose name says so, or in a
function such a helper calls (`_get_token()` encrypting the password with a POST); an email,
a payment or SQL never does, whatever the helper is called, and neither does anything in a generic
request helper that merely carries a token (`_request_with_token`, `_auth_request`). A helper
named for a lock keeps a file or a key lock; its HTTP request (`lock_device`) is the tool's own.

The app's log is bookkeeping too: a file written by a helper named for a logger, or named `*.log`.
The record an agent keeps of its own run is bookkeeping too, in whatever store it lands: a read
tool that stores a trajectory row (`TrajectoryRepository.create`), logs an event of the session
(`tracker.log_event(MENU_VIEWED)`), records what its model calls cost (`_track_cost`) or sends
telemetry has not changed the world it reads. So is a search index brought up to date with its
sources on the way to a search (`KnowledgeStore.sync_markdown_library` upserting changed chunks),
or made when missing (`get_or_create_collection`): rebuilt on the next call. So is what a client's
handler of its own credential refresh saves (google-auth-library's `oauth2Client.on('tokens', ...)`).
So is what a memoised function of no arguments sets up (`@lru_cache def get_settings()` making the
app's folders and copying its default files): it runs once a process, for whichever tool asks first.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .classify import Effect

BOOKKEEPING_WORDS = frozenset({"token", "tokens", "credential", "credentials", "creds", "cookie", "cookies",
                               "cookiejar", "cache", "cached", "caching", "oauth", "oauth2", "auth", "authenticate",
                               "authentication", "authorize", "authorization", "authorise", "login", "signin",
                               "lock", "lockfile", "flock"})
# A lock that serialises writers is a file or a key; an HTTP request to lock something (`lockDevice`
# posting `/devices/{id}/action/lock`) is the tool's business.
LOCK_WORDS = frozenset({"lock", "lockfile", "flock"})
LOCK_KINDS = frozenset({"file", "kv"})
# Words of a helper that sends whatever its caller asks for: its requests are the tool's own.
REQUEST_WORDS = frozenset({"request", "requests", "call", "api", "http", "send", "post", "put", "patch", "delete",
                           "execute"})
BOOKKEEPING_KINDS = frozenset({"file", "http", "kv"})
# A helper storing credentials in the app's own database (`MongoManager.update_user_credentials`
# after an OAuth refresh) keeps them up to date, as a token file does; only credential words count
# there (an `authorize_payment` row is the tool's business).
CREDENTIAL_WORDS = frozenset({"token", "tokens", "credential", "credentials", "creds", "cookie", "cookies", "oauth",
                              "oauth2"})
CREDENTIAL_STORE_KINDS = frozenset({"sql", "orm", "nosql", "kv"})
# Words of a helper that records the agent's own run, and the stores such a record may land in.
RUN_RECORD_WORDS = frozenset({"trajectory", "trajectories", "telemetry", "analytics"})
RUN_RECORD_KINDS = BOOKKEEPING_KINDS | {"sql", "orm", "nosql"}
# A helper that logs or tracks an event or an action of the run (`tracker.log_event(MENU_VIEWED, ...)`,
# `track_event`): both a verb and an event word in its own name. A `log_expense` helper is the
# tool's business, and so is an audit row (`log_audit_event`): the corpus counts audit trails.
EVENT_LOG_VERBS = frozenset({"log", "track"})
EVENT_WORDS = frozenset({"event", "events", "action", "actions"})  # `log_agent_action`: what the agent did
AUDIT_WORDS = frozenset({"audit", "audits"})
# Words of a helper that keeps the app's log (`Logger.writeToFile` appending to `logs/app.log`): its
# file writes are the log, not the tool's effect (a `log_expense` helper is not one of them).
LOG_WORDS = frozenset({"logger", "loggers", "logging", "syslog"})
# ... or for its log file (`writeToLogFile`, `devLog`, `debug_log`): "log" with one of these in its own name.
LOG_FILE_WORDS = frozenset({"file", "dev", "debug"})
# A log call at a level (`logInfo`, `log_error`) keeps the app's log wherever it ships it: a file, or
# a log intake over HTTP (PostHog's, Datadog's).
LOG_LEVEL_WORDS = frozenset({"info", "warn", "warning", "error", "debug", "trace", "fatal", "critical"})
LOG_SINK_KINDS = frozenset({"file", "http"})
# Words of a helper that brings a search or vector index up to date with its sources, or makes sure
# it exists (`get_or_create_collection`, `ensure_index`), and those stores.
INDEX_UPKEEP_WORDS = frozenset({"sync", "resync", "reindex", "rebuild", "refresh", "ensure"})
INDEX_SETUP = ("get", "or", "create")  # `get_or_create_collection`: created once, then only read
# A helper that records what the agent's model calls cost (`_track_cost`, `log_usage`): a verb of
# `EVENT_LOG_VERBS` or "record", and one of these words.
COST_WORDS = frozenset({"cost", "costs", "usage"})
INDEX_KINDS = frozenset({"vector", "index"})

_WORD = re.compile(r"[A-Z]?[a-z]+|[0-9]+|[A-Z]+(?![a-z])")  # `token1.json`: token, 1


def is_bookkeeping(effect: Effect, helper: str) -> bool:
    """`effect` happens in the helper function `helper` (`CacheManager.set`, `_load_token`) and is
    credential or cache upkeep, or it writes a file named as such (`token.json`, `cookies.pkl`)."""
    words = {w.lower() for w in _WORD.findall(helper)}
    # A request helper is named so itself; its class's name does not make one (`GoogleAPI.save_credentials`).
    own = {w.lower() for w in _WORD.findall(helper.rpartition(".")[2])}
    if effect.kind == "file" and (is_upkeep_file(effect.target) or words & LOG_WORDS or (
            own & {"log", "logs"} and own & LOG_FILE_WORDS)):
        return True
    if effect.kind in LOG_SINK_KINDS and own & {"log"} and own & LOG_LEVEL_WORDS and not own & AUDIT_WORDS:
        return True
    if effect.kind in RUN_RECORD_KINDS and (words & RUN_RECORD_WORDS or (
            own & EVENT_LOG_VERBS and own & EVENT_WORDS and not own & AUDIT_WORDS)):
        return True
    own_words = [w.lower() for w in _WORD.findall(helper.rpartition(".")[2])]
    if effect.kind in INDEX_KINDS and (own & INDEX_UPKEEP_WORDS or tuple(own_words[:3]) == INDEX_SETUP):
        return True
    if effect.kind in RUN_RECORD_KINDS and own & (EVENT_LOG_VERBS | {"record"}) and own & COST_WORDS:
        return True
    # A helper making sure a resource exists (`ensure_no_website_table_exists`, `ensureCollection`)
    # creates it once, then finds it: setup, as `CREATE TABLE IF NOT EXISTS` is; so is the file or
    # folder one makes when missing (`ensure_file()` touching the notes file a read tool then reads).
    if "ensure" in own and (effect.method.lower().startswith("create") or effect.kind == "file"):
        return True
    if own & REQUEST_WORDS:
        return False
    upkeep = words & BOOKKEEPING_WORDS if effect.kind in LOCK_KINDS else words & (BOOKKEEPING_WORDS - LOCK_WORDS)
    return (effect.kind in BOOKKEEPING_KINDS and bool(upkeep)) or (
        effect.kind in CREDENTIAL_STORE_KINDS and bool(words & CREDENTIAL_WORDS))


def is_upkeep_file(path: str) -> bool:
    """A file whose name says it holds credentials or a cache, or a log: `token.json`, `cookies.pkl`, `app.log`."""
    if path.lower().endswith(".log"):
        return True
    name = path.replace("\\", "/").rpartition("/")[2].partition(".")[0]
    words = {w.lower() for w in _WORD.findall(name)}
    return bool(words) and bool(words & BOOKKEEPING_WORDS) and not words & REQUEST_WORDS


# A unit-of-work helper (`with get_db_session() as db:`) commits whatever its body wrote: the commit
# itself changes nothing a read left, and the body's writes are effects of their own.
TRANSACTION_SCOPES = frozenset({"contextlib.contextmanager", "contextlib.asynccontextmanager"})
# ... except an ORM session's staged changes, which only the scope's commit makes land: a body that
# calls one of these on what the scope yields (`db.add(row)`) writes through that commit.
STAGED_WRITES = frozenset({"add", "add_all", "delete", "merge", "flush", "bulk_save_objects",
                           "bulk_insert_mappings", "bulk_update_mappings"})


def is_scope_commit(effect: Effect, helper: str, decorators: tuple[str, ...]) -> bool:
    """`effect` is the commit of a transaction scope: in a `@contextmanager` helper or an `__exit__`."""
    return effect.method == "commit" and (
        bool(TRANSACTION_SCOPES.intersection(decorators)) or helper.rpartition(".")[2] in ("__exit__", "__aexit__"))


# A memoised function of no arguments (`@lru_cache def get_settings()`, FastAPI's documented settings
# getter) runs once a process: the folders, default files and tables it sets up are the app's setup,
# not the effect of whichever tool first asks for it. With arguments it runs once per argument, as a tool would.
MEMOISERS = frozenset({"functools.lru_cache", "functools.cache"})


def is_memoised_setup(decorators: tuple[str, ...], params: tuple[str, ...]) -> bool:
    """Is a function with these (resolved) decorators and parameters a once-a-process initializer?"""
    return not params and bool(MEMOISERS.intersection(decorators))


# Events whose handlers keep a client's own records: google-auth-library's OAuth2 client emits
# `tokens` when it refreshes its credentials, and saving them (`oauth2Client.on('tokens', async (t) =>
# { await db.users.update(...) })`) is not the effect of the tool whose call refreshed them.
BOOKKEEPING_EVENTS = frozenset({"tokens"})
LISTENER_METHODS = frozenset({"on", "once", "addListener", "prependListener"})


def is_bookkeeping_listener(method: str, event: object) -> bool:
    """Does `emitter.<method>(event, handler)` register a handler of a bookkeeping event?"""
    return method in LISTENER_METHODS and event in BOOKKEEPING_EVENTS
