"""Google APIs through `googleapiclient`: `service.users().messages().send(...).execute()`. The
effect is `.execute()` of a request whose verb writes (`check="google_api"`); `get` and `list` read.
Google Sheets through gspread: its write methods."""

from __future__ import annotations

import re

from .rows import Row, methods

ROWS: tuple[Row, ...] = (
    *methods("googleapiclient.discovery.build googleapiclient.discovery.build_from_document", "execute",
             "{name} (Google API)", True, "google_api", "google_api"),
    # gspread: `gspread.authorize(creds).open_by_key(key).worksheet(name).append_row([...])`, each a
    # Sheets API request; `get_*`, `find`, `row_values`, `acell` read.
    *methods("gspread.authorize gspread.service_account gspread.service_account_from_dict gspread.oauth "
             "gspread.oauth_from_dict gspread.Client gspread.client.Client",
             "append_row append_rows insert_row insert_rows insert_cols update update_cell update_cells update_acell "
             "update_title update_note insert_note clear_note batch_update batch_clear clear delete_rows delete_row "
             "delete_columns add_rows add_cols resize sort format batch_format merge_cells unmerge_cells add_worksheet "
             "del_worksheet duplicate_sheet create del_spreadsheet copy share remove_permission import_csv "
             "values_update values_append values_clear", "{name} (Google Sheets)", True, "google_api"),
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
