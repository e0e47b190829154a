# Generated from pylon_sdk/_async/_client.py by packages/python/scripts/generate_sync.py (unasync): do not edit.
# Edit the async source and run that script.
"""The Pylon clients, one method per API operation; the requests themselves are built once, in _requests.py.

`AsyncPylon` is written by hand, in pylon_sdk/_async/_client.py; `Pylon`, in pylon_sdk/_sync/_client.py, is
generated from it by unasync (packages/python/scripts/generate_sync.py)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

from typing_extensions import Unpack

import httpx

from .. import _requests as R
from .. import _tools as T
from .. import models
from .._concurrency import iterate_after, settle
from .._errors import ConnectionError, NotFoundError
from .._files import DownloadedFile, FileInput, downloaded
from .._stream import TERMINAL_EVENTS, RunEvent
from .._webhooks import verify_webhook
from ._pagination import iterate
from ._stream import stream_run
from ._transport import SyncTransport


class AgentRuns:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def create(self, *, idempotency_key: str | None = None, **body: Unpack[models.CreateAgentRunRequest]) -> models.AgentRunCreated:
        result: models.AgentRunCreated = self._t.request(R.create_run(body, idempotency_key))
        return result

    def get(self, run_id: str) -> models.AgentRunView:
        result: models.AgentRunView = self._t.request(R.get_run(run_id))
        return result

    def cancel(self, run_id: str) -> models.AgentRunView:
        result: models.AgentRunView = self._t.request(R.cancel_run(run_id))
        return result

    def usage(self, run_id: str) -> models.AgentRunUsageView:
        """The run's tokens and cost, per model turn and in total (each turn was debited from the ledger when it was recorded)."""
        result: models.AgentRunUsageView = self._t.request(R.get_run_usage(run_id))
        return result

    def list(self, *, status: str | None = None, limit: int | None = None) -> Iterator[models.AgentRunView]:
        """Every item, page after page."""
        return iterate(self._t, lambda cursor: R.list_runs({"status": status, "limit": limit}, cursor))

    def events(self, run_id: str, *, after: int | None = None, limit: int | None = None) -> Iterator[models.RunEventView]:
        """Every item, page after page."""
        return iterate(self._t, lambda cursor: R.list_run_events(run_id, {"after": after, "limit": limit}, cursor))

    def stream(self, run_id: str, *, after: int = 0) -> Iterator[RunEvent]:
        """The run's events as they happen, to its terminal event, resuming with Last-Event-ID after a dropped connection."""
        return stream_run(self._t, run_id, after)

    def create_and_stream(self, *, idempotency_key: str | None = None, **body: Unpack[models.CreateAgentRunRequest]) -> Iterator[RunEvent]:
        """Creates a run and streams its events (as `stream` does)."""
        return iterate_after(lambda: self.create(idempotency_key=idempotency_key, **body), lambda created: stream_run(self._t, created["run_id"]))

    def create_and_wait(self, *, idempotency_key: str | None = None, **body: Unpack[models.CreateAgentRunRequest]) -> models.AgentRunView:
        for event in self.create_and_stream(idempotency_key=idempotency_key, **body):
            if event.type in TERMINAL_EVENTS:
                run: models.AgentRunView = event.data
                return run
        raise ConnectionError("the run stream ended without a terminal event")

    def required_action(self, run_id: str) -> models.RequiredActionView:
        """What the run waits for now: tool outputs or approvals. NotFoundError when it waits for nothing."""
        result: models.RequiredActionView = self._t.request(R.get_required_action(run_id))
        return result

    def submit_tool_outputs(self, run_id: str, /, **body: Unpack[models.SubmitToolOutputsRequest]) -> models.AgentRunView:
        """Answers every function call the run waits for; the same submission again answers the same. RunNotWaitingError when it waits for none."""
        result: models.AgentRunView = self._t.request(R.submit_tool_outputs(run_id, body))
        return result

    def approve_tool_calls(self, run_id: str, /, **body: Unpack[models.ApproveToolCallsRequest]) -> models.AgentRunView:
        """Approves or denies every call the run waits for (a denial's `reason` is told to the model)."""
        result: models.AgentRunView = self._t.request(R.approve_tool_calls(run_id, body))
        return result

    def run_tools(
        self,
        *,
        tools: Mapping[str, T.ToolHandler] | None = None,
        approve: T.ApproveCallback | None = None,
        conversation_id: str | None = None,
        idempotency_key: str | None = None,
        **body: Unpack[models.CreateConversationRunRequest],
    ) -> models.AgentRunView:
        """Creates a run (or, with `conversation_id`, a turn of that conversation; `if_busy` only then) and drives it to
        its end on its event stream, answering each required action here: function calls with `tools[name](args)`
        (what it returns is the output, a str as is and anything else as JSON; what it raises is sent as
        {"error": message}), approvals with `approve(call)` (every call approved without it). Returns the finished run.
        An action is answered only while the run still waits for it, so the same `idempotency_key` again picks up
        a run where it stands. On AsyncPylon a handler or the approve callback may also be a coroutine function."""
        request = R.create_run(body, idempotency_key) if conversation_id is None else R.create_conversation_run(conversation_id, body, idempotency_key)
        created: models.AgentRunCreated = self._t.request(request)
        run_id = created["run_id"]
        for event in stream_run(self._t, run_id):
            if event.type == "requires_action":
                self._answer(run_id, event.data, tools or {}, approve)
            if event.type in TERMINAL_EVENTS:
                run: models.AgentRunView = event.data
                return run
        raise ConnectionError("the run stream ended without a terminal event")

    def _answer(self, run_id: str, announced: models.RequiredActionView, tools: Mapping[str, T.ToolHandler], approve: T.ApproveCallback | None) -> None:
        try:
            current: models.RequiredActionView | None = self.required_action(run_id)
        except NotFoundError:
            current = None
        action = T.still_pending(announced, current)
        if action is None:
            return
        if action["type"] == "submit_tool_outputs":
            outputs: list[models.ToolOutputRequest] = []
            for call in action["tool_calls"]:
                handler = tools.get(call["name"])
                if handler is None:
                    output = T.no_handler_output(tools, call)
                else:
                    try:
                        output = T.output_of(settle(handler(T.arguments_of(call))))
                    except Exception as error:
                        output = T.error_output(error)
                outputs.append({"tool_call_id": call["id"], "output": output})
            self.submit_tool_outputs(run_id, tool_outputs=outputs)
        elif action["type"] == "approve_tool_calls":
            approvals = [T.approval_of(call, settle(approve(call)) if approve else True) for call in action["tool_calls"]]
            self.approve_tool_calls(run_id, approvals=approvals)
        else:
            raise ValueError(f"run_tools cannot answer a required action of type {action['type']}")


class AgentSchedules:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def create(self, *, idempotency_key: str | None = None, **body: Unpack[models.CreateAgentScheduleRequest]) -> models.AgentScheduleView:
        """An agent version run on `cron` (with `timezone`) or `every_seconds`; each firing is an ordinary run."""
        result: models.AgentScheduleView = self._t.request(R.create_schedule(body, idempotency_key))
        return result

    def get(self, schedule_id: str) -> models.AgentScheduleView:
        result: models.AgentScheduleView = self._t.request(R.get_schedule(schedule_id))
        return result

    def list(self, *, org_id: str | None = None, limit: int | None = None) -> Iterator[models.AgentScheduleView]:
        """Every item, page after page, newest first."""
        return iterate(self._t, lambda cursor: R.list_schedules({"org_id": org_id, "limit": limit}, cursor))

    def update(self, schedule_id: str, /, **body: Unpack[models.UpdateAgentScheduleRequest]) -> models.AgentScheduleView:
        """Changes the input, timing or overlap; `paused=True` pauses, `paused=False` resumes."""
        result: models.AgentScheduleView = self._t.request(R.update_schedule(schedule_id, body))
        return result

    def trigger(self, schedule_id: str) -> models.AgentScheduleView:
        """Fires the schedule once, now (even while paused)."""
        result: models.AgentScheduleView = self._t.request(R.trigger_schedule(schedule_id))
        return result

    def delete(self, schedule_id: str) -> None:
        """No more firings; its runs stay readable."""
        self._t.request(R.delete_schedule(schedule_id))

    def runs(self, schedule_id: str, *, limit: int | None = None) -> Iterator[models.ScheduledRunView]:
        """The schedule's runs, newest first, each with its `scheduled_at`, page after page."""
        return iterate(self._t, lambda cursor: R.list_schedule_runs(schedule_id, {"limit": limit}, cursor))


class Conversations:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport
        self.runs = ConversationRuns(transport)

    def create(self, *, idempotency_key: str | None = None, **body: Unpack[models.CreateConversationRequest]) -> models.ConversationView:
        result: models.ConversationView = self._t.request(R.create_conversation(body, idempotency_key))
        return result

    def get(self, conversation_id: str) -> models.ConversationView:
        result: models.ConversationView = self._t.request(R.get_conversation(conversation_id))
        return result

    def delete(self, conversation_id: str) -> None:
        """Deletes the conversation and its items; its runs stay readable."""
        self._t.request(R.delete_conversation(conversation_id))

    def list(self, *, org_id: str | None = None, limit: int | None = None) -> Iterator[models.ConversationView]:
        """Every item, page after page, newest first."""
        return iterate(self._t, lambda cursor: R.list_conversations({"org_id": org_id, "limit": limit}, cursor))

    def items(self, conversation_id: str, *, limit: int | None = None) -> Iterator[models.ConversationItemView]:
        """Every input, answer, tool call and tool output, oldest first, page after page."""
        return iterate(self._t, lambda cursor: R.list_conversation_items(conversation_id, {"limit": limit}, cursor))


class ConversationRuns:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def create(self, conversation_id: str, /, *, idempotency_key: str | None = None, **body: Unpack[models.CreateConversationRunRequest]) -> models.AgentRunCreated:
        """Takes a turn: a run that sees the conversation's earlier turns (`if_busy="reject"` raises ConversationBusyError while one is unfinished)."""
        result: models.AgentRunCreated = self._t.request(R.create_conversation_run(conversation_id, body, idempotency_key))
        return result


class Agents:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def create(self, *, idempotency_key: str | None = None, **body: Unpack[models.CreateAgentRequest]) -> models.AgentView:
        result: models.AgentView = self._t.request(R.create_agent(body, idempotency_key))
        return result

    def get(self, agent_id: str) -> models.AgentView:
        result: models.AgentView = self._t.request(R.get_agent(agent_id))
        return result

    def create_version(self, agent_id: str, /, *, idempotency_key: str | None = None, **body: Unpack[models.CreateAgentVersionRequest]) -> models.AgentVersionView:
        result: models.AgentVersionView = self._t.request(R.create_version(agent_id, body, idempotency_key))
        return result

    def get_version(self, version_id: str) -> models.AgentVersionView:
        result: models.AgentVersionView = self._t.request(R.get_version(version_id))
        return result

    def model_providers(self) -> models.ModelProviderList:
        """The model providers a version can name, and whether this server can run each."""
        result: models.ModelProviderList = self._t.request(R.list_model_providers())
        return result

    def list(self, *, limit: int | None = None) -> Iterator[models.AgentView]:
        """Every item, page after page."""
        return iterate(self._t, lambda cursor: R.list_agents({"limit": limit}, cursor))

    def list_versions(self, agent_id: str, *, limit: int | None = None) -> Iterator[models.AgentVersionView]:
        """Every item, page after page."""
        return iterate(self._t, lambda cursor: R.list_versions(agent_id, {"limit": limit}, cursor))


class KnowledgeDocuments:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def create(self, *, idempotency_key: str | None = None, **body: Unpack[models.CreateDocumentRequest]) -> models.DocumentView:
        result: models.DocumentView = self._t.request(R.create_document(body, idempotency_key))
        return result

    def get(self, doc_id: str) -> models.DocumentView:
        result: models.DocumentView = self._t.request(R.get_document(doc_id))
        return result

    def delete(self, doc_id: str) -> Any:
        result: Any = self._t.request(R.delete_document(doc_id))
        return result

    def list(self, *, limit: int | None = None, status: str | None = None, knowledge_base_id: str | None = None) -> Iterator[models.DocumentView]:
        """Every item, page after page (newest first), optionally by status and knowledge base."""
        return iterate(self._t, lambda cursor: R.list_documents({"limit": limit, "status": status, "knowledge_base_id": knowledge_base_id}, cursor))

    def replace(self, doc_id: str, /, *, idempotency_key: str | None = None, **body: Unpack[models.ReplaceDocumentRequest]) -> models.DocumentView:
        """Replaces the document's text: a new revision (search serves the previous one until it is ready); one revision however often it is retried."""
        result: models.DocumentView = self._t.request(R.replace_document(doc_id, body, idempotency_key))
        return result

    def replace_file(
        self,
        doc_id: str,
        file: FileInput,
        /,
        *,
        file_name: str | None = None,
        title: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        org_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> models.DocumentView:
        """Replaces the document by a new file (a path, a binary file object or bytes): a new revision, one however often it is retried."""
        fields = {"title": title, "metadata": metadata, "org_id": org_id}
        result: models.DocumentView = self._t.request(R.replace_file(doc_id, file, file_name, fields, idempotency_key))
        return result


class KnowledgeFiles:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def upload(
        self,
        file: FileInput,
        /,
        *,
        file_name: str | None = None,
        title: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        knowledge_base_id: str | None = None,
        org_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> models.DocumentView:
        """Adds a document from a file (a path, a binary file object or bytes; PDF, DOCX, HTML, Markdown or text), ingested in the
        background (`documents.get` shows when it is ready). Created once, however often it is retried."""
        fields = {"title": title, "metadata": metadata, "knowledge_base_id": knowledge_base_id, "org_id": org_id}
        result: models.DocumentView = self._t.request(R.upload_file(file, file_name, fields, idempotency_key))
        return result

    def download(self, doc_id: str) -> DownloadedFile:
        """The file the document was made from, as uploaded: `content`, `file_name` and `media_type`."""
        return downloaded(self._t.request(R.download_file(doc_id)))


class KnowledgeBatches:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def create(
        self,
        *,
        files: Sequence[FileInput | tuple[str, FileInput]] | None = None,
        documents: Sequence[models.BatchDocumentRequest] | None = None,
        org_id: str | None = None,
        knowledge_base_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> models.KnowledgeBatchView:
        """Adds up to 500 documents, all or none: `files` (paths, binary file objects, bytes, or (file_name, file) pairs; `metadata` set on
        each) as multipart/form-data, or `documents` (texts, which need `org_id`) as JSON. Created once, however often it is retried."""
        fields = {"org_id": org_id, "knowledge_base_id": knowledge_base_id, "metadata": metadata}
        result: models.KnowledgeBatchView = self._t.request(R.create_batch(files, documents, fields, idempotency_key))
        return result

    def get(self, batch_id: str) -> models.KnowledgeBatchView:
        result: models.KnowledgeBatchView = self._t.request(R.get_batch(batch_id))
        return result

    def cancel(self, batch_id: str) -> models.KnowledgeBatchView:
        """Documents not yet begun end failed, those being ingested finish; the same however often it arrives."""
        result: models.KnowledgeBatchView = self._t.request(R.cancel_batch(batch_id))
        return result


class KnowledgeBases:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def create(self, *, idempotency_key: str | None = None, **body: Unpack[models.CreateKnowledgeBaseRequest]) -> models.KnowledgeBaseView:
        result: models.KnowledgeBaseView = self._t.request(R.create_knowledge_base(body, idempotency_key))
        return result

    def get(self, knowledge_base_id: str) -> models.KnowledgeBaseView:
        result: models.KnowledgeBaseView = self._t.request(R.get_knowledge_base(knowledge_base_id))
        return result

    def list(self, *, org_id: str | None = None, limit: int | None = None) -> Iterator[models.KnowledgeBaseView]:
        """Every item, page after page (newest first)."""
        return iterate(self._t, lambda cursor: R.list_knowledge_bases({"org_id": org_id, "limit": limit}, cursor))

    def update(self, knowledge_base_id: str, /, **body: Unpack[models.UpdateKnowledgeBaseRequest]) -> models.KnowledgeBaseView:
        result: models.KnowledgeBaseView = self._t.request(R.update_knowledge_base(knowledge_base_id, body))
        return result

    def delete(self, knowledge_base_id: str, *, cascade: bool = False) -> None:
        """An empty base (ConflictError `knowledge_base_not_empty` otherwise), or with cascade=True its documents too."""
        self._t.request(R.delete_knowledge_base(knowledge_base_id, cascade))


class Knowledge:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport
        self.documents = KnowledgeDocuments(transport)
        self.files = KnowledgeFiles(transport)
        self.batches = KnowledgeBatches(transport)

    def search(self, **body: Unpack[models.KnowledgeSearchRequest]) -> models.KnowledgeSearchResponse:
        result: models.KnowledgeSearchResponse = self._t.request(R.search(body))
        return result

    def query(self, **body: Unpack[models.KnowledgeQueryRequest]) -> models.KnowledgeQueryResponse:
        result: models.KnowledgeQueryResponse = self._t.request(R.query(body))
        return result


class Videos:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def create(self, *, idempotency_key: str | None = None, **body: Unpack[models.CreateGenerationRequest]) -> models.VideoGenerationResponse:
        result: models.VideoGenerationResponse = self._t.request(R.create_video(body, idempotency_key))
        return result

    def get(self, ids: Sequence[str]) -> list[models.VideoGenerationResponse]:
        result: list[models.VideoGenerationResponse] = self._t.request(R.get_videos(ids))
        return result

    def extend(self, video_id: str, /, *, idempotency_key: str | None = None, **body: Unpack[models.CreateGenerationRequest]) -> models.VideoGenerationResponse:
        result: models.VideoGenerationResponse = self._t.request(R.extend_video(video_id, body, idempotency_key))
        return result

    def cancel(self, video_id: str) -> models.VideoGenerationResponse:
        result: models.VideoGenerationResponse = self._t.request(R.cancel_video(video_id))
        return result


class Webhooks:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def create(self, *, idempotency_key: str | None = None, **body: Unpack[models.CreateWebhookEndpointRequest]) -> models.WebhookEndpointWithSecret:
        result: models.WebhookEndpointWithSecret = self._t.request(R.create_endpoint(body, idempotency_key))
        return result

    def get(self, endpoint_id: str) -> models.WebhookEndpointView:
        result: models.WebhookEndpointView = self._t.request(R.get_endpoint(endpoint_id))
        return result

    def update(self, endpoint_id: str, /, **body: Unpack[models.UpdateWebhookEndpointRequest]) -> models.WebhookEndpointView:
        result: models.WebhookEndpointView = self._t.request(R.update_endpoint(endpoint_id, body))
        return result

    def delete(self, endpoint_id: str) -> Any:
        result: Any = self._t.request(R.delete_endpoint(endpoint_id))
        return result

    def rotate_secret(self, endpoint_id: str, /, **body: Unpack[models.RotateSecretRequest]) -> models.WebhookEndpointWithSecret:
        result: models.WebhookEndpointWithSecret = self._t.request(R.rotate_secret(endpoint_id, body or {}))
        return result

    def send_test_event(self, endpoint_id: str) -> Any:
        result: Any = self._t.request(R.send_test_event(endpoint_id))
        return result

    def get_delivery(self, endpoint_id: str, delivery_id: str) -> models.WebhookDeliveryView:
        result: models.WebhookDeliveryView = self._t.request(R.get_delivery(endpoint_id, delivery_id))
        return result

    def retry_delivery(self, endpoint_id: str, delivery_id: str) -> models.WebhookDeliveryView:
        result: models.WebhookDeliveryView = self._t.request(R.retry_delivery(endpoint_id, delivery_id))
        return result

    def recover(self, endpoint_id: str, *, since: str | datetime) -> models.RecoveredDeliveriesView:
        """Re-sends now every failed delivery created since `since` (at most 30 days back), oldest first, at most 1 000 per call: `has_more` says to call again."""
        result: models.RecoveredDeliveriesView = self._t.request(R.recover_deliveries(endpoint_id, since))
        return result

    def list(self, *, limit: int | None = None) -> Iterator[models.WebhookEndpointView]:
        """Every item, page after page."""
        return iterate(self._t, lambda cursor: R.list_endpoints({"limit": limit}, cursor))

    def deliveries(
        self,
        endpoint_id: str,
        *,
        status: str | None = None,
        event_type: str | None = None,
        event_id: str | None = None,
        limit: int | None = None,
    ) -> Iterator[models.WebhookDeliveryView]:
        """Every item, page after page; `status`, `event_type` and `event_id` (the message id, `webhook-id`) narrow the log."""
        params = {"status": status, "event_type": event_type, "event_id": event_id, "limit": limit}
        return iterate(self._t, lambda cursor: R.list_deliveries(endpoint_id, params, cursor))

    def verify(self, payload: str | bytes, headers: Mapping[str, str], secret: str | Sequence[str]) -> dict[str, Any]:
        """Checks a delivered webhook's signature (both secrets during a rotation) and returns the event."""
        return verify_webhook(payload, headers, secret)


class ApiKeys:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def create(self, **body: Unpack[models.CreateApiKeyRequest]) -> models.IssuedApiKeyView:
        result: models.IssuedApiKeyView = self._t.request(R.create_key(body))
        return result

    def roll(self, key_id: str, /, **body: Unpack[models.RollApiKeyRequest]) -> models.IssuedApiKeyView:
        result: models.IssuedApiKeyView = self._t.request(R.roll_key(key_id, body or {}))
        return result

    def revoke(self, key_id: str) -> models.ApiKeyView:
        result: models.ApiKeyView = self._t.request(R.revoke_key(key_id))
        return result

    def whoami(self) -> Any:
        result: Any = self._t.request(R.whoami())
        return result

    def list(self, *, limit: int | None = None) -> Iterator[models.ApiKeyView]:
        """Every item, page after page."""
        return iterate(self._t, lambda cursor: R.list_keys({"limit": limit}, cursor))


class Tokens:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def balance(self) -> models.TokenBalanceView:
        result: models.TokenBalanceView = self._t.request(R.balance())
        return result

    def entries(self, *, limit: int | None = None) -> Iterator[models.TokenEntryView]:
        """Every item, page after page."""
        return iterate(self._t, lambda cursor: R.list_entries({"limit": limit}, cursor))


class ModelCredentials:
    """The organisation's own model-provider keys (scope *): its runs on a provider with a key here use it, and the
    server's prices do not apply to them. Keys are sealed at rest; every answer shows them masked."""

    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def list(self) -> models.ModelCredentialList:
        result: models.ModelCredentialList = self._t.request(R.list_model_credentials())
        return result

    def put(self, provider: str, /, **body: Unpack[models.PutModelCredentialRequest]) -> models.ModelCredentialView:
        """Sets (or replaces) the key for the provider."""
        result: models.ModelCredentialView = self._t.request(R.put_model_credential(provider, body))
        return result

    def remove(self, provider: str) -> None:
        """Removes the key: the organisation's runs on the provider go back to the server's key, if it shares one."""
        self._t.request(R.delete_model_credential(provider))

    def check(self, provider: str) -> models.ModelCredentialCheckView:
        """Whether the provider accepts the key, by one call that costs nothing (listing its models)."""
        result: models.ModelCredentialCheckView = self._t.request(R.check_model_credential(provider))
        return result


class Usage:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def get(self) -> models.UsageView:
        """What happened in the organisation over 24 h and 30 days; each section only with its scope."""
        result: models.UsageView = self._t.request(R.usage())
        return result


class Admin:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def create_org(self, **body: Unpack[models.CreateOrgRequest]) -> models.OrgView:
        result: models.OrgView = self._t.request(R.create_org(body))
        return result

    def create_api_key(self, org_id: str, /, **body: Unpack[models.CreateApiKeyRequest]) -> models.IssuedApiKeyView:
        result: models.IssuedApiKeyView = self._t.request(R.admin_create_key(org_id, body))
        return result

    def update_api_key(self, key_id: str, /, **body: Unpack[models.UpdateApiKeyRequest]) -> models.ApiKeyView:
        result: models.ApiKeyView = self._t.request(R.update_admin_key(key_id, body))
        return result

    def revoke_api_key(self, key_id: str) -> models.ApiKeyView:
        result: models.ApiKeyView = self._t.request(R.admin_revoke_key(key_id))
        return result

    def update_limits(self, org_id: str, /, **body: Unpack[models.UpdateOrgLimitsRequest]) -> models.OrgLimitsView:
        result: models.OrgLimitsView = self._t.request(R.update_limits(org_id, body))
        return result

    def grant_tokens(self, org_id: str, /, *, idempotency_key: str | None = None, **body: Unpack[models.CreateTokenGrantRequest]) -> models.TokenGrantView:
        result: models.TokenGrantView = self._t.request(R.grant_tokens(org_id, body, idempotency_key))
        return result

    def list_orgs(self, *, limit: int | None = None) -> Iterator[models.OrgView]:
        """Every item, page after page."""
        return iterate(self._t, lambda cursor: R.list_orgs({"limit": limit}, cursor))

    def list_api_keys(self, org_id: str, *, limit: int | None = None) -> Iterator[models.ApiKeyView]:
        """Every item, page after page."""
        return iterate(self._t, lambda cursor: R.admin_list_keys(org_id, {"limit": limit}, cursor))

    def roll_api_key(self, key_id: str, /, **body: Unpack[models.RollApiKeyRequest]) -> models.IssuedApiKeyView:
        result: models.IssuedApiKeyView = self._t.request(R.admin_roll_key(key_id, body or {}))
        return result

    def get_limits(self, org_id: str) -> models.OrgLimitsView:
        result: models.OrgLimitsView = self._t.request(R.get_limits(org_id))
        return result

    def get_model_prices(self, org_id: str) -> models.ModelPricesView:
        """The organisation's own prices of model turns, and the configured ones (MODEL_PRICES) that apply where it has none."""
        result: models.ModelPricesView = self._t.request(R.get_model_prices(org_id))
        return result

    def replace_model_prices(self, org_id: str, /, **body: Unpack[models.ReplaceModelPricesRequest]) -> models.ModelPricesView:
        """Replaces the organisation's own prices (service tokens per 1 000 input and output tokens); [] puts MODEL_PRICES back."""
        result: models.ModelPricesView = self._t.request(R.replace_model_prices(org_id, body))
        return result

    def knowledge_index(self, org_id: str) -> models.KnowledgeIndexView:
        result: models.KnowledgeIndexView = self._t.request(R.knowledge_index(org_id))
        return result

    def disable_webhook_endpoints(self, org_id: str, /, **body: Unpack[models.DisableWebhookEndpointsRequest]) -> models.DisabledWebhookEndpointsView:
        result: models.DisabledWebhookEndpointsView = self._t.request(R.disable_endpoints(org_id, body or {}))
        return result


class Pylon:
    """The Pylon API (`Pylon` blocks, `AsyncPylon` runs on asyncio; both have the same methods). It reads PYLON_API_KEY
    and PYLON_URL unless given `api_key` and `base_url`; creates are retried with one Idempotency-Key."""

    def __init__(self, *, api_key: str | None = None, base_url: str | None = None, max_retries: int = 2, timeout: float = 60.0, http_client: httpx.Client | None = None) -> None:
        transport = SyncTransport(api_key, base_url, max_retries, timeout, http_client)
        self.agent_runs = AgentRuns(transport)
        self.agent_schedules = AgentSchedules(transport)
        self.agents = Agents(transport)
        self.conversations = Conversations(transport)
        self.knowledge = Knowledge(transport)
        self.knowledge_bases = KnowledgeBases(transport)
        self.videos = Videos(transport)
        self.webhooks = Webhooks(transport)
        self.api_keys = ApiKeys(transport)
        self.model_credentials = ModelCredentials(transport)
        self.tokens = Tokens(transport)
        self.usage = Usage(transport)
        self.admin = Admin(transport)
        self._transport = transport

    def close(self) -> None:
        self._transport.http.close()

    def __enter__(self) -> Pylon:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
