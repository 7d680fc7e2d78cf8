"""The sender's look at the outbox when nothing woke it is a safety net: every write
that adds a call wakes it. A quiet sender looks less and less often (1 s, then twice
as long each time, up to 8 s), in real seconds whatever the bot's clock speed, and a
wake is answered at once."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path
from typing import Any

import pytest

from tg_mafia.bot import sender as sender_module
from tg_mafia.bot.clock import BotClock
from tg_mafia.bot.dbthread import AsyncDb
from tg_mafia.bot.ops import Method, Op
from tg_mafia.bot.sender import POLL_MAX, Sender
from tg_mafia.sandbox import Sandbox
from tg_mafia.storage import Database, open_database
from tg_mafia.virtual_time import current_time_source


async def test_a_quiet_sender_looks_less_and_less_and_a_wake_is_answered_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    looks: list[float] = []
    loop = asyncio.get_running_loop()
    real_look = sender_module._pending_chats

    def counted_look(db: Database) -> Any:
        looks.append(loop.time())
        return real_look(db)

    monkeypatch.setattr(sender_module, "_pending_chats", counted_look)
    sb = Sandbox()
    reader = sb.add_user("Reader", started=True)
    db = open_database(f"sqlite:///{tmp_path / 'bot.db'}")
    adb = AsyncDb(db)
    bot = sb.bot()
    await bot.initialize()
    # A clock 500 times Telegram's, as the tests' and the demo's: the safety net's
    # period is real seconds all the same.
    sender = Sender(bot, adb, BotClock(500.0, current_time_source()))
    sender.start()
    try:
        await asyncio.sleep(120)
        gaps = [b - a for a, b in itertools.pairwise(looks)]
        assert len(looks) <= 20, looks  # 120 looks at one a second
        assert gaps[:4] == pytest.approx([1, 2, 4, 8], abs=0.05)
        assert max(gaps) <= POLL_MAX + 0.05

        with db.transaction() as tx:
            tx.enqueue(reader.id, Op(Method.SEND, text="hello").to_json(), now=0.0)
        woken_at = sb.clock.now()
        sender.wake()
        await sender.drain()
        sent = [r for r in sb.log if r.ok and r.method == "sendMessage"]
        assert len(sent) == 1
        assert sent[0].time - woken_at < 0.5
    finally:
        await sender.stop()
        await bot.shutdown()
        adb.close()
        db.close()
