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

from tg_mafia.runtime.db.groupcommit import GroupCommitter
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

    def close(self) -> None:
        self._pool.shutdown(wait=True)
