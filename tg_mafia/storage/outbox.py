"""A transaction's operations on the outbox: the calls a move decided, written with it,
and what the sender reads and settles of them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func
from sqlmodel import select

from tg_mafia.records import JsonObject, OutboxRecord
from tg_mafia.storage.direct import OUTBOX_COLUMNS
from tg_mafia.storage.models import OutboxEntry
from tg_mafia.storage.transaction import Transaction


class OutboxTx(Transaction):
    """The outbox's calls (a part of Tx)."""

    def enqueue(
        self,
        chat_id: int,
        op: JsonObject,
        *,
        now: float,
        game_id: int | None = None,
        priority: int = 0,
    ) -> None:
        # An INSERT at once, in the order of the calls.
        sql = self.direct.text(
            "INSERT INTO outbox (chat_id, game_id, priority, op, created_at, attempts, bot_id)"
            " VALUES (:chat_id, :game_id, :priority, :op, :created_at, 0, :bot_id)",
            key="enqueue",
        )
        params = self.direct.values("outbox", {"op": op})
        params.update(chat_id=chat_id, game_id=game_id, priority=priority, created_at=now)
        params["bot_id"] = self.bot_id  # the bot that makes the call
        self._write(sql, params)
        self._notify("outbox")

    def pending(self, chat_id: int, limit: int = 50) -> list[OutboxRecord]:
        """A chat's pending calls (this bot's): the game's own first, then the answers
        to commands, then the rest; each kind in the order it was written."""
        sql = self.direct.text(
            f"SELECT {', '.join(OUTBOX_COLUMNS)} FROM outbox WHERE chat_id = :chat_id"
            + self.bot_sql()
            + " ORDER BY priority, id LIMIT :limit",
            key=("pending", self.bot_id is None),
        )
        params = self._with_bot({"chat_id": chat_id, "limit": limit})
        return self.direct.outbox(self._rows(sql, params))

    def pending_chats(self, first: int | None = None) -> list[tuple[int, int, int, float]]:
        """Every chat with pending calls: (chat, best priority, oldest id, oldest time),
        best priority first, then oldest; only the `first` so many when given (the
        sender's look: at thousands of chats, sorting them in Python took the event
        loop milliseconds a look)."""
        sql = "SELECT chat_id, MIN(priority), MIN(id), MIN(created_at) FROM outbox"
        params: dict[str, Any] = {}
        if self.bot_id is not None:  # this bot's calls
            sql += " WHERE bot_id = :bot_id"
            params["bot_id"] = self.bot_id
        sql += " GROUP BY chat_id"
        if first is not None:
            sql += " ORDER BY 2, 3 LIMIT :first"
            params["first"] = first
        key = ("pending_chats", first is None, self.bot_id is None)
        rows = self._rows(self.direct.text(sql, key=key), params)
        return [(int(c), int(p), int(i or 0), float(t)) for c, p, i, t in rows]

    def done(self, entry_ids: Sequence[int]) -> None:
        if entry_ids:
            count = len(entry_ids)
            sql = self.direct.text(
                f"DELETE FROM outbox WHERE id IN ({', '.join(f':i{n}' for n in range(count))})",
                key=("done", count),
            )
            self._write(sql, {f"i{n}": entry_id for n, entry_id in enumerate(entry_ids)})

    def backlog(self) -> tuple[int, float | None]:
        """How many calls wait (this bot's), and since when the oldest has."""
        count, oldest = self.session.exec(
            self.mine(
                select(func.count(), func.min(OutboxEntry.created_at)).select_from(OutboxEntry),
                OutboxEntry,
            )
        ).one()
        return int(count), (float(oldest) if oldest is not None else None)
