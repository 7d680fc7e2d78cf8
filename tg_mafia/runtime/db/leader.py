"""Who sends: one process at a time, the leader.

Every process (a replica) takes updates and applies moves: a game's row is
read FOR UPDATE, so moves of one game queue in the database whichever
process takes them, and each writes its calls to the shared outbox. One
process, the leader, makes the calls (so the per-group and per-bot budgets
are one process's) and keeps the games' timers (so each fires once).

- On SQLite there is one process: it holds a lock on the database file (a
  second process is refused at start) and leads.
- On PostgreSQL the leader holds a session advisory lock on a connection of
  its own. The others try to take it every second: when the leader dies its
  connection closes and the lock goes with it, so another process leads
  within about a second. The leader also listens there: a move written by
  another process notifies it (`pg_notify`), and it wakes its sender and
  arms that game's timer at once. Every replica's lock connection carries
  its name (`application_name`), so a replica can see who else runs.
- A bot's share of a PostgreSQL database is its schema (`search_path`): bots
  in two schemas of one database are strangers, each with its own lock, its
  own replicas and its own notifications (`Scope`).
- Several tokens on one database (docs/scaling.md): each bot leads on its own,
  with its own lock and replicas' names (the scope of its bot id), so its
  sending and its timers are one process's whichever other bots that process
  leads; on SQLite the one process leads them all."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from sqlalchemy import Engine, text

from tg_mafia.storage.rows import CHANNEL_SQL

log = logging.getLogger(__name__)

LEADER_LOCK: Final = 0x7467_6D61_6669_6C64  # "tgmafild": any constant shared by the replicas
NAME_PREFIX: Final = "tg-mafia"
POLL: Final = 1.0  # seconds between tries for the lock, and between checks of its connection


@dataclass(frozen=True)
class Scope:
    """What the replicas of one bot share, and the bots of other schemas do not."""

    lock: int  # the advisory lock's key
    prefix: str  # of the replicas' application_name
    channel: str  # of LISTEN/NOTIFY: storage/rows.py's CHANNEL_SQL, as the database names it


def scope_of(schema: str, channel: str, bot_id: int | None = None) -> Scope:
    """One bot's scope in one schema (`bot_id` None: the one bot of the releases before
    several tokens, with the names they used)."""
    if schema == "public" and bot_id is None:  # the names used before schemas were told apart
        return Scope(LEADER_LOCK, NAME_PREFIX, channel)
    name = schema if bot_id is None else f"{schema}/{bot_id}"
    digest = hashlib.md5(name.encode(), usedforsecurity=False).digest()  # a name only
    tag = digest.hex()[:8]
    return Scope(int.from_bytes(digest[:8], "big", signed=True), f"{NAME_PREFIX}@{tag}", channel)


def current_scope(engine: Engine, bot_id: int | None = None) -> Scope:
    with engine.connect() as connection:
        schema, channel = connection.execute(text(f"SELECT current_schema(), {CHANNEL_SQL}")).one()
    return scope_of(str(schema), str(channel), bot_id)


class ReplicaConfigError(Exception):
    """A start that would break the replicas already running: one line to print."""


@dataclass(frozen=True)
class Replica:
    """How a process introduces itself to the others."""

    id: str
    mode: str  # polling, webhook
    secret: str | None = None  # the webhook's secret token

    def application_name(self, prefix: str = NAME_PREFIX) -> str:
        digest = hashlib.sha256((self.secret or "").encode()).hexdigest()[:12]
        secret = digest if self.secret else "-"
        return f"{prefix}/{self.mode}/{secret}/{self.id}"[:63]


class SoleLeader:
    """SQLite: the one process, which holds the database file's lock."""

    def __init__(self, database: str | None) -> None:
        self.path = Path(database) if database and database != ":memory:" else None
        self._file: Any = None

    def claim(self) -> None:
        """Refuses a second process on the same database file (the bots of one process
        share one claim: made again, it changes nothing)."""
        if self.path is None or self._file is not None:
            return
        lock = self.path.with_name(self.path.name + ".lock")
        handle = lock.open("a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            other = handle.read().strip() or "?"
            handle.close()
            raise ReplicaConfigError(
                f"another tg-mafia process (pid {other}) uses the database {self.path}: SQLite "
                "takes one process; for several, use PostgreSQL (DATABASE_URL)"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._file = handle

    def stop(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


# benchmarks/replicas.py: a new leader holds the lock 0.13 s after a SIGKILL (max 0.91 s)
class PostgresLeader:
    """PostgreSQL: the advisory lock, taken and watched on a connection of its
    own, in a thread (the waits are the database's, not the event loop's)."""

    def __init__(self, engine: Engine, replica: Replica, bot_id: int | None = None) -> None:
        self.engine = engine
        self.replica = replica
        self.bot_id = bot_id  # the bot it leads for (None: the one bot before several)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.leading = False
        self._scope: Scope | None = None

    @property
    def scope(self) -> Scope:
        if self._scope is None:  # asked at start, when the database is known to answer
            self._scope = current_scope(self.engine, self.bot_id)
        return self._scope

    def claim(self) -> None:
        """Refuses a start that would break the replicas already running."""
        check_replicas(self.engine, self.replica, self.bot_id)

    def peers(self) -> int:
        """How many other replicas run now."""
        found = live_replicas(self.engine, self.bot_id)
        return sum(1 for r in found if r[2] != self.replica.id)

    def start(
        self,
        gained: Callable[[], None],
        lost: Callable[[], None],
        note: Callable[[str], None],
    ) -> None:
        loop = asyncio.get_running_loop()

        def soon(call: Callable[..., None], *args: Any) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed: shutting down
                loop.call_soon_threadsafe(call, *args)

        self._thread = threading.Thread(
            target=self._run,
            args=(lambda: soon(gained), lambda: soon(lost), lambda p: soon(note, p)),
            name=f"tg-mafia-leader-{self.bot_id or ''}",
            daemon=True,
        )
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(
        self, gained: Callable[[], None], lost: Callable[[], None], note: Callable[[str], None]
    ) -> None:
        while not self._stop.is_set():
            try:
                self._session(gained, note)
            except Exception as error:
                log.warning("leadership: the lock connection failed: %s", error)
            if self.leading:
                self.leading = False
                lost()
            self._stop.wait(POLL)

    def _session(self, gained: Callable[[], None], note: Callable[[str], None]) -> None:
        raw = self.engine.raw_connection()
        try:
            connection: Any = raw.driver_connection
            connection.autocommit = True
            connection.execute(
                "SELECT set_config('application_name', %s, false)",
                (self.replica.application_name(self.scope.prefix),),
            )
            while not self._stop.is_set() and not self.leading:
                row = connection.execute("SELECT pg_try_advisory_lock(%s)", (self.scope.lock,))
                if row.fetchone()[0]:
                    connection.execute(f"LISTEN {self.scope.channel}")
                    self.leading = True
                    log.info("leadership: %s leads", self.replica.id)
                    gained()
                    break
                self._stop.wait(POLL)
            while not self._stop.is_set():
                for notice in connection.notifies(timeout=POLL, stop_after=64):
                    note(notice.payload)
                connection.execute("SELECT 1")  # a broken connection raises here
        finally:
            with contextlib.suppress(Exception):
                raw.invalidate()  # never back to the pool: the lock must go with it


def live_replicas(engine: Engine, bot_id: int | None = None) -> list[tuple[str, str, str]]:
    """(mode, secret digest, id) of every replica of this bot (its database, schema and
    id) whose lock connection is open."""
    prefix = current_scope(engine, bot_id).prefix
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        cursor.execute(
            # This database's processes only: one server may hold several bots' databases.
            "SELECT application_name FROM pg_stat_activity"
            " WHERE application_name LIKE %s AND datname = current_database()",
            (f"{prefix}/%",),
        )
        names = [row[0] for row in cursor.fetchall()]
    finally:
        raw.close()
    found = []
    for name in names:
        parts = name.split("/", 3)
        if len(parts) == 4:
            found.append((parts[1], parts[2], parts[3]))
    return found


def check_replicas(engine: Engine, replica: Replica, bot_id: int | None = None) -> None:
    """Several processes share the bot only in webhook mode, with one shared
    secret; polling is one process's."""
    others = [r for r in live_replicas(engine, bot_id) if r[2] != replica.id]
    if not others:
        return
    ids = ", ".join(r[2] for r in others)
    if replica.mode == "polling" or any(r[0] == "polling" for r in others):
        raise ReplicaConfigError(
            f"another tg-mafia process runs on this database ({ids}): long polling takes one "
            "process; run every replica in webhook mode (WEBHOOK_URL) behind a load balancer"
        )
    if replica.secret is None:
        raise ReplicaConfigError(
            f"other replicas run on this database ({ids}): set the same WEBHOOK_SECRET for "
            "all of them (each start would otherwise pick its own, and Telegram keeps one)"
        )
    mine = Replica("", "", replica.secret).application_name().split("/")[2]
    if any(r[1] != mine for r in others):
        raise ReplicaConfigError(
            f"other replicas run on this database ({ids}) with another WEBHOOK_SECRET: "
            "give every replica the same one"
        )


def leader_for(
    engine: Engine,
    replica: Replica,
    bot_id: int | None = None,
    sole: SoleLeader | None = None,
) -> SoleLeader | PostgresLeader:
    """A bot's leader: on SQLite the process's one (`sole`, shared by its bots, or a
    new one), on PostgreSQL one of the bot's own."""
    if engine.dialect.name == "sqlite":
        return sole if sole is not None else SoleLeader(engine.url.database)
    return PostgresLeader(engine, replica, bot_id)
