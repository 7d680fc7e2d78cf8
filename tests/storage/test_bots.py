"""Several bots on one database (revision 0010): each game, call, message with buttons
and waiting group is a bot's (`Database.for_bot`); one game a chat whichever bot runs
it; the rows stored before there were bots are the first token's once it starts."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from alembic import command

from tests.database_ops import backlog, create_lobby, record_action, start_game
from tg_mafia.storage import (
    ChatTakenError,
    Database,
    GameAlreadyRunningError,
    Player,
    create_database_engine,
    current_revision,
    migrate,
    open_database,
)
from tg_mafia.storage import waitlist as store
from tg_mafia.storage.database import alembic_config

from .test_repository import CHAT, PLAYERS, running_game

A, B = 7_000_000_001, 7_000_000_002
OTHER_CHAT = CHAT - 1


def test_each_bot_sees_its_own_games_and_one_game_a_chat(db: Database) -> None:
    bot_a, bot_b = db.for_bot(A), db.for_bot(B)
    game = running_game(bot_a)
    assert game.bot_id == A
    assert bot_a.active_game(CHAT) == game and db.active_game(CHAT) == game
    assert bot_b.active_game(CHAT) is None  # not its game: nothing to act on
    with pytest.raises(ChatTakenError) as taken:  # one game a chat, whichever bot
        create_lobby(bot_b, CHAT, opened_by=9)
    assert taken.value.bot_id == A
    with pytest.raises(GameAlreadyRunningError) as again:  # its own: the usual answer
        create_lobby(bot_a, CHAT, opened_by=9)
    assert not isinstance(again.value, ChatTakenError)
    lobby = create_lobby(bot_b, OTHER_CHAT, opened_by=9)
    assert [g.id for g in bot_a.unfinished_games()] == [game.id]
    assert [g.id for g in bot_b.unfinished_games()] == [lobby.id]
    assert len(db.unfinished_games()) == 2 and db.count_unfinished() == 2
    assert (bot_a.count_unfinished(), bot_b.count_unfinished()) == (1, 1)
    player = PLAYERS[0].user_id
    assert bot_a.game_of_user(player) == game and bot_b.game_of_user(player) is None


def test_each_bot_has_its_own_outbox(db: Database) -> None:
    bot_a, bot_b = db.for_bot(A), db.for_bot(B)
    with bot_a.transaction() as tx:
        tx.enqueue(CHAT, {"m": "send", "text": "a"}, now=10.0)
        tx.enqueue(5, {"m": "send", "text": "a5"}, now=11.0)
    with bot_b.transaction() as tx:
        tx.enqueue(CHAT, {"m": "send", "text": "b"}, now=20.0)
    with bot_a.transaction() as tx:
        assert [r.op["text"] for r in tx.pending(CHAT)] == ["a"]
        assert {chat for chat, *_ in tx.pending_chats()} == {CHAT, 5}
        assert tx.backlog() == (2, 10.0)
    with bot_b.transaction() as tx:
        assert [r.op["text"] for r in tx.pending(CHAT)] == ["b"]
        assert [chat for chat, *_ in tx.pending_chats(first=5)] == [CHAT]
        assert tx.backlog() == (1, 20.0)
        tx.drop_pending(CHAT)  # the bot was removed from the group: its calls only
    assert backlog(bot_a) == (2, 10.0) and backlog(bot_b) == (0, None)
    assert backlog(db) == (2, 10.0)


def test_a_private_chats_message_ids_are_each_bots(db: Database) -> None:
    """Bot A's message 5 in a user's chat and bot B's message 5 in that user's chat with
    B are two messages: each keeps its own buttons."""
    bot_a, bot_b = db.for_bot(A), db.for_bot(B)
    with bot_a.transaction() as tx:
        tx.set_buttons(42, 5, None, ["x:a"], now=1.0)
    with bot_b.transaction() as tx:
        tx.set_buttons(42, 5, None, ["x:b"], now=1.0)
    with bot_a.transaction() as tx:
        found = tx.buttons(42, 5)
        assert found is not None and found.choices == ("x:a",)
        tx.drop_buttons(42, 5)
    with bot_b.transaction() as tx:
        found = tx.buttons(42, 5)
        assert found is not None and found.choices == ("x:b",)


def test_each_bot_numbers_its_updates(db: Database) -> None:
    bot_a, bot_b = db.for_bot(A), db.for_bot(B)
    game_a = running_game(bot_a)
    lobby = create_lobby(bot_b, OTHER_CHAT, opened_by=9, players=[Player(99, "Zed")])
    game_b = start_game(bot_b, lobby.id, lobby.version, {}, stage_deadline=None, timer_token=None)
    written = record_action(
        bot_a,
        game_a.id,
        game_a.version,
        {},
        {},
        stage_deadline=None,
        timer_token=None,
        update_id=17,
    )
    assert written.version == game_a.version + 1
    record_action(
        bot_b,
        game_b.id,
        game_b.version,
        {},
        {},
        stage_deadline=None,
        timer_token=None,
        update_id=17,
    )  # B's update 17 is another update than A's
    with bot_a.transaction() as tx:
        assert tx.made_by_update(17) and not tx.made_by_update(18)
    with db.for_bot(B + 1).transaction() as tx:
        assert not tx.made_by_update(17)


def test_each_bot_has_its_own_queue_for_a_table(db: Database) -> None:
    bot_a, bot_b = db.for_bot(A), db.for_bot(B)
    running_game(bot_a)
    with bot_a.transaction() as tx:
        assert store.open_games(tx) == ({}, {"classic": 1})  # lobbies, running
        store.join(tx, OTHER_CHAT, 0, "club", "Club")
        assert store.waiting_count(tx) == 1
    with bot_b.transaction() as tx:
        assert store.open_games(tx) == ({}, {}) and store.queue(tx) == []
        assert store.waiting_count(tx) == 0


def test_the_first_token_takes_the_rows_stored_before(db: Database) -> None:
    """Rows with no bot (stored before 0010, or by a tool) become the first token's at
    its start; nobody else's are touched."""
    old = running_game(db)
    with db.transaction() as tx:
        tx.enqueue(CHAT, {"m": "send", "text": "old"}, now=1.0, game_id=old.id)
        tx.set_buttons(CHAT, 3, old.id, ["v:1"], now=1.0)
    other = create_lobby(db.for_bot(B), OTHER_CHAT, opened_by=9)
    assert old.bot_id is None and db.for_bot(A).unfinished_games() == ()
    assert db.adopt(A) == 1
    mine = db.for_bot(A)
    assert [g.id for g in mine.unfinished_games()] == [old.id]
    assert backlog(mine)[0] == 1
    with mine.transaction() as tx:
        assert tx.buttons(CHAT, 3) is not None
    assert db.get_game(other.id) is not None
    assert [g.id for g in db.for_bot(B).unfinished_games()] == [other.id]
    assert db.adopt(A) == 0  # a second start finds nothing to take


def test_0010_comes_with_games_of_no_bot_and_goes_back(database_url: str) -> None:
    """0009's game, call and message with buttons get bot_id NULL; the downgrade drops
    the column (the old unique keys back); upgraded again, the bots work."""
    engine = create_database_engine(database_url)
    try:
        migrate(engine, "0009")
        now = datetime(2025, 1, 1, tzinfo=UTC)
        with engine.begin() as connection:
            connection.execute(
                sa.text(
                    "INSERT INTO game (id, chat_id, topic, status, variant, language, options,"
                    " seed, opened_by, players, version, title, bot_rights, opener_name,"
                    " created_at, updated_at) VALUES (1, :chat, 0, 'lobby', 'classic', 'en',"
                    " '{}', 1, 1, '[]', 1, 'Club', '{}', 'Ann', :now, :now)"
                ),
                {"chat": CHAT, "now": now},
            )
            connection.execute(
                sa.text(
                    "INSERT INTO outbox (chat_id, game_id, priority, op, created_at, attempts)"
                    ' VALUES (:chat, 1, 0, \'{"m": "send", "text": "x"}\', 1.0, 0)'
                ),
                {"chat": CHAT},
            )
        migrate(engine)
        with engine.connect() as connection:
            assert connection.execute(sa.text("SELECT bot_id FROM game")).scalar() is None
        with engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0009")
        assert current_revision(engine) == "0009"
        assert "bot_id" not in {c["name"] for c in sa.inspect(engine).get_columns("game")}
        migrate(engine)
    finally:
        engine.dispose()
    with open_database(database_url) as db:
        assert db.adopt(A) == 1
        assert db.for_bot(A).active_game(CHAT) is not None
        assert backlog(db.for_bot(A))[0] == 1
