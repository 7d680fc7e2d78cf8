"""Two bots in two schemas of one PostgreSQL database are strangers: each
leads its own replicas with its own lock, sees only its own replicas, and
hears only its own notifications (runtime/db/leader.py's Scope)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, create_engine, text

from tests.storage.conftest import postgres_schema
from tg_mafia.runtime.db.leader import PostgresLeader, Replica, live_replicas
from tg_mafia.storage.rows import NOTIFY

pytestmark = pytest.mark.real_time  # the leaders' threads wait on the database


@pytest.fixture
def other_schema(backend: str) -> Iterator[str]:
    with postgres_schema() as url:
        yield url


class Watched:
    def __init__(self, engine: Engine, name: str) -> None:
        self.leader = PostgresLeader(engine, Replica(name, "webhook", "one secret"))
        self.led = threading.Event()
        self.heard: list[str] = []
        self.heard_any = threading.Event()

    def start(self) -> None:
        self.leader.start(self.led.set, lambda: None, self.note)

    def note(self, payload: str) -> None:
        self.heard.append(payload)
        self.heard_any.set()


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
async def test_bots_in_two_schemas_each_lead_their_own(
    database_url: str, other_schema: str
) -> None:
    engines = [create_engine(database_url), create_engine(other_schema)]
    first, second = Watched(engines[0], "first"), Watched(engines[1], "second")
    loop = asyncio.get_running_loop()
    try:
        first.start()
        second.start()
        for bot in (first, second):  # one lock each: both lead
            assert await loop.run_in_executor(None, bot.led.wait, 20.0)
        assert [r[2] for r in live_replicas(engines[0])] == ["first"]
        assert [r[2] for r in live_replicas(engines[1])] == ["second"]
        with engines[1].begin() as connection:
            connection.execute(text(NOTIFY), {"payload": "outbox"})
        assert await loop.run_in_executor(None, second.heard_any.wait, 20.0)
        await loop.run_in_executor(None, first.heard_any.wait, 2.5)  # POLL, and more
        assert second.heard == ["outbox"] and first.heard == []
    finally:
        for bot in (first, second):
            bot.leader.stop()
        for engine in engines:
            engine.dispose()
