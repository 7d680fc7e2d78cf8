"""The groups waiting for a table (`waiting_group`, revision 0009) and the count of the
games that hold one: what admission (bot/waitlist.py) reads and writes, inside the
transaction of a /newgame or of the leader's look at the queue."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Final

from sqlalchemy import delete, func, text, update
from sqlmodel import col, select

from tg_mafia.records import DEFAULT_LANGUAGE, GameStatus
from tg_mafia.storage.models import ACTIVE_GAME_WHERE, ChatSettings, Game, WaitingGroup, utc_now
from tg_mafia.storage.tx import Tx

# PostgreSQL: the transaction-scoped advisory lock that makes admissions take turns
# across the replicas ("tgmafiaq"; the leader's lock is another key).
ADMISSION_LOCK: Final = 0x7467_6D61_6669_6171


@dataclass(frozen=True)
class Waiting:
    id: int
    chat_id: int
    topic: int
    variant: str
    title: str
    held_until: float | None  # None: still waiting; else a table is kept for it until then


def take_turn(tx: Tx) -> None:
    """Admissions one at a time until the transaction ends: two replicas' /newgame at
    once would each count the other's table as free. SQLite has one writer already."""
    if tx.connection.dialect.name == "postgresql":
        tx.session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADMISSION_LOCK})


def open_games(tx: Tx) -> tuple[Counter[str], Counter[str]]:
    """The lobbies and the running games (of the transaction's bot: each token has its
    own budget), each by variant (on the one-game-per-chat partial index, whose
    condition this is word for word)."""
    rows = tx.session.exec(
        tx.mine(select(Game.variant, Game.status, func.count()), Game)
        .where(text(ACTIVE_GAME_WHERE))
        .group_by(col(Game.variant), col(Game.status))
    ).all()
    lobbies: Counter[str] = Counter()
    running: Counter[str] = Counter()
    for variant, status, count in rows:
        (lobbies if status == GameStatus.LOBBY.value else running)[variant] += int(count)
    return lobbies, running


def drop_expired(tx: Tx, now: float) -> None:
    """Tables held past their time go back to everyone (and their groups out of the queue)."""
    tx.session.execute(
        tx.mine(delete(WaitingGroup), WaitingGroup).where(
            col(WaitingGroup.held_until).is_not(None), col(WaitingGroup.held_until) <= now
        )
    )


def queue(tx: Tx) -> list[Waiting]:
    """Every group waiting for a table of the transaction's bot, first come first."""
    query = tx.mine(select(WaitingGroup), WaitingGroup).order_by(col(WaitingGroup.id))
    rows = tx.session.exec(query).all()
    return [Waiting(r.id or 0, r.chat_id, r.topic, r.variant, r.title, r.held_until) for r in rows]


def join(tx: Tx, chat_id: int, topic: int, variant: str, title: str) -> None:
    tx.session.add(
        WaitingGroup(
            chat_id=chat_id,
            topic=topic,
            variant=variant,
            title=title[:255],
            created_at=utc_now(),
            bot_id=tx.bot_id,
        )
    )
    tx.session.flush()


def leave(tx: Tx, row_id: int) -> None:
    tx.session.execute(delete(WaitingGroup).where(col(WaitingGroup.id) == row_id))


def hold(tx: Tx, row_id: int, until: float) -> None:
    tx.session.execute(
        update(WaitingGroup).where(col(WaitingGroup.id) == row_id).values(held_until=until)
    )


def language_of(tx: Tx, chat_id: int) -> str:
    settings = tx.session.get(ChatSettings, chat_id)
    return settings.language if settings is not None else DEFAULT_LANGUAGE


def waiting_count(tx: Tx) -> int:
    """The groups in the queue, told of a free table or not yet."""
    query = tx.mine(select(func.count()).select_from(WaitingGroup), WaitingGroup)
    return int(tx.session.exec(query).one())
