"""A run's events over Server-Sent Events, resumed with Last-Event-ID after a dropped connection."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import httpx

from ._errors import ConnectionError, error_of
from ._transport import AsyncTransport, SyncTransport, delay_before

TERMINAL_EVENTS = frozenset({"succeeded", "failed"})


@dataclass(frozen=True)
class RunEvent:
    seq: int
    type: str
    data: Any


class _Parser:
    """Turns SSE lines into events: `id:` is the seq, `event:` the type, `data:` the JSON; comments are skipped."""

    def __init__(self) -> None:
        self.fields: dict[str, str] = {}
        self.data: list[str] = []

    def feed(self, line: str) -> RunEvent | None:
        if line == "":
            event = None
            if "id" in self.fields and self.data:
                event = RunEvent(int(self.fields["id"]), self.fields.get("event", "message"), json.loads("\n".join(self.data)))
            self.fields, self.data = {}, []
            return event
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            self.data.append(value)
        elif name in ("id", "event"):
            self.fields[name] = value
        return None


def _path(run_id: str) -> str:
    return f"/api/v1/agent-runs/{run_id}/events"


def stream_run(transport: SyncTransport, run_id: str, after: int = 0, max_reconnects: int = 10) -> Iterator[RunEvent]:
    last, reconnects = after, 0
    while True:
        retry_after = None
        try:
            headers = transport.headers(accept="text/event-stream") | ({"last-event-id": str(last)} if last else {})
            with transport.http.stream("GET", transport.base_url + _path(run_id), headers=headers, timeout=httpx.Timeout(transport.timeout, read=None)) as response:
                if not response.is_success:
                    response.read()
                    failure = error_of(response)
                    if failure.status not in (429, 503):
                        raise failure
                    retry_after = failure.retry_after
                else:
                    parser = _Parser()
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


async def astream_run(transport: AsyncTransport, run_id: str, after: int = 0, max_reconnects: int = 10) -> AsyncIterator[RunEvent]:
    last, reconnects = after, 0
    while True:
        retry_after = None
        try:
            headers = transport.headers(accept="text/event-stream") | ({"last-event-id": str(last)} if last else {})
            async with transport.http.stream("GET", transport.base_url + _path(run_id), headers=headers, timeout=httpx.Timeout(transport.timeout, read=None)) as response:
                if not response.is_success:
                    await response.aread()
                    failure = error_of(response)
                    if failure.status not in (429, 503):
                        raise failure
                    retry_after = failure.retry_after
                else:
                    parser = _Parser()
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


