"""One HTTP exchange with the API, retried as is safe (the rules are in pylon_sdk/_transport.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from .._errors import ConnectionError, PylonError, error_of
from .._transport import Request, TransportBase, delay_before, should_retry


class AsyncTransport(TransportBase):
    def __init__(self, api_key: str | None, base_url: str | None, max_retries: int, timeout: float, http: httpx.AsyncClient | None) -> None:
        super().__init__(api_key, base_url, max_retries, timeout)
        self.http = http or httpx.AsyncClient(timeout=timeout)

    async def request(self, request: Request) -> Any:
        for attempt in range(self.max_retries + 1):
            failure: Exception
            try:
                response = await self.http.request(
                    request.method, self.base_url + request.path, params=self.params(request.query), headers=self.headers(request), **self.send_args(request)
                )
                if response.is_success:
                    return self.decode(request, response)
                failure = error_of(response)
            except httpx.TransportError as error:
                failure = ConnectionError(f"{request.method} {request.path} failed: {error}")
            if not should_retry(failure, request) or attempt >= self.max_retries:
                raise failure
            await asyncio.sleep(delay_before(attempt, failure.retry_after if isinstance(failure, PylonError) else None))
        raise AssertionError("unreachable")
