"""A transaction's operations on the messages the bot keeps track of: the living
messages a game edits in place (found by their key), and the messages with buttons,
whose choices the press gate checks every press against."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from sqlalchemy import delete
from sqlmodel import col, select

from tg_mafia.records import ButtonsRecord
from tg_mafia.storage.models import ButtonMessage
from tg_mafia.storage.transaction import Transaction


class MessagesTx(Transaction):
    """The living messages and the messages with buttons (a part of Tx)."""

    _LIVING_WHERE: Final = 'game_id = :game_id AND chat_id = :chat_id AND "key" = :key'

    def living_id(self, game_id: int, chat_id: int, key: str) -> int | None:
        sql = self.direct.text(
            f"SELECT message_id FROM living_message WHERE {self._LIVING_WHERE}",
            key="living_id",
        )
        rows = self._rows(sql, {"game_id": game_id, "chat_id": chat_id, "key": key})
        return int(rows[0][0]) if rows else None

    def set_living(self, game_id: int, chat_id: int, key: str, message_id: int) -> None:
        params = {"game_id": game_id, "chat_id": chat_id, "key": key, "message_id": message_id}
        change = self.direct.text(
            f"UPDATE living_message SET message_id = :message_id WHERE {self._LIVING_WHERE}",
            key="set_living",
        )
        if not self._write(change, params):
            add = self.direct.text(
                'INSERT INTO living_message (game_id, chat_id, "key", message_id)'
                " VALUES (:game_id, :chat_id, :key, :message_id)",
                key="add_living",
            )
            self._write(add, params)

    def drop_living(self, game_id: int, chat_id: int, key: str) -> None:
        sql = self.direct.text(
            f"DELETE FROM living_message WHERE {self._LIVING_WHERE}", key="drop_living"
        )
        self._write(sql, {"game_id": game_id, "chat_id": chat_id, "key": key})

    # -- the messages with buttons ------------------------------------------------------------

    def buttons(
        self, chat_id: int, message_id: int, data: str = "", legacy: int | None = None
    ) -> ButtonsRecord | None:
        """The buttons of a message; failing that, a message of the chat on its way or
        never written down whose buttons include `data` (see ButtonMessage.message_id);
        failing that, the record `legacy` stands for (migration 0006's per-game rows).

        One statement, so one snapshot: read in two, a record taken over by its message
        id between them (the sender settling on another replica) is missed by both."""
        sql = self.direct.text(
            "SELECT message_id, game_id, choices FROM button_message WHERE chat_id = :chat_id"
            " AND (message_id IN (:message_id, :legacy) OR message_id IS NULL)"
            f"{self.bot_sql()} ORDER BY id DESC",
            key=("buttons", self.bot_id is None),
        )
        params = {"chat_id": chat_id, "message_id": message_id, "legacy": legacy or message_id}
        rows = [
            ButtonsRecord(chat_id, mid, game_id, self._choices(choices))
            for mid, game_id, choices in self._rows(sql, self._with_bot(params))
        ]
        by_id = {row.message_id: row for row in reversed(rows)}  # the oldest of an id
        row = by_id.get(message_id)
        if row is None and data:
            row = next(
                (r for r in rows if r.message_id is None and data in (r.choices or ())), None
            )
        if row is None and legacy is not None:
            row = by_id.get(legacy)
        return row

    def _choices(self, stored: Any) -> tuple[str, ...] | None:
        choices = self.direct.column("button_message", "choices", stored)
        return None if choices is None else tuple(choices)

    def expect_buttons(
        self, chat_id: int, entry_id: int, game_id: int | None, choices: Sequence[str], now: float
    ) -> None:
        """A message with buttons about to be sent by the outbox call `entry_id`."""
        self.session.add(
            ButtonMessage(
                chat_id=chat_id,
                entry_id=entry_id,
                game_id=game_id,
                choices=list(choices),
                created_at=now,
                bot_id=self.bot_id,
            )
        )

    def widen_buttons(self, chat_id: int, message_id: int, choices: Sequence[str]) -> None:
        """A message about to be edited: its presses are the old buttons and the new ones
        until the edit is written down (set_buttons)."""
        row = self._button_row(chat_id, message_id)
        if row is not None and row.choices is not None:
            row.choices = [*row.choices, *(c for c in choices if c not in row.choices)]
            self.session.add(row)

    def set_buttons(
        self,
        chat_id: int,
        message_id: int,
        game_id: int | None,
        choices: Sequence[str],
        now: float,
        entry_id: int | None = None,
    ) -> None:
        """The buttons a message shows now (none: it takes no press any more); the
        message an outbox call `entry_id` sent takes over the record written before it."""
        row = self._button_row(chat_id, message_id)
        if row is None and entry_id is not None:
            row = self.session.exec(
                self.mine(select(ButtonMessage), ButtonMessage)
                .where(col(ButtonMessage.chat_id) == chat_id)
                .where(col(ButtonMessage.entry_id) == entry_id)
                .where(col(ButtonMessage.message_id).is_(None))
                .order_by(col(ButtonMessage.id).desc())
            ).first()
        if row is None and not choices:
            return  # a message that never had buttons of ours
        if row is None:
            row = ButtonMessage(chat_id=chat_id, created_at=now, bot_id=self.bot_id)
        row.message_id = message_id
        row.game_id = game_id if game_id is not None else row.game_id
        row.choices = list(choices)
        self.session.add(row)
        if row.game_id is not None:
            self._notify(f"page:{row.game_id}")  # the Mini App's pages offer these choices

    def drop_unsent_buttons(self, entry_ids: Sequence[int]) -> None:
        """The records written ahead for calls settled without a message (refused)."""
        if entry_ids:
            self.session.exec(
                delete(ButtonMessage)
                .where(col(ButtonMessage.entry_id).in_(list(entry_ids)))
                .where(col(ButtonMessage.message_id).is_(None))
            )

    def drop_buttons(self, chat_id: int, message_id: int) -> None:
        row = self._button_row(chat_id, message_id)
        if row is not None and row.game_id is not None:
            self._notify(f"page:{row.game_id}")
        self.session.exec(
            self.mine(delete(ButtonMessage), ButtonMessage)
            .where(col(ButtonMessage.chat_id) == chat_id)
            .where(col(ButtonMessage.message_id) == message_id)
        )

    def game_buttons(self, game_id: int) -> list[ButtonsRecord]:
        """The messages of game `game_id` that take presses now, in every chat."""
        rows = self.session.exec(
            select(ButtonMessage)
            .where(col(ButtonMessage.game_id) == game_id)
            .order_by(col(ButtonMessage.id))
        ).all()
        return [
            ButtonsRecord(row.chat_id, row.message_id, row.game_id, tuple(row.choices))
            for row in rows
            if row.choices and row.message_id is not None and row.message_id > 0
        ]

    def _button_row(self, chat_id: int, message_id: int) -> ButtonMessage | None:
        return self.session.exec(
            self.mine(select(ButtonMessage), ButtonMessage)
            .where(col(ButtonMessage.chat_id) == chat_id)
            .where(col(ButtonMessage.message_id) == message_id)
        ).first()
