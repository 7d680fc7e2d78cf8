"""`Database.grouped`: the transactions of one thread inside it are savepoints
of one transaction. A failing one rolls back alone; nothing is visible to
another connection before the group commits; a group that fails to commit
leaves nothing."""

from __future__ import annotations

import pytest

from tests.database_ops import abort_game, create_lobby, record_action
from tg_mafia.records import GameRecord
from tg_mafia.storage import Database, GameStatus, StaleGameError

from .test_repository import CHAT, PLAYERS, running_game


def write(db: Database, game: GameRecord, seq: int) -> GameRecord:
    return record_action(
        db,
        game.id,
        game.version,
        {"n": seq},
        {"stage": "day"},
        stage_deadline=None,
        timer_token=None,
    )


def logged(db: Database, game_id: int) -> list[int]:
    return [int(a.action["n"]) for a in db.actions(game_id)]


def test_a_failing_transaction_rolls_back_alone(db: Database) -> None:
    game = running_game(db)
    other = create_lobby(db, CHAT - 1, opened_by=PLAYERS[0].user_id)
    with db.grouped():
        first = write(db, game, 1)
        with pytest.raises(StaleGameError):
            write(db, game, 99)  # the version it read is gone: nothing of it stays
        with pytest.raises(RuntimeError), db.transaction() as tx:
            tx.update_game(other.id, other.version, host_name="Eve")
            raise RuntimeError("the move's own failure")
        write(db, first, 2)
    assert logged(db, game.id) == [1, 2]
    assert db.get_game(other.id) == other


def test_nothing_is_visible_before_the_group_commits(db: Database, database_url: str) -> None:
    from tg_mafia.storage import open_database

    game = running_game(db)
    outside = open_database(database_url)  # another connection, as another process
    try:
        with db.grouped():
            write(db, game, 1)
            assert logged(db, game.id) == [1]  # the group sees its own writes
            assert logged(outside, game.id) == []
        assert logged(outside, game.id) == [1]
    finally:
        outside.close()


def test_a_group_that_fails_leaves_nothing(db: Database) -> None:
    game = running_game(db)
    with pytest.raises(KeyboardInterrupt), db.grouped():
        write(db, game, 1)
        abort_game(db, game.id)
        raise KeyboardInterrupt  # the process stopped before the commit
    assert logged(db, game.id) == []
    record = db.get_game(game.id)
    assert record is not None and record.status is GameStatus.RUNNING
    # and the thread is out of the group: its next transaction commits by itself
    write(db, game, 2)
    assert logged(db, game.id) == [2]
