"""The database thread's two lanes (db/lanes.py): a person's update goes before the
sender's bookkeeping that was queued first, and the sender still moves on."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from tg_mafia.runtime.db import lanes
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.storage import Database, open_database


async def test_an_urgent_call_goes_before_the_background_queued_first(tmp_path: Path) -> None:
    db = open_database(f"sqlite:///{tmp_path / 'bot.db'}")
    adb = AsyncDb(db)
    order: list[str] = []
    started, release = threading.Event(), threading.Event()

    def busy(db: Database) -> None:
        started.set()
        release.wait(10)  # the thread is busy while the rest is queued

    def note(db: Database, name: str) -> None:
        order.append(name)

    async def sender() -> None:
        lanes.in_background()  # as the sender's task does
        first = asyncio.ensure_future(adb.run(busy))
        while not started.is_set():  # alone in its batch: the rest is queued behind it
            await asyncio.sleep(0)
        await asyncio.gather(first, *(adb.run(note, f"sender {n}") for n in range(12)))

    try:
        background = asyncio.ensure_future(sender())
        queued = adb._pool._calls  # type: ignore[attr-defined]
        while queued.qsize() < 12:  # the sender's calls wait, queued before the press
            await asyncio.sleep(0)
        press = asyncio.ensure_future(adb.run(note, "press"))
        while queued.qsize() < 13:  # the press queued too before the thread is free
            await asyncio.sleep(0)
        release.set()
        await asyncio.gather(background, press)
    finally:
        adb.close()
        db.close()
    assert order[0] == "press"
    assert sorted(order[1:]) == sorted(f"sender {n}" for n in range(12))
    assert order[1:] == [f"sender {n}" for n in range(12)]  # each lane in its order
