"""The bot's settings, from command-line flags, then environment variables, then defaults.

`load_settings` checks everything it can without I/O and raises `ConfigError` (one printable
line, no secret in it); a missing token is its own error so the caller can say how to get one.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final, Literal
from urllib.parse import urlsplit

LogFormat = Literal["text", "json"]
LOG_FORMATS: Final = ("text", "json")
LOG_LEVELS: Final = ("DEBUG", "INFO", "WARNING", "ERROR")
DEFAULT_BASE_URL: Final = "https://api.telegram.org/bot"
# tg_mafia.storage.DEFAULT_DATABASE_URL, repeated: importing storage (alembic) takes seconds.
DEFAULT_DATABASE_URL: Final = "sqlite:///tg_mafia.db"
DEFAULT_WEBHOOK_LISTEN: Final = "127.0.0.1:8080"

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
}

# BotFather's tokens are "<bot id>:<35 url-safe characters>"; allow some slack around that.
TOKEN_PATTERN: Final = re.compile(r"\d{1,20}:[A-Za-z0-9_-]{20,100}")
# Telegram's rule for setWebhook's secret_token.
SECRET_PATTERN: Final = re.compile(r"[A-Za-z0-9_-]{1,256}")


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
    secret_generated: bool  # True when made up at start: replicas then disagree, see README

    @property
    def path(self) -> str:
        """The path the listener serves: the webhook URL's own path."""
        return urlsplit(self.url).path or "/"


@dataclass(frozen=True)
class Settings:
    token: str
    database_url: str = DEFAULT_DATABASE_URL
    base_url: str = DEFAULT_BASE_URL
    log_format: LogFormat = "text"
    log_level: str = "INFO"
    webhook: Webhook | None = None  # None: long polling
    health_listen: Address | None = None  # None: no health endpoint

    @property
    def secrets(self) -> tuple[str, ...]:
        """What must never reach a log line."""
        found = [self.token]
        if self.webhook is not None:
            found.append(self.webhook.secret_token)
        return tuple(found)


def load_settings(flags: Mapping[str, str | None], env: Mapping[str, str]) -> Settings:
    """Settings from `flags` (setting name -> value or None) over `env` over the defaults."""

    def pick(name: str) -> str | None:
        value = flags.get(name)
        if value is None:
            value = env.get(ENV_VARS[name])
        value = value.strip() if value is not None else None
        return value or None

    token = pick("token")
    if token is None:
        raise MissingTokenError("no bot token: set TELEGRAM_BOT_TOKEN or pass --token")
    if not TOKEN_PATTERN.fullmatch(token):
        # Never echo the value: a mistyped token is still mostly a secret.
        raise ConfigError(
            "TELEGRAM_BOT_TOKEN does not look like a bot token "
            "(BotFather gives one like 123456789:AAF...; check for quotes or spaces)"
        )
    log_format = (pick("log_format") or "text").lower()
    if log_format not in LOG_FORMATS:
        raise ConfigError(f"LOG_FORMAT must be text or json, not {log_format!r}")
    log_level = (pick("log_level") or "INFO").upper()
    if log_level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}")
    base_url = pick("base_url") or DEFAULT_BASE_URL
    _check_http_url("TELEGRAM_BASE_URL", base_url)
    health = pick("health_listen")
    return Settings(
        token=token,
        database_url=pick("database_url") or DEFAULT_DATABASE_URL,
        base_url=base_url,
        log_format="json" if log_format == "json" else "text",
        log_level=log_level,
        webhook=_webhook(pick),
        health_listen=parse_address("HEALTH_LISTEN", health, "127.0.0.1") if health else None,
    )


def _webhook(pick: Callable[[str], str | None]) -> Webhook | None:
    url = pick("webhook_url")
    if url is None:
        return None  # polling: WEBHOOK_LISTEN and WEBHOOK_SECRET are ignored
    _check_http_url("WEBHOOK_URL", url)
    listen = parse_address("WEBHOOK_LISTEN", pick("listen") or DEFAULT_WEBHOOK_LISTEN, None)
    secret = pick("secret_token")
    if secret is not None and not SECRET_PATTERN.fullmatch(secret):
        raise ConfigError(
            "WEBHOOK_SECRET must be 1-256 characters among A-Z, a-z, 0-9, _ and - (Telegram's rule)"
        )
    return Webhook(
        url=url,
        listen=listen,
        secret_token=secret or secrets.token_urlsafe(32),
        secret_generated=secret is None,
    )


def _check_http_url(name: str, url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"{name} must be an http(s) URL, not {url!r}")


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
