"""A transaction on the database's connection: the statements of a move's hot path on
the driver's connection (direct.py), the others through the ORM, whose session is made
at its first use on the same connection and in the same transaction. The operations
themselves are tx.py's, messages.py's and outbox.py's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection
from sqlmodel import Session

from tg_mafia.storage.direct import Direct
from tg_mafia.storage.rows import NOTIFY


class Transaction:
    """The connection, the session made on it when first wanted, and the statements
    run on the driver's connection after what the session holds."""

    def __init__(
        self, connection: Connection, direct: Direct, session: Session | None = None
    ) -> None:
        self.connection = connection
        self.direct = direct
        self._session = session
        self._owns_session = session is None

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
