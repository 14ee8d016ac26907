"""Databases: SQL that is not a read, ORM and document-store writes, commits.

`check="sql"` reads the statement: literal SQL (through bindings, f-strings and `text("...")`),
SQLAlchemy Core in both spellings (`insert(orders)...` and `orders.insert()...`), and for a bare
`.execute()` the Supabase builder chain (`client.table("t").insert({...}).execute()`).
"""

from __future__ import annotations

from .rows import Row, anys, methods

_BIGQUERY = "google.cloud.bigquery.Client google.cloud.bigquery.client.Client"
# ORM base classes, as a project's models name them (`siblint.model.receivers` maps a model class
# of the project to the first of these it derives from).
_ORM_SYNC_MODELS = ("peewee.Model playhouse.signals.Model mongoengine.Document mongoengine.DynamicDocument "
                    "mongoengine.document.Document django.db.models.Model django.db.models.base.Model")
_ORM_ASYNC_MODELS = "tortoise.models.Model tortoise.Model beanie.Document beanie.odm.documents.Document"
# Firestore clients (google-cloud-firestore, and firebase_admin's `firestore.client()`): a document or
# collection reference, a batch or a transaction reached from one writes with these; `get`, `stream`
# and `where` read.
_FIRESTORE = ("google.cloud.firestore.Client google.cloud.firestore_v1.Client google.cloud.firestore_v1.client.Client "
              "firebase_admin.firestore.client")
_FIRESTORE_ASYNC = "google.cloud.firestore.AsyncClient google.cloud.firestore_v1.AsyncClient"
_FIRESTORE_WRITES = "set update delete add create"

ROWS: tuple[Row, ...] = (
    # Appwrite's Python SDK: `Databases(client).create_document(...)`; `get_*`/`list_*` read.
    *methods(" ".join(f"appwrite.services.{m}.{c}" for m, c in (("databases", "Databases"), ("tables_db", "TablesDB"),
                                                                ("storage", "Storage"), ("users", "Users"),
                                                                ("teams", "Teams"), ("messaging", "Messaging"))),
             "create* update* upsert* delete* increment* decrement*", "{name} (Appwrite write)", True, "nosql"),
    anys("execute executemany executescript exec_driver_sql", "SQL {method}", None, "sql", "sql"),
    # `conn.commit()`; a commit given a positional argument is another library's (GitPython's
    # `repo.commit(rev)` looks a commit up, `repo.index.commit(message)` is a git commit).
    anys("commit", "a database commit", None, "sql", "db_commit"),
    Row("any", "", ("create", "bulk_create", "update_or_create", "get_or_create", "update", "bulk_update", "delete"),
        "an ORM write (Django)", None, "manager", kind="orm"),
    anys("insert_one insert_many update_one update_many replace_one delete_one delete_many bulk_write "
         "find_one_and_update find_one_and_delete find_one_and_replace", "a MongoDB write", None, "nosql"),
    # Model classes of an ORM whose own methods write (the project's `class Fact(BaseModel)` under
    # `peewee.Model`): `Fact.create(...)`, `Fact.delete().where(...)`, `fact.save()`.
    *methods(_ORM_SYNC_MODELS, "create insert insert_many insert_from replace replace_many update delete delete_by_id "
             "save delete_instance bulk_create bulk_update get_or_create modify update_one", "an ORM write ({name})",
             True, "orm"),
    *methods(_ORM_ASYNC_MODELS, "create insert insert_one insert_many save replace delete update set upsert "
             "bulk_create bulk_update get_or_create update_or_create", "an ORM write ({name})", None, "orm"),
    # PocketBase: `pb.collection("chores").create({...})`; get_list, get_one and the auth calls read.
    *methods("pocketbase.PocketBase pocketbase.Client pocketbase.client.Client", "create update delete",
             "{name} (PocketBase write)", True, "nosql"),
    # supabase-py's admin auth and storage: `client.auth.admin.create_user({...})`,
    # `client.storage.from_("docs").upload(path, data)`; table writes are the builder chain (`_supabase`).
    *methods("supabase.create_client supabase.Client", "create_user update_user_by_id delete_user invite_user_by_email "
             "sign_up upload remove move", "{name} (Supabase)", True, "sql"),
    *methods("supabase.acreate_client supabase.AsyncClient", "create_user update_user_by_id delete_user "
             "invite_user_by_email sign_up upload remove move", "{name} (Supabase)", False, "sql"),
    *methods(_FIRESTORE, _FIRESTORE_WRITES, "{name} (Firestore write)", True, "nosql"),
    *methods(_FIRESTORE_ASYNC, _FIRESTORE_WRITES, "{name} (Firestore write)", None, "nosql"),
    # Odoo's external API: `models.execute_kw(db, uid, password, "sale.order", "create", [vals])`
    # runs the method its fifth argument names, on any client (xmlrpc, odoo_api, odoorpc's `execute_kw`).
    anys("execute_kw", "an Odoo {method}", True, "orm", "odoo"),
    *methods("xmlrpc.client.ServerProxy", "execute execute_kw", "an Odoo {method}", True, "orm", "odoo"),
    # BigQuery: a DML or DDL query job (or one whose SQL cannot be read), and the table writes of its client.
    *methods(_BIGQUERY, "query", "SQL {method}", True, "sql", "sql_job"),
    *methods(_BIGQUERY, "insert_rows insert_rows_json insert_rows_from_dataframe load_table_from_file "
             "load_table_from_uri load_table_from_json load_table_from_dataframe create_table create_dataset "
             "delete_table delete_dataset update_table update_dataset copy_table", "{name} (BigQuery)", True, "sql"),
)

# Odoo model methods that only read; any other method a client runs may write (`create`, `write`,
# `unlink`, `action_confirm`, `button_validate`, `message_post`).
ODOO_READS = frozenset({"read", "search", "search_read", "search_count", "search_fetch", "fields_get", "name_search",
                        "name_get", "read_group", "default_get", "check_access_rights", "check_access_rule", "exists",
                        "get_views", "fields_view_get", "onchange", "web_read", "web_search_read", "has_group",
                        "context_get", "read_progress_bar"})

SQL_WRITE = ("INSERT", "UPDATE", "DELETE", "REPLACE", "MERGE", "UPSERT", "CREATE", "DROP", "ALTER", "TRUNCATE",
             "GRANT", "REVOKE")
# SQLAlchemy Core statement constructors, as functions (`sqlalchemy.insert(t)`) or as methods of a
# table (`t.insert()`); passed to `execute` they write.
CORE_WRITES = frozenset({"insert", "update", "delete"})
# Supabase query builder: `client.table("t")` (or `.from_("t")`) then a write verb, then `.execute()`.
SUPABASE_TABLES = frozenset({"table", "from_"})
SUPABASE_WRITES = frozenset({"insert", "update", "upsert", "delete"})
