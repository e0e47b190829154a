"""Lists, page by page from a cursor."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from .._transport import PageRequest
from ._transport import AsyncTransport


async def aiterate(transport: AsyncTransport, page_request: PageRequest) -> AsyncIterator[Any]:
    cursor = None
    while True:
        page = await transport.request(page_request(cursor))
        for item in page["data"]:
            yield item
        cursor = page.get("next_cursor")
        if not cursor:
            return
