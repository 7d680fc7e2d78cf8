"""Storage operations that only tests call, each one transaction of its own: a lobby
opened, a game changed, started, moved, ended or aborted, what waits in the outbox.
The bot does each inside its own unit of work (`Database.transaction`, tx.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from tg_mafia.records import GameRecord, GameStatus, JsonObject, PlayerOutcome
from tg_mafia.storage import Database
from tg_mafia.storage.errors import (
    GameAlreadyRunningError,
    GameNotFoundError,
    GameStatusError,
    PlayerBusyError,
    StaleGameError,
)
from tg_mafia.storage.models import Game, OutboxEntry
from tg_mafia.storage.rows import game_record
from tg_mafia.storage.tx import Tx

FINISHED_STATUSES = (GameStatus.ENDED.value, GameStatus.ABORTED.value)


def create_lobby(db: Database, chat_id: int, **fields: Any) -> GameRecord:
    """Open a lobby (Tx.create_lobby). GameAlreadyRunningError if the chat has a lobby
    or running game, also when another process opened one at the same moment."""
    try:
        with db.transaction() as tx:
            return tx.create_lobby(chat_id, **fields)
    except IntegrityError as error:
        # The partial unique index refused a second active game, or a second seat.
        if "seat" in str(error.orig).lower():
            raise PlayerBusyError("a player sits at another table") from error
        raise GameAlreadyRunningError(f"chat {chat_id} already has a game") from error


def update_game(db: Database, game_id: int, expected_version: int, **fields: Any) -> GameRecord:
    """Tx.update_game in a transaction of its own."""
    try:
        with db.transaction() as tx:
            return tx.update_game(game_id, expected_version, **fields)
    except IntegrityError as error:
        raise PlayerBusyError("a player sits at another table") from error


def start_game(
    db: Database,
    game_id: int,
    expected_version: int,
    state: JsonObject,
    *,
    stage_deadline: float | None,
    timer_token: str | None,
) -> GameRecord:
    """Lobby -> running, storing the engine's first snapshot and the first stage's timer."""
    with db.transaction() as tx:
        return tx.start_game(
            game_id,
            expected_version,
            state,
            stage_deadline=stage_deadline,
            timer_token=timer_token,
        )


def record_action(
    db: Database,
    game_id: int,
    expected_version: int,
    action: JsonObject,
    state: JsonObject,
    **kw: Any,
) -> GameRecord:
    """Tx.record_action in a transaction of its own."""
    with db.transaction() as tx:
        return tx.record_action(game_id, expected_version, action, state, **kw)


def finish_game(
    db: Database,
    game_id: int,
    winner: str | None,
    results: Sequence[PlayerOutcome],
    *,
    expected_version: int | None = None,
) -> GameRecord:
    """Running -> ended: store the winning side (None: a draw) and one PlayerResult
    per player."""
    with db.transaction() as tx:
        record = tx.game(game_id, for_update=True)
        if record is None:
            raise GameNotFoundError(f"no game {game_id}")
        if expected_version is not None and record.version != expected_version:
            raise StaleGameError(
                f"game {record.id} is at version {record.version}, not {expected_version}"
            )
        if record.status is not GameStatus.RUNNING:
            raise GameStatusError(f"game {game_id} is {record.status.value}, not running")
        return tx.finish_game(record, winner, results)


def abort_game(db: Database, game_id: int, *, expected_version: int | None = None) -> GameRecord:
    """Lobby or running -> aborted (no results). Without a version it always applies."""
    with db.transaction() as tx:
        return tx.abort_game(game_id, expected_version=expected_version)


def clear_saved_permissions(db: Database, game_id: int) -> None:
    """Forget the saved chat permissions once they are restored (any status)."""
    with db.transaction() as tx:
        tx.clear_saved_permissions(game_id)


def pending_permission_restores(db: Database) -> tuple[GameRecord, ...]:
    """Finished games whose chat permissions were saved and not yet restored."""
    with db.transaction() as tx:
        rows = tx.session.exec(
            select(Game)
            .where(
                col(Game.status).in_(FINISHED_STATUSES),
                col(Game.saved_permissions).is_not(None),
            )
            .order_by(col(Game.id))
        ).all()
        return tuple(game_record(row) for row in rows)


def retry_later(tx: Tx, entry_id: int) -> None:
    """One more attempt counted on an outbox call."""
    tx.session.exec(
        update(OutboxEntry)
        .where(col(OutboxEntry.id) == entry_id)
        .values(attempts=col(OutboxEntry.attempts) + 1)
        .execution_options(synchronize_session=False)
    )


def backlog(db: Database) -> tuple[int, float | None]:
    """How many calls wait in the outbox, and since when the oldest has."""
    with db.transaction() as tx:
        return tx.backlog()
