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
        self._owner = True  # closes the pool; a view (`view`) does not
        if db.dialect == "sqlite":
            self._pool = GroupCommitter(db)
        else:
            self._pool = ThreadPoolExecutor(workers or 4, thread_name_prefix="tg-mafia-db")

    def view(self, db: Database) -> AsyncDb:
        """The same worker thread(s), calling with `db` (one bot's handle on the same
        database, `Database.for_bot`): the bots of one process share SQLite's one writer
        and its group commits. Closing a view leaves the pool to its owner."""
        other = AsyncDb.__new__(AsyncDb)
        other.db, other._pool, other._owner = db, self._pool, False
        return other

    async def run(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """`call(db, *args, **kwargs)` in a worker thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._pool, functools.partial(call, self.db, *args, **kwargs)
        )

    def close(self) -> None:
        if self._owner:
            self._pool.shutdown(wait=True)
