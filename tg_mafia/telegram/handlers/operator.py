"""The operator's commands, in a private chat with the bot and for its owner only
(OWNER_ID): /status and /drain. Anyone else gets the silence any unknown command gets: the
commands are not registered for them, so nothing tells that they exist."""

from __future__ import annotations

import time
from typing import Any, cast

from telegram import Update
from telegram.ext import Application, CommandHandler, filters

from tg_mafia.ops.metrics import BotMetrics
from tg_mafia.ops.status import TokenLoad, drain_text, status_text
from tg_mafia.runtime.service import GameService
from tg_mafia.telegram.context import App, Context
from tg_mafia.telegram.handlers.common import reply, service_of, user_translator


def register(app: Application[Any, Any, Any, Any, Any, Any], owner_id: int | None) -> None:
    if owner_id is None:
        return
    owner = filters.ChatType.PRIVATE & filters.User(user_id=owner_id)
    app.add_handler(CommandHandler("status", on_status, owner))
    app.add_handler(CommandHandler("drain", on_drain, owner))


async def on_status(update: Update, context: Context) -> None:
    service = service_of(context)
    metrics = context.bot_data.metrics
    errors = context.bot_data.errors
    loads = []
    apps: list[App] = context.bot_data.fleet or [cast(App, context.application)]
    for app in apps:  # every token's
        data = app.bot_data
        if data.service is not None:
            loads.append(await token_load(app.bot.username, data.service, data.metrics))
    text = status_text(
        user_translator(update.effective_user),
        version=metrics.version,
        replica=metrics.replica,
        uptime=time.monotonic() - metrics.started,
        loads=loads,
        draining=service.draining,
        errors=errors.records if errors is not None else (),
    )
    await reply(context, update, text)


async def token_load(username: str, service: GameService, metrics: BotMetrics) -> TokenLoad:
    parked = frozenset(service.sender.parked)
    snapshot = await service.queries.snapshot(service.clock.now(), parked)
    budget = service.config.budget
    return TokenLoad(username, snapshot, budget, metrics.calls_per_second(), metrics.refused)


async def on_drain(update: Update, context: Context) -> None:
    draining = service_of(context).draining
    began = draining.begin("the owner's /drain")
    text = drain_text(user_translator(update.effective_user), draining, began=began)
    await reply(context, update, text)
