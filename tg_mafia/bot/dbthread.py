"""The database, off the event loop: every call runs in a worker thread,
so a slow disk or a distant PostgreSQL never stalls the bot's other
updates. SQLite gets one thread (it has one writer anyway) that commits
the calls queued together at once (groupcommit.py); PostgreSQL a few."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, TypeVar

from tg_mafia.bot.groupcommit import GroupCommitter, Lane, LaneExecutor
from tg_mafia.storage import Database

T = TypeVar("T")


class AsyncDb:
    def __init__(self, db: Database, workers: int | None = None) -> None:
        self.db = db
        self._pool: Executor
        if db.dialect == "sqlite":
            self._pool = GroupCommitter(db)
        else:
            self._pool = ThreadPoolExecutor(workers or 4, thread_name_prefix="tg-mafia-db")

    async def run(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """`call(db, *args, **kwargs)` in a worker thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._pool, functools.partial(call, self.db, *args, **kwargs)
        )

    async def run_move(
        self,
        call: Callable[..., T],
        *args: Any,
        decided: Callable[[T], None] | None = None,
        **kwargs: Any,
    ) -> T:
        """A game's move (`call`): on SQLite ahead of the background's calls, and a
        press (`decided` given: someone waits for its popup) ahead of the other
        moves too, `decided` called on the event loop with its result as soon as it
        has run, before its batch's commit makes it durable. On PostgreSQL each call
        commits alone: `decided` comes with the result, after the commit."""
        loop = asyncio.get_running_loop()
        bound = functools.partial(call, self.db, *args, **kwargs)
        if not isinstance(self._pool, GroupCommitter):
            result = await loop.run_in_executor(self._pool, bound)
            if decided is not None:
                decided(result)
            return result
        if decided is None:
            return await loop.run_in_executor(LaneExecutor(self._pool, Lane.MOVE), bound)
        hand_over = decided

        def on_run(value: T) -> None:
            loop.call_soon_threadsafe(hand_over, value)

        return await loop.run_in_executor(LaneExecutor(self._pool, Lane.PRESS, on_run), bound)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
