"""Fixtures: a sandbox with a supergroup, and an unmodified PTB Bot on either transport."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from telegram import Bot

from tg_mafia.sandbox import HttpTransport, Sandbox, SimUser
from tg_mafia.sandbox.state import Chat

BOT_RIGHTS = {"can_delete_messages": True, "can_restrict_members": True, "can_pin_messages": True}


@dataclass
class Env:
    sb: Sandbox
    bot: Bot
    group: Chat
    users: list[SimUser]  # users[0] and users[1] started the bot; the others did not
    transport: str


@pytest.fixture(params=["inprocess", "http"])
async def env(request: pytest.FixtureRequest) -> AsyncIterator[Env]:
    sb = Sandbox()
    users = sb.add_users(5)
    users[0].start()
    users[1].start()
    group = sb.add_group("Club", members=users, owner=users[4], bot_rights=BOT_RIGHTS)
    http: HttpTransport | None = None
    if request.param == "http":
        http = HttpTransport(sb)
        await http.start()
        bot = Bot(sb.token, base_url=http.base_url)
    else:
        bot = sb.bot()
    await bot.initialize()
    sb.updates.drop_all()
    try:
        yield Env(sb, bot, group, users, request.param)
    finally:
        await bot.shutdown()
        if http is not None:
            await http.stop()
        await sb.close()
