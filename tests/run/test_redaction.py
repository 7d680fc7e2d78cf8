"""The one redaction function, shared by the log filter and the start-up errors."""

from __future__ import annotations

import io
import logging

import pytest

from tg_mafia.ops.logs import logging_to
from tg_mafia.redaction import Redactor, mask_url_passwords

TOKEN = "123456789:AAFakeFakeFakeFakeFakeFakeFakeFake_-x"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("postgresql://me:p4ss@h/d", "postgresql://me:***@h/d"),
        ("pg://u:p@ss@127.0.0.1:1/x: refused", "pg://u:***@127.0.0.1:1/x: refused"),
        ("at 'postgresql://u:pa/ss@h/d'; retry", "at 'postgresql://u:***@h/d'; retry"),
        ("https://me:pw@proxy:3128 and https://x.org/a", "https://me:***@proxy:3128 and https://x.org/a"),
        ("http://127.0.0.1:8081/bot or sqlite:///x.db", "http://127.0.0.1:8081/bot or sqlite:///x.db"),
        ("postgresql://user@h/d, me@example.org", "postgresql://user@h/d, me@example.org"),
    ],
)  # fmt: skip
def test_url_passwords_are_masked_whole(text: str, expected: str) -> None:
    assert mask_url_passwords(text) == expected


def test_secrets_token_shapes_and_url_passwords_in_one_pass() -> None:
    redact = Redactor([TOKEN, "hook-secret"])
    text = (
        f"https://bot.example.org/{TOKEN}/hook?s=hook-secret "
        "postgresql://u:x@y@db/z 987654321:BBOtherOtherOtherOtherOtherOtherOther1 "
        + TOKEN.replace(":", "%3A")
    )
    assert redact(text) == "https://bot.example.org/***/hook?s=*** postgresql://u:***@db/z *** ***"


def test_very_short_secrets_are_left_alone() -> None:
    # A one-letter webhook secret would otherwise turn every "s" into ***.
    assert Redactor(["s", "ab"])("settings saved") == "settings saved"


def test_the_log_filter_masks_url_passwords_too() -> None:
    stream = io.StringIO()
    with logging_to("text", "INFO", [TOKEN], stream):
        logging.getLogger("test").warning("db at postgresql://u:p@ss@h/d, bot %s", TOKEN)
    line = stream.getvalue()
    assert line.endswith("WARNING test: db at postgresql://u:***@h/d, bot ***\n")


@pytest.mark.parametrize("level", ["INFO", "DEBUG"])
def test_alembic_is_heard_only_when_debugging(level: str) -> None:
    stream = io.StringIO()
    with logging_to("text", level, [], stream):
        logging.getLogger("alembic.runtime.migration").info("Running upgrade")
    assert ("Running upgrade" in stream.getvalue()) == (level == "DEBUG")
    assert logging.getLogger("alembic").level == logging.NOTSET  # given back
