"""The API's errors as exceptions: one class per kind, each with status, code, detail, request id and Retry-After."""

from __future__ import annotations

import json

import httpx


class PylonError(Exception):
    """An error the API answered: `{"error": code}` with its status and headers."""

    def __init__(self, status: int, code: str, detail: str | None, request_id: str | None, retry_after: float | None) -> None:
        super().__init__(f"{status} {code}" + (f": {detail}" if detail else "") + (f" (request {request_id})" if request_id else ""))
        self.status = status
        self.code = code
        self.detail = detail
        self.request_id = request_id
        self.retry_after = retry_after


class InvalidRequestError(PylonError):
    """400: the request is not valid (the detail says which field)."""


class AuthenticationError(PylonError):
    """401: no API key, or one that is unknown, revoked or expired."""


class InsufficientTokensError(PylonError):
    """402: the organisation's token balance does not cover it."""


class PermissionDeniedError(PylonError):
    """403: the key lacks the scope."""


class NotFoundError(PylonError):
    """404: no such thing, or another organisation's."""


class RequestRejectedError(PylonError):
    """405, 408, 413, 414, 415, 417, 431: the request's form was refused."""


class ConflictError(PylonError):
    """409: the state does not allow it."""


class RateLimitedError(PylonError):
    """429: over the key's rate or a full backlog; `retry_after` says when to try again."""


class InternalServerError(PylonError):
    """500: the server, or a service behind it, failed."""


class ServiceUnavailableError(PylonError):
    """503: the API process is shutting down or its database is not answering; a retry succeeds."""


class ConnectionError(Exception):  # noqa: A001 - the SDK's own, like httpx's
    """The request got no answer: the connection failed, dropped or timed out."""


class WebhookVerificationError(Exception):
    """A webhook whose signature, timestamp or headers do not verify."""


# One class per code, under the class of its kind (catch ConflictError for every 409, or RunNotCancellableError for one).


class MissingApiKeyError(AuthenticationError):
    """`missing_api_key`"""


class InvalidApiKeyError(AuthenticationError):
    """`invalid_api_key`"""


class InsufficientScopeError(PermissionDeniedError):
    """`insufficient_scope`"""


class MethodNotAllowedError(RequestRejectedError):
    """`method_not_allowed`"""


class RequestTimeoutError(RequestRejectedError):
    """`request_timeout`"""


class PayloadTooLargeError(RequestRejectedError):
    """`payload_too_large`"""


class UriTooLongError(RequestRejectedError):
    """`uri_too_long`"""


class UnsupportedMediaTypeError(RequestRejectedError):
    """`unsupported_media_type`"""


class ExpectationFailedError(RequestRejectedError):
    """`expectation_failed`"""


class HeaderFieldsTooLargeError(RequestRejectedError):
    """`header_fields_too_large`"""


class IdempotencyKeyReusedError(ConflictError):
    """`idempotency_key_reused`"""


class RunNotCancellableError(ConflictError):
    """`run_not_cancellable`"""


class RunNotWaitingError(ConflictError):
    """`run_not_waiting`"""


class ConversationBusyError(ConflictError):
    """`conversation_busy`"""


class GenerationNotCompletedError(ConflictError):
    """`generation_not_completed`"""


class GenerationNotCancellableError(ConflictError):
    """`generation_not_cancellable`"""


class EndpointDisabledError(ConflictError):
    """`endpoint_disabled`"""


class LimitExceededError(ConflictError):
    """`limit_exceeded`"""


class UnexpectedError(InternalServerError):
    """`internal_error`"""


class OrchestratorUnavailableError(InternalServerError):
    """`orchestrator_unavailable`"""


class EmbeddingUnavailableError(InternalServerError):
    """`embedding_unavailable`"""


class VideoProviderUnavailableError(InternalServerError):
    """`video_provider_unavailable`"""


class ShuttingDownError(ServiceUnavailableError):
    """`service_unavailable`"""


class DatabaseUnavailableError(ServiceUnavailableError):
    """`database_unavailable`"""


_CLASS_OF_CODE: dict[str, type[PylonError]] = {
    "invalid_request": InvalidRequestError,
    "missing_api_key": MissingApiKeyError,
    "invalid_api_key": InvalidApiKeyError,
    "insufficient_tokens": InsufficientTokensError,
    "insufficient_scope": InsufficientScopeError,
    "not_found": NotFoundError,
    "method_not_allowed": MethodNotAllowedError,
    "request_timeout": RequestTimeoutError,
    "payload_too_large": PayloadTooLargeError,
    "uri_too_long": UriTooLongError,
    "unsupported_media_type": UnsupportedMediaTypeError,
    "expectation_failed": ExpectationFailedError,
    "header_fields_too_large": HeaderFieldsTooLargeError,
    "idempotency_key_reused": IdempotencyKeyReusedError,
    "run_not_cancellable": RunNotCancellableError,
    "run_not_waiting": RunNotWaitingError,
    "conversation_busy": ConversationBusyError,
    "generation_not_completed": GenerationNotCompletedError,
    "generation_not_cancellable": GenerationNotCancellableError,
    "endpoint_disabled": EndpointDisabledError,
    "limit_exceeded": LimitExceededError,
    "rate_limited": RateLimitedError,
    "internal_error": UnexpectedError,
    "orchestrator_unavailable": OrchestratorUnavailableError,
    "embedding_unavailable": EmbeddingUnavailableError,
    "video_provider_unavailable": VideoProviderUnavailableError,
    "service_unavailable": ShuttingDownError,
    "database_unavailable": DatabaseUnavailableError,
}

_CLASS_OF_STATUS: dict[int, type[PylonError]] = {
    400: InvalidRequestError,
    401: AuthenticationError,
    402: InsufficientTokensError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    429: RateLimitedError,
    503: ServiceUnavailableError,
}


def error_of(response: httpx.Response) -> PylonError:
    try:
        body = json.loads(response.text)
        code = body["error"] if isinstance(body, dict) and isinstance(body.get("error"), str) else f"http_{response.status_code}"
    except ValueError:
        code = f"http_{response.status_code}"
    retry_after_header = response.headers.get("retry-after")
    try:
        retry_after = float(retry_after_header) if retry_after_header is not None else None
    except ValueError:
        retry_after = None
    status = response.status_code
    cls = _CLASS_OF_CODE.get(code) or _CLASS_OF_STATUS.get(status) or (InternalServerError if status >= 500 else RequestRejectedError)
    return cls(status, code, response.headers.get("error-detail"), response.headers.get("x-request-id"), retry_after)
