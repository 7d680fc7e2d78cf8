"""The runtime's tables on each backend: seats (one table per user), the
outbox, the ids of living messages, deadlines moved by delivery, and the
texts forgotten after a game."""

from __future__ import annotations

import pytest

from tests.database_ops import (
    abort_game,
    backlog,
    create_lobby,
    finish_game,
    record_action,
    retry_later,
    start_game,
    update_game,
)
from tg_mafia.storage import Database, GameRecord, Player, PlayerBusyError, PlayerOutcome

CHAT = -100_500
OTHER = -100_600
ANN, BOB = Player(11, "Ann"), Player(12, "Bob")


def running(db: Database, chat: int, players: tuple[Player, ...]) -> GameRecord:
    lobby = create_lobby(db, chat, opened_by=players[0].user_id, players=players, seed=1)
    return start_game(db, lobby.id, lobby.version, {"s": 0}, stage_deadline=10.0, timer_token="1")


def test_a_user_sits_at_one_table_at_a_time(db: Database) -> None:
    first = running(db, CHAT, (ANN,))
    assert db.game_of_user(ANN.user_id) == first
    lobby = create_lobby(db, OTHER, opened_by=BOB.user_id)
    with pytest.raises(PlayerBusyError):
        update_game(db, lobby.id, lobby.version, players=(BOB, ANN))
    assert db.get_game(lobby.id) == lobby  # refused: nothing written
    joined = update_game(db, lobby.id, lobby.version, players=(BOB,))
    assert db.game_of_user(BOB.user_id) == joined
    left = update_game(db, joined.id, joined.version, players=())  # Bob leaves the lobby
    assert db.game_of_user(BOB.user_id) is None
    # The game ends: Ann is free for the next one.
    finish_game(db, first.id, "town", [PlayerOutcome(ANN.user_id, "Ann", "citizen", "town", True)])
    assert db.game_of_user(ANN.user_id) is None
    again = update_game(db, left.id, left.version, players=(ANN,))
    assert db.game_of_user(ANN.user_id) == again
    abort_game(db, again.id)
    assert db.game_of_user(ANN.user_id) is None


def test_the_outbox_keeps_each_chats_order_until_done(db: Database) -> None:
    with db.transaction() as tx:
        for n in range(3):
            tx.enqueue(CHAT, {"m": "send", "text": f"g{n}"}, now=100.0 + n, priority=0)
        tx.enqueue(ANN.user_id, {"m": "send", "text": "p"}, now=99.0, priority=1)
    with db.transaction() as tx:
        chats = {chat: (priority, created) for chat, priority, _, created in tx.pending_chats()}
        assert chats == {CHAT: (0, 100.0), ANN.user_id: (1, 99.0)}
        entries = tx.pending(CHAT)
        assert [e.op["text"] for e in entries] == ["g0", "g1", "g2"]
        tx.done([entries[0].id])
    assert backlog(db) == (3, 99.0)
    with db.transaction() as tx:
        retry_later(tx, tx.pending(CHAT)[0].id)
        assert [(e.op["text"], e.attempts) for e in tx.pending(CHAT)] == [("g1", 1), ("g2", 0)]


def test_the_chats_to_serve_first_come_best_priority_then_oldest(db: Database) -> None:
    with db.transaction() as tx:
        tx.enqueue(3, {"m": "send", "text": "a reminder"}, now=1.0, priority=2)
        tx.enqueue(2, {"m": "send", "text": "an answer"}, now=2.0, priority=1)
        tx.enqueue(1, {"m": "send", "text": "the game's"}, now=3.0, priority=0)
        tx.enqueue(4, {"m": "send", "text": "the game's, later"}, now=4.0, priority=0)
    with db.transaction() as tx:
        assert [chat for chat, *_ in tx.pending_chats(3)] == [1, 4, 2]
        assert sorted(chat for chat, *_ in tx.pending_chats()) == [1, 2, 3, 4]


def test_a_rolled_back_transaction_leaves_no_call(db: Database) -> None:
    with pytest.raises(RuntimeError), db.transaction() as tx:
        tx.enqueue(CHAT, {"m": "send", "text": "never"}, now=1.0)
        raise RuntimeError("the action failed after its calls were queued")
    assert backlog(db) == (0, None)


def test_living_messages_and_moved_deadlines(db: Database) -> None:
    game = running(db, CHAT, (ANN, BOB))
    with db.transaction() as tx:
        assert tx.living_id(game.id, CHAT, "floor") is None
        tx.set_living(game.id, CHAT, "floor", 41)
        tx.set_living(game.id, CHAT, "floor", 42)  # a new floor message
        tx.set_living(game.id, ANN.user_id, "night:kill", 7)
    with db.transaction() as tx:
        assert tx.living_id(game.id, CHAT, "floor") == 42
        assert tx.living_id(game.id, ANN.user_id, "night:kill") == 7
        tx.drop_living(game.id, CHAT, "floor")
        assert tx.living_id(game.id, CHAT, "floor") is None
        # The deadline moves only while the game still runs that timer.
        assert tx.move_deadline(game.id, "1", 55.0)
        assert not tx.move_deadline(game.id, "2", 99.0)
    stored = db.get_game(game.id)
    assert stored is not None and stored.stage_deadline == 55.0 and stored.version == game.version


def test_texts_are_forgotten_with_stand_ins(db: Database) -> None:
    game = running(db, CHAT, (ANN,))
    game = record_action(
        db,
        game.id,
        game.version,
        {"verb": "say", "actor": "11", "text": "secret plan, спасибо"},
        {"s": 1},
        stage_deadline=None,
        timer_token=None,
    )
    with db.transaction() as tx:
        tx.forget_texts(game.id, {1: "спасибо"})
    assert db.actions(game.id)[0].action == {"verb": "say", "actor": "11", "text": "спасибо"}
