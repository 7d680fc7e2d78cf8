"""One limit for everything a user sends the bot: commands and presses share
it (answers and popups cost the bot's budgets; one user must not spend them).
A leaky bucket per user (aiolimiter): a burst of `RATE`, then one every
`PERIOD / RATE` seconds. A limited user is told when to try again. Held by
the application (one per process), never persisted: a restart forgives."""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass
from typing import Final

from aiolimiter import AsyncLimiter
from cachetools import LRUCache

RATE: Final = 15  # inputs a user may send at once
PERIOD: Final = 30.0  # seconds in which RATE inputs drain: one every 2 s
TRACKED: Final = 10_000  # users remembered at most (the least recent are forgotten)


@dataclass(frozen=True, slots=True)
class Limited:
    wait: int  # whole seconds before the user may try again
    first: bool  # the first refusal of this spell: the one worth a message


class InputLimiter:
    def __init__(self, rate: int = RATE, period: float = PERIOD) -> None:
        self.rate = rate
        self.period = period
        self._buckets: LRUCache[int, AsyncLimiter] = LRUCache(TRACKED)
        self._told: LRUCache[int, float] = LRUCache(TRACKED)  # user -> spell's end (loop time)

    @property
    def retry_after(self) -> int:
        """Whole seconds after which a limited user has room again: the bucket
        never holds more than `rate`, and one input drains in `period / rate`."""
        return math.ceil(self.period / self.rate)

    async def take(self, user_id: int) -> Limited | None:
        """Counts one input of the user: None when it may go on, else how long
        to wait before trying again."""
        bucket = self._buckets.get(user_id)
        if bucket is None:
            bucket = self._buckets[user_id] = AsyncLimiter(self.rate, self.period)
        if not bucket.has_capacity():
            now = asyncio.get_running_loop().time()  # aiolimiter's clock
            first = self._told.get(user_id, 0.0) <= now
            if first:
                self._told[user_id] = now + self.retry_after
            return Limited(self.retry_after, first)
        await bucket.acquire()  # has room: returns at once
        return None
