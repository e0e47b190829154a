"""Lists, page by page from a cursor."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from ._transport import AsyncTransport, Request, SyncTransport

PageRequest = Callable[[Any], Request]  # cursor (None for the first page) -> the request of that page


def iterate(transport: SyncTransport, page_request: PageRequest) -> Iterator[Any]:
    cursor = None
    while True:
        page = transport.request(page_request(cursor))
        yield from page["data"]
        cursor = page.get("next_cursor")
        if not cursor:
            return


async def aiterate(transport: AsyncTransport, page_request: PageRequest) -> AsyncIterator[Any]:
    cursor = None
    while True:
        page = await transport.request(page_request(cursor))
        for item in page["data"]:
            yield item
        cursor = page.get("next_cursor")
        if not cursor:
            return
