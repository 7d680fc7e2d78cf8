"""Settings: flags over environment over defaults, and one-line errors for bad values."""

from __future__ import annotations

import os
import re

import pytest

from tg_mafia.cli import build_parser
from tg_mafia.config import (
    DEFAULT_BASE_URL,
    ENV_VARS,
    Address,
    ConfigError,
    MissingTokenError,
    given_secrets,
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
    with pytest.raises(ConfigError, match=r"^--secret-token must be 1-256 characters"):
        load_settings({"secret_token": "no spaces"}, env)


BAD_VALUES = [
    ("log_format", "xml"),
    ("log_level", "loud"),
    ("base_url", "api.telegram.org"),
    ("webhook_url", "ftp://x.org/h"),
    ("listen", "8080"),
    ("secret_token", "no spaces"),
    ("health_listen", "host:http"),
    ("token", "abc"),
    ("replica_id", "two words"),
    ("owner_id", "@me"),
    ("drain_seconds", "-5"),
    ("drain_seconds", "1e3"),
    ("closed_topic_seconds", "59"),
    ("closed_topic_seconds", "half an hour"),
    ("miniapp_name", "no"),
    ("miniapp_name", "with-dash"),
    ("miniapp_max_age", "5"),
    ("miniapp_url", "http://bot.example.org/app"),  # Telegram opens Mini Apps over https only
    ("miniapp_url", "https://bot.example.org/app?x=1"),
    ("miniapp_listen", "host:http"),
    ("admission_share", "90%"),
    ("admission_share", "1.5"),
    ("admission_share", "nan"),
]
WEBHOOK = {"webhook_url": "https://x.org/h"}


@pytest.mark.parametrize(("name", "value"), BAD_VALUES)
def test_a_bad_variable_is_named(name: str, value: str) -> None:
    env = {ENV_VARS[k]: v for k, v in ({"token": TOKEN} | WEBHOOK | {name: value}).items()}
    with pytest.raises(ConfigError) as caught:
        load_settings({}, env)
    assert str(caught.value).startswith(ENV_VARS[name]), caught.value


@pytest.mark.parametrize(("name", "value"), BAD_VALUES)
def test_a_bad_flag_is_named_not_its_variable(name: str, value: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(WEBHOOK | {name: value}, {"TELEGRAM_BOT_TOKEN": TOKEN})
    message = str(caught.value)
    assert message.startswith("--" + name.replace("_", "-") + " "), message
    assert ENV_VARS[name] not in message


def test_a_settings_name_is_the_flag_only_when_a_flag_gave_it() -> None:
    settings = load_settings({"token": TOKEN}, {"DATABASE_URL": "sqlite:///x.db"})
    assert settings.name_of("token") == "--token"
    assert settings.name_of("database_url") == "DATABASE_URL"
    assert settings.name_of("listen") == "WEBHOOK_LISTEN"  # the default: the variable


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("http://127.0.0.1:8081/bot", "http://127.0.0.1:8081/bot"),
        ("http://127.0.0.1:8081", "http://127.0.0.1:8081/bot"),
        ("http://127.0.0.1:8081/", "http://127.0.0.1:8081/bot"),
        ("https://api.example.org/tg/bot/", "https://api.example.org/tg/bot"),
    ],
)
def test_the_base_url_ends_in_bot(given: str, used: str) -> None:
    assert load_settings({"base_url": given}, {"TELEGRAM_BOT_TOKEN": TOKEN}).base_url == used


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("127.0.0.1:8081/bot", "must be an http(s) URL with a host"),
        ("http://127.0.0.1:8081x", "must be an http(s) URL with a host"),
        ("http://127.0.0.1:99999/bot", "must be an http(s) URL with a host"),
        ("http:///bot", "must be an http(s) URL with a host"),
        ("http://127.0.0.1:8081/api", "must end in /bot"),
        ("http://127.0.0.1:8081/bot?x=1", "must end in /bot"),
    ],
)
def test_a_bad_base_url_says_what_is_expected(url: str, words: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings({}, {"TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_BASE_URL": url})
    message = str(caught.value)
    assert message.startswith(f"TELEGRAM_BASE_URL {words}"), message
    assert "http://127.0.0.1:8081/bot" in message  # the hint


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("http://bot.example.org/h", "must be an https URL with a host"),
        ("https:///h", "must be an https URL with a host"),
        ("https://bot.example.org:x/h", "must be an https URL with a host"),
        ("https://bot.example.org:8080/h", "must use a port Telegram posts to"),
    ],
)
def test_telegrams_webhook_rules_are_checked_locally(url: str, words: str) -> None:
    with pytest.raises(ConfigError, match=f"^WEBHOOK_URL {re.escape(words)}"):
        load_settings({}, {"TELEGRAM_BOT_TOKEN": TOKEN, "WEBHOOK_URL": url})


@pytest.mark.parametrize("port", ["", ":443", ":80", ":88", ":8443"])
def test_telegrams_webhook_ports_pass(port: str) -> None:
    url = f"https://bot.example.org{port}/h"
    webhook = load_settings({"webhook_url": url}, {"TELEGRAM_BOT_TOKEN": TOKEN}).webhook
    assert webhook is not None and webhook.url == url


def test_a_local_bot_api_server_takes_http_on_any_port() -> None:
    env = {"TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_BASE_URL": "http://127.0.0.1:8081"}
    webhook = load_settings({"webhook_url": "http://127.0.0.1:9000/h"}, env).webhook
    assert webhook is not None and webhook.url == "http://127.0.0.1:9000/h"
    with pytest.raises(ConfigError, match=r"^--webhook-url must be an http\(s\) URL"):
        load_settings({"webhook_url": "ftp://127.0.0.1/h"}, env)


def test_given_secrets_are_the_raw_token_and_secret() -> None:
    env = {"TELEGRAM_BOT_TOKEN": "abc-not-a-token", "WEBHOOK_SECRET": "s3cret"}
    assert given_secrets({}, env) == ("abc-not-a-token", "s3cret")
    assert given_secrets({"token": TOKEN}, env) == (TOKEN, "s3cret")
    assert given_secrets({}, {}) == ()


def test_addresses() -> None:
    assert parse_address("X", "127.0.0.1:80", None) == Address("127.0.0.1", 80)
    assert parse_address("X", "[::1]:8443", None) == Address("::1", 8443)
    assert str(Address("::1", 8443)) == "[::1]:8443"
    assert parse_address("X", "9000", "127.0.0.1") == Address("127.0.0.1", 9000)
    for bad in ("9000", "host:0", "host:70000", ":80"):
        with pytest.raises(ConfigError):
            parse_address("X", bad, None)


def test_operating_settings() -> None:
    settings = load_settings({}, {"TELEGRAM_BOT_TOKEN": TOKEN})
    assert re.fullmatch(r"[A-Za-z0-9._-]+-\d+", settings.replica_id)
    assert settings.replica_id.endswith(f"-{os.getpid()}")
    assert settings.owner_id is None and settings.drain_seconds == 1800
    env = {"TELEGRAM_BOT_TOKEN": TOKEN, "OWNER_ID": "123456789", "DRAIN_SECONDS": "0"}
    settings = load_settings({"replica_id": "pod-7.eu"}, env)
    assert (settings.replica_id, settings.owner_id, settings.drain_seconds) == (
        "pod-7.eu",
        123456789,
        0,
    )


def test_a_closed_topic_waits_half_an_hour_unless_told() -> None:
    assert load_settings({}, {"TELEGRAM_BOT_TOKEN": TOKEN}).closed_topic_seconds == 1800
    env = {"TELEGRAM_BOT_TOKEN": TOKEN, "CLOSED_TOPIC_SECONDS": "600"}
    assert load_settings({}, env).closed_topic_seconds == 600
    flags = {"closed_topic_seconds": "3600"}
    assert load_settings(flags, env).closed_topic_seconds == 3600


def test_new_games_may_fill_nine_tenths_of_the_token_s_budget_unless_told() -> None:
    assert load_settings({}, {"TELEGRAM_BOT_TOKEN": TOKEN}).admission_share == 0.9
    env = {"TELEGRAM_BOT_TOKEN": TOKEN, "ADMISSION_SHARE": "0.75"}
    assert load_settings({}, env).admission_share == 0.75
    assert load_settings({"admission_share": "1"}, env).admission_share == 1.0
    with pytest.raises(ConfigError) as caught:
        load_settings({}, env | {"ADMISSION_SHARE": "90%"})
    assert str(caught.value) == (
        "ADMISSION_SHARE must be the share of the bot's Telegram budget new games may fill, "
        "a number from 0.1 to 1 (e.g. 0.9), not '90%'"
    )


def test_every_setting_is_a_flag_of_run() -> None:
    flags = ["--token", TOKEN]
    for name in ENV_VARS:
        if name != "token":
            flags += ["--" + name.replace("_", "-"), "x"]
    args = build_parser().parse_args(["run", *flags])
    assert {name: getattr(args, name) for name in ENV_VARS} == {
        name: TOKEN if name == "token" else "x" for name in ENV_VARS
    }


def test_the_mini_app_is_on_the_webhooks_origin_with_a_webhook() -> None:
    settings = load_settings(WEBHOOK, {"TELEGRAM_BOT_TOKEN": TOKEN})
    assert settings.app_url == "https://x.org/app"
    assert settings.app_server is None  # the webhook's own server serves it
    given = load_settings(
        WEBHOOK | {"miniapp_url": "https://x.org/mafia/table/"}, {"TELEGRAM_BOT_TOKEN": TOKEN}
    )
    assert given.app_url == "https://x.org/mafia/table" and given.app_server is None


def test_by_long_polling_the_mini_app_needs_its_url_and_gets_a_server() -> None:
    env = {"TELEGRAM_BOT_TOKEN": TOKEN}
    none = load_settings({}, env)
    assert none.app_url is None and none.app_server is None  # no page: no Table link
    settings = load_settings({"miniapp_url": "https://bot.example.org/app"}, env)
    assert settings.app_url == "https://bot.example.org/app"
    assert settings.app_server == Address("127.0.0.1", 8080)
    env |= {"MINIAPP_URL": "https://bot.example.org/app", "MINIAPP_LISTEN": "0.0.0.0:9000"}
    assert load_settings({}, env).app_server == Address("0.0.0.0", 9000)
    assert load_settings({"miniapp_listen": "9001"}, env).app_server == Address("127.0.0.1", 9001)


def test_through_a_local_bot_api_server_an_http_page_is_taken() -> None:
    env = {"TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_BASE_URL": "http://127.0.0.1:8081/bot"}
    settings = load_settings({"miniapp_url": "http://127.0.0.1:9000/app"}, env)
    assert settings.app_url == "http://127.0.0.1:9000/app"
