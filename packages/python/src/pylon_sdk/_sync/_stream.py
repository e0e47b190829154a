# Generated from pylon_sdk/_async/_stream.py by packages/python/scripts/generate_sync.py (unasync): do not edit.
# Edit the async source and run that script.
"""A run's events over Server-Sent Events, resumed with Last-Event-ID after a dropped connection."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx

from .._errors import ConnectionError, error_of
from .._stream import TERMINAL_EVENTS, RunEvent, SseParser, events_path
from .._transport import delay_before
from ._transport import SyncTransport


def stream_run(transport: SyncTransport, run_id: str, after: int = 0, max_reconnects: int = 10) -> Iterator[RunEvent]:
    last, reconnects = after, 0
    while True:
        retry_after = None
        try:
            headers = transport.headers(accept="text/event-stream") | ({"last-event-id": str(last)} if last else {})
            with transport.http.stream("GET", transport.base_url + events_path(run_id), headers=headers, timeout=httpx.Timeout(transport.timeout, read=None)) as response:
                if not response.is_success:
                    response.read()
                    failure = error_of(response)
                    if failure.status not in (429, 503):
                        raise failure
                    retry_after = failure.retry_after
                else:
                    parser = SseParser()
                    for line in response.iter_lines():
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
        time.sleep(delay_before(reconnects - 1, retry_after))
