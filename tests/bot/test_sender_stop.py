"""A sender told to stop stops, also when the stop lands as something wakes it
(its own workers wake it as they end). On Python 3.11, `asyncio.wait_for`
swallowed such a cancellation (CPython gh-86296) and `tg-mafia run` then waited
for the sender for ever after SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tg_mafia.runtime.clock import BotClock
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.runtime.outbox.sender import Sender
from tg_mafia.sandbox import Sandbox
from tg_mafia.sandbox.virtual_time import current_time_source
from tg_mafia.storage import open_database
from tg_mafia.waiting import wait_set


@contextlib.asynccontextmanager
async def a_sender(tmp_path: Path) -> AsyncIterator[Sender]:
    """A sender on the sandbox and a new database, not started."""
    sb = Sandbox()
    db = open_database(f"sqlite:///{tmp_path / 'bot.db'}")
    adb = AsyncDb(db)
    bot = sb.bot()
    await bot.initialize()
    try:
        yield Sender(bot, adb, BotClock(1.0, current_time_source()))
    finally:
        await bot.shutdown()
        adb.close()
        db.close()


async def test_a_stop_as_the_sender_is_woken_ends_it(tmp_path: Path) -> None:
    async with a_sender(tmp_path) as sender:
        sender.start()
        await sender.drain()
        await asyncio.sleep(0.1)  # its loop waits for a wake-up now
        run = sender._task
        assert run is not None
        sender.wake()  # as a worker's end does, in the same moment as the stop's cancel
        run.cancel()
        await asyncio.wait({run}, timeout=10.0)
        assert run.cancelled()
        await sender.stop()


async def test_wait_set_never_swallows_a_cancellation() -> None:
    event = asyncio.Event()
    waiter = asyncio.get_running_loop().create_task(wait_set(event, 10.0))
    await asyncio.sleep(0)  # it waits
    event.set()
    waiter.cancel()  # in the same moment
    with pytest.raises(asyncio.CancelledError):
        await waiter


async def test_wait_set_says_whether_the_event_came_in_time() -> None:
    event = asyncio.Event()
    assert not await wait_set(event, 0.5)
    asyncio.get_running_loop().call_later(0.1, event.set)
    assert await wait_set(event, 5.0)
