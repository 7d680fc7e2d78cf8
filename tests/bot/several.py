"""Several tokens in one process on the sandbox: one Application per bot, made as
`tg-mafia run` makes them (bootstrap_fleet), each bot with a group of its own."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from tg_mafia.bootstrap import App, BotOptions, bootstrap_fleet
from tg_mafia.ops.metrics import BotMetrics
from tg_mafia.playtest.harness import BOT_RIGHTS, Harness, running_app, scratch_database
from tg_mafia.runtime.timers.scheduler import Scheduler
from tg_mafia.sandbox import Sandbox, SandboxBot
from tg_mafia.storage import Database, open_database
from tg_mafia.telegram.metered import MeteredRequest


@dataclass
class Fleet:
    sb: Sandbox
    apps: list[App]
    db: Database  # every bot's rows
    bots: list[Harness]  # one per token, in their order, each with its own group
    accounts: list[SandboxBot]

    async def settle(self, timeout: float = 900.0) -> None:
        """Until every bot has handled its updates and sent its calls."""
        for _ in range(2):  # a bot's calls may give another an update
            for account, app in zip(self.accounts, self.apps, strict=True):
                updates = account.updates
                await self.sb.wait_for(lambda u=updates: not u.pending, timeout=timeout)
                await asyncio.wait_for(app.update_queue.join(), timeout)
                await asyncio.wait_for(app.bot_data.running.drain(), timeout)


def accounts(sb: Sandbox, count: int) -> list[SandboxBot]:
    """The sandbox's default bot and `count - 1` more."""
    made = [sb.default_bot]
    made += [sb.create_bot(f"mafia_{n + 2}_bot", f"Mafia {n + 2}") for n in range(count - 1)]
    return made


@contextlib.asynccontextmanager
async def running_fleet(
    tmp_path: Path,
    sb: Sandbox,
    bots: Sequence[SandboxBot],
    players: int = 7,
    *,
    schedulers: Sequence[Scheduler | None] | None = None,
    database_url: str | None = None,
    options: BotOptions | None = None,
    groups: bool = True,
    poll: bool = True,
) -> AsyncIterator[Fleet]:
    """The bots in one process on one database; with `groups`, each bot has a group of
    its own (`players` members and an admin, the bot an administrator there); without
    `poll`, they take no update (a replica behind a webhook that nobody calls)."""
    harnessed: list[Harness] = []
    with contextlib.ExitStack() as stack:
        url = database_url or stack.enter_context(scratch_database(tmp_path))
        db = open_database(url)
        stack.callback(db.close)
        metrics = [BotMetrics("sandbox", bot=str(bot.id)) for bot in bots]
        builders = [
            sb.application_builder(bot)
            .request(MeteredRequest(sb.request(), counted.api_call))
            .get_updates_request(MeteredRequest(sb.request(), counted.api_call))
            for bot, counted in zip(bots, metrics, strict=True)
        ]
        apps = bootstrap_fleet(builders, db, options or BotOptions(lobby_seconds=3600), metrics)
        async with contextlib.AsyncExitStack() as running:
            for index, app in enumerate(apps):
                scheduler = schedulers[index] if schedulers is not None else None
                await running.enter_async_context(running_app(app, scheduler, poll=poll))
            for index, (bot, app) in enumerate(zip(bots, apps, strict=True)):
                if not groups:
                    continue
                users = sb.add_users(players, prefix=f"B{index}P")
                admin = sb.add_user(f"Admin{index}")
                group = sb.add_group(
                    f"Club {index}", members=[*users, admin], owner=admin,
                    bot_rights=BOT_RIGHTS, bots=[bot],
                )  # fmt: skip
                harnessed.append(Harness(sb, app, db.for_bot(bot.id), group, users, admin, bot))
            yield Fleet(sb, apps, db, harnessed, list(bots))
