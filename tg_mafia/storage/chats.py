"""A transaction's operations on a chat as a whole: a basic group that became a
supergroup (its games, results and waiting calls follow it to its new id), and the
waiting calls that can no longer be made (the bot was removed, a topic deleted)."""

from __future__ import annotations

from sqlalchemy import delete, update
from sqlmodel import col, select

from tg_mafia.records import ACTIVE_STATUSES, GameRecord
from tg_mafia.storage.models import (
    ChatMove,
    ChatSettings,
    Game,
    LivingMessage,
    OutboxEntry,
    PlayerResult,
    utc_now,
)
from tg_mafia.storage.rows import game_record
from tg_mafia.storage.transaction import Transaction


class ChatsTx(Transaction):
    """A chat's moves and its dropped calls (a part of Tx)."""

    def move_chat(self, old: int, new: int) -> tuple[list[GameRecord], dict[int, list[str]]]:
        """The group became a supergroup: its games (all of them: the results
        follow), settings and waiting calls move to the new id, and the move is
        written down (`moved_to`). The ids of its living messages are forgotten (the
        next edit of each says it anew); returned: the moved active games, and the keys
        of the living messages each had in the old chat, to be said again."""
        if self.session.get(ChatMove, old) is None:
            self.session.add(ChatMove(old_chat_id=old, new_chat_id=new, moved_at=utc_now()))
        living: dict[int, list[str]] = {}
        # This bot's games (another bot of ours in the group moves its own).
        games = self.mine(select(Game.id).where(col(Game.chat_id) == old), Game)
        for game_id, key in self.session.exec(
            select(LivingMessage.game_id, LivingMessage.key).where(
                col(LivingMessage.chat_id) == old, col(LivingMessage.game_id).in_(games)
            )
        ):
            living.setdefault(game_id, []).append(key)
        self.session.exec(
            delete(LivingMessage)
            .where(col(LivingMessage.chat_id) == old, col(LivingMessage.game_id).in_(games))
            .execution_options(synchronize_session=False)
        )
        self.session.exec(
            self.mine(update(Game).where(col(Game.chat_id) == old), Game)
            .values(chat_id=new)
            .execution_options(synchronize_session=False)
        )
        self.session.exec(
            update(PlayerResult)
            .where(col(PlayerResult.chat_id) == old)
            .values(chat_id=new)
            .execution_options(synchronize_session=False)
        )
        self.session.exec(
            self.mine(update(OutboxEntry).where(col(OutboxEntry.chat_id) == old), OutboxEntry)
            .values(chat_id=new)
            .execution_options(synchronize_session=False)
        )
        settings = self.session.get(ChatSettings, old)
        if settings is not None and self.session.get(ChatSettings, new) is None:
            self.session.add(
                ChatSettings(
                    chat_id=new,
                    language=settings.language,
                    variant=settings.variant,
                    options=dict(settings.options),
                    title=settings.title,
                    updated_at=utc_now(),
                )
            )
            self.session.delete(settings)
        self.session.flush()
        return self.active_games_in_chat(new), living

    def moved_to(self, chat_id: int) -> int:
        """The chat `chat_id` became (following upgrades), or itself."""
        for _ in range(4):  # a basic group upgrades once; a loop is never followed far
            move = self.session.get(ChatMove, chat_id)
            if move is None:
                break
            chat_id = move.new_chat_id
        return chat_id

    def drop_pending_of_game(self, game_id: int) -> None:
        """A game's waiting calls can no longer be made (its forum topic was deleted)."""
        self.session.exec(
            delete(OutboxEntry)
            .where(col(OutboxEntry.game_id) == game_id)
            .execution_options(synchronize_session=False)
        )

    def drop_pending(self, chat_id: int) -> None:
        """The chat's waiting calls can no longer be made (the bot was removed)."""
        self.session.exec(
            self.mine(
                delete(OutboxEntry).where(col(OutboxEntry.chat_id) == chat_id), OutboxEntry
            ).execution_options(synchronize_session=False)
        )

    def active_games_in_chat(self, chat_id: int) -> list[GameRecord]:
        """This bot's lobbies and running games of the chat, every forum topic's."""
        rows = self.session.exec(
            self.mine(
                select(Game)
                .where(Game.chat_id == chat_id, col(Game.status).in_(ACTIVE_STATUSES))
                .order_by(col(Game.id))
                .with_for_update(),
                Game,
            )
        ).all()
        return [game_record(row) for row in rows]
