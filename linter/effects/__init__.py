"""Which calls write to the outside world, and which calls can fail: library knowledge as data.

A side effect is what cannot be taken back once it lands: a mutating HTTP request, an email, a
subprocess, a file write, SQL that is not a read, an ORM write or commit, a payment, a message, an
upload, a ticket, a memory-store write, a click or keystroke. Reads are not side effects (GET,
SELECT, opening a file for reading, a POST to a search API, `git status`), and neither is a
function whose body only returns text, whatever it is called.

The knowledge is data, one module per library family (`http`, `mail`, `processes`, `files`,
`databases`, `payments`, `messaging`, `cloud`, `azure`, `google_apis`, `ticketing`, `memory`, `desktop`,
`office`, `stores`, `browser`, `media`), each exporting `ROWS`; `table.TABLE` joins them. Rows
match in four ways:

* `call`: the callee's dotted name after imports are resolved (`requests.post`, `os.remove`);
* `family`: a dotted prefix plus the final name (`stripe.` + `create` covers `stripe.Charge.create`);
* `method`: a method called on an object a known constructor built, followed through local
  assignments, `with ... as name`, `self.x = ...` in the class, module-level names and call chains
  (`client = httpx.AsyncClient(); client.post(...)`, `boto3.client("s3").put_object(...)`);
* `any`: a method name distinctive enough to count on any receiver (`cursor.execute("INSERT ...")`,
  `session.commit()`, `coll.insert_one(...)`, `p.write_text(...)`), usually with an argument check.

A row's argument check (`checks`) reads what the call does from its arguments; the narrow
exemptions for calls that only read or only touch a scratch area are in `readonly`. Whether an
effect *blocks* (sync I/O that holds its thread or the event loop) comes from the row; rows that
serve both sync and async drivers (`execute`, `commit`) decide by whether the call is awaited.
Names are resolved through a `Resolver` (`value`, `constructor`, `text`): `siblint.model.semantic.Scope`.

`incidental.is_bookkeeping` says which effects of a shared helper are credential or cache upkeep
(a refreshed token file, a token POST, a cache folder) rather than the tool's own effect.

`failing.can_fail` answers the other question the policy analysis asks: does a call do I/O that
can raise (a side effect, or a read of a network, file, database, SDK or chat-model client)?

User configuration (`[tool.siblint]`): `extend-side-effect-calls` and `pure-calls` are lists of
dotted names, compared with the resolved callee (`myapp.billing.charge`) and, for a method on a
known object, with `<constructor>.<method>` (`mylib.Client.send`). A name ending in `.*` matches
every name under that prefix (`mylib.*`). `pure-calls` wins over the table and over
`extend-side-effect-calls`; a pure project function is not followed into either.
"""

from __future__ import annotations

from .classify import Effect, effect_of, is_pure, names_of
from .failing import can_fail, caught_by_its_library
from .incidental import STAGED_WRITES, is_bookkeeping, is_bookkeeping_listener, is_memoised_setup, is_scope_commit
from .resolve import Resolver, method_name, receiver_of
from .rows import MUTATING_HTTP, Row
from .table import CONSTRUCTORS, LIBRARY_ROOTS, TABLE, in_family

__all__ = ["CONSTRUCTORS", "LIBRARY_ROOTS", "MUTATING_HTTP", "STAGED_WRITES", "TABLE", "Effect", "Resolver", "Row",
           "can_fail", "caught_by_its_library", "effect_of", "in_family", "is_bookkeeping", "is_bookkeeping_listener", "is_memoised_setup", "is_pure", "is_scope_commit", "method_name", "names_of", "receiver_of"]
