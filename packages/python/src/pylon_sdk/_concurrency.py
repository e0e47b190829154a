"""The few steps where the async client does what the sync one must not, as a pair each: the async one, used in
pylon_sdk/_async, and the sync one its generated copy in pylon_sdk/_sync calls instead (unasync maps each
`a…` name to its sync twin; see packages/python/scripts/generate_sync.py)."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import TypeVar

T = TypeVar("T")
U = TypeVar("U")


async def asettle(value: Awaitable[T] | T) -> T:
    """What a user's handler or callback gave, awaited if it was a coroutine (AsyncPylon takes either kind)."""
    return await value if inspect.isawaitable(value) else value


def settle(value: T) -> T:
    """What a user's handler or callback gave (Pylon takes plain functions only)."""
    return value


async def aiterate_after(start: Callable[[], Awaitable[T]], then: Callable[[T], AsyncIterator[U]]) -> AsyncIterator[U]:
    """The items of `then(await start())`, with `start` awaited on the first iteration (an async method cannot do more
    before it returns its iterator)."""
    async for item in then(await start()):
        yield item


def iterate_after(start: Callable[[], T], then: Callable[[T], Iterator[U]]) -> Iterator[U]:
    """The items of `then(start())`, with `start` called now, before the iterator is returned."""
    return then(start())
