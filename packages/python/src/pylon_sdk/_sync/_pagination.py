# Generated from pylon_sdk/_async/_pagination.py by packages/python/scripts/generate_sync.py (unasync): do not edit.
# Edit the async source and run that script.
"""Lists, page by page from a cursor."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .._transport import PageRequest
from ._transport import SyncTransport


def iterate(transport: SyncTransport, page_request: PageRequest) -> Iterator[Any]:
    cursor = None
    while True:
        page = transport.request(page_request(cursor))
        for item in page["data"]:
            yield item
        cursor = page.get("next_cursor")
        if not cursor:
            return
