"""Azure SDKs for Python: Blob, Queue and Table storage, Cosmos DB, Service Bus, Event Grid and Event
Hubs, Communication Services email and SMS, Key Vault secrets, the Resource Manager clients.

Each service hands out sub-clients from its service client (`BlobServiceClient(...)
.get_container_client(c).upload_blob(...)`, `CosmosClient(...).get_database_client(d)
.get_container_client(c).create_item(...)`), so a write is a method of whatever that constructor
built, as for boto3. Reads (`download_blob`, `read_item`, `query_items`, `list_*`, `get_*`) are not
listed. The `.aio` clients are the same methods awaited.
"""

from __future__ import annotations

from .rows import Row, methods

_ARM_WRITES = "begin_* create_or_update* delete* update* restart* start* stop* power_off* deallocate* run_command"
# (constructors under the package, without `.aio`; write methods; what; kind)
_SERVICES: tuple[tuple[str, str, str, str], ...] = (
    ("azure.storage.blob", "BlobServiceClient ContainerClient BlobClient",
     "upload_blob delete_blob delete_blobs create_container delete_container stage_block commit_block_list "
     "append_block set_blob_metadata set_blob_tags set_container_metadata start_copy_from_url undelete_blob",
     "cloud"),
    ("azure.storage.queue", "QueueServiceClient QueueClient",
     "send_message update_message delete_message clear_messages create_queue delete_queue", "message"),
    ("azure.data.tables", "TableServiceClient TableClient",
     "create_entity upsert_entity update_entity delete_entity submit_transaction create_table delete_table "
     "create_table_if_not_exists", "nosql"),
    ("azure.cosmos", "CosmosClient",
     "create_item upsert_item replace_item delete_item patch_item execute_item_batch delete_all_items_by_partition_key "
     "create_container create_container_if_not_exists delete_container replace_container create_database "
     "create_database_if_not_exists delete_database", "nosql"),
    ("azure.servicebus", "ServiceBusClient", "send_messages schedule_messages cancel_scheduled_messages", "message"),
    ("azure.eventgrid", "EventGridPublisherClient", "send", "message"),
    ("azure.eventhub", "EventHubProducerClient", "send_batch send_event", "message"),
    ("azure.communication.email", "EmailClient", "begin_send", "email"),
    ("azure.communication.sms", "SmsClient", "send", "message"),
    ("azure.keyvault.secrets", "SecretClient",
     "set_secret update_secret_properties begin_delete_secret purge_deleted_secret begin_recover_deleted_secret",
     "cloud"),
    # Resource Manager: every long-running operation (`begin_*`: create, delete, restart, run a command on
    # a VM, scale) changes a resource; `get`/`list*` read.
    *((f"azure.mgmt.{package}", client, _ARM_WRITES, "cloud") for package, client in (
        ("compute", "ComputeManagementClient"), ("network", "NetworkManagementClient"),
        ("resource", "ResourceManagementClient"), ("web", "WebSiteManagementClient"),
        ("containerservice", "ContainerServiceClient"), ("storage", "StorageManagementClient"),
        ("sql", "SqlManagementClient"), ("containerinstance", "ContainerInstanceManagementClient"),
        ("appcontainers", "ContainerAppsAPIClient"), ("monitor", "MonitorManagementClient"),
        ("cosmosdb", "CosmosDBManagementClient"), ("keyvault", "KeyVaultManagementClient"))),
)


def _constructors(package: str, classes: str) -> str:
    """Each class and the `from_connection_string` / `from_*_url` class methods that build one."""
    return " ".join(f"{package}.{c}{suffix}" for c in classes.split()
                    for suffix in ("", ".from_connection_string", ".from_container_url", ".from_blob_url",
                                   ".from_queue_url", ".from_table_url"))


ROWS: tuple[Row, ...] = tuple(
    row
    for package, classes, verbs, kind in _SERVICES
    for aio, blocking in (("", True), (".aio", False))
    for row in methods(_constructors(package + aio, classes), verbs, "{name} (Azure)", blocking, kind)
)
