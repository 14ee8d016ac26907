"""Google APIs through `googleapiclient`: `service.users().messages().send(...).execute()`. The
effect is `.execute()` of a request whose verb writes (`check="google_api"`); `get` and `list` read."""

from __future__ import annotations

from .rows import Row, methods

ROWS: tuple[Row, ...] = (
    *methods("googleapiclient.discovery.build googleapiclient.discovery.build_from_document", "execute",
             "{name} (Google API)", True, "google_api", "google_api"),
)

WRITES = frozenset({"insert", "update", "patch", "delete", "send", "create", "modify", "trash", "untrash", "move",
                    "copy", "import_", "batchUpdate", "batchModify", "batchDelete", "append", "clear", "quickAdd",
                    "batchCreate", "emptyTrash"})
