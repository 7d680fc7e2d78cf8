"""Settings: flags over environment over defaults, and one-line errors for bad values."""

from __future__ import annotations

import pytest

from tg_mafia.config import (
    DEFAULT_BASE_URL,
    Address,
    ConfigError,
    MissingTokenError,
    load_settings,
    parse_address,
)

TOKEN = "123456789:" + "A" * 35


def test_defaults_are_long_polling_on_sqlite() -> None:
    settings = load_settings({}, {"TELEGRAM_BOT_TOKEN": TOKEN})
    assert settings.token == TOKEN
    assert settings.database_url == "sqlite:///tg_mafia.db"
    assert settings.base_url == DEFAULT_BASE_URL
    assert (settings.log_format, settings.log_level) == ("text", "INFO")
    assert settings.webhook is None and settings.health_listen is None


def test_a_flag_wins_over_its_variable() -> None:
    env = {
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "DATABASE_URL": "sqlite:///env.db",
        "LOG_FORMAT": "json",
        "LOG_LEVEL": "debug",
    }
    settings = load_settings({"database_url": "sqlite:///flag.db", "log_level": "WARNING"}, env)
    assert settings.database_url == "sqlite:///flag.db"
    assert settings.log_level == "WARNING"
    assert settings.log_format == "json"  # no flag: the variable


def test_empty_values_count_as_unset() -> None:
    with pytest.raises(MissingTokenError):
        load_settings({"token": None}, {"TELEGRAM_BOT_TOKEN": "  "})


@pytest.mark.parametrize("token", ["abc", "123:short", f"'{TOKEN}'", "bot" + TOKEN])
def test_a_malformed_token_is_refused_without_echoing_it(token: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings({"token": token}, {})
    assert token not in str(caught.value) and "\n" not in str(caught.value)


def test_webhook_mode_with_a_generated_secret() -> None:
    settings = load_settings(
        {"webhook_url": "https://bot.example.org/tg/hook"},
        {"TELEGRAM_BOT_TOKEN": TOKEN, "WEBHOOK_LISTEN": "0.0.0.0:8443"},
    )
    webhook = settings.webhook
    assert webhook is not None
    assert webhook.listen == Address("0.0.0.0", 8443)
    assert webhook.path == "/tg/hook"
    assert webhook.secret_generated and len(webhook.secret_token) >= 32
    assert webhook.secret_token in settings.secrets and TOKEN in settings.secrets


def test_webhook_settings_are_ignored_without_a_webhook_url() -> None:
    env = {"TELEGRAM_BOT_TOKEN": TOKEN, "WEBHOOK_LISTEN": "nonsense", "WEBHOOK_SECRET": "s"}
    assert load_settings({}, env).webhook is None


def test_a_given_secret_is_kept_and_checked() -> None:
    env = {"TELEGRAM_BOT_TOKEN": TOKEN, "WEBHOOK_URL": "https://x.org/h"}
    webhook = load_settings({"secret_token": "s3cret_-"}, env).webhook
    assert webhook is not None and webhook.secret_token == "s3cret_-"
    assert not webhook.secret_generated
    with pytest.raises(ConfigError, match="WEBHOOK_SECRET"):
        load_settings({"secret_token": "no spaces"}, env)


@pytest.mark.parametrize(
    ("flags", "word"),
    [
        ({"log_format": "xml"}, "LOG_FORMAT"),
        ({"log_level": "loud"}, "LOG_LEVEL"),
        ({"base_url": "api.telegram.org"}, "TELEGRAM_BASE_URL"),
        ({"webhook_url": "ftp://x.org/h"}, "WEBHOOK_URL"),
        ({"webhook_url": "https://x.org/h", "listen": "8080"}, "WEBHOOK_LISTEN"),
        ({"health_listen": "host:http"}, "HEALTH_LISTEN"),
    ],
)
def test_bad_values_name_their_variable(flags: dict[str, str], word: str) -> None:
    with pytest.raises(ConfigError, match=word):
        load_settings(flags, {"TELEGRAM_BOT_TOKEN": TOKEN})


def test_addresses() -> None:
    assert parse_address("X", "127.0.0.1:80", None) == Address("127.0.0.1", 80)
    assert parse_address("X", "[::1]:8443", None) == Address("::1", 8443)
    assert str(Address("::1", 8443)) == "[::1]:8443"
    assert parse_address("X", "9000", "127.0.0.1") == Address("127.0.0.1", 9000)
    for bad in ("9000", "host:0", "host:70000", ":80"):
        with pytest.raises(ConfigError):
            parse_address("X", bad, None)
