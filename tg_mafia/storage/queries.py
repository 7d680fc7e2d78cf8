"""The statements of the reads made at nearly every update and every call, built once.

Building a select and working out its cache key (SQLAlchemy's compiled-statement
cache) cost as much as running it on SQLite: 75 microseconds of the sender's look at the
outbox. These are immutable; their values come as bound parameters."""

from __future__ import annotations

from typing import Final

from sqlalchemy import bindparam, func
from sqlmodel import col, select

from tg_mafia.storage.models import Game, LivingMessage, OutboxEntry
from tg_mafia.storage.records import ACTIVE_STATUSES

GAME: Final = select(Game).where(col(Game.id) == bindparam("game_id"))
GAME_FOR_UPDATE: Final = GAME.with_for_update()

ACTIVE_GAME: Final = select(Game).where(
    col(Game.chat_id) == bindparam("chat_id"),
    col(Game.topic) == bindparam("topic"),
    col(Game.status).in_(ACTIVE_STATUSES),
)
ACTIVE_GAME_FOR_UPDATE: Final = ACTIVE_GAME.with_for_update()

LIVING_ID: Final = select(col(LivingMessage.message_id)).where(
    col(LivingMessage.game_id) == bindparam("game_id"),
    col(LivingMessage.chat_id) == bindparam("chat_id"),
    col(LivingMessage.key) == bindparam("key"),
)

# Every chat with pending calls: (chat, best priority, oldest id, oldest time).
PENDING_CHATS: Final = select(
    col(OutboxEntry.chat_id),
    func.min(OutboxEntry.priority),
    func.min(OutboxEntry.id),
    func.min(OutboxEntry.created_at),
).group_by(col(OutboxEntry.chat_id))

# A chat's pending calls: the game's own first, each kind in the order written.
PENDING: Final = (
    select(OutboxEntry)
    .where(col(OutboxEntry.chat_id) == bindparam("chat_id"))
    .order_by(col(OutboxEntry.priority), col(OutboxEntry.id))
    .limit(bindparam("limit"))
)
