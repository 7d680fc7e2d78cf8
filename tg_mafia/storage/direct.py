"""The statements of a move's hot path, run on the driver's own connection.

SQLAlchemy's execution of a statement (the compiled-statement cache, an execution
context, the result's wrapping) costs several times what the driver itself takes, and a
button press makes about twelve (benchmarks/move_cost.py).
These statements are written once, in the dialect's parameter style; their values go
through SQLAlchemy's own type processors (the same JSON and time formats as every
other read and write), and a driver error goes through SQLAlchemy's own handling
(the same exception classes, the `handle_error` event the metrics count, a lost
connection invalidated)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any, Final

from sqlalchemy import JSON, Connection, DateTime, Dialect, Table

from tg_mafia.records import GameRecord, OutboxRecord
from tg_mafia.storage.models import (
    ACTIVE_GAME_WHERE,
    BUTTON_MESSAGE_TABLE,
    GAME_ACTION_TABLE,
    GAME_TABLE,
    OUTBOX_TABLE,
)
from tg_mafia.storage.rows import game_record

Processor = Callable[[Any], Any]
CONVERTED: Final = (JSON, DateTime)  # the types whose values the driver does not give as is

GAME_COLUMNS: Final = tuple(column.name for column in GAME_TABLE.c)
_GAME_SELECT: Final = f"SELECT {', '.join(GAME_COLUMNS)} FROM game"
OUTBOX_COLUMNS: Final = ("id", "chat_id", "game_id", "priority", "op", "created_at", "attempts")


# benchmarks/move_cost.py: 0.74 ms of CPU a move vs 2.36 ms with the ORM's statements (2 cores)
class Direct:
    """One dialect's statements and value conversions (one per `Database`)."""

    def __init__(self, dialect: Dialect) -> None:
        self.postgres = dialect.name == "postgresql"
        read = (
            ("game", GAME_TABLE),
            ("outbox", OUTBOX_TABLE),
            ("button_message", BUTTON_MESSAGE_TABLE),
        )
        self._in = {name: _result_processors(table, dialect) for name, table in read}
        self._columns = {name: [column.name for column in table.c] for name, table in read}
        self._out = {
            name: _bind_processors(table, dialect)
            for name, table in (
                ("game", GAME_TABLE),
                ("game_action", GAME_ACTION_TABLE),
                ("outbox", OUTBOX_TABLE),
            )
        }
        self._texts: dict[object, str] = {}  # a statement in this dialect's style, by key
        lock = " FOR UPDATE" if self.postgres else ""
        self.game_sql = self.text(f"{_GAME_SELECT} WHERE id = :game_id")
        self.game_for_update_sql = self.game_sql + lock
        self.active_game_sql = self.text(
            f"{_GAME_SELECT} WHERE chat_id = :chat_id AND topic = :topic AND {ACTIVE_GAME_WHERE}"
        )
        self.active_game_for_update_sql = self.active_game_sql + lock
        # One bot's (Database.for_bot): another bot's game in the chat is not its own.
        self.own_active_game_sql = self.text(
            f"{_GAME_SELECT} WHERE chat_id = :chat_id AND topic = :topic AND {ACTIVE_GAME_WHERE}"
            " AND bot_id = :bot_id"
        )
        self.own_active_game_for_update_sql = self.own_active_game_sql + lock

    # ----- statements ---------------------------------------------------------------------

    def text(self, sql: str, key: object = None) -> str:
        """`sql`, written with :name parameters, in the driver's style (kept by `key`)."""
        if key is not None and (known := self._texts.get(key)) is not None:
            return known
        converted = re.sub(r"(?<!:):(\w+)", r"%(\1)s", sql) if self.postgres else sql
        if key is not None:
            self._texts[key] = converted
        return converted

    def run(self, connection: Connection, sql: str, params: Mapping[str, Any] | None = None) -> Any:
        """Executes on the connection's driver connection; returns the driver's cursor."""
        raw: Any = connection.connection.dbapi_connection
        try:
            return raw.execute(sql) if params is None else raw.execute(sql, params)
        except Exception as error:  # the driver's: SQLAlchemy's own handling and classes
            connection._handle_dbapi_exception(error, sql, dict(params or {}), None, None)
            raise  # pragma: no cover - the call above always raises

    # ----- values ----------------------------------------------------------------------------

    def values(self, table: str, values: Mapping[str, Any]) -> dict[str, Any]:
        """Column values as the driver takes them (JSON serialised, times formatted)."""
        processors = self._out[table]
        out = {}
        for name, value in values.items():
            process = processors.get(name)
            out[name] = process(value) if process is not None and value is not None else value
        return out

    def column(self, table: str, name: str, value: Any) -> Any:
        """One column's value as read (JSON parsed, times converted)."""
        process = self._in[table][self._columns[table].index(name)]
        return process(value) if process is not None and value is not None else value

    def game(self, row: Sequence[Any] | None) -> GameRecord | None:
        """A game's record from a row of `GAME_COLUMNS`."""
        if row is None:
            return None
        processors = self._in["game"]
        fields = {
            name: (process(value) if process is not None and value is not None else value)
            for name, value, process in zip(GAME_COLUMNS, row, processors, strict=True)
        }
        return game_record(SimpleNamespace(**fields))

    def outbox(self, rows: Iterable[Sequence[Any]]) -> list[OutboxRecord]:
        """Outbox records from rows of `OUTBOX_COLUMNS`."""
        op_in = self._in["outbox"][OUTBOX_COLUMNS.index("op")]
        return [
            OutboxRecord(
                id=int(entry_id),
                chat_id=int(chat_id),
                game_id=game_id,
                priority=int(priority),
                op=dict(op_in(op) if op_in is not None else op),
                created_at=float(created_at),
                attempts=int(attempts),
            )
            for entry_id, chat_id, game_id, priority, op, created_at, attempts in rows
        ]


def _result_processors(table: Table, dialect: Dialect) -> list[Processor | None]:
    """Each column's conversion from the driver's value (None: taken as it is). Only
    JSON and times need one, and only on SQLite (text there); numbers and strings come
    as they are on both databases."""
    return [
        column.type.dialect_impl(dialect).result_processor(dialect, None)
        if isinstance(column.type, CONVERTED)
        else None
        for column in table.c
    ]


def _bind_processors(table: Table, dialect: Dialect) -> dict[str, Processor]:
    """Each column's conversion to the driver's value, where it has one."""
    found: dict[str, Processor] = {}
    for column in table.c:
        process = column.type.dialect_impl(dialect).bind_processor(dialect)
        if process is not None:
            found[column.name] = process
    return found
