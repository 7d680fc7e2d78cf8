"""`tg-mafia backup` and `restore`: a backup taken while a game is being played on the
sandbox, restored into another database, where the game goes on to its end; on SQLite and
on PostgreSQL (pg_dump and pg_restore from Debian's postgresql-client)."""

from __future__ import annotations

import asyncio
import os
import secrets
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, make_url, text

from engine import GameState, apply, new_game, public_view
from engine.actions import action_from_dict
from engine.simulation import lively_action
from tests.bot.autoplay import AutoPlayers
from tests.bot.harness import running_bot
from tests.database_ops import create_lobby
from tests.storage.conftest import POSTGRES_URL_VARIABLE
from tg_mafia.cli import main
from tg_mafia.ops.backup import BackupError, backup_database, libpq_conninfo, restore_database
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.runtime.restored import redraw_running_games
from tg_mafia.sandbox import Sandbox
from tg_mafia.storage import Database, GameRecord, GameStatus, open_database

NewDatabase = Callable[[], str]


@pytest.fixture
def new_database(backend: str, tmp_path: Path) -> Iterator[NewDatabase]:
    """Makes empty databases: SQLite files, or PostgreSQL databases dropped afterwards
    (pg_dump takes a whole database, so each test gets databases of its own)."""
    made: list[str] = []
    if backend == "sqlite":

        def sqlite_file() -> str:
            made.append(f"sqlite:///{tmp_path / f'db{len(made)}.sqlite'}")
            return made[-1]

        yield sqlite_file
        return
    server = make_url(os.environ[POSTGRES_URL_VARIABLE])
    admin = create_engine(server, isolation_level="AUTOCOMMIT")

    def postgres_database() -> str:
        name = f"tg_mafia_b_{secrets.token_hex(5)}"
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        made.append(name)
        return server.set(database=name).render_as_string(hide_password=False)

    try:
        yield postgres_database
    finally:
        with admin.connect() as connection:
            for name in made:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def replayed(db: Database, record: GameRecord) -> GameState:
    """The game rebuilt from its setup and its action log, as stored."""
    options = dict(record.options)
    options["host"] = "human" if record.host_user_id else "auto"
    seats = tuple(str(p.user_id) for p in record.players)
    state, _ = new_game(record.variant, seats, options, record.seed, record.language)
    for stored in db.actions(record.id):
        state, _ = apply(state, action_from_dict(dict(stored.action)))
    return state


async def test_a_backup_taken_mid_game_restores_and_the_game_goes_on(
    new_database: NewDatabase, tmp_path: Path
) -> None:
    source, target = new_database(), new_database()
    backup = tmp_path / "night.backup"
    sb = Sandbox()
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 9, sb=sb, database_url=source, scheduler=scheduler) as h:
        h.db.save_settings(h.group.id, variant="moscow", language="ru")
        game_id = await h.open_and_fill()
        await h.press_start()
        players = AutoPlayers(h, scheduler, seed=21)
        for _ in range(25):
            await h.settle()
            record = h.db.get_game(game_id)
            assert record is not None
            state = GameState.from_dict(record.state or {})
            await players.perform(record, public_view(state), lively_action(state, players.rng))
        # The backup runs beside the bot, as an operator's cron job would, while a move
        # is being made.
        record = h.db.get_game(game_id)
        assert record is not None
        state = GameState.from_dict(record.state or {})
        taking = asyncio.ensure_future(asyncio.to_thread(backup_database, source, backup))
        await players.perform(record, public_view(state), lively_action(state, players.rng))
        contents = await taking
        await h.settle()
        assert contents.unfinished == 1
        users, admin, group = h.users, h.admin, h.group
        await h.crash()  # the machine is lost with its database

    restored = restore_database(target, backup)
    assert restored.unfinished == 1
    with open_database(target) as db:
        record = db.get_game(game_id)
        assert record is not None and record.status is GameStatus.RUNNING
        # One consistent snapshot: the stored state is its own action log replayed.
        assert replayed(db, record) == GameState.from_dict(record.state or {})
        assert db.get_settings(group.id).language == "ru"
        # As `tg-mafia restore` does: the running game's screens are drawn again.
        assert redraw_running_games(db) == 1

    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 0, sb=sb, database_url=target, scheduler=scheduler) as h2:
        h2.users, h2.admin, h2.group = users, admin, group
        await h2.settle()
        assert f"game-{game_id}" in scheduler.armed  # its timer, from the stored deadline
        record = await AutoPlayers(h2, scheduler, seed=22).play(game_id)
        assert record.status is GameStatus.ENDED and record.winner
        assert h2.db.chat_stats(group.id).games_played == 1


def test_a_database_that_is_not_empty_is_replaced_only_with_force(
    new_database: NewDatabase, tmp_path: Path
) -> None:
    first, second = new_database(), new_database()
    with open_database(first) as db:
        create_lobby(db, -100, opened_by=1, variant="classic", language="en", options={}, seed=1)
    with open_database(second) as db:
        db.save_settings(-200, variant="party", language="fr")
    backup = tmp_path / "first.backup"
    assert backup_database(first, backup).games == 1
    with pytest.raises(BackupError, match=r"is not empty .* run again with --force"):
        restore_database(second, backup)
    with open_database(second) as db:  # nothing changed
        assert db.get_settings(-200).variant == "party" and db.active_game(-100) is None
    assert restore_database(second, backup, force=True).unfinished == 1
    with open_database(second) as db:
        lobby = db.active_game(-100)
        assert lobby is not None and lobby.status is GameStatus.LOBBY


def test_the_command_line(
    new_database: NewDatabase,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source, target = new_database(), new_database()
    with open_database(source) as db:
        create_lobby(db, -100, opened_by=1, variant="classic", language="en", options={}, seed=1)
    backup = tmp_path / "cli.backup"
    monkeypatch.setenv("DATABASE_URL", source)
    assert main(["backup", str(backup)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("backed up ") and "1 games, 1 unfinished" in out
    password = make_url(source).password
    assert not password or password not in out
    assert main(["restore", "--database-url", target, str(backup)]) == 0
    assert "restored" in capsys.readouterr().out
    assert main(["restore", "--database-url", target, str(backup)]) == 1
    assert "--force" in capsys.readouterr().err
    assert main(["restore", "--database-url", target, str(tmp_path / "missing")]) == 1
    assert "no backup at" in capsys.readouterr().err
    assert main(["backup", "--database-url", "mysql://x/y", str(backup)]) == 2


def test_bad_backups_are_refused(backend: str, tmp_path: Path) -> None:
    if backend != "sqlite":
        pytest.skip("SQLite files")
    source, target = f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}"
    open_database(source).close()
    backup = tmp_path / "a.backup"
    backup_database(source, backup)
    junk = tmp_path / "junk.backup"
    junk.write_bytes(b"PGDMP and more")
    with pytest.raises(BackupError, match="is not a SQLite backup"):
        restore_database(target, junk)
    damaged = tmp_path / "damaged.backup"
    damaged.write_bytes(backup.read_bytes()[:4096])
    with pytest.raises(BackupError, match=r"damaged|not a readable"):
        restore_database(target, damaged)
    with sqlite3.connect(backup) as db:
        db.execute("UPDATE alembic_version SET version_num = '0099'")
    with pytest.raises(BackupError, match="revision 0099, which this tg-mafia does not know"):
        restore_database(target, backup)
    assert not Path(tmp_path / "b.db").exists() or Path(tmp_path / "b.db").stat().st_size == 0
    with pytest.raises(BackupError, match="no database at"):
        backup_database(f"sqlite:///{tmp_path / 'nothing.db'}", tmp_path / "x.backup")
    assert not (tmp_path / "nothing.db").exists() and not (tmp_path / "x.backup").exists()


def test_without_postgresql_client(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(BackupError, match="pg_dump not found: install Debian's postgresql-client"):
        backup_database("postgresql+psycopg://u:secret@127.0.0.1:1/x", tmp_path / "x")


def test_the_libpq_connection_string_leaves_the_password_out() -> None:
    url = make_url("postgresql+psycopg://bob:s3cret@db.example:5433/games?sslmode=require")
    conninfo = libpq_conninfo(url)
    assert conninfo == "host='db.example' port='5433' user='bob' dbname='games' sslmode='require'"
    assert "s3cret" not in conninfo
    assert libpq_conninfo(make_url("postgresql://h/d?options=-csearch_path%3Dx")) == (
        "host='h' dbname='d' options='-csearch_path=x'"
    )
    assert libpq_conninfo(make_url("postgresql://h/it's")) == "host='h' dbname='it\\'s'"
