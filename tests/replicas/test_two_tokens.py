"""Replicas serving two tokens on one PostgreSQL: each bot leads on its own (its own
advisory lock and replicas' names), so a replica may lead one bot and follow the
other, and a bot's leadership moves alone when its replica lets it go."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from tests.bot.several import Fleet, accounts, running_fleet
from tg_mafia.bootstrap import BotOptions, stop_service
from tg_mafia.runtime.db.leader import PostgresLeader, live_replicas
from tg_mafia.sandbox import Sandbox

# Leadership is taken by a thread on PostgreSQL's time: the wall clock.
pytestmark = pytest.mark.real_time

PATIENCE = 30.0


def leading(fleet: Fleet) -> list[bool]:
    return [app.bot_data.service is not None and app.bot_data.service.leading
            for app in fleet.apps]  # fmt: skip


async def until(check: object, what: str) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + PATIENCE
    while not check():  # type: ignore[operator]
        if loop.time() > end:
            raise AssertionError(f"{what} did not happen within {PATIENCE} s")
        await asyncio.sleep(0.1)


async def test_each_token_leads_on_its_own(tmp_path: Path, postgres_url: str) -> None:
    sb = Sandbox()
    bots = accounts(sb, 2)
    options = BotOptions(mode="webhook", webhook_secret="shared", replica_id="one")
    async with running_fleet(
        tmp_path, sb, bots, database_url=postgres_url, options=options, groups=False, poll=False
    ) as first:
        await until(lambda: leading(first) == [True, True], "the first replica's lead")
        later = replace(options, replica_id="two")
        async with running_fleet(
            tmp_path, sb, bots, database_url=postgres_url, options=later, groups=False,
            poll=False,
        ) as second:  # fmt: skip
            assert leading(second) == [False, False]  # each bot has its leader already
            engine = first.db.engine
            for bot in bots:  # each bot's replicas, under its own name (once connected)
                await until(
                    lambda b=bot: (
                        sorted(r[2] for r in live_replicas(engine, b.id)) == ["one", "two"]
                    ),
                    f"both replicas of bot {bot.id} on their lock connections",
                )
            leaders = [app.bot_data.running.leader for app in first.apps]
            assert all(isinstance(leader, PostgresLeader) for leader in leaders)
            locks = {leader.scope.lock for leader in leaders if isinstance(leader, PostgresLeader)}
            assert len(locks) == 2
            await stop_service(first.apps[0])  # the first replica lets the first bot go
            await until(lambda: leading(second)[0], "the first bot's takeover")
            assert leading(first)[1] and not leading(second)[1]  # the other bot stays put
