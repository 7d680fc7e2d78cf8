"""The hot path's statements on the driver's connection (storage/direct.py) read
and write what the ORM does, and fail as SQLAlchemy would."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from sqlmodel import select

from tests.database_ops import create_lobby, record_action, update_game
from tg_mafia.storage import Database
from tg_mafia.storage.models import Game, Seat
from tg_mafia.storage.rows import game_record

from .test_repository import CHAT, PLAYERS, running_game


def test_a_game_read_directly_is_the_game_the_orm_reads(db: Database) -> None:
    game = running_game(db)
    game = update_game(
        db,
        game.id,
        game.version,
        saved_permissions={"can_send_messages": True},
        paused_left=12.5,
        host_user_id=7,
        host_name="Zoé",
    )
    with db.transaction() as tx:
        direct = tx.game(game.id)
        row = tx.session.exec(select(Game).where(Game.id == game.id)).one()
        orm = game_record(row)
    assert direct == orm == game
    assert direct is not None and direct.updated_at.tzinfo is not None


def test_what_the_orm_holds_is_written_before_a_direct_statement(db: Database) -> None:
    lobby = create_lobby(db, CHAT, opened_by=PLAYERS[0].user_id)
    with db.transaction() as tx:
        tx.session.add(Seat(game_id=lobby.id, user_id=99, active=True))  # not flushed yet
        found = tx.game_of_user(99)
    assert found is not None and found.id == lobby.id


def test_a_driver_error_is_sqlalchemys_and_is_seen_by_its_error_event(db: Database) -> None:
    db = db.for_bot(7)  # a bot's update ids are unique (each bot numbers its own)
    game = running_game(db)
    seen: list[Any] = []
    sa.event.listen(db.engine, "handle_error", lambda context: seen.append(context))
    written = record_action(
        db, game.id, game.version, {"n": 1}, {}, stage_deadline=None, timer_token=None, update_id=5
    )
    with pytest.raises(sa.exc.IntegrityError):  # the same update's move, written twice
        record_action(
            db,
            game.id,
            written.version,
            {"n": 2},
            {},
            stage_deadline=None,
            timer_token=None,
            update_id=5,
        )
    assert len(seen) == 1
    assert db.get_game(game.id) == written  # nothing of the failed transaction stayed
    with db.grouped():  # inside a group, the failure rolls back its own savepoint only
        with pytest.raises(sa.exc.IntegrityError):
            record_action(
                db,
                game.id,
                written.version,
                {},
                {},
                stage_deadline=None,
                timer_token=None,
                update_id=5,
            )
        after = record_action(
            db, game.id, written.version, {"n": 3}, {}, stage_deadline=None, timer_token=None
        )
    assert [a.action for a in db.actions(game.id)] == [{"n": 1}, {"n": 3}]
    assert db.get_game(game.id) == after
