"""Databases: SQL that is not a read, ORM and document-store writes, commits.

`check="sql"` reads the statement: literal SQL (through bindings, f-strings and `text("...")`),
SQLAlchemy Core in both spellings (`insert(orders)...` and `orders.insert()...`), and for a bare
`.execute()` the Supabase builder chain (`client.table("t").insert({...}).execute()`).
"""

from __future__ import annotations

from .rows import Row, anys, methods

_BIGQUERY = "google.cloud.bigquery.Client google.cloud.bigquery.client.Client"

ROWS: tuple[Row, ...] = (
    anys("execute executemany executescript exec_driver_sql", "SQL {method}", None, "sql", "sql"),
    anys("commit", "a database commit", None, "sql"),
    Row("any", "", ("create", "bulk_create", "update_or_create", "get_or_create", "update", "bulk_update", "delete"),
        "an ORM write (Django)", None, "manager", kind="orm"),
    anys("insert_one insert_many update_one update_many replace_one delete_one delete_many bulk_write "
         "find_one_and_update find_one_and_delete find_one_and_replace", "a MongoDB write", None, "nosql"),
    # BigQuery: a DML or DDL query job (or one whose SQL cannot be read), and the table writes of its client.
    *methods(_BIGQUERY, "query", "SQL {method}", True, "sql", "sql_job"),
    *methods(_BIGQUERY, "insert_rows insert_rows_json insert_rows_from_dataframe load_table_from_file "
             "load_table_from_uri load_table_from_json load_table_from_dataframe create_table create_dataset "
             "delete_table delete_dataset update_table update_dataset copy_table", "{name} (BigQuery)", True, "sql"),
)

SQL_WRITE = ("INSERT", "UPDATE", "DELETE", "REPLACE", "MERGE", "UPSERT", "CREATE", "DROP", "ALTER", "TRUNCATE",
             "GRANT", "REVOKE")
# SQLAlchemy Core statement constructors, as functions (`sqlalchemy.insert(t)`) or as methods of a
# table (`t.insert()`); passed to `execute` they write.
CORE_WRITES = frozenset({"insert", "update", "delete"})
# Supabase query builder: `client.table("t")` (or `.from_("t")`) then a write verb, then `.execute()`.
SUPABASE_TABLES = frozenset({"table", "from_"})
SUPABASE_WRITES = frozenset({"insert", "update", "upsert", "delete"})
