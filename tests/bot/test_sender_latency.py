"""The sender's budgets hold at a real network's latency: a call is counted
against them from the moment it leaves, not when its answer comes back, so
the calls still on their way cannot take the bot past Telegram's 30 a second."""

from __future__ import annotations

from pathlib import Path

from tg_mafia.render.calls import Send
from tg_mafia.render.calls_json import to_json
from tg_mafia.runtime.clock import BotClock
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.runtime.outbox.sender import Sender
from tg_mafia.sandbox import Network, Sandbox
from tg_mafia.sandbox.limits import CHARGED_METHODS
from tg_mafia.sandbox.virtual_time import current_time_source
from tg_mafia.storage import open_database


async def test_the_bot_wide_budget_holds_with_calls_in_flight(tmp_path: Path) -> None:
    sb = Sandbox(network=Network(rtt=0.05, jitter=0.2))
    readers = sb.add_users(120, started=True)
    db = open_database(f"sqlite:///{tmp_path / 'bot.db'}")
    adb = AsyncDb(db)
    bot = sb.bot()  # no AIORateLimiter: the sender's own budget is under test
    await bot.initialize()
    with db.transaction() as tx:  # 120 private chats: many workers at once
        for reader in readers:
            tx.enqueue(reader.id, to_json(Send(f"hello {reader.id}")), now=0.0)
    sender = Sender(bot, adb, BotClock(1.0, current_time_source()))
    sender.start()
    try:
        await sender.drain()
    finally:
        await sender.stop()
        await bot.shutdown()
        adb.close()
        db.close()
    sent = [r.time for r in sb.log if r.ok and r.method in CHARGED_METHODS]
    assert len(sent) == 120
    assert sb.log.count_429() == 0
    busiest = max(sum(1 for t in sent if s - 1.0 < t <= s) for s in sent)
    assert busiest <= 30
