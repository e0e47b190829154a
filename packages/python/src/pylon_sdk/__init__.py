"""The Pylon API client for Python: `Pylon` and `AsyncPylon` (see docs/sdk.md in the Pylon repository)."""

from . import models
from ._client import AsyncPylon, Pylon
from ._errors import (
    AuthenticationError,
    ConflictError,
    ConnectionError,
    InsufficientTokensError,
    InternalServerError,
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    PylonError,
    RateLimitedError,
    RequestRejectedError,
    ServiceUnavailableError,
    WebhookVerificationError,
)
from ._stream import TERMINAL_EVENTS, RunEvent
from ._webhooks import verify_webhook

__all__ = [
    "AsyncPylon",
    "AuthenticationError",
    "ConflictError",
    "ConnectionError",
    "InsufficientTokensError",
    "InternalServerError",
    "InvalidRequestError",
    "NotFoundError",
    "PermissionDeniedError",
    "Pylon",
    "PylonError",
    "RateLimitedError",
    "RequestRejectedError",
    "RunEvent",
    "ServiceUnavailableError",
    "TERMINAL_EVENTS",
    "WebhookVerificationError",
    "models",
    "verify_webhook",
]
