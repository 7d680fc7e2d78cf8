"""Logging for the running bot: text or JSON lines on stderr, with secrets redacted.

The bot token travels in every Bot API URL (`.../bot<token>/sendMessage`), which httpx logs
and some exceptions quote; the filter on the handler rewrites every record that reaches it,
whichever logger it came from, with the same `Redactor` as the start-up errors.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Final, TextIO

from tg_mafia.redaction import Redactor

TEXT_FORMAT: Final = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class RedactingFilter(logging.Filter):
    """Redacts a record's message, traceback and stack (see `Redactor`); keeps the record."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.redact = Redactor(secrets)

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self.redact(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            # Formatters reuse exc_text when set: render the traceback once, redacted.
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, and exception when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, str] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False)


class RecentErrors(logging.Handler):
    """Keeps the last few errors logged (redacted), for the owner's /status."""

    def __init__(self, secrets: Iterable[str], keep: int = 5) -> None:
        super().__init__(logging.ERROR)
        self.addFilter(RedactingFilter(secrets))
        self.records: deque[tuple[float, str, str]] = deque(maxlen=keep)  # time, logger, text

    def emit(self, record: logging.LogRecord) -> None:
        lines = record.getMessage().strip().splitlines() or [""]
        text = lines[0]
        if record.exc_text:  # the traceback, redacted by the filter: its last line
            text += f" ({record.exc_text.strip().splitlines()[-1]})"
        self.records.append((record.created, record.name, text))


def make_handler(
    log_format: str, secrets: Iterable[str], stream: TextIO | None = None
) -> logging.Handler:
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(
        JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT)
    )
    handler.addFilter(RedactingFilter(secrets))
    return handler


@contextlib.contextmanager
def logging_to(
    log_format: str, level: str, secrets: Iterable[str], stream: TextIO | None = None
) -> Iterator[logging.Handler]:
    """Route every logger through one redacting handler on the root logger, for the block.

    The root logger's previous handlers and level come back afterwards (tests call `run` in
    a process whose logging belongs to pytest).
    """
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    for old in saved[0]:
        root.removeHandler(old)
    handler = make_handler(log_format, secrets, stream)
    root.addHandler(handler)
    root.setLevel(level)
    # httpx logs every request at INFO, URL (and so token) included; keep only its warnings.
    # alembic tells each migration step at INFO at every start, and APScheduler each job
    # it adds and runs (a timer per stage of every game): only when debugging.
    quiet_unless_debugging = ("alembic", "apscheduler")
    chatty = ("httpx", "httpcore") + (() if level == "DEBUG" else quiet_unless_debugging)
    logging.captureWarnings(True)
    try:
        with quieted(chatty, logging.WARNING):
            yield handler
    finally:
        logging.captureWarnings(False)
        root.removeHandler(handler)
        for old in saved[0]:
            root.addHandler(old)
        root.setLevel(saved[1])


@contextlib.contextmanager
def quieted(names: Iterable[str], level: int) -> Iterator[None]:
    """The named loggers drop records below `level` in the block; their levels come back."""
    loggers = [logging.getLogger(name) for name in names]
    saved = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(level)
    try:
        yield
    finally:
        for logger, old in zip(loggers, saved, strict=True):
            logger.setLevel(old)
