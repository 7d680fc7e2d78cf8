"""The outbox against the sandbox's faults: nothing is dropped."""

from __future__ import annotations

from tg_mafia.bot.clock import BotClock
from tg_mafia.bot.outbox import Op, Outboxes
from tg_mafia.sandbox import Sandbox


async def test_a_long_run_of_network_failures_delays_a_message_but_never_drops_it() -> None:
    sb = Sandbox(speed=200)
    users = sb.add_users(3)
    group = sb.add_group("Club", members=users, owner=users[0])
    bot = sb.bot()
    await bot.initialize()
    outboxes = Outboxes(bot, BotClock(speed=200))
    sb.fail_next("5xx", 12, method="sendMessage")
    outboxes.put(group.id, Op("send", text="☀️ Day 2. The city wakes up."))
    sb.fail_next("429", 5, method="sendMessage", retry_after=3)
    outboxes.put(group.id, Op("send", text="🏙 The town wins!"))
    await outboxes.drain()
    texts = [m.text for m in users[1].view(group)]
    assert texts[-2:] == ["☀️ Day 2. The city wakes up.", "🏙 The town wins!"]
    await outboxes.close()
    await bot.shutdown()
    await sb.close()


async def test_plain_announcements_falling_due_together_are_merged() -> None:
    sb = Sandbox(speed=200)
    users = sb.add_users(2)
    group = sb.add_group("Club", members=users, owner=users[0])
    bot = sb.bot()
    await bot.initialize()
    outboxes = Outboxes(bot, BotClock(speed=200))
    for line in ("⚰️ 3 · Vika is eliminated.", "🌙 Night 2. The city sleeps."):
        outboxes.put(group.id, Op("send", text=line, mergeable=True))
    await outboxes.drain()
    sent = [c for c in sb.log.calls(method="sendMessage", chat_id=group.id) if c.ok]
    assert len(sent) == 1
    assert (
        users[1].view(group)[-1].text == "⚰️ 3 · Vika is eliminated.\n\n🌙 Night 2. The city sleeps."
    )
    await outboxes.close()
    await bot.shutdown()
    await sb.close()
