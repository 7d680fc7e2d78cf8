"""The redacting filter: the token and the webhook secret never reach a log line."""

from __future__ import annotations

import io
import json
import logging

import pytest

from tg_mafia.ops.logs import RedactingFilter, logging_to

TOKEN = "123456789:AAFakeFakeFakeFakeFakeFakeFakeFake_-x"
SECRET = "webhook-secret-value"


def emit(log_format: str, *, exc: bool = False) -> str:
    stream = io.StringIO()
    with logging_to(log_format, "DEBUG", [TOKEN, SECRET], stream):
        # httpx's own line shape, with the token inside the URL as PTB builds it.
        logging.getLogger("test.httpx").info(
            'HTTP Request: %s %s "%s"',
            "POST",
            f"https://api.telegram.org/bot{TOKEN}/getMe",
            "HTTP/1.1 200 OK",
        )
        logging.getLogger("test").warning("secret %s and token %s", SECRET, TOKEN)
        if exc:
            try:
                raise RuntimeError(f"The token `{TOKEN}` was rejected by the server.")
            except RuntimeError:
                logging.getLogger("test").exception("failed")
    return stream.getvalue()


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_messages_and_tracebacks_are_redacted(log_format: str) -> None:
    out = emit(log_format, exc=True)
    assert TOKEN not in out and SECRET not in out and "AAFake" not in out
    assert "https://api.telegram.org/bot***/getMe" in out
    assert "rejected by the server" in out


def test_json_lines() -> None:
    lines = emit("json", exc=True).splitlines()
    entries = [json.loads(line) for line in lines]
    assert len(entries) == 3
    assert {"time", "level", "logger", "message"} <= entries[0].keys()
    assert entries[1]["level"] == "WARNING" and entries[1]["logger"] == "test"
    assert entries[1]["message"] == "secret *** and token ***"
    assert "RuntimeError" in entries[2]["exception"] and "***" in entries[2]["exception"]


def test_text_lines() -> None:
    lines = emit("text").splitlines()
    assert len(lines) == 2
    assert lines[1].endswith("WARNING test: secret *** and token ***")


def test_unknown_tokens_and_url_encoded_ones_are_redacted_too() -> None:
    redact = RedactingFilter([TOKEN]).redact
    other = "987654321:BBOtherOtherOtherOtherOtherOtherOther1"
    assert redact(f"/bot{other}/x") == "/bot***/x"
    assert redact(TOKEN.replace(":", "%3A")) == "***"
    assert (
        redact("message 12345 at 10:30 in chat -100123") == "message 12345 at 10:30 in chat -100123"
    )


def test_httpx_is_kept_to_warnings_and_root_is_restored() -> None:
    root = logging.getLogger()
    before = list(root.handlers)
    with logging_to("text", "DEBUG", [TOKEN], io.StringIO()):
        assert logging.getLogger("httpx").getEffectiveLevel() == logging.WARNING
        assert root.level == logging.DEBUG
    assert root.handlers == before
