# Generated from pylon_sdk/_async/_transport.py by packages/python/scripts/generate_sync.py (unasync): do not edit.
# Edit the async source and run that script.
"""One HTTP exchange with the API, retried as is safe (the rules are in pylon_sdk/_transport.py)."""

from __future__ import annotations

import time
from typing import Any

import httpx

from .._errors import ConnectionError, PylonError, error_of
from .._transport import Request, TransportBase, delay_before, should_retry


class SyncTransport(TransportBase):
    def __init__(self, api_key: str | None, base_url: str | None, max_retries: int, timeout: float, http: httpx.Client | None) -> None:
        super().__init__(api_key, base_url, max_retries, timeout)
        self.http = http or httpx.Client(timeout=timeout)

    def request(self, request: Request) -> Any:
        for attempt in range(self.max_retries + 1):
            failure: Exception
            try:
                response = self.http.request(
                    request.method, self.base_url + request.path, params=self.params(request.query), headers=self.headers(request), **self.send_args(request)
                )
                if response.is_success:
                    return self.decode(request, response)
                failure = error_of(response)
            except httpx.TransportError as error:
                failure = ConnectionError(f"{request.method} {request.path} failed: {error}")
            if not should_retry(failure, request) or attempt >= self.max_retries:
                raise failure
            time.sleep(delay_before(attempt, failure.retry_after if isinstance(failure, PylonError) else None))
        raise AssertionError("unreachable")
