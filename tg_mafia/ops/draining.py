"""The drain before a deploy (SIGTERM, or the owner's /drain): this process takes no new
game (no new lobby, no lobby starting), lets its running games finish, keeps sending, and
says when it may exit: once none of its games runs, or at the limit (DRAIN_SECONDS). Games
still running then stay in the database and resume at the next start.

Which games are "its" games is the caller's `running` count: with one process, every
running game in the database; with several replicas, the games this replica holds."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from tg_mafia.waiting import wait_set

log = logging.getLogger(__name__)

# How often the count of running games is read again when no game ended meanwhile.
POLL_SECONDS = 5.0


class Draining:
    def __init__(self, now: Callable[[], float], limit_seconds: float) -> None:
        self.now = now  # the bot's clock
        self.limit_seconds = limit_seconds
        self.since: float | None = None  # the bot clock's time the drain began
        self._begun = asyncio.Event()
        self._changed = asyncio.Event()

    @property
    def active(self) -> bool:
        return self.since is not None

    def begin(self, why: str) -> bool:
        """Starts the drain; False when it had started already."""
        if self.since is not None:
            return False
        self.since = self.now()
        self._begun.set()
        log.info(
            "draining (%s): no new games; exit when the running games end, at the latest in %d s",
            why,
            self.limit_seconds,
        )
        return True

    def seconds_left(self) -> float:
        """Real seconds until the limit (the full limit before the drain begins)."""
        if self.since is None:
            return float(self.limit_seconds)
        return max(0.0, self.since + self.limit_seconds - self.now())

    def game_changed(self) -> None:
        """A game ended (or was cancelled): the waiter counts again at once."""
        self._changed.set()

    async def begun(self) -> None:
        await self._begun.wait()

    async def finished(self, running: Callable[[], Awaitable[int]]) -> int:
        """Once the drain has begun: waits until `running()` is 0 or the limit passes;
        returns the games still running (0: all ended)."""
        await self.begun()
        while True:
            self._changed.clear()
            left = await running()
            remaining = self.seconds_left()
            if left == 0 or remaining <= 0:
                return left
            await wait_set(self._changed, min(remaining, POLL_SECONDS))
