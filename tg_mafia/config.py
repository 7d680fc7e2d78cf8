"""The bot's settings, from command-line flags, then environment variables, then defaults.

`load_settings` checks everything it can without I/O and raises `ConfigError` (one printable
line that names the flag or variable the user set; it never quotes the token, but a URL it
quotes may hold secrets: print it through `tg_mafia.redaction.Redactor`). A missing token is
its own error so the caller can say how to get one.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import os
import re
import secrets
import socket
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Final, Literal
from urllib.parse import SplitResult, urlsplit

LogFormat = Literal["text", "json"]
LOG_FORMATS: Final = ("text", "json")
LOG_LEVELS: Final = ("DEBUG", "INFO", "WARNING", "ERROR")
DEFAULT_BASE_URL: Final = "https://api.telegram.org/bot"
LOCAL_BASE_URL_EXAMPLE: Final = "http://127.0.0.1:8081/bot"
# The ports Telegram's setWebhook accepts.
WEBHOOK_PORTS: Final = (443, 80, 88, 8443)
# tg_mafia.storage.DEFAULT_DATABASE_URL, repeated: importing storage (alembic) takes seconds.
DEFAULT_DATABASE_URL: Final = "sqlite:///tg_mafia.db"
DEFAULT_WEBHOOK_LISTEN: Final = "127.0.0.1:8080"
# How long a drain (SIGTERM, the owner's /drain) lets running games finish before exiting.
DEFAULT_DRAIN_SECONDS: Final = 1800
# How long a game waits for its forum topic, closed by someone else, to be reopened (when
# the bot may not reopen it) before it ends, unscored.
DEFAULT_CLOSED_TOPIC_SECONDS: Final = 1800
MAX_CLOSED_TOPIC_SECONDS: Final = 7 * 86400
# How long a finished game's action log is kept (its protocol can be asked for until then);
# 0 keeps it for ever. The game's result stays for /stats either way.
DEFAULT_RETENTION_DAYS: Final = 90
MAX_RETENTION_DAYS: Final = 3650
# The share of the bot token's Telegram budget (30 calls a second) that the running games'
# estimated calls may fill: past it /newgame puts the group in a queue (bot/admission.py).
DEFAULT_ADMISSION_SHARE: Final = 0.9
ADMISSION_SHARE_RANGE: Final = (0.1, 1.0)

# Setting name -> environment variable. A flag of the same setting wins over its variable.
ENV_VARS: Final = {
    "token": "TELEGRAM_BOT_TOKEN",
    "database_url": "DATABASE_URL",
    "base_url": "TELEGRAM_BASE_URL",
    "log_format": "LOG_FORMAT",
    "log_level": "LOG_LEVEL",
    "webhook_url": "WEBHOOK_URL",
    "listen": "WEBHOOK_LISTEN",
    "secret_token": "WEBHOOK_SECRET",
    "health_listen": "HEALTH_LISTEN",
    "replica_id": "REPLICA_ID",
    "owner_id": "OWNER_ID",
    "drain_seconds": "DRAIN_SECONDS",
    "closed_topic_seconds": "CLOSED_TOPIC_SECONDS",
    "retention_days": "RETENTION_DAYS",
    "miniapp_name": "MINIAPP_NAME",
    "miniapp_max_age": "MINIAPP_MAX_AGE",
    "miniapp_url": "MINIAPP_URL",
    "miniapp_listen": "MINIAPP_LISTEN",
    "admission_share": "ADMISSION_SHARE",
}

# BotFather's tokens are "<bot id>:<35 url-safe characters>"; allow some slack around that.
TOKEN_PATTERN: Final = re.compile(r"\d{1,20}:[A-Za-z0-9_-]{20,100}")
# Telegram's rule for setWebhook's secret_token.
SECRET_PATTERN: Final = re.compile(r"[A-Za-z0-9_-]{1,256}")
# A replica's name, a label on every metric: a host name, a pod name, "<host>-<pid>".
REPLICA_PATTERN: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")
# BotFather's rule for a Mini App's short name (the <app> of t.me/<bot>/<app>).
MINIAPP_NAME_PATTERN: Final = re.compile(r"[A-Za-z0-9_]{3,30}")
DEFAULT_MINIAPP_MAX_AGE: Final = 86400  # seconds a page opened from Telegram stays signed
DEFAULT_MINIAPP_PATH: Final = "/app"  # the Mini App's page on the webhook's origin


class ConfigError(ValueError):
    """A setting is missing or malformed; the message is one line, fit to print."""


class MissingTokenError(ConfigError):
    """No bot token was given (neither --token nor TELEGRAM_BOT_TOKEN)."""


@dataclass(frozen=True)
class Address:
    host: str
    port: int

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


@dataclass(frozen=True)
class Webhook:
    url: str
    listen: Address
    secret_token: str
    secret_generated: bool  # True when made up at start: replicas then disagree (scaling.md)

    @property
    def path(self) -> str:
        """The path the listener serves: the webhook URL's own path."""
        return urlsplit(self.url).path or "/"

    def of_bot(self, bot_id: int) -> Webhook:
        """One bot's webhook when the process serves several tokens: its own path
        (`<URL>/<bot id>`) and its own secret (from WEBHOOK_SECRET and the bot's id, so
        every replica derives the same; random when none is given). The one server
        listens on `listen` for them all."""
        url = self.url.rstrip("/") + f"/{bot_id}"
        if self.secret_generated:
            secret = secrets.token_urlsafe(32)
        else:
            digest = hmac.new(self.secret_token.encode(), str(bot_id).encode(), hashlib.sha256)
            secret = digest.hexdigest()
        return Webhook(url, self.listen, secret, self.secret_generated)


def bot_id_of(token: str) -> int:
    """The bot a token is (BotFather's tokens are `<bot id>:<secret>`)."""
    return int(token.split(":", 1)[0])


@dataclass(frozen=True)
class Settings:
    # The bot tokens (TELEGRAM_BOT_TOKEN, comma-separated, or --token repeated): one
    # process serves them all; the first takes the games stored before there were
    # several (docs/storage.md).
    tokens: tuple[str, ...]
    database_url: str = DEFAULT_DATABASE_URL
    base_url: str = DEFAULT_BASE_URL
    log_format: LogFormat = "text"
    log_level: str = "INFO"
    webhook: Webhook | None = None  # None: long polling
    health_listen: Address | None = None  # None: no health endpoint
    replica_id: str = "local"  # load_settings' default: "<hostname>-<pid>"
    owner_id: int | None = None  # the operator's Telegram user id: /status and /drain
    drain_seconds: int = DEFAULT_DRAIN_SECONDS
    closed_topic_seconds: int = DEFAULT_CLOSED_TOPIC_SECONDS
    retention_days: int = DEFAULT_RETENTION_DAYS
    # The table's Mini App: its short name given to BotFather (None: no "Table"
    # links), how old its signed initData may be, its page's public URL (None: at
    # /app on the webhook's origin, or, by long polling, no Mini App), and where its
    # server listens by long polling (the webhook's server serves it otherwise).
    miniapp_name: str | None = None
    miniapp_max_age: int = DEFAULT_MINIAPP_MAX_AGE
    miniapp_url: str | None = None
    miniapp_listen: Address = Address("127.0.0.1", 8080)
    admission_share: float = DEFAULT_ADMISSION_SHARE
    from_flags: frozenset[str] = frozenset()  # settings given by a flag, not a variable
    # With several tokens and a webhook: each bot's own (Webhook.of_bot), in the tokens'
    # order, made once (a generated secret is random).
    bot_webhooks: tuple[Webhook, ...] = ()

    def name_of(self, name: str) -> str:
        return setting_name(name, self.from_flags)

    @property
    def token(self) -> str:
        """The first token (the only one, in most deployments)."""
        return self.tokens[0]

    def webhook_of(self, bot_id: int) -> Webhook | None:
        """A bot's webhook: the one configured when there is one token; with several,
        each bot's own path and secret (Webhook.of_bot)."""
        if not self.bot_webhooks:
            return self.webhook
        ids = [bot_id_of(token) for token in self.tokens]
        return self.bot_webhooks[ids.index(bot_id)]

    @property
    def app_url(self) -> str | None:
        """The Mini App's page as Telegram opens it; None: no Mini App (long polling
        with no MINIAPP_URL), and so no "Table" link or button."""
        if self.miniapp_url is not None:
            return self.miniapp_url
        if self.webhook is None:
            return None
        parts = urlsplit(self.webhook.url)
        return f"{parts.scheme}://{parts.netloc}{DEFAULT_MINIAPP_PATH}"

    @property
    def app_server(self) -> Address | None:
        """Where the Mini App gets a server of its own: by long polling, with a page
        URL (with a webhook it is on the webhook's server)."""
        return self.miniapp_listen if self.webhook is None and self.app_url else None

    @property
    def secrets(self) -> tuple[str, ...]:
        """What must never reach a log line."""
        found = list(self.tokens)
        if self.webhook is not None:
            found.append(self.webhook.secret_token)
        found += [hook.secret_token for hook in self.bot_webhooks]
        return tuple(found)


def setting_name(name: str, from_flags: Collection[str]) -> str:
    """How the user set `name`: its flag (argparse's dest is the setting's name) when a flag
    gave it, else its environment variable."""
    return "--" + name.replace("_", "-") if name in from_flags else ENV_VARS[name]


def _given(flags: Mapping[str, str | None], env: Mapping[str, str], name: str) -> str | None:
    value = flags.get(name)
    if value is None:
        value = env.get(ENV_VARS[name])
    value = value.strip() if value is not None else None
    return value or None


def given_secrets(flags: Mapping[str, str | None], env: Mapping[str, str]) -> tuple[str, ...]:
    """The token(s) and webhook secret as given, to redact from errors before `Settings`
    exist."""
    found = (_given(flags, env, name) for name in ("token", "secret_token"))
    values = [value for value in found if value]
    tokens = _given(flags, env, "token")
    if tokens is not None and "," in tokens:
        values += [part.strip() for part in tokens.split(",") if part.strip()]
    return tuple(values)


def load_settings(flags: Mapping[str, str | None], env: Mapping[str, str]) -> Settings:
    """Settings from `flags` (setting name -> value or None) over `env` over the defaults.

    Errors name the flag when the value came from a flag, else the environment variable.
    """
    from_flags = frozenset(name for name in ENV_VARS if _given(flags, {}, name) is not None)

    def pick(name: str) -> str | None:
        return _given(flags, env, name)

    def name_of(name: str) -> str:
        return setting_name(name, from_flags)

    tokens = _tokens(name_of("token"), pick("token"))
    log_format = (pick("log_format") or "text").lower()
    _one_of(name_of("log_format"), log_format, LOG_FORMATS, "text or json")
    log_level = (pick("log_level") or "INFO").upper()
    _one_of(name_of("log_level"), log_level, LOG_LEVELS, f"one of {', '.join(LOG_LEVELS)}")
    base_url = bot_api_base_url(name_of("base_url"), pick("base_url") or DEFAULT_BASE_URL)
    health = pick("health_listen")
    replica = _replica_id(name_of("replica_id"), pick("replica_id") or default_replica_id())
    owner = _owner_id(name_of("owner_id"), pick("owner_id"))
    drain = _seconds(name_of("drain_seconds"), pick("drain_seconds"), 0, DEFAULT_DRAIN_SECONDS)
    retention_days = parse_retention_days(name_of("retention_days"), pick("retention_days"))
    miniapp = _miniapp_name(name_of("miniapp_name"), pick("miniapp_name"))
    max_age = _seconds(
        name_of("miniapp_max_age"), pick("miniapp_max_age"), 60, DEFAULT_MINIAPP_MAX_AGE
    )
    closed = _seconds(
        name_of("closed_topic_seconds"),
        pick("closed_topic_seconds"),
        60,
        DEFAULT_CLOSED_TOPIC_SECONDS,
    )
    official = _is_official(base_url)
    page = pick("miniapp_url")
    if page is not None:
        check_miniapp_url(name_of("miniapp_url"), page, official_api=official)
    listen = pick("miniapp_listen") or DEFAULT_WEBHOOK_LISTEN
    admission_share = parse_admission_share(name_of("admission_share"), pick("admission_share"))
    webhook = _webhook(pick, name_of, official_api=official)
    return Settings(
        tokens=tokens,
        database_url=pick("database_url") or DEFAULT_DATABASE_URL,
        base_url=base_url,
        log_format="json" if log_format == "json" else "text",
        log_level=log_level,
        webhook=webhook,
        bot_webhooks=_bot_webhooks(webhook, tokens),
        health_listen=(
            parse_address(name_of("health_listen"), health, "127.0.0.1") if health else None
        ),
        replica_id=replica,
        owner_id=owner,
        drain_seconds=drain,
        closed_topic_seconds=closed,
        retention_days=retention_days,
        miniapp_name=miniapp,
        miniapp_max_age=max_age,
        miniapp_url=page.rstrip("/") if page is not None else None,
        miniapp_listen=parse_address(name_of("miniapp_listen"), listen, "127.0.0.1"),
        admission_share=admission_share,
        from_flags=from_flags,
    )


def _tokens(name: str, given: str | None) -> tuple[str, ...]:
    """One token, or several separated by commas: each checked, by its place in the
    list (never echoed: a mistyped token is still mostly a secret), and no bot twice."""
    if given is None:
        raise MissingTokenError("no bot token: set TELEGRAM_BOT_TOKEN or pass --token")
    tokens = tuple(part.strip() for part in given.split(","))
    shape = "(BotFather gives one like 123456789:AAF...; check for quotes or spaces)"
    for place, token in enumerate(tokens, start=1):
        if not TOKEN_PATTERN.fullmatch(token):
            if len(tokens) == 1:
                raise ConfigError(f"{name} does not look like a bot token {shape}")
            what = "is empty" if not token else "does not look like a bot token"
            raise ConfigError(f"{name}: token {place} of {len(tokens)} {what} {shape}")
    seen: dict[int, int] = {}
    for place, token in enumerate(tokens, start=1):
        bot = bot_id_of(token)
        if bot in seen:
            raise ConfigError(
                f"{name}: tokens {seen[bot]} and {place} are the same bot (id {bot}): "
                "give each bot's token once"
            )
        seen[bot] = place
    return tokens


def _bot_webhooks(webhook: Webhook | None, tokens: tuple[str, ...]) -> tuple[Webhook, ...]:
    """With several tokens and a webhook, each bot's own path and secret."""
    if webhook is None or len(tokens) == 1:
        return ()
    return tuple(webhook.of_bot(bot_id_of(token)) for token in tokens)


def _one_of(name: str, given: str, allowed: tuple[str, ...], wording: str) -> None:
    if given not in allowed:
        raise ConfigError(f"{name} must be {wording}, not {given!r}")


def _replica_id(name: str, replica: str) -> str:
    if not REPLICA_PATTERN.fullmatch(replica):
        raise ConfigError(
            f"{name} must be 1-64 characters among A-Z, a-z, 0-9, . _ : - "
            f"(starting with a letter or digit), not {replica!r}"
        )
    return replica


def _owner_id(name: str, owner: str | None) -> int | None:
    if owner is not None and not (owner.isdigit() and 0 < int(owner) < 2**63):
        raise ConfigError(
            f"{name} must be your numeric Telegram user id (e.g. 123456789), not {owner!r}"
        )
    return int(owner) if owner is not None else None


def _seconds(name: str, given: str | None, low: int, default: int) -> int:
    """A number of seconds from `low` to a week."""
    if given is None:
        return default
    if not (given.isdigit() and low <= int(given) <= 7 * 86400):
        raise ConfigError(
            f"{name} must be a number of seconds from {low} to {7 * 86400}, not {given!r}"
        )
    return int(given)


def _miniapp_name(name: str, miniapp: str | None) -> str | None:
    if miniapp is not None and not MINIAPP_NAME_PATTERN.fullmatch(miniapp):
        raise ConfigError(
            f"{name} must be the Mini App's short name given to BotFather "
            f"(3-30 letters, digits or _), not {miniapp!r}"
        )
    return miniapp


def parse_retention_days(name: str, given: str | None) -> int:
    if given is None:
        return DEFAULT_RETENTION_DAYS
    if not (given.isdigit() and int(given) <= MAX_RETENTION_DAYS):
        raise ConfigError(
            f"{name} must be a number of days from 0 (keep for ever) to {MAX_RETENTION_DAYS}, "
            f"not {given!r}"
        )
    return int(given)


def parse_admission_share(name: str, given: str | None) -> float:
    if given is None:
        return DEFAULT_ADMISSION_SHARE
    low, high = ADMISSION_SHARE_RANGE
    try:
        share = float(given)
    except ValueError:
        share = math.nan
    if not low <= share <= high:  # NaN fails too
        raise ConfigError(
            f"{name} must be the share of the bot's Telegram budget new games may fill, "
            f"a number from {low:g} to {high:g} (e.g. {DEFAULT_ADMISSION_SHARE:g}), not {given!r}"
        )
    return share


def default_replica_id() -> str:
    """`<hostname>-<pid>`: unique among the processes of one database, and readable."""
    host = re.sub(r"[^A-Za-z0-9._-]", "-", socket.gethostname())[:48].strip(".-_") or "host"
    return f"{host}-{os.getpid()}"


def _webhook(
    pick: Callable[[str], str | None], name_of: Callable[[str], str], *, official_api: bool
) -> Webhook | None:
    url = pick("webhook_url")
    if url is None:
        return None  # polling: WEBHOOK_LISTEN and WEBHOOK_SECRET are ignored
    check_webhook_url(name_of("webhook_url"), url, official_api=official_api)
    listen = parse_address(name_of("listen"), pick("listen") or DEFAULT_WEBHOOK_LISTEN, None)
    secret = pick("secret_token")
    if secret is not None and not SECRET_PATTERN.fullmatch(secret):
        raise ConfigError(
            f"{name_of('secret_token')} must be 1-256 characters among A-Z, a-z, 0-9, _ and - "
            "(Telegram's rule)"
        )
    return Webhook(
        url=url,
        listen=listen,
        secret_token=secret or secrets.token_urlsafe(32),
        secret_generated=secret is None,
    )


def _is_official(base_url: str) -> bool:
    return urlsplit(base_url).hostname == urlsplit(DEFAULT_BASE_URL).hostname


def _split_url(name: str, url: str, schemes: tuple[str, ...], example: str) -> SplitResult:
    """`url` split, with a scheme among `schemes`, a host and a valid port; else ConfigError."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:  # not a number, or out of range
        port = 0
    if parts.scheme not in schemes or not parts.hostname or port == 0:
        kind = "an https" if schemes == ("https",) else "an http(s)"
        raise ConfigError(f"{name} must be {kind} URL with a host, e.g. {example}, not {url!r}")
    return parts


def bot_api_base_url(name: str, url: str) -> str:
    """The Bot API base URL the token is appended to: `.../bot`, added when there is no path."""
    parts = _split_url(name, url, ("http", "https"), LOCAL_BASE_URL_EXAMPLE)
    path = parts.path.rstrip("/")
    if not path:
        # A bare server address, as a local Bot API server is usually written.
        return parts._replace(path="/bot").geturl()
    if not path.endswith("/bot") or parts.query or parts.fragment:
        raise ConfigError(
            f"{name} must end in /bot, which the token follows "
            f"(e.g. {LOCAL_BASE_URL_EXAMPLE}), not {url!r}"
        )
    return parts._replace(path=path).geturl()


def check_webhook_url(name: str, url: str, *, official_api: bool) -> None:
    """Telegram's own Bot API posts only to https, on a few ports; a local Bot API server
    (started with --local) also to http and any port, so only the shape is checked there."""
    example = "https://bot.example.org/tg-mafia"
    if not official_api:
        _split_url(name, url, ("http", "https"), example)
        return
    port = _split_url(name, url, ("https",), example).port or 443
    if port not in WEBHOOK_PORTS:
        allowed = ", ".join(map(str, WEBHOOK_PORTS))
        raise ConfigError(
            f"{name} must use a port Telegram posts to ({allowed}), not {port}; "
            "a reverse proxy on one of them can forward to the bot"
        )


def check_miniapp_url(name: str, url: str, *, official_api: bool) -> None:
    """Telegram opens a Mini App over https only; through a local Bot API server (a
    test, the sandbox) http is taken too. The path is where the page is served."""
    example = "https://bot.example.org/app"
    schemes = ("https",) if official_api else ("http", "https")
    parts = _split_url(name, url, schemes, example)
    if parts.query or parts.fragment:
        raise ConfigError(f"{name} must be the page's URL with no ?query or #fragment, not {url!r}")


def parse_address(name: str, text: str, default_host: str | None) -> Address:
    """HOST:PORT ([::1]:PORT for IPv6); a bare PORT when `default_host` is given."""
    host, sep, port_text = text.rpartition(":")
    if not sep:
        host, port_text = default_host or "", text
    host = host.removeprefix("[").removesuffix("]")
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        expected = "HOST:PORT or PORT" if default_host else "HOST:PORT"
        raise ConfigError(f"{name} must be {expected}, e.g. 127.0.0.1:8080, not {text!r}")
    return Address(host, int(port_text))
