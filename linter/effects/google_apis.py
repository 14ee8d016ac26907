"""Google APIs through `googleapiclient`: `service.users().messages().send(...).execute()`. The
effect is `.execute()` of a request whose verb writes (`check="google_api"`); `get` and `list` read."""

from __future__ import annotations

import re

from .rows import Row, methods

ROWS: tuple[Row, ...] = (
    *methods("googleapiclient.discovery.build googleapiclient.discovery.build_from_document", "execute",
             "{name} (Google API)", True, "google_api", "google_api"),
)

WRITES = frozenset({"insert", "update", "patch", "delete", "send", "create", "modify", "trash", "untrash", "move",
                    "copy", "import_", "batchUpdate", "batchModify", "batchDelete", "append", "clear", "quickAdd",
                    "batchCreate", "emptyTrash"})
# A write verb named with its resource, as newer APIs spell them (People: `createContact`,
# `updateContact`, `batchDeleteContacts`); `searchContacts` and `batchGet` read.
_VERBS = ("create", "update", "delete", "insert", "patch", "modify", "move", "copy", "send", "import", "clear", "append")
_WRITE_PREFIX = re.compile(r"(?:%s|batch(?:%s))[A-Z]" % ("|".join(_VERBS), "|".join(v.capitalize() for v in _VERBS)))


def is_write(verb: str) -> bool:
    """Does this request verb of a Google API write?"""
    return verb in WRITES or _WRITE_PREFIX.match(verb) is not None
