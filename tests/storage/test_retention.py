"""Retention: RETENTION_DAYS after a game ends, it keeps nothing of its
players but their results under pseudonyms (docs/privacy.md); running and
recent games keep everything; `--dry-run` counts and changes nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from tests.database_ops import abort_game, create_lobby, record_action, start_game, update_game
from tests.storage.traces import file_traces, sqlite_file, table_traces
from tg_mafia.runtime.timers.retention import cutoff
from tg_mafia.storage import (
    Database,
    GameRecord,
    GameStatus,
    Player,
    PlayerOutcome,
    Pruned,
    create_database_engine,
    current_revision,
    head_revision,
    migrate,
    open_database,
)

CHATS = (-1001, -1002, -1003, -1004)
# Ann plays only long ago; Bob then and lately; Cleo only lately.
ANN = Player(730_000_011, "Ann Ancienne")
BOB = Player(730_000_012, "Bob")
CLEO = Player(730_000_013, "Cléo")


def played(
    db: Database,
    chat_id: int,
    players: tuple[Player, ...],
    *,
    ended_days_ago: float | None,
    host: Player | None = None,
) -> GameRecord:
    """A game with two actions and a state naming its players as the engine
    does; ended `ended_days_ago` days ago (None: still running)."""
    first, second = (str(p.user_id) for p in players[:2])
    lobby = create_lobby(
        db, chat_id, opened_by=players[0].user_id, players=players, opener_name=players[0].name
    )
    if host is not None:
        lobby = update_game(
            db, lobby.id, lobby.version, host_user_id=host.user_id, host_name=host.name
        )
    state = {
        "seats": [first, second],
        "roles": {first: "mafia"},
        "choices": {f"{first}:kill": second},
    }
    game = start_game(db, lobby.id, lobby.version, state, stage_deadline=None, timer_token=None)
    game = record_action(
        db,
        game.id,
        game.version,
        {"verb": "night", "actor": first, "target": second},
        state,
        stage_deadline=None,
        timer_token=None,
    )
    if ended_days_ago is None:
        return game
    results = [PlayerOutcome(p.user_id, p.name, "citizen", "town", True) for p in players[1:]] + [
        PlayerOutcome(players[0].user_id, players[0].name, "mafia", "mafia", False)
    ]
    ended = record_action(
        db,
        game.id,
        game.version,
        {"verb": "timeout", "actor": "clock"},
        state,
        stage_deadline=None,
        timer_token=None,
        final=("town", results),
    )
    _age(db, ended.id, ended_days_ago)
    return ended


def _age(db: Database, game_id: int, days: float) -> None:
    when = datetime.now(UTC) - timedelta(days=days)
    with db.engine.begin() as connection:
        connection.execute(
            sa.text("UPDATE game SET ended_at = :when, created_at = :when WHERE id = :id"),
            {"when": when, "id": game_id},
        )


def _messages(db: Database, game_id: int, user: Player, days_ago: float) -> None:
    """What the bot wrote down of its messages in a game: a living message
    and one with buttons in the player's private chat, a pending call."""
    when = (datetime.now(UTC) - timedelta(days=days_ago)).timestamp()
    with db.transaction() as tx:
        tx.set_living(game_id, user.user_id, "prompt", 41)
        tx.set_buttons(user.user_id, 41, game_id, [f"nt:{game_id}:3:kill:2"], when)
        tx.enqueue(user.user_id, {"m": "send", "text": "…"}, now=when, game_id=game_id)


def _watch(db: Database, chat_id: int, user_id: int, days_ago: float) -> None:
    with db.transaction() as tx:
        tx.toggle_next_game(chat_id, 0, user_id)
    when = datetime.now(UTC) - timedelta(days=days_ago)
    with db.engine.begin() as connection:
        connection.execute(
            sa.text("UPDATE next_game_watch SET created_at = :when WHERE user_id = :user"),
            {"when": when, "user": user_id},
        )


def _everything(db: Database) -> dict[str, list[Any]]:
    with db.engine.connect() as connection:
        return {
            table: sorted(
                (
                    repr(tuple(row))
                    for row in connection.execute(sa.text(f'SELECT * FROM "{table}"'))
                ),
            )
            for table in sa.inspect(db.engine).get_table_names()
        }


def test_old_games_keep_only_results_under_pseudonyms(db: Database, database_url: str) -> None:
    old = played(db, CHATS[0], (ANN, BOB), ended_days_ago=100, host=CLEO)
    _messages(db, old.id, ANN, days_ago=100)
    recent = played(db, CHATS[0], (BOB, CLEO), ended_days_ago=10)
    running = played(db, CHATS[2], (CLEO, BOB), ended_days_ago=None)
    aborted = create_lobby(db, CHATS[3], opened_by=ANN.user_id, players=(ANN,))
    abort_game(db, aborted.id)
    _age(db, aborted.id, 100)
    _watch(db, CHATS[3], ANN.user_id, days_ago=100)  # a chat with no game since: lapses
    _watch(db, CHATS[0], BOB.user_id, days_ago=100)  # a chat that played lately: kept
    stats = db.chat_stats(CHATS[0])
    before = _everything(db)

    dry = db.prune(cutoff(90), dry_run=True)
    assert _everything(db) == before  # a dry run changes nothing
    assert dry == Pruned(
        logs=1,  # the old game's (the aborted lobby had none)
        games=2,
        seats=3,  # Ann and Bob at the old table, Ann in the aborted lobby
        results=2,
        messages=3,
        pseudonyms=1,  # Ann's: Bob and Cleo finished a game lately
        watches=1,
    )
    assert db.prune(cutoff(90)) == dry  # and it does what the dry run said

    gone = db.get_game(old.id)
    assert gone is not None and gone.status is GameStatus.ENDED and gone.winner == "town"
    assert (gone.players, gone.state, gone.opened_by, gone.opener_name) == ((), None, 0, "")
    assert (gone.host_user_id, gone.host_name) == (-1, None)  # hosted, by nobody now
    assert db.actions(old.id) == ()
    assert db.get_game(aborted.id).players == ()  # type: ignore[union-attr]
    # Ann is nowhere: not in a table, not in the file.
    assert table_traces(db.engine, ANN.user_id, [ANN.name]) == []
    path = sqlite_file(database_url)
    if path is not None:
        assert file_traces(path, ANN.user_id, [ANN.name]) == []
    # The results stay for the stats and the rating: Bob's old one is still his.
    assert db.chat_stats(CHATS[0]).games_played == stats.games_played == 2
    assert db.chat_stats(CHATS[0]).wins_by_side == stats.wins_by_side
    history = db.results_history(CHATS[0])
    assert [o.name for o in history[0].players] == ["", ""]
    by_role = {o.role: o.user_id for o in history[0].players}
    assert by_role["citizen"] == BOB.user_id
    assert by_role["mafia"] < 0  # Ann's: a pseudonym nobody holds any more
    assert db.player_stats(BOB.user_id).games == 2
    assert db.player_stats(ANN.user_id).games == 0
    # The recent and running games keep everything.
    kept = db.get_game(recent.id)
    assert kept is not None and kept.players == recent.players and kept.state == recent.state
    assert len(db.actions(recent.id)) == 2
    assert db.get_game(running.id) == running
    assert db.game_of_user(CLEO.user_id) == running
    with db.transaction() as tx:
        assert tx.next_game_watchers(CHATS[0], 0) == [BOB.user_id]
        assert tx.next_game_watchers(CHATS[3], 0) == []
    assert db.prune(cutoff(90)) == Pruned()  # nothing left to take
    assert db.prune(cutoff(5)).games == 1  # a shorter retention reaches the recent one


def test_the_prune_command(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/prune.db"
    with open_database(url) as db:
        old = played(db, CHATS[0], (ANN, BOB), ended_days_ago=100)
        before = _everything(db)

    clean = {k: v for k, v in os.environ.items() if k not in ("RETENTION_DAYS", "DATABASE_URL")}

    def prune(
        *args: str, env: dict[str, str] | None = None, at: str = url
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tg_mafia.cli", "prune", "--database-url", at, *args],
            capture_output=True,
            text=True,
            env={**clean, **(env or {})},
            timeout=120,
        )

    refused = prune("--days", "ten")
    assert refused.returncode == 2 and "--days must be a number of days" in refused.stderr
    kept = prune(env={"RETENTION_DAYS": "0"})
    assert kept.returncode == 0 and "nothing pruned" in kept.stdout
    dry = prune("--days", "30", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "dry run: nothing changed" in dry.stdout
    assert "action logs deleted: 1\n" in dry.stdout
    assert "games anonymised (players' names and user ids taken out): 1\n" in dry.stdout
    assert "seats deleted: 2\n" in dry.stdout and "result names blanked: 2\n" in dry.stdout
    assert "pseudonyms deleted (users who finished no game since): 2\n" in dry.stdout
    with open_database(url) as db:
        assert _everything(db) == before
    done = prune("--days", "30")
    assert done.returncode == 0, done.stderr
    assert "dry run" not in done.stdout
    assert done.stdout.splitlines()[1:] == dry.stdout.splitlines()[1:]
    with open_database(url) as db:
        assert db.actions(old.id) == ()
        assert table_traces(db.engine, ANN.user_id, [ANN.name]) == []
    # A dry run does not even migrate: an older schema, or no database, is refused as is.
    older = f"sqlite:///{tmp_path}/older.db"
    engine = create_database_engine(older)
    try:
        migrate(engine, "0006")
        refused = prune("--dry-run", at=older)
        head = head_revision()
        assert refused.returncode == 2 and f"is at revision 0006, not {head}" in refused.stderr
        assert current_revision(engine) == "0006"
    finally:
        engine.dispose()
    refused = prune("--dry-run", at=f"sqlite:///{tmp_path}/none.db")
    assert refused.returncode == 2 and "no database at" in refused.stderr
    assert not (tmp_path / "none.db").exists()
