"""Fixtures: a sandbox with a supergroup, and an unmodified PTB Bot on either transport:
in-process, or over HTTP with the request object the bot makes its calls with; and a
second client (aiogram's models) that reads every answer of every test here."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from telegram import Bot

from tg_mafia.sandbox import CallLog, CallRecord, HttpTransport, Sandbox, SimUser
from tg_mafia.sandbox.transport.updates import UpdateQueue
from tg_mafia.sandbox.world.state import Chat
from tg_mafia.telegram.transport import AiohttpRequest

from .second_client import result_problem, update_problem

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


@pytest.fixture(autouse=True)
def read_by_a_second_client(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every answer and update the sandbox makes in these tests is read by aiogram's
    models too (tests/sandbox/second_client.py); the test fails on the first it refuses."""
    problems: list[str] = []
    add, push = CallLog.add, UpdateQueue.push

    def checked_add(log: CallLog, record: CallRecord) -> None:
        if record.ok:
            problem = result_problem(record.method, record.result)
            if problem is not None:
                problems.append(problem)
        add(log, record)

    def checked_push(
        queue: UpdateQueue, kind: str, payload: dict[str, Any]
    ) -> dict[str, Any] | None:
        update = push(queue, kind, payload)
        if update is not None and (problem := update_problem(update)) is not None:
            problems.append(problem)
        return update

    monkeypatch.setattr(CallLog, "add", checked_add)
    monkeypatch.setattr(UpdateQueue, "push", checked_push)
    yield
    assert not problems, problems[:3]
