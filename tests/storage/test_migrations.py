"""The Alembic revisions: from nothing, from 0001 with games in progress, and against the models."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlmodel import SQLModel

from tests.database_ops import finish_game, record_action
from tg_mafia.storage import (
    DatabaseConfigError,
    GameStatus,
    Player,
    PlayerOutcome,
    create_database_engine,
    current_revision,
    head_revision,
    migrate,
    open_database,
)
from tg_mafia.storage import waitlist as store
from tg_mafia.storage.database import alembic_config

if TYPE_CHECKING:
    from pathlib import Path

OUR_TABLES = {
    "chat_settings",
    "game",
    "game_action",
    "player_result",
    "seat",
    "living_message",
    "outbox",
    "next_game_watch",
    "button_message",
    "chat_move",
    "pseudonym",
    "waiting_group",
}


HEAD = "0011"


def test_head_is_0011() -> None:
    assert head_revision() == HEAD


def test_upgrade_empty_database(database_url: str) -> None:
    with open_database(database_url) as db:
        assert current_revision(db.engine) == HEAD
        tables = set(sa.inspect(db.engine).get_table_names())
        assert OUR_TABLES | {"alembic_version"} <= tables
        assert db.unfinished_games() == ()
    # A second start finds nothing to do.
    with open_database(database_url) as db:
        assert current_revision(db.engine) == HEAD


def test_migrations_match_the_models(database_url: str) -> None:
    with open_database(database_url) as db, db.engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), SQLModel.metadata)
    ours = [change for change in diff if _table_of(change) in OUR_TABLES]
    assert ours == []


def _table_of(change: object) -> str | None:
    # compare_metadata yields tuples like ("add_column", schema, table, column) or lists of them.
    if isinstance(change, list):
        change = change[0]
    assert isinstance(change, tuple)
    for item in change[1:]:
        if isinstance(item, str) and item in OUR_TABLES:
            return item
        table = getattr(item, "table", None)
        if table is not None:
            return str(table.name)
        if isinstance(item, sa.Table):
            return item.name
    return None


# Lightweight views of the 0001 tables: typed columns, so JSON is encoded per dialect.
GAME_0001_COLUMNS: list[tuple[str, sa.types.TypeEngine[Any]]] = [
    ("id", sa.Integer()),
    ("chat_id", sa.BigInteger()),
    ("status", sa.String()),
    ("variant", sa.String()),
    ("language", sa.String()),
    ("options", sa.JSON()),
    ("seed", sa.BigInteger()),
    ("host_user_id", sa.BigInteger()),
    ("opened_by", sa.BigInteger()),
    ("players", sa.JSON()),
    ("state", sa.JSON(none_as_null=True)),
    ("version", sa.Integer()),
    ("stage_deadline", sa.Float()),
    ("timer_token", sa.String()),
    ("saved_permissions", sa.JSON(none_as_null=True)),
    ("messages", sa.JSON()),
    ("created_at", sa.DateTime(timezone=True)),
    ("updated_at", sa.DateTime(timezone=True)),
    ("ended_at", sa.DateTime(timezone=True)),
]
GAME_0001 = sa.table("game", *(sa.column(name, type_) for name, type_ in GAME_0001_COLUMNS))
ACTION_0001 = sa.table(
    "game_action",
    sa.column("game_id", sa.Integer()),
    sa.column("seq", sa.Integer()),
    sa.column("action", sa.JSON()),
    sa.column("created_at", sa.DateTime(timezone=True)),
)
SETTINGS_0001 = sa.table(
    "chat_settings",
    sa.column("chat_id", sa.BigInteger()),
    sa.column("language", sa.String()),
    sa.column("variant", sa.String()),
    sa.column("options", sa.JSON()),
    sa.column("title", sa.String()),
    sa.column("updated_at", sa.DateTime(timezone=True)),
)

LOBBY_CHAT = -1001
RUNNING_CHAT = -1002
PLAYERS = [Player(10 + i, f"p{i}") for i in range(5)]
PLAYERS_JSON = [{"user_id": p.user_id, "name": p.name} for p in PLAYERS]
PERMISSIONS = {"can_send_messages": True, "can_send_polls": False}


def _game_row(chat_id: int, status: str, **extra: object) -> dict[str, object]:
    now = datetime(2025, 1, 1, tzinfo=UTC)
    row: dict[str, object] = {
        "chat_id": chat_id,
        "status": status,
        "variant": "classic",
        "language": "ru",
        "options": {"night_seconds": 60},
        "seed": 2**62 + 7,
        "host_user_id": None,
        "opened_by": 10,
        "players": PLAYERS_JSON,
        "state": None,
        "version": 1,
        "stage_deadline": None,
        "timer_token": None,
        "saved_permissions": None,
        "messages": {
            "title": "Friday club",
            "rights": {"can_pin_messages": True, "can_delete_messages": 1},
            "opener_name": "p0",
            "lobby": 555,
        },
        "created_at": now,
        "updated_at": now,
        "ended_at": None,
    }
    row.update(extra)
    return row


def test_upgrade_from_0001_with_games_in_progress(database_url: str) -> None:
    engine = create_database_engine(database_url)
    try:
        migrate(engine, "0001")
        assert current_revision(engine) == "0001"
        with engine.begin() as connection:
            connection.execute(
                SETTINGS_0001.insert().values(
                    chat_id=RUNNING_CHAT,
                    language="fr",
                    variant="moscow",
                    options={"host": True},
                    title="Club",
                    updated_at=datetime(2025, 1, 1, tzinfo=UTC),
                )
            )
            connection.execute(GAME_0001.insert().values(**_game_row(LOBBY_CHAT, "lobby")))
            connection.execute(
                GAME_0001.insert().values(
                    **_game_row(
                        RUNNING_CHAT,
                        "running",
                        state={"stage": "night", "day": 1},
                        version=4,
                        stage_deadline=1_900_000_000.5,
                        timer_token="night-1",
                        saved_permissions=PERMISSIONS,
                    )
                )
            )
            running_id = connection.execute(
                sa.text("SELECT id FROM game WHERE chat_id = :chat"), {"chat": RUNNING_CHAT}
            ).scalar_one()
            connection.execute(
                ACTION_0001.insert(),
                [
                    {
                        "game_id": running_id,
                        "seq": seq,
                        "action": {"kind": "vote", "n": seq},
                        "created_at": datetime(2025, 1, 1, tzinfo=UTC),
                    }
                    for seq in (1, 2, 3)
                ],
            )
    finally:
        engine.dispose()

    with open_database(database_url) as db:
        assert current_revision(db.engine) == HEAD
        games = {game.chat_id: game for game in db.unfinished_games()}
        assert set(games) == {LOBBY_CHAT, RUNNING_CHAT}

        running = games[RUNNING_CHAT]
        assert running.status is GameStatus.RUNNING
        assert running.state == {"stage": "night", "day": 1}
        assert running.version == 4
        assert running.stage_deadline == 1_900_000_000.5
        assert running.timer_token == "night-1"
        assert running.saved_permissions == PERMISSIONS
        assert running.seed == 2**62 + 7
        assert running.players == tuple(PLAYERS)
        assert running.winner is None
        assert [a.seq for a in db.actions(running.id)] == [1, 2, 3]

        # Usable: the next action goes on at seq 4, then the game ends with results (0002).
        after = record_action(
            db,
            running.id,
            4,
            {"kind": "kill", "target": 11},
            {"stage": "day", "day": 2},
            stage_deadline=None,
            timer_token=None,
        )
        assert after.version == 5
        assert [a.seq for a in db.actions(running.id)] == [1, 2, 3, 4]
        results = [PlayerOutcome(p.user_id, p.name, "civilian", "town", True) for p in PLAYERS]
        ended = finish_game(db, running.id, "town", results)
        assert ended.winner == "town"
        assert db.chat_stats(RUNNING_CHAT).games_played == 1

        lobby = db.active_game(LOBBY_CHAT)
        assert lobby is not None and lobby.status is GameStatus.LOBBY
        # 0003: the catch-all messages column, each value in its own place.
        assert lobby.title == "Friday club" and lobby.opener_name == "p0"
        assert lobby.bot_rights == {"can_pin_messages": True, "can_delete_messages": True}
        assert lobby.topic == 0 and lobby.host_name is None and lobby.paused_left is None
        assert db.get_settings(RUNNING_CHAT).variant == "moscow"
        # 0003: the seats. The players sat at both tables: the older game keeps them.
        assert db.game_of_user(PLAYERS[0].user_id) == db.get_game(min(running.id, lobby.id))


def test_upgrade_from_0002_keeps_a_paused_hosted_game(database_url: str) -> None:
    """0002 -> 0003 with a running game whose host paused its timer."""
    engine = create_database_engine(database_url)
    try:
        migrate(engine, "0002")
        with engine.begin() as connection:
            connection.execute(
                GAME_0001.insert().values(
                    **_game_row(
                        RUNNING_CHAT,
                        "running",
                        host_user_id=99,
                        state={"stage": "speech", "day": 2, "paused": True},
                        messages={
                            "title": "Club <b>",
                            "rights": {"can_restrict_members": True},
                            "opener_name": "p1",
                            "host_name": "Hosty",
                            "paused_left": 12.5,
                        },
                    )
                )
            )
    finally:
        engine.dispose()
    with open_database(database_url) as db:
        running = db.active_game(RUNNING_CHAT)
        assert running is not None
        assert (running.title, running.host_name, running.paused_left) == (
            "Club <b>",
            "Hosty",
            12.5,
        )
        assert running.bot_rights == {"can_restrict_members": True}
        assert all(db.game_of_user(p.user_id) == running for p in PLAYERS)
        with db.transaction() as tx:
            assert tx.pending(RUNNING_CHAT) == []


def test_downgrade_to_0001_and_back(database_url: str) -> None:
    engine = create_database_engine(database_url)
    try:
        migrate(engine, "0002")
        with engine.begin() as connection:
            connection.execute(GAME_0001.insert().values(**_game_row(LOBBY_CHAT, "lobby")))
        migrate(engine)
        with engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0001")
        assert current_revision(engine) == "0001"
        inspector = sa.inspect(engine)
        assert "player_result" not in inspector.get_table_names()
        assert "winner" not in {c["name"] for c in inspector.get_columns("game")}
        # The downgrade kept the one-active-game-per-chat index.
        assert "uq_game_active_chat" in {i["name"] for i in inspector.get_indexes("game")}
        assert "outbox" not in inspector.get_table_names()
        assert "next_game_watch" not in inspector.get_table_names()
        assert "autostart" not in {c["name"] for c in inspector.get_columns("chat_settings")}
        migrate(engine)
        assert current_revision(engine) == HEAD
    finally:
        engine.dispose()
    with open_database(database_url) as db:
        lobby = db.active_game(LOBBY_CHAT)
        assert lobby is not None and lobby.title == "Friday club"  # there and back again


def test_the_queue_for_a_table_comes_with_0009_and_goes_with_its_downgrade(
    database_url: str,
) -> None:
    """0009 adds the groups waiting for a table, empty, beside a lobby of 0008; its
    downgrade drops them and keeps the lobby; upgraded again, the queue works."""
    engine = create_database_engine(database_url)
    try:
        migrate(engine, "0008")
        with engine.begin() as connection:
            row = _game_0003(LOBBY_CHAT, "lobby")
            connection.execute(GAME_0003.insert().values(**row))
        migrate(engine)
        waiting = sa.table(
            "waiting_group",
            *(sa.column(c) for c in ("chat_id", "topic", "variant", "title", "held_until")),
            sa.column("created_at", sa.DateTime(timezone=True)),
        )
        with engine.begin() as connection:
            assert connection.execute(sa.text("SELECT count(*) FROM waiting_group")).scalar() == 0
            connection.execute(
                waiting.insert().values(
                    chat_id=RUNNING_CHAT, topic=0, variant="club", title="Club", held_until=None,
                    created_at=datetime(2025, 1, 1, tzinfo=UTC),
                )
            )  # fmt: skip
        with engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0008")
        assert current_revision(engine) == "0008"
        assert "waiting_group" not in sa.inspect(engine).get_table_names()
        migrate(engine)
    finally:
        engine.dispose()
    with open_database(database_url) as db:
        assert current_revision(db.engine) == HEAD
        lobby = db.active_game(LOBBY_CHAT)
        assert lobby is not None and lobby.title == "Club"
        with db.transaction() as tx:
            store.join(tx, RUNNING_CHAT, 0, "club", "Club")
            assert [(w.chat_id, w.variant) for w in store.queue(tx)] == [(RUNNING_CHAT, "club")]


def test_the_living_messages_of_0005_keep_their_buttons(database_url: str) -> None:
    """The upgrade to 0006 records the living messages of the games under way as
    messages with buttons (any button of their game), so a game that runs across the
    upgrade keeps its vote and its prompts."""
    engine = create_database_engine(database_url)
    try:
        migrate(engine, "0005")
        with engine.begin() as connection:
            connection.execute(
                sa.text(
                    "INSERT INTO game (id, chat_id, status, variant, language, options, seed,"
                    " opened_by, players, version, topic, created_at, updated_at)"
                    " VALUES (7, -100, 'running', 'classic', 'en', '{}', 1, 5, '[]', 1, 0,"
                    " :now, :now)"
                ),
                {"now": datetime(2025, 1, 1, tzinfo=UTC)},
            )
            connection.execute(
                sa.text(
                    'INSERT INTO living_message (game_id, chat_id, "key", message_id)'
                    " VALUES (7, -100, 'vote', 41), (7, 5, 'prompt', 42)"
                )
            )
        migrate(engine)
    finally:
        engine.dispose()
    with open_database(database_url) as db, db.transaction() as tx:
        vote, prompt = tx.buttons(-100, 41), tx.buttons(5, 42)
        assert vote is not None and (vote.game_id, vote.choices) == (7, None)
        assert prompt is not None and prompt.game_id == 7 and prompt.offers("vt:7:3:2")
        assert tx.buttons(-100, 42) is None
        # Its other messages: any button of the game, in its group (message id -game).
        group = tx.buttons(-100, -7)
        assert group is not None and (group.game_id, group.choices) == (7, None)


RESULT_0002 = sa.table(
    "player_result",
    sa.column("game_id", sa.Integer()),
    sa.column("chat_id", sa.BigInteger()),
    sa.column("user_id", sa.BigInteger()),
    sa.column("name", sa.String()),
    sa.column("role", sa.String()),
    sa.column("side", sa.String()),
    sa.column("won", sa.Boolean()),
    sa.column("created_at", sa.DateTime(timezone=True)),
)


def test_upgrade_from_0007_gives_the_results_pseudonyms(database_url: str) -> None:
    """0007 -> 0008 with two ended games and one running: each user's results
    carry one pseudonym instead of their id (the ids only in the pseudonym
    table), the stats and the leaderboard are the same; the running game goes
    on; and back down to 0007 the ids return."""
    engine = create_database_engine(database_url)
    when = datetime(2026, 12, 1, tzinfo=UTC)
    try:
        migrate(engine, "0007")
        with engine.begin() as connection:
            for number in range(2):
                game_id = connection.execute(
                    GAME_0003.insert()
                    .values(
                        **_game_0003(RUNNING_CHAT, "ended", winner="town", version=9, ended_at=when)
                    )
                    .returning(GAME_0003.c.id)
                ).scalar_one()
                connection.execute(
                    RESULT_0002.insert(),
                    [
                        {
                            "game_id": game_id,
                            "chat_id": RUNNING_CHAT,
                            "user_id": p.user_id,
                            "name": f"{p.name}-{number}",
                            "role": "mafia" if seat < 2 else "citizen",
                            "side": "mafia" if seat < 2 else "town",
                            "won": seat >= 2,
                            "created_at": when,
                        }
                        for seat, p in enumerate(PLAYERS)
                    ],
                )
            running_id = connection.execute(
                GAME_0003.insert()
                .values(**_game_0003(LOBBY_CHAT, "running", state={"stage": "night"}))
                .returning(GAME_0003.c.id)
            ).scalar_one()
            connection.execute(
                SEAT_0003.insert(),
                [{"game_id": running_id, "user_id": p.user_id, "active": True} for p in PLAYERS],
            )
    finally:
        engine.dispose()
    with open_database(database_url) as db:
        assert current_revision(db.engine) == HEAD
        columns = {c["name"] for c in sa.inspect(db.engine).get_columns("player_result")}
        assert "user_id" not in columns and "player" in columns
        with db.engine.connect() as connection:
            tied = dict(
                connection.execute(sa.text("SELECT user_id, pseudonym FROM pseudonym")).all()
            )
            carried = connection.execute(sa.text("SELECT player FROM player_result")).scalars()
            assert set(carried) == set(tied.values())
        assert set(tied) == {p.user_id for p in PLAYERS}
        assert not set(tied) & set(tied.values())  # no pseudonym is a user id
        stats = db.chat_stats(RUNNING_CHAT)
        assert stats.games_played == 2 and stats.wins_by_side == {"town": 2}
        assert {(p.user_id, p.name, p.wins) for p in stats.top_players} == {
            (p.user_id, f"{p.name}-1", 2 if seat >= 2 else 0) for seat, p in enumerate(PLAYERS)
        }
        history = db.results_history(RUNNING_CHAT)
        assert [[o.user_id for o in game.players] for game in history] == [
            [p.user_id for p in PLAYERS]
        ] * 2
        assert db.player_stats(PLAYERS[0].user_id).by_role["mafia"].games == 2
        # The running game goes on and ends: its results take the same pseudonyms.
        running = db.get_game(running_id)
        assert running is not None and db.game_of_user(PLAYERS[0].user_id) == running
        outcomes = [PlayerOutcome(p.user_id, p.name, "citizen", "town", True) for p in PLAYERS]
        finish_game(db, running_id, "town", outcomes)
        assert db.player_stats(PLAYERS[0].user_id).games == 3
    engine = create_database_engine(database_url)
    try:
        with engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0007")
        assert "pseudonym" not in sa.inspect(engine).get_table_names()
        with engine.connect() as connection:
            users = connection.execute(sa.text("SELECT DISTINCT user_id FROM player_result"))
            assert set(users.scalars()) == {p.user_id for p in PLAYERS}
    finally:
        engine.dispose()


def test_database_from_a_newer_release_is_refused(database_url: str) -> None:
    engine = create_database_engine(database_url)
    try:
        migrate(engine)
        with engine.begin() as connection:
            connection.execute(sa.text("UPDATE alembic_version SET version_num = '0099'"))
    finally:
        engine.dispose()
    with pytest.raises(DatabaseConfigError, match="0099"):
        open_database(database_url)


# ----- a real game in progress, from each revision to the head, then played to its end ------

# The revisions a database can be upgraded from, each with a test below that writes a game
# in progress as that revision stored it. A new revision adds its predecessor here.
UPGRADED_FROM = (
    "0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008", "0009", "0010",
)  # fmt: skip


def test_every_upgrade_step_is_tested_with_a_game_in_progress() -> None:
    scripts = ScriptDirectory.from_config(alembic_config())
    older = {script.revision for script in scripts.walk_revisions()} - {head_revision()}
    assert set(UPGRADED_FROM) == older, (
        "add the new head's predecessor to UPGRADED_FROM, with the way it stored a game"
    )


@pytest.mark.parametrize("revision", UPGRADED_FROM)
async def test_a_game_in_progress_goes_on_after_the_upgrade_from(
    revision: str, database_url: str, tmp_path: Path
) -> None:
    """A club game in the middle of its second day, stored by revision `revision`; the bot
    of this release migrates the database at its start, resumes the game from its stored
    state and deadline, and the players finish it."""
    from engine import GameState, public_view
    from engine.simulation import lively_action
    from tests.bot.autoplay import AutoPlayers
    from tests.bot.harness import running_bot
    from tg_mafia.playtest.scheduler import ManualScheduler
    from tg_mafia.sandbox import Sandbox

    sb = Sandbox()
    scheduler = ManualScheduler()
    played = f"sqlite:///{tmp_path / 'played.db'}"
    async with running_bot(tmp_path, 9, sb=sb, database_url=played, scheduler=scheduler) as h:
        h.db.save_settings(h.group.id, variant="club", language="fr")
        game_id = await h.open_and_fill()
        await h.press_start()
        players = AutoPlayers(h, scheduler, seed=int(revision))
        for _ in range(30):
            await h.settle()
            record = h.db.get_game(game_id)
            assert record is not None and record.status is GameStatus.RUNNING
            state = GameState.from_dict(record.state or {})
            await players.perform(record, public_view(state), lively_action(state, players.rng))
        await h.settle()  # nothing left in the outbox, which the old revisions did not have
        record = h.db.get_game(game_id)
        actions = h.db.actions(game_id)
        assert record is not None and record.status is GameStatus.RUNNING
        users, admin, group = h.users, h.admin, h.group
        with h.db.engine.connect() as connection:  # the messages with buttons (0006)
            buttons = [
                {**row._mapping, "choices": json.loads(row.choices) if row.choices else None}
                for row in connection.execute(
                    sa.text("SELECT chat_id, message_id, game_id, choices, created_at"
                            " FROM button_message")
                )
            ]  # fmt: skip

    engine = create_database_engine(database_url)
    try:
        migrate(engine, revision)
        with engine.begin() as connection:
            # 0004 stored a game as 0003 did (it added only the /nextgame list and autostart),
            # and 0005 to 0008 too (each move's update, NULL here; the chat moves, none;
            # the buttons, below; 0008's pseudonyms are for results, none yet).
            store = _store_as_0003 if revision >= "0003" else _store_as_before_0003
            store(connection, record, [(a.seq, dict(a.action)) for a in actions])
            if revision >= "0006":  # and the buttons each message carries
                table = sa.table(
                    "button_message",
                    *(sa.column(c) for c in ("chat_id", "message_id", "game_id", "created_at")),
                    sa.column("choices", sa.JSON()),
                )
                connection.execute(table.insert(), buttons)
    finally:
        engine.dispose()

    scheduler = ManualScheduler()
    async with running_bot(
        tmp_path, 0, sb=sb, database_url=database_url, scheduler=scheduler
    ) as h2:
        assert current_revision(h2.db.engine) == head_revision()
        h2.users, h2.admin, h2.group = users, admin, group
        resumed = h2.db.get_game(game_id)
        assert resumed is not None
        assert (resumed.state, resumed.version, resumed.stage_deadline) == (
            record.state,
            record.version,
            record.stage_deadline,
        )
        assert (resumed.title, resumed.bot_rights) == (record.title, record.bot_rights)
        assert all(h2.db.game_of_user(p.user_id) == resumed for p in record.players)
        assert f"game-{game_id}" in scheduler.armed  # its timer, from the stored deadline
        ended = await AutoPlayers(h2, scheduler, seed=7).play(game_id)
        assert ended.status is GameStatus.ENDED and ended.winner
        assert h2.db.chat_stats(group.id).games_played == 1  # the results table (0002)


def _store_as_before_0003(
    connection: sa.Connection, record: Any, actions: list[tuple[int, dict[str, Any]]]
) -> None:
    """The game as revisions 0001 and 0002 stored it: the title, the bot's rights and the
    opener's name in the catch-all `messages` column; no seats, no outbox."""
    now = datetime(2025, 1, 1, tzinfo=UTC)
    _store_settings(connection, record, now)
    connection.execute(
        GAME_0001.insert().values(
            id=record.id,
            chat_id=record.chat_id,
            status="running",
            variant=record.variant,
            language=record.language,
            options=dict(record.options),
            seed=record.seed,
            host_user_id=record.host_user_id,
            opened_by=record.opened_by,
            players=[{"user_id": p.user_id, "name": p.name} for p in record.players],
            state=record.state,
            version=record.version,
            stage_deadline=record.stage_deadline,
            timer_token=record.timer_token,
            saved_permissions=record.saved_permissions,
            messages={
                "title": record.title,
                "rights": record.bot_rights,
                "opener_name": record.opener_name,
            },
            created_at=now,
            updated_at=now,
            ended_at=None,
        )
    )
    _store_actions(connection, record, actions, now)


# The 0003 tables, as that revision made them.
GAME_0003 = sa.table(
    "game",
    *(sa.column(name, type_) for name, type_ in GAME_0001_COLUMNS if name != "messages"),
    sa.column("topic", sa.BigInteger()),
    sa.column("title", sa.String()),
    sa.column("bot_rights", sa.JSON()),
    sa.column("opener_name", sa.String()),
    sa.column("host_name", sa.String()),
    sa.column("paused_left", sa.Float()),
    sa.column("winner", sa.String()),
)
SEAT_0003 = sa.table(
    "seat",
    sa.column("game_id", sa.Integer()),
    sa.column("user_id", sa.BigInteger()),
    sa.column("active", sa.Boolean()),
)
OUTBOX_0003 = sa.table(
    "outbox",
    sa.column("chat_id", sa.BigInteger()),
    sa.column("game_id", sa.Integer()),
    sa.column("priority", sa.Integer()),
    sa.column("op", sa.JSON()),
    sa.column("created_at", sa.Float()),
    sa.column("attempts", sa.Integer()),
)
LIVING_0003 = sa.table(
    "living_message",
    sa.column("game_id", sa.Integer()),
    sa.column("chat_id", sa.BigInteger()),
    sa.column("key", sa.String()),
    sa.column("message_id", sa.BigInteger()),
)


def _game_0003(chat_id: int, status: str, **extra: object) -> dict[str, object]:
    row = _game_row(chat_id, status, **extra)
    del row["messages"]
    row.update(topic=0, title="Club", bot_rights={"can_pin_messages": True}, opener_name="p0")
    return row


def test_upgrade_from_0003_with_games_in_progress(database_url: str) -> None:
    """0003 -> 0004 with a lobby, a running game (its log, seats, outbox and
    living messages) and saved settings: all kept; the settings gain
    autostart (off), and the /nextgame list starts empty and works."""
    engine = create_database_engine(database_url)
    try:
        migrate(engine, "0003")
        with engine.begin() as connection:
            connection.execute(
                SETTINGS_0001.insert().values(
                    chat_id=RUNNING_CHAT,
                    language="ro",
                    variant="club",
                    options={"night_seconds": 45},
                    title="Club",
                    updated_at=datetime(2026, 12, 1, tzinfo=UTC),
                )
            )
            connection.execute(GAME_0003.insert().values(**_game_0003(LOBBY_CHAT, "lobby")))
            connection.execute(
                GAME_0003.insert().values(
                    **_game_0003(
                        RUNNING_CHAT,
                        "running",
                        state={"stage": "night", "day": 1},
                        version=3,
                        stage_deadline=1_900_000_000.5,
                        timer_token="7",
                        saved_permissions=PERMISSIONS,
                    )
                )
            )
            running_id = connection.execute(
                sa.text("SELECT id FROM game WHERE chat_id = :chat"), {"chat": RUNNING_CHAT}
            ).scalar_one()
            connection.execute(
                SEAT_0003.insert(),
                [{"game_id": running_id, "user_id": p.user_id, "active": True} for p in PLAYERS],
            )
            connection.execute(
                ACTION_0001.insert().values(
                    game_id=running_id,
                    seq=1,
                    action={"verb": "timeout", "actor": "clock"},
                    created_at=datetime(2026, 12, 1, tzinfo=UTC),
                )
            )
            connection.execute(
                OUTBOX_0003.insert().values(
                    chat_id=RUNNING_CHAT,
                    game_id=running_id,
                    priority=0,
                    op={"m": "send", "text": "☀️"},
                    created_at=1.0,
                    attempts=0,
                )
            )
            connection.execute(
                LIVING_0003.insert().values(
                    game_id=running_id, chat_id=RUNNING_CHAT, key="floor", message_id=77
                )
            )
    finally:
        engine.dispose()
    with open_database(database_url) as db:
        assert current_revision(db.engine) == HEAD
        games = {game.chat_id: game for game in db.unfinished_games()}
        assert set(games) == {LOBBY_CHAT, RUNNING_CHAT}
        running = games[RUNNING_CHAT]
        assert (running.state, running.version, running.timer_token) == (
            {"stage": "night", "day": 1},
            3,
            "7",
        )
        assert running.saved_permissions == PERMISSIONS
        assert [a.seq for a in db.actions(running.id)] == [1]
        assert db.game_of_user(PLAYERS[3].user_id) == running
        with db.transaction() as tx:
            assert [e.op["text"] for e in tx.pending(RUNNING_CHAT)] == ["☀️"]
            assert tx.living_id(running.id, RUNNING_CHAT, "floor") == 77
            assert tx.next_game_watchers(RUNNING_CHAT, 0) == []
            assert tx.toggle_next_game(RUNNING_CHAT, 0, 10)
        settings = db.get_settings(RUNNING_CHAT)
        assert (settings.variant, settings.options, settings.autostart) == (
            "club",
            {"night_seconds": 45},
            False,
        )
        assert db.save_settings(RUNNING_CHAT, autostart=True).autostart
        with db.transaction() as tx:
            assert tx.next_game_watchers(RUNNING_CHAT, 0) == [10]
            assert not tx.toggle_next_game(RUNNING_CHAT, 0, 10)  # asked again: off the list
            assert tx.next_game_watchers(RUNNING_CHAT, 0) == []
        # The running game goes on: its next action is seq 2.
        record_action(
            db,
            running.id,
            3,
            {"verb": "pass", "actor": "10"},
            {},
            stage_deadline=None,
            timer_token=None,
        )
        assert [a.seq for a in db.actions(running.id)] == [1, 2]


def _store_as_0003(
    connection: sa.Connection, record: Any, actions: list[tuple[int, dict[str, Any]]]
) -> None:
    """The game as revision 0003 stored it: its own columns, seats, an empty
    outbox; the settings without autostart."""
    now = datetime(2025, 1, 1, tzinfo=UTC)
    _store_settings(connection, record, now)
    connection.execute(
        GAME_0003.insert().values(
            id=record.id,
            chat_id=record.chat_id,
            status="running",
            variant=record.variant,
            language=record.language,
            options=dict(record.options),
            seed=record.seed,
            host_user_id=record.host_user_id,
            opened_by=record.opened_by,
            players=[{"user_id": p.user_id, "name": p.name} for p in record.players],
            state=record.state,
            version=record.version,
            stage_deadline=record.stage_deadline,
            timer_token=record.timer_token,
            saved_permissions=record.saved_permissions,
            topic=record.topic,
            title=record.title,
            bot_rights=record.bot_rights,
            opener_name=record.opener_name,
            host_name=record.host_name,
            paused_left=record.paused_left,
            winner=None,
            created_at=now,
            updated_at=now,
            ended_at=None,
        )
    )
    connection.execute(
        SEAT_0003.insert(),
        [{"game_id": record.id, "user_id": p.user_id, "active": True} for p in record.players],
    )
    _store_actions(connection, record, actions, now)


def _store_settings(connection: sa.Connection, record: Any, now: datetime) -> None:
    """The game's group settings, as every revision before 0004 stored them."""
    connection.execute(
        SETTINGS_0001.insert().values(
            chat_id=record.chat_id,
            language=record.language,
            variant=record.variant,
            options={},
            title=record.title,
            updated_at=now,
        )
    )


def _store_actions(
    connection: sa.Connection,
    record: Any,
    actions: list[tuple[int, dict[str, Any]]],
    now: datetime,
) -> None:
    """The game's action log, as every revision before 0005 stored it."""
    connection.execute(
        ACTION_0001.insert(),
        [
            {"game_id": record.id, "seq": seq, "action": action, "created_at": now}
            for seq, action in actions
        ],
    )


# ----- every revision in turn, each leaving data behind it -----------------------------------

ENDED_CHAT = -1003
ENDED_PLAYERS = [Player(100 + i, f"e{i}") for i in range(5)]


def _rows(engine: sa.Engine) -> dict[str, int]:
    """How many rows each of our tables holds."""
    with engine.connect() as connection:
        tables = set(sa.inspect(connection).get_table_names()) & OUR_TABLES
        return {
            table: connection.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar_one()
            for table in sorted(tables)
        }


def test_step_by_step_from_the_first_revision_with_data_in_it(database_url: str) -> None:
    """The first revision's database, given games as it stored them, then upgraded one
    revision at a time, as a bot that was updated at each release would have found it:
    no row is lost at any step, a finished game stored at 0002 counts in /stats at the
    head, and the game in progress stored at 0001 goes on."""
    scripts = ScriptDirectory.from_config(alembic_config())
    revisions = [script.revision for script in reversed(list(scripts.walk_revisions()))]
    assert revisions[0] == "0001" and revisions[-1] == HEAD
    engine = create_database_engine(database_url)
    try:
        migrate(engine, "0001")
        with engine.begin() as connection:
            connection.execute(GAME_0001.insert().values(**_game_row(LOBBY_CHAT, "lobby")))
            connection.execute(
                GAME_0001.insert().values(
                    **_game_row(RUNNING_CHAT, "running", state={"stage": "night", "day": 1})
                )
            )
            running = connection.execute(
                sa.text("SELECT id FROM game WHERE chat_id = :chat"), {"chat": RUNNING_CHAT}
            ).scalar_one()
            connection.execute(
                ACTION_0001.insert(),
                [{"game_id": running, "seq": 1, "action": {"kind": "vote"},
                  "created_at": datetime(2025, 1, 1, tzinfo=UTC)}],
            )  # fmt: skip
        before = _rows(engine)
        for revision in revisions[1:]:
            migrate(engine, revision)
            assert current_revision(engine) == revision
            if revision == "0002":  # a game that ended, as 0002 stored its result
                _store_ended_as_0002(engine)
            after = _rows(engine)
            kept = {table: count for table, count in after.items() if table in before}
            assert all(kept[t] >= before[t] for t in before), (revision, before, after)
            before = after
    finally:
        engine.dispose()

    with open_database(database_url) as db:
        assert current_revision(db.engine) == HEAD
        stats = db.chat_stats(ENDED_CHAT)
        assert stats.games_played == 1 and stats.wins_by_side == {"town": 1}
        assert {p.user_id for p in stats.top_players} == {p.user_id for p in ENDED_PLAYERS}
        assert {g.chat_id for g in db.unfinished_games()} == {LOBBY_CHAT, RUNNING_CHAT}
        running_id = db.active_game(RUNNING_CHAT).id  # type: ignore[union-attr]
        after = record_action(db,
            running_id, 1, {"kind": "kill"}, {"stage": "day", "day": 2},
            stage_deadline=None, timer_token=None,
        )  # fmt: skip
        assert [a.seq for a in db.actions(running_id)] == [1, 2] and after.version == 2


def _store_ended_as_0002(engine: sa.Engine) -> None:
    now = datetime(2025, 1, 2, tzinfo=UTC)
    ended = sa.table(
        "game", *(sa.column(name, type_) for name, type_ in GAME_0001_COLUMNS),
        sa.column("winner", sa.String()),
    )  # fmt: skip
    results = sa.table(
        "player_result",
        *(sa.column(n) for n in ("game_id", "chat_id", "user_id", "name", "role", "side")),
        sa.column("won", sa.Boolean()),
        sa.column("created_at", sa.DateTime(timezone=True)),
    )
    players = ENDED_PLAYERS
    with engine.begin() as connection:
        row = _game_row(ENDED_CHAT, "ended", ended_at=now, winner="town")
        row["players"] = [{"user_id": p.user_id, "name": p.name} for p in players]
        connection.execute(ended.insert().values(**row))
        game_id = connection.execute(
            sa.text("SELECT id FROM game WHERE chat_id = :chat"), {"chat": ENDED_CHAT}
        ).scalar_one()
        connection.execute(
            results.insert(),
            [{"game_id": game_id, "chat_id": ENDED_CHAT, "user_id": p.user_id, "name": p.name,
              "role": "civilian", "side": "town", "won": True, "created_at": now}
             for p in players],
        )  # fmt: skip
