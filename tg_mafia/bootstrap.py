"""Wiring: the PTB Application, its handlers, and the game service."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from telegram import BotCommand, Update
from telegram.error import TelegramError
from telegram.ext import Application, ApplicationBuilder

from engine import GameState
from tg_mafia.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, translator
from tg_mafia.ops.logs import RecentErrors
from tg_mafia.ops.metrics import BotMetrics, Snapshot
from tg_mafia.ops.status import read_snapshot
from tg_mafia.runtime.clock import BotClock, loop_time_source
from tg_mafia.runtime.db.leader import Replica
from tg_mafia.runtime.limiter import InputLimiter
from tg_mafia.runtime.runner import CURRENT_UPDATE
from tg_mafia.runtime.service import GameService, ServiceConfig
from tg_mafia.runtime.timers.scheduler import JobQueueScheduler, LoopScheduler, Scheduler
from tg_mafia.storage import Database
from tg_mafia.telegram import handlers
from tg_mafia.telegram.ratelimit import MessageRateLimiter

log = logging.getLogger(__name__)

App = Application[Any, Any, Any, Any, Any, Any]


@dataclass(frozen=True)
class BotOptions:
    speed: float = 1.0  # > 1 only in tests and the demo: every timer runs faster
    lobby_seconds: int = 600
    rate_limiter: bool = True  # PTB's AIORateLimiter, on real time (off when speed > 1)
    lobby_seed: int | None = None  # the demo: a seeded deal, to replay a game; None: random
    replica_id: str = "local"  # this process's name on its metrics
    owner_id: int | None = None  # the operator: /status and /drain in private
    drain_seconds: float = 1800.0  # how long a drain lets running games finish
    retention_days: int = 90  # finished games anonymised after this (docs/privacy.md); 0: never
    mode: str = "polling"  # or webhook: several replicas may share a database (leader.py)
    webhook_secret: str | None = None  # as set by the operator; None when made up at start
    miniapp_name: str | None = None  # BotFather's short name of the table's Mini App
    app_url: str | None = None  # the Mini App's page, served with the webhook
    # The play page: the stages its person plays run at real time at most (clock.py).
    own_pace: Callable[[GameState], bool] | None = None


COMMANDS = (
    ("newgame", N_("Open a lobby for a new game")),
    ("nextgame", N_("Tell me in private when the next game opens here")),
    ("extend", N_("Give the open lobby more time")),
    ("host", N_("Host the open lobby yourself (you do not play)")),
    ("cancel", N_("Cancel the game (administrators)")),
    ("settings", N_("Language, variant and options (administrators)")),
    ("rules", N_("The rules of the group's variant")),
    ("stats", N_("The leaderboard; in private, your own card")),
    ("protocol", N_("The protocol of the last game")),
    ("help", N_("What I do and how")),
)


class MeteredApplication(Application[Any, Any, Any, Any, Any, Any]):
    """PTB's Application, timing each update it handles (bot_data["metrics"])."""

    async def process_update(self, update: object) -> None:
        began = time.perf_counter()
        handling = CURRENT_UPDATE.set(update.update_id if isinstance(update, Update) else None)
        try:
            await super().process_update(update)
        finally:
            CURRENT_UPDATE.reset(handling)
            metrics: BotMetrics | None = self.bot_data.get("metrics")
            if metrics is not None:
                metrics.update_handled(update, time.perf_counter() - began)


def build_application(
    builder: ApplicationBuilder[Any, Any, Any, Any, Any, Any],
    db: Database,
    options: BotOptions,
    metrics: BotMetrics | None = None,
) -> App:
    """The bot's Application. `metrics` counts its Bot API calls only when the builder's
    requests were wrapped with it (`MeteredRequest`); it is made here when not given."""
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
    builder = builder.concurrent_updates(64)
    builder = builder.application_class(MeteredApplication)
    app: App = builder.post_init(_post_init).post_shutdown(_post_shutdown).build()
    app.bot_data["db"] = db
    app.bot_data["options"] = options
    app.bot_data["metrics"] = metrics or BotMetrics(options.replica_id)
    app.bot_data["input_limiter"] = InputLimiter()
    handlers.register(app)
    return app


async def start_service(app: App, scheduler: Scheduler | None = None) -> GameService:
    """Creates the game service and resumes unfinished games. `run_polling`
    calls it through post_init; tests that start the app by hand call it."""
    if "service" in app.bot_data:
        service: GameService = app.bot_data["service"]
        return service
    options: BotOptions = app.bot_data["options"]
    source = loop_time_source()
    if scheduler is None and source is not time.time:
        scheduler = LoopScheduler()  # APScheduler reads the wall clock
    if scheduler is None:
        assert app.job_queue is not None, "install python-telegram-bot[job-queue]"
        scheduler = JobQueueScheduler(app.job_queue)
    service = GameService(
        app.bot,
        app.bot_data["db"],
        BotClock(options.speed, source, options.own_pace),
        scheduler,
        ServiceConfig(
            lobby_seconds=options.lobby_seconds,
            bot_username=app.bot.username,
            lobby_seed=options.lobby_seed,
            miniapp_name=options.miniapp_name,
            app_url=options.app_url,
            drain_seconds=options.drain_seconds,
            retention_days=options.retention_days,
            replica=Replica(options.replica_id, options.mode, options.webhook_secret),
        ),
    )
    app.bot_data["service"] = service
    metrics: BotMetrics = app.bot_data["metrics"]
    metrics.watch(service.db.engine)
    errors = RecentErrors([app.bot.token])
    logging.getLogger().addHandler(errors)
    app.bot_data["errors"] = errors
    service.leader.claim()  # refuses a second process on SQLite, a bad replica set-up

    async def commands() -> None:
        await set_commands(app)

    service.on_lead = commands  # one-off work: the leader's
    resumed = await service.resume_all()
    if resumed:
        log.info("resumed %d unfinished games", resumed)
    return service


async def set_commands(app: App) -> None:
    """The command menu in each language (Telegram picks it by the user's
    app language; English is the default)."""
    for language in LANGUAGES:
        t = translator(language)
        commands = [BotCommand(name, t.gettext(text)) for name, text in COMMANDS]
        try:
            await app.bot.set_my_commands(
                commands, language_code=None if language == DEFAULT_LANGUAGE else language
            )
        except TelegramError as error:
            log.warning("could not set the %s command list: %s", language, error)


async def stop_service(app: App, *, flush: bool = True) -> None:
    """Stops the game service; with `flush`, once the outbox has sent what it can (what
    it holds otherwise waits, durable, for the next start)."""
    service: GameService | None = app.bot_data.pop("service", None)
    if service is not None:
        if flush:
            await service.drain()
        await service.close()
        metrics: BotMetrics = app.bot_data["metrics"]
        metrics.unwatch(service.db.engine)
    errors: RecentErrors | None = app.bot_data.pop("errors", None)
    if errors is not None:
        logging.getLogger().removeHandler(errors)


async def scrape_metrics(app: App) -> bytes:
    """/metrics: the gauges read now (the database's in its worker thread), then the text."""
    metrics: BotMetrics = app.bot_data["metrics"]
    service: GameService | None = app.bot_data.get("service")
    snapshot: Snapshot | None = None
    if service is not None:
        try:
            parked = frozenset(service.sender.parked)
            snapshot = await service.adb.run(read_snapshot, service.clock.now(), parked)
        except Exception as error:  # counted as a database error; the rest still shows
            log.warning("metrics: cannot read the database: %r", error)
    draining = service is not None and service.draining.active
    metrics.observe(snapshot, app.update_queue.qsize(), draining)
    return metrics.exposition()


async def _post_init(app: App) -> None:
    await start_service(app)


async def _post_shutdown(app: App) -> None:
    await stop_service(app)
