"""The bot-wide ceiling holds the message calls only: a membership check
does not wait behind a full outbox."""

from __future__ import annotations

import asyncio

from telegram.ext import ExtBot

from tg_mafia.playtest.harness import BOT_RIGHTS
from tg_mafia.sandbox import Sandbox
from tg_mafia.telegram.ratelimit import MessageRateLimiter


async def test_a_membership_check_passes_sends_held_by_the_ceiling() -> None:
    sb = Sandbox()
    users = sb.add_users(8, started=True)
    group = sb.add_group("Club", members=users, owner=users[0], bot_rights=BOT_RIGHTS)
    limiter = MessageRateLimiter(
        overall_max_rate=2, overall_time_period=1, group_max_rate=0, max_retries=0
    )
    bot = ExtBot(sb.token, request=sb.request(), rate_limiter=limiter)
    await bot.initialize()
    loop = asyncio.get_running_loop()
    began = loop.time()
    sends = [asyncio.ensure_future(bot.send_message(user.id, "hello")) for user in users]
    await asyncio.sleep(0)
    await bot.get_chat_member(group.id, users[1].id)
    checked = loop.time() - began
    await asyncio.gather(*sends)
    sent = loop.time() - began
    await bot.shutdown()
    assert sent >= 2.0  # the ceiling holds the sends
    assert checked < 0.5  # the check went straight through
