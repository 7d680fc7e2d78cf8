"""`tg-mafia run`: the bot, by long polling or behind a webhook, until a signal.

SIGTERM drains (the deploy procedure, docs/operations.md): no new games, the running games
go on until they end or DRAIN_SECONDS pass, the outbox keeps sending, then the bot exits;
the owner's /drain does the same. A second SIGTERM, or SIGINT (Ctrl-C), stops at once:
games still running, and calls still in the outbox, wait in the database for the next start.

Exit codes: 0 stopped by a signal or drained; 2 a configuration error (no or bad token, a
bad setting, bad database, address in use, webhook refused), printed as one line on stderr,
secrets redacted; 1 anything else (Telegram unreachable at start, a crash), logged.

The order of the start: every setting is checked without I/O, then the listen addresses are
tried, then the database is opened (created and migrated), and only then is Telegram asked.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import urlsplit

from tg_mafia.commands.arguments import CommaList, examples
from tg_mafia.config import (
    ENV_VARS,
    Address,
    ConfigError,
    MissingTokenError,
    Settings,
    Webhook,
    bot_id_of,
    given_secrets,
    load_settings,
)
from tg_mafia.ops.logs import logging_to, quieted
from tg_mafia.redaction import Redactor

# The bot, PTB and the storage load in seconds: only once the settings are known to be good,
# so that `tg-mafia run` without a token answers at once.
if TYPE_CHECKING:
    from tg_mafia.bootstrap import App
    from tg_mafia.miniapp.routes import MiniApp
    from tg_mafia.ops.health import HealthServer
    from tg_mafia.storage import Database
    from tg_mafia.telegram.webhook import WebServer

log = logging.getLogger("tg_mafia.run")

NO_TOKEN: Final = """\
tg-mafia run: no bot token.
  1. In Telegram, open @BotFather, send /newbot and follow the steps: it answers with a
     token like 123456789:AAF...
  2. Run: TELEGRAM_BOT_TOKEN='<that token>' tg-mafia run   (or pass --token)
To see a whole game offline first, with simulated players:
  tg-mafia demo --variant moscow --players 11 --lang ru"""


@dataclass
class Listeners:
    """What `tg-mafia run` serves beside the bot, started with it and stopped with it."""

    health: HealthServer | None = None
    web: WebServer | None = None  # the webhook's server (Telegram's updates), or the Mini App's
    miniapp: MiniApp | None = None  # the table's Mini App, on that server


class StartError(Exception):
    """The bot could not start; the message is one line, `code` the exit code."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the bot (long polling, or a webhook with --webhook-url)",
        description=(
            "Run the bot until Ctrl-C (stops at once) or SIGTERM (drains: no new games, "
            "exits once the running games end). Every flag has an environment variable; "
            "a flag wins over its variable. Long polling unless a webhook URL is given. "
            "Without a token it says how to get one. A bad setting is one line on stderr "
            "and exit code 2 (docs/operations.md, Settings)."
        ),
        epilog=examples(
            "TELEGRAM_BOT_TOKEN='123456789:AAF...' tg-mafia run",
            "tg-mafia run --token 123456789:AAF... --database-url "
            "postgresql+psycopg://user:password@127.0.0.1:5432/mafia",
            "tg-mafia run --webhook-url https://bot.example.org/tg-mafia --listen 127.0.0.1:8080",
        ),
    )
    add = parser.add_argument
    add(
        "--token",
        action=CommaList,
        help="bot token from @BotFather; repeated (or comma-separated) for several bots, "
        "one process serving them all (env TELEGRAM_BOT_TOKEN, comma-separated)",
    )
    add("--database-url", help="SQLAlchemy URL (env DATABASE_URL; default sqlite:///tg_mafia.db)")
    add(
        "--base-url",
        help="Bot API base URL ending in /bot (added to a bare http://HOST:PORT), for a local "
        "Bot API server or the sandbox (env TELEGRAM_BASE_URL; default "
        "https://api.telegram.org/bot)",
    )
    # No argparse choices: a bad value gets the same one line as a bad variable.
    add("--log-format", help="text or json (env LOG_FORMAT; default text)")
    add("--log-level", help="DEBUG, INFO, WARNING or ERROR (env LOG_LEVEL; default INFO)")
    add(
        "--webhook-url",
        help="public https URL Telegram posts updates to, on port 443, 80, 88 or 8443 "
        "(env WEBHOOK_URL)",
    )
    add("--listen", help="HOST:PORT the webhook listens on (env WEBHOOK_LISTEN; 127.0.0.1:8080)")
    add(
        "--secret-token",
        help="webhook secret (env WEBHOOK_SECRET; default: a random one at each start)",
    )
    add(
        "--health-listen",
        help="HOST:PORT or PORT for GET /healthz and /metrics (env HEALTH_LISTEN; default: off)",
    )
    add(
        "--replica-id",
        help="this process's name on its metrics (env REPLICA_ID; default <hostname>-<pid>)",
    )
    add("--owner-id", help="the operator's Telegram user id: /status and /drain (env OWNER_ID)")
    add(
        "--drain-seconds",
        help="how long a drain (SIGTERM, /drain) lets running games finish before exiting "
        "(env DRAIN_SECONDS; default 1800)",
    )
    add(
        "--closed-topic-seconds",
        help="how long a game waits for its forum topic, closed by an administrator, to be "
        "reopened when the bot may not reopen it, before it ends unscored "
        "(env CLOSED_TOPIC_SECONDS; default 1800)",
    )
    add(
        "--retention-days",
        help="how many days a finished game keeps its players' personal data (its action "
        "log, names, user ids), then anonymised; 0 keeps it for ever (env RETENTION_DAYS; "
        "default 90)",
    )
    add(
        "--miniapp-name",
        help="the table Mini App's short name given to BotFather (t.me/<bot>/<name>): the "
        "game's pinned message links to it (env MINIAPP_NAME; default: no link)",
    )
    add(
        "--miniapp-max-age",
        help="seconds a Mini App page opened from Telegram stays signed "
        "(env MINIAPP_MAX_AGE; default 86400)",
    )
    add(
        "--miniapp-url",
        help="the table Mini App page's public https URL, as given to BotFather (env "
        "MINIAPP_URL; default: /app on the webhook's origin; by long polling, no Mini App)",
    )
    add(
        "--miniapp-listen",
        help="HOST:PORT or PORT the Mini App's server listens on by long polling, when "
        "MINIAPP_URL is set (env MINIAPP_LISTEN; default 127.0.0.1:8080)",
    )
    add(
        "--admission-share",
        help="the share of the bot's Telegram budget (30 calls a second) the running games' "
        "estimated calls may fill: past it /newgame puts the group in a queue "
        "(env ADMISSION_SHARE; 0.1 to 1; default 0.9)",
    )
    add(
        "--take-over",
        action="store_true",
        help="long polling even though a webhook is set: delete it (the replicas running in "
        "webhook mode then get no more updates)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    flags = {name: getattr(args, name, None) for name in ENV_VARS}
    try:
        settings = load_settings(flags, os.environ)
    except MissingTokenError:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    except ConfigError as error:
        # No Settings yet, so no log filter either: redact with what was given.
        return _refuse(error, Redactor(given_secrets(flags, os.environ)))
    redact = Redactor(settings.secrets)
    from tg_mafia.storage import DatabaseConfigError, open_database

    with logging_to(settings.log_format, settings.log_level, settings.secrets):
        try:
            check_free(settings)
            db = open_database(settings.database_url, settings.name_of("database_url"))
        except (StartError, DatabaseConfigError) as error:
            return _refuse(error, redact)
        try:
            return asyncio.run(
                serve(settings, db, take_over=bool(getattr(args, "take_over", False)))
            )
        except StartError as error:
            return _refuse(error, redact)
        except KeyboardInterrupt:  # Ctrl-C before the signal handlers were in place
            return 130
        except Exception:
            log.exception("the bot stopped on an unexpected error")
            return 1
        finally:
            db.close()


def _refuse(error: Exception, redact: Redactor) -> int:
    """The error's one line on stderr; its exit code (2 unless a StartError says otherwise)."""
    print(f"tg-mafia run: {redact(str(error))}", file=sys.stderr)
    return error.code if isinstance(error, StartError) else 2


def check_free(settings: Settings) -> None:
    """Fail on a taken address now, before the database and Telegram are touched."""
    if settings.webhook is not None:
        _check_bindable(settings.name_of("listen"), settings.webhook.listen)
    if settings.health_listen is not None:
        _check_bindable(settings.name_of("health_listen"), settings.health_listen)
    if settings.app_server is not None:
        _check_bindable(settings.name_of("miniapp_listen"), settings.app_server)


def _check_bindable(name: str, address: Address) -> None:
    family = socket.AF_INET6 if ":" in address.host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((address.host, address.port))
        except OSError as error:
            raise StartError(_cannot_listen(name, address, error)) from error


def _cannot_listen(name: str, address: Address, error: OSError) -> str:
    return f"cannot listen on {address} ({name}): {error.strerror or error}"


async def serve(settings: Settings, db: Database, *, take_over: bool = False) -> int:
    from tg_mafia.bootstrap import fleet_for

    apps, requests = fleet_for(settings, db)
    app = apps[0]  # the first token's: its fleet is every bot of the process
    now = asyncio.Event()  # stop without waiting: SIGINT, or a second SIGTERM
    terms = 0

    def stop_now() -> None:
        log.info("stopping now: games still running resume at the next start")
        now.set()

    def on_sigterm() -> None:
        nonlocal terms
        terms += 1
        service = app.bot_data.service
        if terms > 1 or service is None:
            stop_now()
        elif not service.draining.begin("SIGTERM"):  # one drain for every bot
            log.info("draining already; a second SIGTERM stops at once")

    loop = asyncio.get_running_loop()
    # Signals reach the main thread only; elsewhere (embedded, tests) cancelling stops us.
    handlers = {signal.SIGINT: stop_now, signal.SIGTERM: on_sigterm} if _in_main_thread() else {}
    for sig, handler in handlers.items():
        loop.add_signal_handler(sig, handler)
    listeners = Listeners(health=_health_server(settings, apps, db))
    try:
        await _start(settings, apps, listeners, take_over=take_over)
        await _until_drained(app, now)
        log.info("stopping")
        return 0
    finally:
        for sig in handlers:
            loop.remove_signal_handler(sig)
        await _stop(apps, listeners, flush=not now.is_set())
        # PTB shuts a bot's connections down only if the bot initialised: after a
        # rejected token their sessions would be left open.
        for request in requests:
            await request.shutdown()


async def _until_drained(app: App, now: asyncio.Event) -> None:
    """Until a drain (SIGTERM or the owner's /drain) has let every bot's games end or
    reached its limit, or until `now` is set."""
    from tg_mafia.bootstrap import own_running_games

    service = app.bot_data.running

    async def running() -> int:
        return await own_running_games(app)

    drained = asyncio.ensure_future(service.draining.finished(running))
    stopped = asyncio.ensure_future(now.wait())
    try:
        await asyncio.wait({drained, stopped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (drained, stopped):
            task.cancel()
    if drained.done() and not drained.cancelled():
        left = drained.result()
        if left:
            log.warning(
                "drain limit reached with %d games running: they stay in the database and "
                "resume at the next start",
                left,
            )
        else:
            log.info("drained: no game running")


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _health_server(settings: Settings, apps: list[App], db: Database) -> HealthServer | None:
    if settings.health_listen is None:
        return None
    from tg_mafia.bootstrap import scrape_metrics
    from tg_mafia.ops.health import HealthServer, NotReadyError

    async def probe() -> int:
        if any(app.bot_data.service is None or not app.running for app in apps):
            raise NotReadyError("starting or stopping")
        return len(db.unfinished_games())  # every bot's

    def draining() -> bool:
        service = apps[0].bot_data.service
        return service is not None and service.draining.active

    async def scrape() -> bytes:
        return await scrape_metrics(apps[0])

    return HealthServer(settings.health_listen, probe, scrape, draining)


async def _start(
    settings: Settings, apps: list[App], listeners: Listeners, *, take_over: bool = False
) -> None:
    # The same steps as Application.run_polling/run_webhook, by hand: each failure gets its
    # own line, the health listener shares the loop, and the game service drains its outbox
    # while the bot can still send. Every token is asked of Telegram before any bot
    # starts: one refused, none starts.
    from tg_mafia.bootstrap import start_service
    from tg_mafia.ops import heap
    from tg_mafia.runtime.db.leader import ReplicaConfigError

    health = listeners.health
    if health is not None:
        await _start_health(settings, health)
    for place, app in enumerate(apps, start=1):
        await _initialize(settings, app, place, len(apps))
    try:
        for app in apps:
            await start_service(app)
    except ReplicaConfigError as error:
        raise StartError(str(error)) from error
    # PTB logs the traceback of a failed setWebhook/deleteWebhook before raising it; the
    # raised error becomes our one line, so its log is wanted only when debugging.
    ptb_start_level = logging.NOTSET if settings.log_level == "DEBUG" else logging.CRITICAL
    miniapp = _miniapp(settings, apps)
    names = ", ".join(f"@{app.bot.username}" for app in apps)
    if settings.webhook is None:
        _serve_miniapp_alone(settings, miniapp, listeners)
        for app in apps:
            await _start_polling(settings, app, ptb_start_level, take_over=take_over)
        log.info(
            "running as %s by long polling%s",
            names,
            f", the Mini App on {settings.app_server}" if listeners.miniapp else "",
        )
    else:
        await _start_webhooks(settings, apps, miniapp, listeners)
        webhook = settings.webhook
        log.info(
            "running as %s, webhook %s, listening on %s%s",
            names,
            webhook.url if len(apps) == 1 else f"{webhook.url.rstrip('/')}/<bot id>",
            webhook.listen,
            " (random secret: set WEBHOOK_SECRET when running replicas)"
            if webhook.secret_generated
            else "",
        )
    for app in apps:
        await app.start()
    frozen = heap.settle()  # after the start-up: what exists now lives as long as the bot
    log.debug("%d long-lived objects kept out of the garbage collector's walks", frozen)
    if health is not None:
        log.info("health check on http://%s/healthz", health.address)


async def _initialize(settings: Settings, app: App, place: int, count: int) -> None:
    """Telegram says who the bot is (getMe): a token it refuses is named by its place
    in the list and its bot's id, never shown."""
    from telegram.error import InvalidToken, NetworkError

    from tg_mafia.telegram.startup import ATTEMPTS, with_retries

    name = settings.name_of("token")
    try:
        await with_retries("asking Telegram who the bot is (getMe)", app.initialize)
    except InvalidToken as error:
        which = "the bot token" if count == 1 else f"token {place} of {count}"
        if count > 1:
            which += f" (bot {bot_id_of(settings.tokens[place - 1])})"
        raise StartError(f"Telegram rejected {which}: check {name} (BotFather's /token)") from error
    except NetworkError as error:
        raise StartError(
            f"cannot reach the Bot API at {settings.base_url}: {error} ({ATTEMPTS} attempts)", 1
        ) from error


async def _start_webhooks(
    settings: Settings, apps: list[App], miniapp: MiniApp | None, listeners: Listeners
) -> None:
    """One server for every bot, each bot's updates on its own path with its own secret
    (Settings.webhook_of), and the Mini App beside them; then each bot's webhook set."""
    from telegram.error import BadRequest, NetworkError, TelegramError

    from tg_mafia.telegram.startup import ATTEMPTS, with_retries
    from tg_mafia.telegram.webhook import WebServer, hook_rule

    assert settings.webhook is not None
    hooks = []
    for app in apps:
        hook = settings.webhook_of(app.bot.id)
        assert hook is not None
        hooks.append((app, hook))
    # Each update handled before it is answered (not PTB's webhook server, which
    # answers at once): an update in the hands of a killed replica is not lost.
    # The table's Mini App is on the same server (Telegram opens it over its HTTPS).
    rules = [
        hook_rule(
            hook.path,
            app.bot,
            app.process_update,
            hook.secret_token,
            app.bot_data.metrics.api_call,
        )
        for app, hook in hooks
    ]
    routes = miniapp.routes() if miniapp is not None else []
    _listen(WebServer(settings.webhook.listen, [*rules, *routes]), settings, miniapp, listeners)
    for app, hook in hooks:
        refused = f"Telegram refused the webhook {hook.url}"
        try:
            await with_retries("setting the webhook (setWebhook)", _setting(app, hook))
        except BadRequest as error:  # PTB makes it a NetworkError: it must come first
            raise StartError(f"{refused}: {error}") from error
        except NetworkError as error:
            raise StartError(f"cannot set the webhook: {error} ({ATTEMPTS} attempts)", 1) from error
        except TelegramError as error:
            raise StartError(f"{refused}: {error}") from error


def _setting(app: App, hook: Webhook) -> Callable[[], Awaitable[None]]:
    """setWebhook for one bot, as `with_retries` calls it (again on a failure)."""
    from tg_mafia.telegram.webhook import set_webhook

    async def setting() -> None:
        await set_webhook(app.bot, hook.url, hook.secret_token)

    return setting


def _miniapp(settings: Settings, apps: list[App]) -> MiniApp | None:
    """The table's Mini App, when it has a page (Settings.app_url): one page for every
    bot, each game's answered by its own bot."""
    url = settings.app_url
    if url is None:
        return None
    from tg_mafia.miniapp.routes import MiniApp, MiniAppConfig

    config = MiniAppConfig(
        token=settings.token,
        max_age=settings.miniapp_max_age,
        prefix=urlsplit(url).path.rstrip("/"),
        more_tokens=settings.tokens[1:],
    )
    first, *others = [app.bot_data.running for app in apps]
    return MiniApp(first, apps[0].bot_data.input_limiter, config, others)


def _listen(
    server: WebServer, settings: Settings, miniapp: MiniApp | None, listeners: Listeners
) -> None:
    """The bot's web server started (a StartError when its address is taken), and
    the Mini App's live pages with it."""
    webhook = settings.webhook
    name = settings.name_of("listen" if webhook is not None else "miniapp_listen")
    try:
        server.start()
    except OSError as error:
        raise StartError(_cannot_listen(name, server.address, error)) from error
    listeners.web = server
    if miniapp is not None:
        miniapp.start()
        listeners.miniapp = miniapp


async def _start_health(settings: Settings, health: HealthServer) -> None:
    try:
        await health.start()
    except OSError as error:
        name = settings.name_of("health_listen")
        raise StartError(_cannot_listen(name, health.address, error)) from error


def _serve_miniapp_alone(settings: Settings, miniapp: MiniApp | None, listeners: Listeners) -> None:
    """No webhook: the Mini App has the bot's web server to itself, in this process."""
    if miniapp is None or settings.app_server is None:
        return
    from tg_mafia.telegram.webhook import WebServer

    _listen(WebServer(settings.app_server, miniapp.routes()), settings, miniapp, listeners)


async def _start_polling(
    settings: Settings, app: App, ptb_start_level: int, *, take_over: bool
) -> None:
    from telegram import Update

    from tg_mafia.telegram.startup import with_retries

    updater = app.updater
    assert updater is not None  # bootstrap keeps PTB's default Updater
    if not take_over:
        await _refuse_polling_over_a_webhook(app, settings)
    with quieted(["telegram.ext"], ptb_start_level):
        await with_retries(
            "starting to poll (deleteWebhook)",
            lambda: updater.start_polling(allowed_updates=Update.ALL_TYPES),
        )


async def _refuse_polling_over_a_webhook(app: App, settings: Settings) -> None:
    """Long polling deletes the webhook: the replicas behind it would get no more updates.
    It is done only when asked (--take-over)."""
    from telegram.error import TelegramError

    from tg_mafia.telegram.startup import with_retries

    try:
        info = await with_retries(
            "asking Telegram for the webhook (getWebhookInfo)", app.bot.get_webhook_info
        )
    except TelegramError as error:
        raise StartError(f"cannot ask Telegram for the webhook: {error}", 1) from error
    if info.url:
        raise StartError(
            f"a webhook is set ({info.url}): replicas in webhook mode may be running on it, and "
            "long polling would take their updates; stop them and pass --take-over, or run "
            "this one with WEBHOOK_URL too"
        )


async def _stop(apps: list[App], listeners: Listeners, *, flush: bool) -> None:
    from tg_mafia.bootstrap import stop_service

    if listeners.health is not None:
        await listeners.health.stop()
    server, listeners.web = listeners.web, None
    if server is not None:
        await server.stop()
    miniapp, listeners.miniapp = listeners.miniapp, None
    if miniapp is not None:
        miniapp.stop()
    for app in apps:
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        if app.running:
            await app.stop()
    for app in apps:
        await stop_service(app, flush=flush)
        with contextlib.suppress(RuntimeError):  # never initialized: nothing to shut down
            await app.shutdown()
