"""The one place the bot is put together: `bootstrap` makes python-telegram-bot's
Application with its typed context (telegram/context.py), gives it the database and
registers every handler (telegram/handlers/); the game service (runtime/service.py) is
started on that database once Telegram said who the bot is (`start_service`, PTB's
post_init) and stopped with the application (`stop_service`). `tg-mafia run`, the
playtest harness and the tests all start the bot through here.

Several tokens (`bootstrap_fleet`): one Application per token, each with its own Bot,
rate limiter, JobQueue, game service (its sender, timers, admission and leadership),
on its own handle of the one database (`Database.for_bot`); they share the
database's worker thread(s) and SQLite's lock (runtime/db/shared.py)."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from telegram import Update
from telegram.ext import Application, ApplicationBuilder
from telegram.request import BaseRequest

from tg_mafia.config import Settings, bot_id_of
from tg_mafia.ops.budget import TokenBudget
from tg_mafia.ops.logs import RecentErrors
from tg_mafia.ops.metrics import BotMetrics, Snapshot, exposition
from tg_mafia.runtime.clock import BotClock, loop_time_source
from tg_mafia.runtime.db.leader import Replica
from tg_mafia.runtime.db.shared import SharedDb
from tg_mafia.runtime.runner import CURRENT_UPDATE
from tg_mafia.runtime.service import GameService, ServiceConfig
from tg_mafia.runtime.timers.scheduler import JobQueueScheduler, LoopScheduler, Scheduler
from tg_mafia.storage import Database
from tg_mafia.telegram import handlers
from tg_mafia.telegram.context import CONTEXT_TYPES, App, BotData, BotOptions
from tg_mafia.telegram.ratelimit import MessageRateLimiter

__all__ = [
    "App",
    "BotOptions",
    "bootstrap",
    "bootstrap_fleet",
    "fleet_for",
    "own_running_games",
    "scrape_metrics",
    "start_service",
    "stop_service",
]

log = logging.getLogger(__name__)


class MeteredApplication(Application[Any, Any, Any, Any, BotData, Any]):
    """PTB's Application, timing each update it handles (BotData.metrics)."""

    async def process_update(self, update: object) -> None:
        began = time.perf_counter()
        handling = CURRENT_UPDATE.set(update.update_id if isinstance(update, Update) else None)
        try:
            await super().process_update(update)
        finally:
            CURRENT_UPDATE.reset(handling)
            self.bot_data.metrics.update_handled(update, time.perf_counter() - began)


def bootstrap(
    builder: ApplicationBuilder[Any, Any, Any, Any, Any, Any],
    db: Database,
    options: BotOptions,
    metrics: BotMetrics | None = None,
) -> App:
    """The bot's Application on `db`. `metrics` counts its Bot API calls only when the
    builder's requests were wrapped with it (`MeteredRequest`); it is made here when not
    given."""
    if options.rate_limiter and options.speed == 1.0:
        # The bot's ceiling on its message calls (30 a second: ratelimit.py). The
        # per-chat budgets (a group's 20 a minute, a private chat's one a second)
        # and the waiting out of a 429 are the sender's (sender.py), which knows
        # which calls a chat's budget pays for: PTB's group limiter would also
        # count the deletions and the membership checks.
        builder = builder.rate_limiter(
            MessageRateLimiter(
                overall_max_rate=30, overall_time_period=1, group_max_rate=0, max_retries=0
            )
        )
    # Updates are handled concurrently; each game's are applied one at a time, in order,
    # under the game's lock (runner.py).
    builder = builder.concurrent_updates(64).context_types(CONTEXT_TYPES)
    builder = builder.application_class(MeteredApplication)
    app: App = builder.post_init(_post_init).post_shutdown(_post_shutdown).build()
    data = app.bot_data
    data.db = db
    data.options = options
    data.metrics = metrics or BotMetrics(options.replica_id)
    handlers.register(app)
    return app


def bootstrap_fleet(
    builders: Sequence[ApplicationBuilder[Any, Any, Any, Any, Any, Any]],
    db: Database,
    options: BotOptions | Sequence[BotOptions],
    metrics: Sequence[BotMetrics],
) -> list[App]:
    """One Application per token (`builders`, in the tokens' order: the first takes the
    rows stored before there were several), each with its `metrics` and its `options`
    (one for all, or one each), on `db`."""
    shared = SharedDb(db)
    names: dict[int, str] = {}  # one directory for all: each fills its own in at its start
    each = [options] * len(builders) if isinstance(options, BotOptions) else list(options)
    apps: list[App] = []
    for index, (builder, counted) in enumerate(zip(builders, metrics, strict=True)):
        app = bootstrap(builder, db, replace(each[index], first_token=index == 0), counted)
        app.bot_data.shared, app.bot_data.bots, app.bot_data.fleet = shared, names, apps
        apps.append(app)
    return apps


def fleet_for(settings: Settings, db: Database) -> tuple[list[App], list[BaseRequest]]:
    """`tg-mafia run`'s bots: one Application per token (`bootstrap_fleet`), its calls on
    aiohttp (and one connection for getUpdates), each call counted; and their requests,
    to shut down after them."""
    from tg_mafia.telegram.transport import calls_request, updates_request

    builders, metrics, options = [], [], []
    requests: list[BaseRequest] = []
    for index, token in enumerate(settings.tokens):
        bot_id = bot_id_of(token)
        counted = BotMetrics(settings.replica_id, bot=str(bot_id), process=index == 0)
        calls, updates = calls_request(counted.api_call), updates_request(counted.api_call)
        requests += [calls, updates]
        metrics.append(counted)
        builders.append(
            ApplicationBuilder()
            .token(token)
            .base_url(settings.base_url)
            .request(calls)
            .get_updates_request(updates)
        )
        options.append(
            BotOptions(
                replica_id=settings.replica_id,
                owner_id=settings.owner_id,
                drain_seconds=settings.drain_seconds,
                closed_topic_seconds=settings.closed_topic_seconds,
                retention_days=settings.retention_days,
                mode="polling" if settings.webhook is None else "webhook",
                webhook_secret=_shared_secret(settings, bot_id),
                # The Table link needs the page: no page (long polling without
                # MINIAPP_URL), no link.
                miniapp_name=settings.miniapp_name if settings.app_url is not None else None,
                app_url=settings.app_url,
                budget=TokenBudget(share=settings.admission_share),
            )
        )
    return bootstrap_fleet(builders, db, options, metrics), requests


def _shared_secret(settings: Settings, bot_id: int) -> str | None:
    """A bot's webhook secret, which its replicas must agree on: None when made up at
    this start."""
    webhook = settings.webhook_of(bot_id)
    if webhook is None or webhook.secret_generated:
        return None
    return webhook.secret_token


async def start_service(app: App, scheduler: Scheduler | None = None) -> GameService:
    """Creates the game service and resumes unfinished games. `run_polling`
    calls it through post_init; tests that start the app by hand call it."""
    data = app.bot_data
    if data.service is not None:
        return data.service
    assert data.db is not None, "the application was not made by bootstrap()"
    options = data.options
    data.bots[app.bot.id] = app.bot.username
    first = data.fleet[0].bot_data.service if data.fleet and data.fleet[0] is not app else None
    source = loop_time_source()
    if scheduler is None and source is not time.time:
        scheduler = LoopScheduler()  # APScheduler reads the wall clock
    if scheduler is None:
        assert app.job_queue is not None, "install python-telegram-bot[job-queue]"
        scheduler = JobQueueScheduler(app.job_queue)
    service = GameService(
        app.bot,
        data.db.for_bot(app.bot.id),  # this bot's games, calls and buttons
        BotClock(options.speed, source, options.own_pace),
        scheduler,
        ServiceConfig(
            lobby_seconds=options.lobby_seconds,
            bot_username=app.bot.username,
            lobby_seed=options.lobby_seed,
            miniapp_name=options.miniapp_name,
            app_url=options.app_url,
            drain_seconds=options.drain_seconds,
            closed_topic_seconds=options.closed_topic_seconds,
            retention_days=options.retention_days,
            replica=Replica(options.replica_id, options.mode, options.webhook_secret),
            budget=options.budget,
            first=options.first_token,
        ),
        data.shared,
    )
    if first is not None:  # the process drains as one: every bot opens no game then
        service.draining = first.draining
    data.service = service
    service.lobbies.on_refused = data.metrics.admission_refused
    if options.first_token:  # one engine for every bot: its errors counted once
        data.metrics.watch(service.db.engine)
    errors = RecentErrors([app.bot.token])
    logging.getLogger().addHandler(errors)
    data.errors = errors
    service.leader.claim()  # refuses a second process on SQLite, a bad replica set-up

    async def commands() -> None:
        await handlers.set_commands(app)

    service.on_lead = commands  # one-off work: the leader's
    resumed = await service.resume_all()
    if resumed:
        log.info("resumed %d unfinished games", resumed)
    return service


async def own_running_games(app: App) -> int:
    """The running games a drain of the process waits for: every bot's."""
    total = 0
    for each in app.bot_data.fleet or [app]:
        service = each.bot_data.service
        total += await service.own_running_games() if service is not None else 0
    return total


async def stop_service(app: App, *, flush: bool = True) -> None:
    """Stops the game service; with `flush`, once the outbox has sent what it can (what
    it holds otherwise waits, durable, for the next start)."""
    data = app.bot_data
    service, data.service = data.service, None
    if service is not None:
        if flush:
            await service.drain()
        await service.close()
        data.metrics.unwatch(service.db.engine)
    errors, data.errors = data.errors, None
    if errors is not None:
        logging.getLogger().removeHandler(errors)


async def scrape_metrics(app: App) -> bytes:
    """/metrics: the gauges read now (the database's in its worker thread), then the
    text; every bot of the process, each under its own label."""
    every = app.bot_data.fleet or [app]
    for each in every:
        await _observe(each)
    return exposition([each.bot_data.metrics for each in every])


async def _observe(app: App) -> None:
    data = app.bot_data
    service = data.service
    snapshot: Snapshot | None = None
    if service is not None:
        try:
            parked = frozenset(service.sender.parked)
            snapshot = await service.queries.snapshot(service.clock.now(), parked)
        except Exception as error:  # counted as a database error; the rest still shows
            log.warning("metrics: cannot read the database: %r", error)
    draining = service is not None and service.draining.active
    data.metrics.observe(snapshot, app.update_queue.qsize(), draining)


async def _post_init(app: App) -> None:
    await start_service(app)


async def _post_shutdown(app: App) -> None:
    await stop_service(app)
