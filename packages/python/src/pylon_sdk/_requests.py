"""The request of each API operation, shared by the sync and async clients (each method sends one of these)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from typing import Any
from urllib.parse import quote

from ._files import FileInput, form_fields, read_file
from ._transport import QueryValue, Request, new_idempotency_key


def _p(value: str) -> str:
    return quote(value, safe="")


def _create(path: str, body: Mapping[str, Any], idempotency_key: str | None) -> Request:
    """A create the API makes once per Idempotency-Key: one key per call, kept across its retries."""
    return Request("POST", path, body=dict(body), idempotency_key=idempotency_key or new_idempotency_key())


def _list(path: str, params: Mapping[str, QueryValue], cursor: Any, cursor_name: str = "cursor") -> Request:
    return Request("GET", path, query={**params, cursor_name: cursor})


# agent runs
def create_run(body: Mapping[str, Any], idempotency_key: str | None) -> Request:
    return _create("/api/v1/agent-runs", body, idempotency_key)


def get_run(run_id: str) -> Request:
    return Request("GET", f"/api/v1/agent-runs/{_p(run_id)}")


def list_runs(params: Mapping[str, QueryValue], cursor: Any) -> Request:
    return _list("/api/v1/agent-runs", params, cursor)


def cancel_run(run_id: str) -> Request:
    return Request("POST", f"/api/v1/agent-runs/{_p(run_id)}/cancel", repeatable=True)


def get_run_usage(run_id: str) -> Request:
    return Request("GET", f"/api/v1/agent-runs/{_p(run_id)}/usage")


def list_run_events(run_id: str, params: Mapping[str, QueryValue], cursor: Any) -> Request:
    return _list(f"/api/v1/agent-runs/{_p(run_id)}/events", params, cursor if cursor is not None else params.get("after"), "after")


def get_required_action(run_id: str) -> Request:
    return Request("GET", f"/api/v1/agent-runs/{_p(run_id)}/required-action")


def submit_tool_outputs(run_id: str, body: Mapping[str, Any]) -> Request:
    """The same submission again answers the same: retried like a read."""
    return Request("POST", f"/api/v1/agent-runs/{_p(run_id)}/tool-outputs", body=dict(body), repeatable=True)


def approve_tool_calls(run_id: str, body: Mapping[str, Any]) -> Request:
    """The same submission again answers the same: retried like a read."""
    return Request("POST", f"/api/v1/agent-runs/{_p(run_id)}/tool-approvals", body=dict(body), repeatable=True)


# agent schedules
def create_schedule(body: Mapping[str, Any], idempotency_key: str | None) -> Request:
    return _create("/api/v1/agent-schedules", body, idempotency_key)


def get_schedule(schedule_id: str) -> Request:
    return Request("GET", f"/api/v1/agent-schedules/{_p(schedule_id)}")


def list_schedules(params: Mapping[str, QueryValue], cursor: Any) -> Request:
    return _list("/api/v1/agent-schedules", params, cursor)


def update_schedule(schedule_id: str, body: Mapping[str, Any]) -> Request:
    """Sets what it names to the values given: the same request again changes nothing more."""
    return Request("PATCH", f"/api/v1/agent-schedules/{_p(schedule_id)}", body=dict(body), repeatable=True)


def trigger_schedule(schedule_id: str) -> Request:
    """Not retried: each trigger that arrives is a firing."""
    return Request("POST", f"/api/v1/agent-schedules/{_p(schedule_id)}/trigger")


def delete_schedule(schedule_id: str) -> Request:
    return Request("DELETE", f"/api/v1/agent-schedules/{_p(schedule_id)}")


def list_schedule_runs(schedule_id: str, params: Mapping[str, QueryValue], cursor: Any) -> Request:
    return _list(f"/api/v1/agent-schedules/{_p(schedule_id)}/runs", params, cursor)


# conversations
def create_conversation(body: Mapping[str, Any], idempotency_key: str | None) -> Request:
    return _create("/api/v1/conversations", body, idempotency_key)


def get_conversation(conversation_id: str) -> Request:
    return Request("GET", f"/api/v1/conversations/{_p(conversation_id)}")


def list_conversations(params: Mapping[str, QueryValue], cursor: Any) -> Request:
    return _list("/api/v1/conversations", params, cursor)


def delete_conversation(conversation_id: str) -> Request:
    return Request("DELETE", f"/api/v1/conversations/{_p(conversation_id)}")


def list_conversation_items(conversation_id: str, params: Mapping[str, QueryValue], cursor: Any) -> Request:
    return _list(f"/api/v1/conversations/{_p(conversation_id)}/items", params, cursor)


def create_conversation_run(conversation_id: str, body: Mapping[str, Any], idempotency_key: str | None) -> Request:
    return _create(f"/api/v1/conversations/{_p(conversation_id)}/runs", body, idempotency_key)


# agents
def create_agent(body: Mapping[str, Any], idempotency_key: str | None) -> Request:
    return _create("/api/v1/agents", body, idempotency_key)


def get_agent(agent_id: str) -> Request:
    return Request("GET", f"/api/v1/agents/{_p(agent_id)}")


def list_agents(params: Mapping[str, QueryValue], cursor: Any) -> Request:
    return _list("/api/v1/agents", params, cursor)


def create_version(agent_id: str, body: Mapping[str, Any], idempotency_key: str | None) -> Request:
    return _create(f"/api/v1/agents/{_p(agent_id)}/versions", body, idempotency_key)


def list_versions(agent_id: str, params: Mapping[str, QueryValue], cursor: Any) -> Request:
    return _list(f"/api/v1/agents/{_p(agent_id)}/versions", params, cursor)


def get_version(version_id: str) -> Request:
    return Request("GET", f"/api/v1/agent-versions/{_p(version_id)}")


def list_model_providers() -> Request:
    return Request("GET", "/api/v1/models")


# knowledge
def search(body: Mapping[str, Any]) -> Request:
    return Request("POST", "/api/v1/knowledge/search", body=dict(body), repeatable=True)


def query(body: Mapping[str, Any]) -> Request:
    return Request("POST", "/api/v1/knowledge/query", body=dict(body), repeatable=True)


def create_document(body: Mapping[str, Any], idempotency_key: str | None) -> Request:
    return _create("/api/v1/knowledge/documents", body, idempotency_key)


def get_document(doc_id: str) -> Request:
    return Request("GET", f"/api/v1/knowledge/documents/{_p(doc_id)}")


def list_documents(params: Mapping[str, QueryValue], cursor: Any) -> Request:
    return _list("/api/v1/knowledge/documents", params, cursor)


def delete_document(doc_id: str) -> Request:
    return Request("DELETE", f"/api/v1/knowledge/documents/{_p(doc_id)}")


def replace_document(doc_id: str, body: Mapping[str, Any], idempotency_key: str | None) -> Request:
    """A new revision; one per Idempotency-Key (one per call, kept across its retries)."""
    return Request("PUT", f"/api/v1/knowledge/documents/{_p(doc_id)}", body=dict(body), idempotency_key=idempotency_key or new_idempotency_key())


def _file_form(method: str, path: str, file: FileInput, file_name: str | None, fields: Mapping[str, Any], idempotency_key: str | None) -> Request:
    """One file as part `file` beside its text fields (multipart/form-data), one Idempotency-Key across its retries."""
    return Request(
        method,
        path,
        files=[("file", read_file(file, file_name))],
        form=form_fields(fields),
        idempotency_key=idempotency_key or new_idempotency_key(),
    )


def upload_file(file: FileInput, file_name: str | None, fields: Mapping[str, Any], idempotency_key: str | None) -> Request:
    return _file_form("POST", "/api/v1/knowledge/files", file, file_name, fields, idempotency_key)


def replace_file(doc_id: str, file: FileInput, file_name: str | None, fields: Mapping[str, Any], idempotency_key: str | None) -> Request:
    return _file_form("PUT", f"/api/v1/knowledge/documents/{_p(doc_id)}/file", file, file_name, fields, idempotency_key)


def download_file(doc_id: str) -> Request:
    return Request("GET", f"/api/v1/knowledge/documents/{_p(doc_id)}/file", raw=True)


def create_batch(
    files: Sequence[FileInput | tuple[str, FileInput]] | None,
    documents: Sequence[Mapping[str, Any]] | None,
    fields: Mapping[str, Any],
    idempotency_key: str | None,
) -> Request:
    """Files as multipart/form-data (each a part `file`), or texts as JSON; either way one Idempotency-Key across its retries."""
    if (files is None) == (documents is None):
        raise ValueError("a batch takes files=[...] or documents=[...], one of them")
    key = idempotency_key or new_idempotency_key()
    if documents is not None:
        body = {name: value for name, value in fields.items() if value is not None and name != "metadata"}
        return Request("POST", "/api/v1/knowledge/batches", body={**body, "documents": [dict(document) for document in documents]}, idempotency_key=key)
    parts = [("file", read_file(entry[1], entry[0]) if isinstance(entry, tuple) else read_file(entry)) for entry in files or []]
    return Request("POST", "/api/v1/knowledge/batches", files=parts, form=form_fields(fields), idempotency_key=key)


def get_batch(batch_id: str) -> Request:
    return Request("GET", f"/api/v1/knowledge/batches/{_p(batch_id)}")


def cancel_batch(batch_id: str) -> Request:
    return Request("POST", f"/api/v1/knowledge/batches/{_p(batch_id)}/cancel", repeatable=True)


# knowledge bases
def create_knowledge_base(body: Mapping[str, Any], idempotency_key: str | None) -> Request:
    return _create("/api/v1/knowledge-bases", body, idempotency_key)


def get_knowledge_base(knowledge_base_id: str) -> Request:
    return Request("GET", f"/api/v1/knowledge-bases/{_p(knowledge_base_id)}")


def list_knowledge_bases(params: Mapping[str, QueryValue], cursor: Any) -> Request:
    return _list("/api/v1/knowledge-bases", params, cursor)


def update_knowledge_base(knowledge_base_id: str, body: Mapping[str, Any]) -> Request:
    """Sets what it names to the values given: the same request again changes nothing more."""
    return Request("PATCH", f"/api/v1/knowledge-bases/{_p(knowledge_base_id)}", body=dict(body), repeatable=True)


def delete_knowledge_base(knowledge_base_id: str, cascade: bool) -> Request:
    return Request("DELETE", f"/api/v1/knowledge-bases/{_p(knowledge_base_id)}", query={"cascade": True if cascade else None})


# videos
def create_video(body: Mapping[str, Any], idempotency_key: str | None) -> Request:
    return _create("/v1/video-gen/generations", body, idempotency_key)


def get_videos(ids: Sequence[str]) -> Request:
    return Request("GET", "/v1/video-gen/generation", query={"ids": list(ids)})


def extend_video(video_id: str, body: Mapping[str, Any], idempotency_key: str | None) -> Request:
    return _create(f"/v1/video-gen/generations/{_p(video_id)}/extend", body, idempotency_key)


def cancel_video(video_id: str) -> Request:
    return Request("POST", f"/v1/video-gen/generations/{_p(video_id)}/cancel", repeatable=True)


# webhook endpoints
def create_endpoint(body: Mapping[str, Any], idempotency_key: str | None) -> Request:
    return _create("/api/v1/webhook-endpoints", body, idempotency_key)


def get_endpoint(endpoint_id: str) -> Request:
    return Request("GET", f"/api/v1/webhook-endpoints/{_p(endpoint_id)}")


def list_endpoints(params: Mapping[str, QueryValue], cursor: Any) -> Request:
    return _list("/api/v1/webhook-endpoints", params, cursor)


def update_endpoint(endpoint_id: str, body: Mapping[str, Any]) -> Request:
    return Request("PATCH", f"/api/v1/webhook-endpoints/{_p(endpoint_id)}", body=dict(body))


def delete_endpoint(endpoint_id: str) -> Request:
    return Request("DELETE", f"/api/v1/webhook-endpoints/{_p(endpoint_id)}")


def rotate_secret(endpoint_id: str, body: Mapping[str, Any]) -> Request:
    return Request("POST", f"/api/v1/webhook-endpoints/{_p(endpoint_id)}/rotate-secret", body=dict(body))


def send_test_event(endpoint_id: str) -> Request:
    return Request("POST", f"/api/v1/webhook-endpoints/{_p(endpoint_id)}/test")


def list_deliveries(endpoint_id: str, params: Mapping[str, QueryValue], cursor: Any) -> Request:
    return _list(f"/api/v1/webhook-endpoints/{_p(endpoint_id)}/deliveries", params, cursor)


def get_delivery(endpoint_id: str, delivery_id: str) -> Request:
    return Request("GET", f"/api/v1/webhook-endpoints/{_p(endpoint_id)}/deliveries/{_p(delivery_id)}")


def retry_delivery(endpoint_id: str, delivery_id: str) -> Request:
    return Request("POST", f"/api/v1/webhook-endpoints/{_p(endpoint_id)}/deliveries/{_p(delivery_id)}/retry")


def recover_deliveries(endpoint_id: str, since: str | datetime) -> Request:
    """`since` as an ISO date-time; a datetime without a time zone is taken as UTC."""
    if isinstance(since, datetime):
        since = (since if since.tzinfo else since.replace(tzinfo=timezone.utc)).isoformat()
    return Request("POST", f"/api/v1/webhook-endpoints/{_p(endpoint_id)}/recover", body={"since": since})


# API keys
def create_key(body: Mapping[str, Any]) -> Request:
    return Request("POST", "/api/v1/api-keys", body=dict(body))


def list_keys(params: Mapping[str, QueryValue], cursor: Any) -> Request:
    return _list("/api/v1/api-keys", params, cursor)


def roll_key(key_id: str, body: Mapping[str, Any]) -> Request:
    return Request("POST", f"/api/v1/api-keys/{_p(key_id)}/roll", body=dict(body))


def revoke_key(key_id: str) -> Request:
    return Request("DELETE", f"/api/v1/api-keys/{_p(key_id)}")


def whoami() -> Request:
    return Request("GET", "/api/v1/whoami")


# model credentials
def list_model_credentials() -> Request:
    return Request("GET", "/api/v1/model-credentials")


def put_model_credential(provider: str, body: Mapping[str, Any]) -> Request:
    """The same key again answers the same, so it is retried like a read."""
    return Request("PUT", f"/api/v1/model-credentials/{_p(provider)}", body=dict(body), repeatable=True)


def delete_model_credential(provider: str) -> Request:
    return Request("DELETE", f"/api/v1/model-credentials/{_p(provider)}")


def check_model_credential(provider: str) -> Request:
    return Request("POST", f"/api/v1/model-credentials/{_p(provider)}/check", repeatable=True)


# tokens
def balance() -> Request:
    return Request("GET", "/api/v1/tokens/balance")


def list_entries(params: Mapping[str, QueryValue], cursor: Any) -> Request:
    return _list("/api/v1/tokens/entries", params, cursor)


# usage
def usage() -> Request:
    return Request("GET", "/api/v1/usage")


# admin
def create_org(body: Mapping[str, Any]) -> Request:
    return Request("POST", "/admin/v1/orgs", body=dict(body))


def list_orgs(params: Mapping[str, QueryValue], cursor: Any) -> Request:
    return _list("/admin/v1/orgs", params, cursor)


def admin_create_key(org_id: str, body: Mapping[str, Any]) -> Request:
    return Request("POST", f"/admin/v1/orgs/{_p(org_id)}/api-keys", body=dict(body))


def admin_revoke_key(key_id: str) -> Request:
    return Request("DELETE", f"/admin/v1/api-keys/{_p(key_id)}")


def grant_tokens(org_id: str, body: Mapping[str, Any], idempotency_key: str | None) -> Request:
    return _create(f"/admin/v1/orgs/{_p(org_id)}/token-grants", body, idempotency_key)


def update_limits(org_id: str, body: Mapping[str, Any]) -> Request:
    return Request("PATCH", f"/admin/v1/orgs/{_p(org_id)}/limits", body=dict(body))


def update_admin_key(key_id: str, body: Mapping[str, Any]) -> Request:
    return Request("PATCH", f"/admin/v1/api-keys/{_p(key_id)}", body=dict(body))


def admin_list_keys(org_id: str, params: Mapping[str, QueryValue], cursor: Any) -> Request:
    return _list(f"/admin/v1/orgs/{_p(org_id)}/api-keys", params, cursor)


def admin_roll_key(key_id: str, body: Mapping[str, Any]) -> Request:
    return Request("POST", f"/admin/v1/api-keys/{_p(key_id)}/roll", body=dict(body))


def get_limits(org_id: str) -> Request:
    return Request("GET", f"/admin/v1/orgs/{_p(org_id)}/limits")


def get_model_prices(org_id: str) -> Request:
    return Request("GET", f"/admin/v1/orgs/{_p(org_id)}/model-prices")


def replace_model_prices(org_id: str, body: Mapping[str, Any]) -> Request:
    """A replace: the same body again answers the same, so it is retried like a read."""
    return Request("PUT", f"/admin/v1/orgs/{_p(org_id)}/model-prices", body=dict(body), repeatable=True)


def knowledge_index(org_id: str) -> Request:
    return Request("GET", f"/admin/v1/orgs/{_p(org_id)}/knowledge-index")


def disable_endpoints(org_id: str, body: Mapping[str, Any]) -> Request:
    return Request("POST", f"/admin/v1/orgs/{_p(org_id)}/webhook-endpoints/disable", body=dict(body), repeatable=True)
