"""Cloud SDKs: AWS (boto3, and S3-compatible clients built the same way), Google Cloud storage,
deployments and jobs, Box, containers.

Lambda's `invoke` stays a write even in `RequestResponse` mode: the invoked function runs to the
end server-side whatever happens to the caller, and what it does is another deployment's code,
which siblint cannot see; only `InvocationType="DryRun"` (a permission check) is left out. When
the function's handler is in the same repository, the walk follows it instead
(`siblint.model.nested.invoked_handler`).
Athena's `start_query_execution` is a query job: a write only when its `QueryString` is SQL that
writes (`check="boto3"`); SQL siblint cannot read is not assumed to write, as for `execute`."""

from __future__ import annotations

import re

from .rows import Row, anys, calls, methods

# boto3 writes. `invoke_model*` is a Bedrock model call (a read), unlike Lambda's `invoke`; CloudWatch
# Logs' `start_query` starts a Logs Insights query over the logs (a read, its results fetched later).
_BOTO3_VERBS = (
    "put_* upload_* delete_* create_* update_* modify_* send_* publish publish_* copy_* invoke invoke_* start_* "
    "stop_* terminate_* run_instances run_task batch_write_item transact_write_items execute_statement "
    "batch_execute_statement put delete upload_file upload_fileobj copy download_file ingest_* add_* tag_resource "
    "untag_resource attach_* detach_* associate_* disassociate_* register_* deregister_* restore_* reboot_* enable_* "
    "disable_* !invoke_model !invoke_model_with_response_stream !start_query"
)
# boto3 and S3-compatible clients with its API (IBM Cloud Object Storage's `ibm_boto3`).
_BOTO3 = ("boto3.client boto3.resource boto3.Session boto3.session.Session ibm_boto3.client ibm_boto3.resource "
          "ibm_boto3.Session ibm_boto3.session.Session")
# Verbs that start a job which only reads unless its arguments say otherwise.
BOTO3_QUERY_JOBS = frozenset({"start_query_execution"})
# Google Cloud's generated (GAPIC) clients, one per service and version (`batch_v1.BatchServiceClient`,
# `compute_v1.InstancesClient`, `tasks_v2.CloudTasksAsyncClient`) share their verbs: `get_*`, `list_*`
# and `search_*` read; these change something. A client the table lists itself (Firestore's
# `AsyncClient`, Cloud Run's) keeps its own rows.
_GAPIC = "google.cloud.gapic.Client"
TYPE_FAMILIES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^google\.cloud\.[a-z0-9_]+\.(?:services\.[a-z0-9_]+\.)?[A-Za-z0-9]+Client$"), _GAPIC),
)
_GAPIC_VERBS = ("create_* delete_* update_* patch patch_* insert insert_* cancel cancel_* start start_* stop stop_* "
                "suspend suspend_* resume resume_* reset reset_* resize resize_* set_* import_* deploy_* undeploy_* "
                "add_* remove_* publish submit_* enable_* disable_* restore_* purge_* pause_* run_job run_pipeline "
                "batch_create_* batch_delete_* batch_update_* move_* rollback commit write_* append_rows destroy_* "
                "upload_* attach_* detach_* !create_read_session")
_GCP_RUN = ("google.cloud.run_v2.ServicesClient google.cloud.run_v2.JobsClient google.cloud.run_v2.ServicesAsyncClient "
            "google.cloud.run_v2.JobsAsyncClient")

ROWS: tuple[Row, ...] = (
    *methods(_BOTO3, _BOTO3_VERBS, "{name} (AWS)", True, "cloud", "boto3"),
    # Box: `client.uploads.upload_file(...)`, `client.files.delete_file_by_id(...)`.
    *methods("box_sdk_gen.BoxClient box_sdk_gen.client.BoxClient boxsdk.Client",
             "upload_* delete_* create_* update_* copy_* upload", "{name} (cloud storage)", True, "cloud"),
    *methods("google.cloud.storage.Client", "upload_from_string upload_from_filename upload_from_file delete copy_blob "
             "rename_blob", "{name} (cloud storage)", True, "cloud"),
    anys("upload_from_string upload_from_filename upload_from_file upload_blob delete_blob", "{name} (cloud storage)",
         None, "cloud"),
    *methods(_GAPIC, _GAPIC_VERBS, "{name} (Google Cloud)", None, "cloud"),
    # Google Cloud Run: deploy, change, delete and run services and jobs.
    *methods(_GCP_RUN, "create_* update_* delete_* run_job", "{name} (cloud deploy)", None, "cloud"),
    # Vertex AI: jobs, pipelines and deployments (`aiplatform.CustomJob(...).run()`, `model.deploy(...)`).
    *methods("google.cloud.aiplatform.CustomJob google.cloud.aiplatform.CustomTrainingJob "
             "google.cloud.aiplatform.CustomContainerTrainingJob google.cloud.aiplatform.PipelineJob "
             "google.cloud.aiplatform.BatchPredictionJob google.cloud.aiplatform.HyperparameterTuningJob",
             "run submit", "{name} (cloud job)", True, "cloud"),
    *methods("google.cloud.aiplatform.Model google.cloud.aiplatform.Endpoint google.cloud.aiplatform.Model.upload "
             "google.cloud.aiplatform.Endpoint.create", "deploy undeploy delete", "{name} (cloud deploy)", True,
             "cloud"),
    Row("call", "google.cloud.aiplatform.Model.upload", (), "{name} (cloud deploy)", True, kind="cloud"),
    Row("call", "google.cloud.aiplatform.Endpoint.create", (), "{name} (cloud deploy)", True, kind="cloud"),
    Row("call", "vertexai.agent_engines.create", (), "{name} (cloud deploy)", True, kind="cloud"),
    # The Kubernetes client: `BatchV1Api().create_namespaced_job(...)`, on any receiver (the API
    # objects are often built lazily and handed around); `read_*` and `list_*` read.
    anys("create_namespaced_* delete_namespaced_* patch_namespaced_* replace_namespaced_* delete_collection_namespaced_*",
         "{name} (Kubernetes)", True, "cloud"),
    *methods("kubernetes.client.BatchV1Api kubernetes.client.CoreV1Api kubernetes.client.AppsV1Api "
             "kubernetes.client.CustomObjectsApi", "create_* delete_* patch_* replace_*", "{name} (Kubernetes)", True,
             "cloud"),
    # Replicate: a prediction or training started (`replicate.predictions.create(...)`) runs on detached
    # from the caller; `replicate.run(...)` waits for the model's answer and is a model call.
    *calls("replicate.predictions.create replicate.trainings.create replicate.deployments.predictions.create",
           "{name} (cloud job)", True, "cloud"),
    *methods("replicate.Client replicate.client.Client", "create", "{name} (cloud job)", True, "cloud"),
    # Docker SDK: `docker.from_env().containers.run(...)`; a file put into a container
    # (`put_archive`); a command run in one (`exec_run`), unless it only reads (`cat`, `git diff`).
    *methods("docker.from_env docker.DockerClient docker.client.DockerClient",
             "run create remove kill stop restart build push put_archive", "{name} (container)", True, "container"),
    *methods("docker.from_env docker.DockerClient docker.client.DockerClient", "exec_run", "{name} (container)",
             True, "container", "process"),
)
