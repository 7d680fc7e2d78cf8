"""What the bots of one process share of the database: its worker thread(s) (on
SQLite the one writer, whose group commits then take every bot's moves together) and,
on SQLite, the lock on the database file that keeps a second process out. Each bot's
game service takes its handle from here (`attach`) and gives it back (`detach`); the
last to go closes them."""

from __future__ import annotations

from tg_mafia.runtime.db.leader import SoleLeader
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.storage import Database


class SharedDb:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._pool: AsyncDb | None = None
        self._sole: SoleLeader | None = None
        self._users = 0

    def attach(self, db: Database) -> AsyncDb:
        """A bot's worker thread handle, on its own handle `db` of the shared database."""
        if self._pool is None:
            self._pool = AsyncDb(self.db)
        self._users += 1
        return self._pool.view(db)

    def sole_leader(self) -> SoleLeader:
        """SQLite's one process: the file's lock, one for every bot (its claim is
        made once; it is released by the last `detach`)."""
        if self._sole is None:
            self._sole = SoleLeader(self.db.engine.url.database)
        return self._sole

    def detach(self) -> None:
        self._users -= 1
        if self._users > 0:
            return
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()
        sole, self._sole = self._sole, None
        if sole is not None:
            sole.stop()
