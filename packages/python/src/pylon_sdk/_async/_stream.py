"""A run's events over Server-Sent Events, resumed with Last-Event-ID after a dropped connection."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx

from .._errors import ConnectionError, error_of
from .._stream import TERMINAL_EVENTS, RunEvent, SseParser, events_path
from .._transport import delay_before
from ._transport import AsyncTransport


async def astream_run(transport: AsyncTransport, run_id: str, after: int = 0, max_reconnects: int = 10) -> AsyncIterator[RunEvent]:
    last, reconnects = after, 0
    while True:
        retry_after = None
        try:
            headers = transport.headers(accept="text/event-stream") | ({"last-event-id": str(last)} if last else {})
            async with transport.http.stream("GET", transport.base_url + events_path(run_id), headers=headers, timeout=httpx.Timeout(transport.timeout, read=None)) as response:
                if not response.is_success:
                    await response.aread()
                    failure = error_of(response)
                    if failure.status not in (429, 503):
                        raise failure
                    retry_after = failure.retry_after
                else:
                    parser = SseParser()
                    async for line in response.aiter_lines():
                        event = parser.feed(line)
                        if event is None or event.seq <= last:
                            continue
                        last, reconnects = event.seq, 0
                        yield event
                        if event.type in TERMINAL_EVENTS:
                            return
        except httpx.TransportError:
            pass
        reconnects += 1
        if reconnects > max_reconnects:
            raise ConnectionError(f"the event stream of run {run_id} dropped {reconnects - 1} times in a row")
        await asyncio.sleep(delay_before(reconnects - 1, retry_after))
