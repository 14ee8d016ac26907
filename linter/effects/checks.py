"""Argument checks: whether a call that matches a row performs the effect, read from its arguments
(the HTTP method and URL, the file mode, the SQL statement, the command), with what it targets."""

from __future__ import annotations

import re
from typing import Callable

from ..syntax.facts import Attr, Call, Const, Either, FString, Item, Mapping, Ref, Seq, Starred, Value
from . import cloud, databases, files, google_apis, http, mcp, stores
from .incidental import is_upkeep_file
from .readonly import in_memory, in_scratch, read_only_command, reads_only
from .resolve import Resolver, method_name, receiver_of
from .rows import MUTATING_HTTP, Found, Row
from .table import LIBRARY_ROOTS


def shown_name(call: Call) -> str:
    """The call as a finding names it: the resolved name for a library, else the source text."""
    func = call.func
    if isinstance(func, Ref):
        return func.name if func.name.split(".")[0] in LIBRARY_ROOTS else func.text
    return method_name(func)


def describe(row: Row, call: Call, method: str = "", target: str = "") -> Found:
    verb = method or method_name(call.func)
    return Found(row.what.format(method=method, name=shown_name(call)), verb, target)


def _short_url(text: str) -> str:
    if not text.startswith(("http://", "https://")):
        return ""
    return text if len(text) <= 48 else text[:47] + "…"


def _lib(row: Row) -> str:
    return row.what.split(" via ", 1)[1]


def check_http(row: Row, call: Call, r: Resolver) -> Found | None:
    if row.method:
        method, url_arg = row.method, call.arg(0, "url")
    else:
        given = call.arg(0, "method")
        url_arg = call.arg(1, "url")
        literal = r.text(given)
        if given is None or (literal is not None and literal.upper() not in MUTATING_HTTP):
            return None
        method = literal.upper() if literal is not None else ""  # "": chosen at run time, may mutate
    return _http_found(row, method, url_text(url_arg, r), call, r)


# Reads of the environment whose second argument is the value used when the variable is unset.
_ENV_READERS = frozenset({"os.getenv", "os.environ.get", "Deno.env.get", "Bun.env.get"})
_ENV_OBJECTS = ("os.environ.", "process.env.", "import.meta.env.", "Bun.env.", "Deno.env.")  # `process.env.HA_URL`


def url_text(value: Value | None, r: Resolver, depth: int = 0) -> str:
    """The literal URL: an f-string or a `+` concatenation with the parts that can be read filled in
    (`f"{API}{path}"` on a call path that passes `path="/freeBusy"`, `BASE + "/search"`), or the
    default of `os.getenv("URL", "https://...")`, else `$URL`, the variable's name."""
    if isinstance(value, Ref) and depth < 4:
        bound = r.value(value.text)
        if isinstance(bound, (FString, Seq)):
            return url_text(bound, r, depth + 1)
    if isinstance(value, Seq) and value.items and depth < 4 and all(isinstance(i, Starred) for i in value.items):
        # `"https://api.kraken.com" + urlpath`: the collector keeps `a + b` as its parts.
        return "".join(r.text(i.value) or url_text(i.value, r, depth + 1) or "{}"
                       for i in value.items if isinstance(i, Starred))
    if isinstance(value, FString) and value.values and value.text.count("{}") == len(value.values):
        parts = value.text.split("{}")
        filled = [parts[0]]
        for inner, rest in zip(value.values, parts[1:]):
            filled += [r.text(inner) or url_text(inner, r, depth + 1) or "{}", rest]
        return "".join(filled)
    text = r.text(value)
    if text is not None:
        return text
    if isinstance(value, Ref):
        value = r.value(value.text) or value
    if isinstance(value, Call) and value.callee in _ENV_READERS:
        # The default, else the variable's name, which says what the endpoint does as a path would
        # (`os.getenv("MOTOR_QUOTE_API_URL")` is a quote: a read; `SAVE_QUOTE_URL` a write).
        name = r.text(value.arg(0, "key"))
        return r.text(value.arg(1, "default")) or (f"${name}" if name else "")
    name = value.name if isinstance(value, Ref) else ""
    for prefix in _ENV_OBJECTS if name else ():
        if name.startswith(prefix) and "." not in name[len(prefix):]:
            return "$" + name[len(prefix):]
    if isinstance(value, Either) and depth < 4:  # `Deno.env.get("HA_URL") || "http://ha.local:8123"`
        return next((found for option in reversed(value.options) if (found := url_text(option, r, depth + 1))), "")
    return ""


_WRITE_MODE = re.compile(r"[wax+]")


def _path_text(value: Value | None, r: Resolver) -> str:
    """The path's text; for a path read at run time, the name it is read from when that name says it
    holds credentials or a cache (`ctx.deps.calendar_token_path`), which marks it as upkeep."""
    if isinstance(value, Call) and value.callee in files.PATH_BUILDERS and value.args:
        value = value.args[0]
    text = r.text(value)
    if text is None and isinstance(value, Ref) and is_upkeep_file(value.text.rpartition(".")[2]):
        return value.text.rpartition(".")[2]
    return text or ""


def check_open(row: Row, call: Call, r: Resolver) -> Found | None:
    # `open(file, mode)`; `Path(...).open(mode)` takes the mode first.
    index = 0 if row.match == "method" else 1
    if not any(_WRITE_MODE.search(mode) for mode in _texts(call.arg(index, "mode"), r)):
        return None  # default "r", or a mode we cannot read: a read as far as we can tell
    path = receiver_of(call.func) if row.match == "method" else call.arg(0, "file")
    if in_scratch(path, r) or _fills_a_cache(path, r):
        return None
    return describe(row, call, target=_path_text(path, r))


_EXISTS = frozenset({"os.path.exists", "os.path.isfile", "fs.existsSync"})
_READS = frozenset({"open", "builtins.open", "fs.readFileSync", "fs/promises.readFile", "fs.promises.readFile"})
_READ_METHODS = frozenset({"read_text", "read_bytes"})  # `p.read_text()` of a pathlib path


def _fills_a_cache(path: Value | None, r: Resolver) -> bool:
    """A file its function reads back when it exists and answers from (`if os.path.exists(p): data =
    json.load(open(p)) else: data = fetch(); json.dump(data, open(p, "w"))`, then `return data[key]`;
    `p.exists()` / `p.read_text()` / `p.write_text(...)`, Node's `existsSync` / `readFileSync` /
    `writeFileSync`): a cache of what it fetched, which the next call reads instead; writing it
    changes nothing a caller sees. A function that returns nothing it read (`updateEnv(key, value)`
    rewriting `.env`, a task log appended to) edits the file."""
    fn = getattr(r, "fn", None)
    facts = getattr(r, "facts", None)
    if fn is None or facts is None or not isinstance(path, Ref) or _chosen_by_caller(path, r, fn.params):
        return False  # a file the caller names (`file_str_replace(filepath, ...)`) is edited, not cached

    def names_it(value: Value | None) -> bool:
        return isinstance(value, Ref) and value.text == path.text

    def reads_it(c: Call) -> bool:
        return c.callee in _READS and names_it(c.arg(0, None)) and not any(
            _WRITE_MODE.search(m) for m in _texts(c.arg(1, "mode"), r)) \
            or method_name(c.func) in _READ_METHODS and names_it(receiver_of(c.func))

    calls = [site.call for site in fn.calls]
    tested = any(c.callee in _EXISTS and names_it(c.arg(0, None)) or
                 method_name(c.func) == "exists" and names_it(receiver_of(c.func)) for c in calls)
    if not tested or not any(reads_it(c) for c in calls):
        return False
    # The names holding what was read (`raw = readFileSync(p)`, `data = JSON.parse(raw)`, `data =
    # json.load(f)` of `with open(p) as f`; that name's last `with` may be the write's, so any mode).
    held = {name for name, value in fn.with_bindings.items()
            if isinstance(value, Call) and value.callee in _READS and names_it(value.arg(0, None))}
    bound = [(a.target, a.value) for a in facts.assignments_in(fn.name)]
    for _ in range(3):
        held |= {name for name, value in bound if _carries(value, reads_it, held)}
    return any(_carries(value, reads_it, held) for value in fn.return_values)


def _carries(value: Value | None, reads_it: Callable[[Call], bool], names: set[str], depth: int = 0) -> bool:
    """Does `value` hold a read `reads_it` accepts, or one of `names`, anywhere inside it?"""
    if value is None or depth > 8:
        return False
    if isinstance(value, Ref):
        return value.text.partition(".")[0] in names
    if isinstance(value, Call):
        return reads_it(value) or any(_carries(v, reads_it, names, depth + 1)
                                      for v in (value.func, *value.args, *(v for _, v in value.kwargs)))
    parts: tuple[Value | None, ...] = ()
    if isinstance(value, Attr):
        parts = (value.receiver,)
    elif isinstance(value, Item):
        parts = (value.container,)
    elif isinstance(value, (Seq, FString)):
        parts = value.items if isinstance(value, Seq) else value.values
    elif isinstance(value, Mapping):
        parts = tuple(v for _, v in value.items)
    elif isinstance(value, Either):
        parts = value.options
    return any(_carries(v, reads_it, names, depth + 1) for v in parts)


def _chosen_by_caller(value: Value | None, r: Resolver, params: tuple[str, ...], depth: int = 0) -> bool:
    """Is any part of the path `value` a parameter of its function (`Path(filepath)`)?"""
    if value is None or depth > 6:
        return False
    if isinstance(value, Ref):
        head = value.text.partition(".")[0]
        return head in params or _chosen_by_caller(r.value(value.text), r, params, depth + 1)
    if isinstance(value, Call):
        return any(_chosen_by_caller(v, r, params, depth + 1) for v in (*value.args, *(v for _, v in value.kwargs)))
    if isinstance(value, FString):
        return any(_chosen_by_caller(v, r, params, depth + 1) for v in value.values)
    return False


def _texts(value: Value | None, r: Resolver) -> list[str]:
    """The literal texts `value` may hold: its one text, or each option of `"a" if append else "w"`."""
    text = r.text(value)
    if text is not None:
        return [text]
    chosen = r.value(value.text) if isinstance(value, Ref) else value
    options = chosen.options if isinstance(chosen, Either) else ()
    return [t for option in options if (t := r.text(option)) is not None]


def check_archive(row: Row, call: Call, r: Resolver) -> Found | None:
    """`ZipFile(file, mode)` / `tarfile.open(name, mode, fileobj)` in a write mode, onto a path
    outside a scratch area; an archive built in memory (`io.BytesIO`) writes no file."""
    if not any(_WRITE_MODE.search(mode) for mode in _texts(call.arg(1, "mode"), r)):
        return None
    target = call.arg(0, "file" if row.name == "zipfile.ZipFile" else "name") or call.kwarg("fileobj")
    if target is None or in_memory(target, r) or in_scratch(target, r):
        return None
    return describe(row, call, target=_path_text(target, r))


def check_signal(row: Row, call: Call, r: Resolver) -> Found | None:
    """`os.kill(pid, sig)` / `process.kill(pid, sig)`, unless the signal is 0 (that only asks whether
    the process exists) or the pid is a process handle's own (`os.killpg(os.getpgid(proc.pid), ...)`,
    `child.pid`): stopping a child the tool started is cleanup, and its start is judged as the effect."""
    signal = call.arg(1, "signal")
    if isinstance(signal, Const) and signal.value == 0 or _reads_a_pid_attribute(call.arg(0, "pid")):
        return None
    return describe(row, call)


def _reads_a_pid_attribute(value: Value | None) -> bool:
    if isinstance(value, Ref):
        return value.text.endswith(".pid")
    if isinstance(value, Attr):
        return value.attr == "pid"
    return isinstance(value, Call) and any(_reads_a_pid_attribute(a) for a in value.args)


def check_path(row: Row, call: Call, r: Resolver) -> Found | None:
    """A file change, unless every path it changes lies in a scratch area."""
    if row.match == "call":
        paths = [call.arg(i, None) for i in files.PATH_ARGS.get(row.name, (0,))]
    else:  # `tmp.replace(dest)`, `p.rename(dest)`: the receiver and where it lands
        moved = method_name(call.func) in files.MOVES
        if moved and len(call.args) > 1:
            return None  # `s.replace("/", "_")` of a name typed `str | Path`: text, not a move
        paths = [receiver_of(call.func), *([call.arg(0, "target")] if moved else [])]
    if paths and all(in_scratch(p, r) or _fills_a_cache(p, r) for p in paths):
        return None
    return describe(row, call, target=_path_text(paths[-1], r) if paths else "")


_SAVE_TARGETS = ("fp", "filename", "fname", "path", "path_or_buf", "excel_writer", "file", "target", "out_f", "name")


def _save_target(call: Call) -> Value | None:
    target = call.arg(0, None)
    for keyword in _SAVE_TARGETS:
        target = target or call.kwarg(keyword)
    return target


def _save(row: Row, call: Call, r: Resolver, needs_target: bool) -> Found | None:
    target = _save_target(call)
    if target is None:
        return None if needs_target else describe(row, call)  # `wb.save()` writes the file it opened
    if in_memory(target, r) or in_scratch(target, r):
        return None
    return describe(row, call, target=_path_text(target, r))


_FILE_NAME = re.compile(r"^[^\s:]*\.[A-Za-z0-9]{1,5}$")  # "out.png", "{}/hero.png": a file name, no URL


def names_a_file(value: Value | None, r: Resolver) -> bool:
    """`value` is a filesystem path as the source spells it: a pathlib path (also joined with `/`),
    `os.path.join(...)`, `str()` of one, or a literal file name with an extension."""
    if isinstance(value, Call) and value.callee in files.PATH_AS_TEXT and value.args:
        value = value.args[0]
    if r.constructor(value) in files.PATH_VALUES:
        return True
    text = r.text(value)
    return text is not None and bool(_FILE_NAME.match(text))


def check_save_path(row: Row, call: Call, r: Resolver) -> Found | None:
    """`.save(target)` on an object of any library: a file write when `target` names a file."""
    target = _save_target(call)
    return _save(row, call, r, needs_target=True) if names_a_file(target, r) else None


def check_save(row: Row, call: Call, r: Resolver) -> Found | None:
    return _save(row, call, r, needs_target=False)


def check_save_to(row: Row, call: Call, r: Resolver) -> Found | None:
    return _save(row, call, r, needs_target=True)


def check_built(row: Row, call: Call, r: Resolver) -> Found | None:
    """`doc.build(story)` of `doc = SimpleDocTemplate(target)`: the file the document was made on,
    unless that is an in-memory buffer or lies in a scratch area."""
    receiver = receiver_of(call.func)
    made = r.value(receiver.text) if isinstance(receiver, Ref) else receiver
    target = made.arg(0, "filename") if isinstance(made, Call) else None
    if target is not None and (in_memory(target, r) or in_scratch(target, r)):
        return None
    return describe(row, call, target=_path_text(target, r) if target is not None else "")


def check_process(row: Row, call: Call, r: Resolver) -> Found | None:
    return None if read_only_command(call, r) else describe(row, call)


def check_dynamic_code(row: Row, call: Call, r: Resolver) -> Found | None:
    """`exec(code)` of text chosen at run time; `exec("x = 1")` runs only what the source shows."""
    source = call.arg(0, "source")
    if source is None or r.text(source) is not None:
        return None
    return describe(row, call)


def check_script(row: Row, call: Call, r: Resolver) -> Found | None:
    """`page.evaluate(script)` of text chosen at run time (the model's); a function the source
    writes (`page.evaluate(() => document.title)`) or literal text runs only what the source shows."""
    script = call.arg(0, None)
    if script is None or (r.text(script) is not None and not isinstance(script, FString)):
        return None
    functions = getattr(getattr(r, "facts", None), "functions", {})
    if isinstance(script, Ref) and any(n == script.text or n.endswith("." + script.text) for n in functions):
        return None
    return describe(row, call)


_SQL_WORD = re.compile(r"[A-Za-z]+")
_SQL_TABLE = re.compile(r"\b(?:INTO|UPDATE|FROM|TABLE|MERGE)\s+([A-Za-z_][\w.]*)", re.I)


def check_sql(row: Row, call: Call, r: Resolver) -> Found | None:
    first = call.arg(0, None)
    if first is None:
        if method_name(call.func) != "execute":
            return None
        return _supabase(call, r) or _google_request(call, r)  # builder chains end in a bare `.execute()`
    bound = r.value(first.text) if isinstance(first, Ref) else None
    core = _core_write(first) or _core_write(bound)
    if core is not None:
        return Found(f"SQL {core[0]}", core[0], core[1])
    sql = r.text(first)
    if not sql:
        return None  # a statement we cannot read: not assumed to write
    if http.graphql_mutation(sql):  # gql's `client.execute(gql("mutation ..."))`
        return _mutation(call)
    words = _sql_words(sql)
    if not words:
        return None
    verb = words[0]
    if verb == "WITH":  # `WITH x AS (...) DELETE ...`
        verb = next((w for w in words[1:] if w in ("INSERT", "UPDATE", "DELETE", "MERGE")), "")
    if verb not in databases.SQL_WRITE:
        return None
    if _schema_setup(words):
        return None  # idempotent schema setup, as directory creation is (`CREATE TABLE IF NOT EXISTS`)
    table = _SQL_TABLE.search(sql)
    return Found(f"SQL {verb}", verb, table.group(1) if table else "")


def _schema_setup(words: list[str]) -> bool:
    """`CREATE TABLE IF NOT EXISTS ...`: changes nothing once done."""
    return words[:1] == ["CREATE"] and "IF NOT EXISTS" in " ".join(words[:6])


def _sql_words(sql: str) -> list[str]:
    """The upper-cased words of a statement, its comments dropped."""
    return [w.upper() for w in _SQL_WORD.findall(re.sub(r"--[^\n]*|/\*.*?\*/", " ", sql, flags=re.S))]


def check_sql_job(row: Row, call: Call, r: Resolver) -> Found | None:
    """A query job of a warehouse that bills and runs it to completion server-side (BigQuery): a
    write as `check_sql` reads it, and also a statement it cannot read (model-written SQL, such as
    `CREATE MODEL`): it may write, and cancelling the caller does not stop it."""
    found = check_sql(row, call, r)
    if found is not None:
        return found
    first = call.arg(0, "query")
    if first is not None and r.text(first) is None and not isinstance(first, Const):
        return Found("a query job with SQL siblint cannot read (it may write)", "query", "")
    return None


def _core_write(stmt: Value | None) -> tuple[str, str] | None:
    """(verb, table) of a SQLAlchemy Core write: `insert(orders).values(...)` or `orders.update().where(...)`."""
    for _ in range(8):
        if not isinstance(stmt, Call):
            return None
        verb = stmt.callee.rpartition(".")[2] if stmt.callee else method_name(stmt.func)
        if verb in databases.CORE_WRITES:
            if stmt.callee.startswith("sqlalchemy."):
                table = stmt.args[0] if stmt.args else None
                return verb.upper(), table.text if isinstance(table, Ref) else ""
            receiver = receiver_of(stmt.func)
            if receiver is not None and not stmt.args:  # `orders.update()`: a Table's method takes no arguments
                return verb.upper(), receiver.text if isinstance(receiver, Ref) else ""
        stmt = receiver_of(stmt.func)
    return None


def _supabase(call: Call, r: Resolver) -> Found | None:
    """`client.table("orders").update({...}).eq("id", 1).execute()`: the builder chain names a write."""
    verb = ""
    value = receiver_of(call.func)
    for _ in range(12):
        if not isinstance(value, Call):
            return None
        name = method_name(value.func)
        if name in databases.SUPABASE_TABLES and value.args:
            if not verb:
                return None
            table = r.text(value.args[0]) or ""
            on = f" on {table}" if table else ""
            return Found(f"Supabase {verb.upper()}{on}", verb.upper(), table)
        if name in databases.SUPABASE_WRITES:
            verb = name
        value = receiver_of(value.func)
    return None


def _google_request(call: Call, r: Resolver) -> Found | None:
    """`service.events().insert(calendarId=..., body=...).execute()` on a service the resolver
    cannot see built: Google API methods take keyword arguments only, resources none at all."""
    request = _request_of(call, r)
    if not isinstance(request, Call) or request.args or not request.kwargs:
        return None
    verb = method_name(request.func)
    resource = receiver_of(request.func)
    if not google_apis.is_write(verb) or not isinstance(resource, Call) or resource.args or resource.kwargs:
        return None
    if receiver_of(resource.func) is None:
        return None
    noun = method_name(resource.func)
    return Found(f"{noun}.{verb} (Google API)", verb, noun, kind="google_api")


def check_urlopen(row: Row, call: Call, r: Resolver) -> Found | None:
    target = call.arg(0, "url")
    if isinstance(target, Ref):
        target = r.value(target.text) or target
    method = ""
    if call.arg(1, "data") is not None:
        method = "POST"
    if isinstance(target, Call) and target.callee in ("urllib.request.Request",):
        given = (r.text(target.arg(3, "method")) or "").upper()
        method = given or ("POST" if target.arg(1, "data") is not None else method)
    if method not in MUTATING_HTTP:
        return None
    full = url_text(target.arg(0, "url") if isinstance(target, Call) else target, r)
    if method == "POST" and reads_only(full, call, r):
        return None
    url = _short_url(full)
    return Found(f"{method} to {url} via urllib" if url else f"{method} via urllib", method, full)


def check_manager(row: Row, call: Call, r: Resolver) -> Found | None:
    """Django manager writes: `Order.objects.create(...)`, `Order.objects.filter(...).update(...)`."""
    value: Value | None = receiver_of(call.func)
    for _ in range(8):
        if isinstance(value, Ref):
            if value.text.endswith(".objects") or ".objects." in value.text:
                return describe(row, call, target=value.text.partition(".objects")[0])
            return None
        if isinstance(value, Call):
            value = receiver_of(value.func)
        elif isinstance(value, Attr):
            if value.attr == "objects":
                return describe(row, call)
            value = value.receiver
        else:
            return None
    return None


def _request_of(call: Call, r: Resolver) -> Value | None:
    """The request `.execute()` runs: its receiver, or the request a name holds (`request =
    youtube.videos().insert(...)`; `request.execute()`)."""
    request = receiver_of(call.func)
    return r.value(request.text) if isinstance(request, Ref) and "." not in request.text else request


def check_google_api(row: Row, call: Call, r: Resolver) -> Found | None:
    """`<resource>.<verb>(...).execute()`: a write when the verb mutates (`insert`, `send`), not `get`/`list`."""
    request = _request_of(call, r)
    if not isinstance(request, Call):
        return None
    verb = method_name(request.func)
    if not google_apis.is_write(verb):
        return None
    resource = receiver_of(request.func)
    noun = method_name(resource.func) if isinstance(resource, Call) else ""
    return Found(row.what.format(name=f"{noun}.{verb}" if noun else verb), verb, noun)


def _js_method(call: Call, r: Resolver) -> tuple[str | None, bool]:
    """(HTTP method, whether the options say) of a JS request: `{ method }` in the options object,
    inline or bound to a name (`fetch(url, opts)`), or in an object it spreads (`{ ...options,
    signal }` in a client's `request(path, options)`, called with `{ method: "POST" }`)."""
    given = call.kwarg("method")
    for arg in call.args if given is None else ():
        given = _js_key(arg, "method", r) or given
    if given is None:
        return "GET", False
    literal = r.text(given)
    return (literal.upper() if literal is not None else None), True


def _js_key(value: Value | None, key: str, r: Resolver, depth: int = 0) -> Value | None:
    """The value an options object gives `key`: written in it, or in an object it spreads, through
    names bound to objects (`{ ...requestOptions, onMessage }`, and a helper's `{ ...fetchOptions }`
    of `const { onMessage, ...fetchOptions } = options`); the last one written wins."""
    if depth > 8:
        return None
    if isinstance(value, Ref):
        bound = r.binding(value.text)
        if bound is not None and bound[0].name == r.name:
            bound = (r, bound[1])  # a name of this function: read on with `r`, its parameters bound
        bound = bound or r.passed(value.text)
        return _js_key(bound[1], key, bound[0], depth + 1) if bound is not None else None
    found = None
    for k, item in value.items if isinstance(value, Mapping) else ():
        if k is None:
            found = _js_key(item, key, r, depth + 1) or found
        elif isinstance(k, Const) and k.value == key:
            found = item
    return found


def _js_object(value: Value | None, r: Resolver) -> Mapping | None:
    """The object literal `value` is, or the name it is bound to holds."""
    if isinstance(value, Ref):
        value = r.value(value.text)
    return value if isinstance(value, Mapping) else None


def check_js_http(row: Row, call: Call, r: Resolver) -> Found | None:
    """`axios.post(url, ...)`: the method is the row's, the URL the first argument."""
    return _http_found(row, row.method, url_text(call.arg(0, None), r), call, r)


def check_js_request(row: Row, call: Call, r: Resolver) -> Found | None:
    """`fetch(url, { method })`, `axios({ method, url })`, `undici.request(url, { method })`."""
    method, _ = _js_method(call, r)
    if method is not None and method not in MUTATING_HTTP:
        return None
    url = url_text(call.arg(0, None), r) or url_text(call.kwarg("url"), r)
    return _http_found(row, method or "", url, call, r)


def _http_found(row: Row, method: str, full: str, call: Call, r: Resolver) -> Found | None:
    """A request with `method` ("" = chosen at run time) to the URL `full`, unless a POST that only reads."""
    if method == "POST" and reads_only(full, call, r):
        return None
    url = _short_url(full)
    to = f" to {url}" if url else ""
    if not method:
        return Found(f"an HTTP request with a method chosen at run time (may mutate){to} via {_lib(row)}", "", full)
    return Found(f"{method}{to} via {_lib(row)}", method, full)


# AWS SDK v3 commands that change something: `client.send(new PutObjectCommand({...}))`.
_AWS_WRITE = re.compile(r"^(Put|Delete|Create|Update|Send|Publish|Start|Invoke|Write|Copy|Upload|Batch|Transact|"
                        r"Complete|Restore|Tag|Untag)\w*Command$")


def check_aws_command(row: Row, call: Call, r: Resolver) -> Found | None:
    command = call.arg(0, None)
    if isinstance(command, Ref):
        command = r.value(command.text) or command
    name = command.callee.rpartition(".")[2] if isinstance(command, Call) else ""
    if not _AWS_WRITE.match(name):
        return None
    return Found(f"{name} (AWS)", name, "")


_CYPHER_WRITES = tuple((verb, re.compile(pattern, re.I)) for verb, pattern in stores.CYPHER_WRITES)


def check_cypher(row: Row, call: Call, r: Resolver) -> Found | None:
    """`session.run("MERGE (n:Person {id: $id}) ...")`: a write clause in Cypher siblint can read."""
    query = r.text(call.arg(0, "query"))
    if not query:
        return None
    for verb, pattern in _CYPHER_WRITES:
        if pattern.search(query):
            return Found(f"Cypher {verb}", verb, "")
    return None


def check_boto3(row: Row, call: Call, r: Resolver) -> Found | None:
    """boto3 writes, less the calls whose arguments say they only read: a Lambda `invoke` in
    `DryRun` mode, and a query job whose SQL is not a write."""
    verb = method_name(call.func)
    if verb == "invoke" and (r.text(call.kwarg("InvocationType")) or "") == "DryRun":
        return None
    if verb in cloud.BOTO3_QUERY_JOBS:
        sql = check_sql(row, Call(call.func, (call.kwarg("QueryString") or Const(None, call.loc),), (), call.loc), r)
        return describe(row, call, target=sql.target) if sql is not None else None
    return describe(row, call)


def check_odoo(row: Row, call: Call, r: Resolver) -> Found | None:
    """`execute_kw(db, uid, password, model, method, ...)`: the method named, unless it reads."""
    method, model = r.text(call.arg(4, None)), r.text(call.arg(3, None))
    if method is None or method in databases.ODOO_READS:
        return None  # a method siblint cannot read is not assumed to write, as SQL it cannot read
    return Found(f"an Odoo {method} of {model}" if model else f"an Odoo {method}", method, model or "")


def check_git(row: Row, call: Call, r: Resolver) -> Found | None:
    """GitPython: `repo.commit(rev)` on the repository itself looks a commit up; its index's, its
    `git` command object's and a `git.Git`'s `commit` make one."""
    if method_name(call.func) == "commit":
        receiver = receiver_of(call.func)
        last = receiver.text.rpartition(".")[2] if isinstance(receiver, Ref) else getattr(receiver, "attr", "")
        if last not in ("index", "git") and r.constructor(receiver) != "git.Git":
            return None
    return describe(row, call)


def check_db_commit(row: Row, call: Call, r: Resolver) -> Found | None:
    """`conn.commit()`, unless every statement its function executes is SQL that only reads (a
    query helper committing after whatever it was given, called with a `SELECT`) or sets up a schema
    idempotently (an `init_db()` of `CREATE TABLE IF NOT EXISTS`, as `check_sql` reads it)."""
    if call.args or _only_reads_executed(r):
        return None
    return describe(row, call)


_EXECUTES = frozenset({"execute", "executemany"})


def _only_reads_executed(r: Resolver) -> bool:
    fn = getattr(r, "fn", None)
    executes = [site.call for site in fn.calls if method_name(site.call.func) in _EXECUTES] if fn is not None else []
    return bool(executes) and all(_reads_sql(c, r) for c in executes)


def _reads_sql(call: Call, r: Resolver) -> bool:
    words = _sql_words(r.text(call.arg(0, None)) or "")
    if _schema_setup(words):
        return True
    return bool(words) and words[0] in ("SELECT", "WITH", "SHOW", "EXPLAIN", "DESCRIBE", "PRAGMA") \
        and not any(w in databases.SQL_WRITE for w in words)


def check_prepared_sql(row: Row, call: Call, r: Resolver) -> Found | None:
    """`db.prepare(sql).run(...)`, or `stmt.run(...)` of `stmt = db.prepare(sql)`: the statement's SQL
    as `check_sql` reads it; `run` is the call for statements that return no rows, so one whose SQL
    siblint cannot read is taken to write."""
    statement = receiver_of(call.func)
    if isinstance(statement, Ref):
        statement = r.value(statement.text)
    if not isinstance(statement, Call) or method_name(statement.func) != "prepare":
        return None
    sql = r.text(statement.arg(0, None))
    if sql is None:
        return Found("a prepared SQL statement run (siblint cannot read its SQL)", "run", "")
    return check_sql(row, statement, r)


def check_prepared_sql_any(row: Row, call: Call, r: Resolver) -> Found | None:
    """`<any>.prepare(sql).run(...)` (D1's `.prepare(sql).bind(...).run()` too) on a database siblint
    cannot trace (the run's context, a parameter): a write only when the SQL it reads writes."""
    statement = receiver_of(call.func)
    if isinstance(statement, Ref):
        statement = r.value(statement.text)
    while isinstance(statement, Call) and method_name(statement.func) == "bind":
        statement = receiver_of(statement.func)
    if not isinstance(statement, Call) or method_name(statement.func) != "prepare" or r.text(statement.arg(0, None)) is None:
        return None
    return check_sql(row, statement, r)


def _mutation(call: Call) -> Found:
    return Found(f"a GraphQL mutation via {shown_name(call)}", "mutation", kind="http")


def check_graphql(row: Row, call: Call, r: Resolver) -> Found | None:
    """`client.graphql(doc)`, or the options object of Amplify's `client.graphql({ query: createProject,
    variables })` (its documents generated into `graphql/mutations.ts`)."""
    given = call.arg(0, "query")
    if isinstance(given, Mapping):
        given = given.get("query") or given.get("document")
    document = r.text(given)
    return _mutation(call) if document and http.graphql_mutation(document) else None


def check_route(row: Row, call: Call, r: Resolver) -> Found | None:
    """A request on a client of any type: a route's method (`client.request("POST /repos/...")`),
    a GraphQL mutation document, a mutating method given first (`client.request("POST", url)`) or
    in the options (`{ method }`), or one chosen at run time."""
    first = r.text(call.arg(0, None))
    route = http.ROUTE.match(first) if first else None
    if route is not None:
        method, path = route.groups()
        return Found(f"{method} {path} via {shown_name(call)}", method, path)
    if first and http.graphql_mutation(first):
        return _mutation(call)
    if first and first.upper() in MUTATING_HTTP:  # `client.request("POST", url)`, read as `requests.request`
        return check_http(row, call, r)
    method, said = _js_method(call, r)  # `octokit.request(url, { method })`
    if said and (method is None or method in MUTATING_HTTP):
        return _http_found(row, method or "", url_text(call.arg(0, "url"), r), call, r)
    return None


def check_from_table(row: Row, call: Call, r: Resolver) -> Found | None:
    """`<anything>.from('orders').insert({...})`: a write on the table the builder names."""
    receiver = receiver_of(call.func)
    if not isinstance(receiver, Call) or method_name(receiver.func) != "from":
        return None
    table = r.text(receiver.arg(0, None))
    return None if table is None else Found(row.what.format(name=shown_name(call)), method_name(call.func), table)


def check_mcp_tool(row: Row, call: Call, r: Resolver) -> Found | None:
    """An MCP server's tool called by name (`siblint.effects.mcp`): a write when its name says so."""
    name = call.arg(mcp.NAME_AT.get(method_name(call.func), 0), "name")  # Python's `call_tool(name, arguments)`
    if isinstance(name, Item) and isinstance(name.key, Const) and isinstance(name.key.value, str):
        name = name.key  # a server's name looked up by the tool's own (`names["control_device"]`)
    options = _js_object(name, r)
    if method_name(call.func) == "request":  # a raw JSON-RPC request: only `tools/call` calls a tool
        is_call = options is not None and r.text(options.get("method")) == "tools/call"
        params = _js_object(options.get("params"), r) if is_call and options is not None else None
        name = params.get("name") if params is not None else None
    elif options is not None:  # `callTool({ name, arguments })`
        name = options.get("name")
    tool = r.text(name)
    if tool is None or not mcp.writes(tool):
        return None
    return Found(row.what.format(name=shown_name(call), tool=tool), tool, tool)


CHECKS: dict[str, Callable[[Row, Call, Resolver], Found | None]] = {
    "js_http": check_js_http, "js_request": check_js_request, "aws_command": check_aws_command,
    "google_api": check_google_api, "http": check_http, "open": check_open, "sql": check_sql, "sql_job": check_sql_job,
    "urlopen": check_urlopen, "manager": check_manager, "path": check_path, "save": check_save, "save_path": check_save_path,
    "save_to": check_save_to, "built": check_built, "process": check_process, "dynamic_code": check_dynamic_code,
    "cypher": check_cypher, "boto3": check_boto3, "graphql": check_graphql, "route": check_route,
    "odoo": check_odoo, "git": check_git, "db_commit": check_db_commit, "prepared_sql": check_prepared_sql,
    "prepared_sql_any": check_prepared_sql_any,
    "mcp_tool": check_mcp_tool, "from_table": check_from_table, "signal": check_signal,
    "script": check_script, "archive": check_archive,
}
