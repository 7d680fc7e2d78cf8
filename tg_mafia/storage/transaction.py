"""A transaction on the database's connection: the statements of a move's hot path on
the driver's connection (direct.py), the others through the ORM, whose session is made
at its first use on the same connection and in the same transaction. The operations
themselves are tx.py's, messages.py's and outbox.py's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from sqlalchemy import Connection
from sqlmodel import Session, col

from tg_mafia.storage.direct import Direct
from tg_mafia.storage.rows import NOTIFY

Q = TypeVar("Q")  # a statement with a WHERE: a select, an update or a delete


class Transaction:
    """The connection, the session made on it when first wanted, and the statements
    run on the driver's connection after what the session holds.

    `bot_id`: the bot the transaction works for (Database.for_bot): what it reads of
    games, the outbox, the messages with buttons and the queue for a table is that
    bot's, and what it writes there is stamped with it; None: every bot's (the tools,
    the tests)."""

    def __init__(
        self,
        connection: Connection,
        direct: Direct,
        session: Session | None = None,
        bot_id: int | None = None,
    ) -> None:
        self.connection = connection
        self.direct = direct
        self._session = session
        self._owns_session = session is None
        self.bot_id = bot_id

    def mine(self, query: Q, model: Any) -> Q:
        """`query` kept to the rows of `model` of this transaction's bot (all,
        unscoped)."""
        if self.bot_id is None:
            return query
        return cast(Q, cast(Any, query).where(col(model.bot_id) == self.bot_id))

    def bot_sql(self, table: str = "") -> str:
        """The SQL condition that keeps a statement to this bot's rows (:bot_id),
        to be added after a WHERE; "" unscoped."""
        if self.bot_id is None:
            return ""
        return f" AND {table + '.' if table else ''}bot_id = :bot_id"

    def _with_bot(self, params: dict[str, Any]) -> dict[str, Any]:
        """`params`, with this transaction's bot when it has one (`bot_sql`)."""
        if self.bot_id is not None:
            params["bot_id"] = self.bot_id
        return params

    @property
    def session(self) -> Session:
        if self._session is None:
            # In a savepoint of its own: its rollback never reaches past this transaction.
            session = Session(
                bind=self.connection,
                expire_on_commit=False,
                join_transaction_mode="create_savepoint",
            )
            session.begin()
            self._session = session
        return self._session

    def finish(self, ok: bool) -> None:
        """The end of a session this Tx made: flushed and released, or rolled back."""
        session, self._session = self._session, None
        if session is None or not self._owns_session:
            return
        try:
            if ok:
                session.commit()
            else:
                session.rollback()
        finally:
            session.close()

    def _run(self, sql: str, params: Mapping[str, Any] | None = None) -> Any:
        if self._session is not None:
            self._session.flush()  # what the ORM holds goes first, in order
        return self.direct.run(self.connection, sql, params)

    def _rows(self, sql: str, params: Mapping[str, Any]) -> list[Any]:
        cursor = self._run(sql, params)
        try:
            return list(cursor.fetchall())
        finally:
            cursor.close()

    def _write(self, sql: str, params: Mapping[str, Any]) -> int:
        """A write; the rows it changed. The ORM's copies of rows are read again after it."""
        cursor = self._run(sql, params)
        count = int(cursor.rowcount)
        cursor.close()
        if self._session is not None:
            self._session.expire_all()
        return count

    def _notify(self, payload: str) -> None:
        """Tells the leading replica (PostgreSQL's LISTEN/NOTIFY, delivered at
        commit, the same payload once per transaction); SQLite has one process."""
        if self.direct.postgres:
            self._rows(self.direct.text(NOTIFY, key="notify"), {"payload": payload})
