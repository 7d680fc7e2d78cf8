"""Fixtures: a sandbox with a supergroup, and an unmodified PTB Bot on either transport:
in-process, or over HTTP with the request object the bot makes its calls with."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from telegram import Bot

from tg_mafia.bot.transport import AiohttpRequest
from tg_mafia.sandbox import HttpTransport, Sandbox, SimUser
from tg_mafia.sandbox.state import Chat

BOT_RIGHTS = {"can_delete_messages": True, "can_restrict_members": True, "can_pin_messages": True}
TRANSPORTS = ["inprocess", "http"]


@dataclass
class Env:
    sb: Sandbox
    bot: Bot
    group: Chat
    users: list[SimUser]  # users[0] and users[1] started the bot; the others did not
    transport: str


@contextlib.asynccontextmanager
async def connected(sb: Sandbox, transport: str) -> AsyncIterator[Bot]:
    """An initialised PTB Bot talking to `sb` in-process or over HTTP; the sandbox is
    closed afterwards (which raises if it recorded a bug)."""
    http: HttpTransport | None = None
    if transport == "http":
        http = HttpTransport(sb)
        await http.start()
        bot = Bot(
            sb.token,
            base_url=http.base_url,
            request=AiohttpRequest(),
            get_updates_request=AiohttpRequest(connections=1),
        )
    else:
        bot = sb.bot()
    await bot.initialize()
    try:
        yield bot
    finally:
        await bot.shutdown()
        if http is not None:
            await http.stop()
        await sb.close()


@pytest.fixture(params=TRANSPORTS)
async def env(request: pytest.FixtureRequest) -> AsyncIterator[Env]:
    sb = Sandbox()
    users = sb.add_users(5)
    users[0].start()
    users[1].start()
    group = sb.add_group("Club", members=users, owner=users[4], bot_rights=BOT_RIGHTS)
    async with connected(sb, request.param) as bot:
        sb.updates.drop_all()
        yield Env(sb, bot, group, users, request.param)
