"""One HTTP exchange with the API, retried as is safe (the same rules as the TypeScript SDK, docs/sdk.md): the
request, its headers and the retry rules, shared by the transports of pylon_sdk/_async and pylon_sdk/_sync."""

from __future__ import annotations

import json
import os
import random
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

import httpx

from ._errors import PylonError

QueryValue = Union[str, int, float, bool, Sequence[Union[str, int]], None]

RETRY_BASE_SECONDS = 0.5
RETRY_MAX_SECONDS = 8.0


def new_idempotency_key() -> str:
    return str(uuid.uuid4())


@dataclass
class Request:
    method: str
    path: str
    query: Mapping[str, QueryValue] = field(default_factory=dict)
    body: Any = None
    idempotency_key: str | None = None
    #: A POST that does the same however often it arrives (a search, a cancel): retried like a read.
    repeatable: bool = False
    #: A multipart/form-data body instead of JSON: its file parts as (part name, (file name, bytes)), read
    #: before the first attempt so that every retry sends them whole, and its text fields.
    files: list[tuple[str, tuple[str, bytes]]] | None = None
    form: dict[str, str] | None = None
    #: Answer the response itself (a download) instead of its JSON.
    raw: bool = False

    @property
    def may_repeat(self) -> bool:
        return self.method in ("GET", "DELETE") or self.idempotency_key is not None or self.repeatable


PageRequest = Callable[[Any], Request]  # cursor (None for the first page) -> the request of that page


def delay_before(attempt: int, retry_after: float | None) -> float:
    """Retry-After when the API gave one; otherwise exponential backoff with full jitter."""
    if retry_after is not None:
        return retry_after
    return random.random() * min(RETRY_MAX_SECONDS, RETRY_BASE_SECONDS * 2.0**attempt)


def should_retry(failure: Exception, request: Request) -> bool:
    """A 429 always (refused before anything was done); a 503 or a lost connection only when repeating cannot do a thing twice."""
    if isinstance(failure, PylonError):
        return failure.status == 429 or (failure.status == 503 and request.may_repeat)
    return request.may_repeat


class TransportBase:
    def __init__(self, api_key: str | None, base_url: str | None, max_retries: int, timeout: float) -> None:
        self.api_key = api_key if api_key is not None else os.environ.get("PYLON_API_KEY")
        self.base_url = (base_url or os.environ.get("PYLON_URL") or "http://127.0.0.1:3000").rstrip("/")
        self.max_retries = max_retries
        self.timeout = timeout

    def headers(self, request: Request | None = None, accept: str = "application/json") -> dict[str, str]:
        headers = {"accept": "*/*" if request is not None and request.raw else accept}
        if self.api_key:
            headers["authorization"] = f"Bearer {self.api_key}"
        if request is not None and request.body is not None:
            headers["content-type"] = "application/json"
        if request is not None and request.idempotency_key:
            headers["idempotency-key"] = request.idempotency_key
        return headers

    @staticmethod
    def params(query: Mapping[str, QueryValue]) -> list[tuple[str, str | int | float | bool | None]]:
        params: list[tuple[str, str | int | float | bool | None]] = []
        for name, value in query.items():
            if value is None:
                continue
            if isinstance(value, (list, tuple)):
                params.extend((f"{name}[{index}]", str(item)) for index, item in enumerate(value))
            elif isinstance(value, bool):
                params.append((name, "true" if value else "false"))
            else:
                params.append((name, str(value)))
        return params

    @staticmethod
    def content(request: Request) -> bytes | None:
        return None if request.body is None else json.dumps(request.body).encode()

    @staticmethod
    def send_args(request: Request) -> dict[str, Any]:
        """The body as httpx takes it: JSON bytes, or a form (httpx encodes it anew, with its boundary, on each attempt)."""
        if request.files is not None:
            return {"files": request.files, "data": request.form or {}}
        return {"content": TransportBase.content(request)}

    @staticmethod
    def decode(request: Request, response: httpx.Response) -> Any:
        if request.raw:
            return response
        return response.json() if response.content else None
