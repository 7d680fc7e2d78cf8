"""Retention: a finished game's action log goes after RETENTION_DAYS, its
result stays; running games and recent ones keep theirs (docs/storage.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa

from tg_mafia.bot.retention import cutoff
from tg_mafia.storage import Database, GameRecord, Player, PlayerOutcome

CHATS = (-1001, -1002, -1003, -1004)
PLAYERS = (Player(11, "Ann"), Player(12, "Bob"))


def played(db: Database, chat_id: int, *, ended_days_ago: float | None) -> GameRecord:
    """A game with two actions; ended `ended_days_ago` days ago (None: running)."""
    lobby = db.create_lobby(chat_id, opened_by=11, players=PLAYERS)
    game = db.start_game(lobby.id, lobby.version, {}, stage_deadline=None, timer_token=None)
    game = db.record_action(
        game.id,
        game.version,
        {"verb": "pass", "actor": "11"},
        {},
        stage_deadline=None,
        timer_token=None,
    )
    if ended_days_ago is None:
        return game
    results = [PlayerOutcome(p.user_id, p.name, "citizen", "town", True) for p in PLAYERS]
    ended = db.record_action(
        game.id,
        game.version,
        {"verb": "timeout", "actor": "clock"},
        {"over": True},
        stage_deadline=None,
        timer_token=None,
        final=("town", results),
    )
    when = datetime.now(UTC) - timedelta(days=ended_days_ago)
    with db.engine.begin() as connection:
        connection.execute(
            sa.text("UPDATE game SET ended_at = :when WHERE id = :id"),
            {"when": when, "id": ended.id},
        )
    return ended


def test_old_logs_go_results_stay(db: Database) -> None:
    old = played(db, CHATS[0], ended_days_ago=100)
    recent = played(db, CHATS[1], ended_days_ago=10)
    running = played(db, CHATS[2], ended_days_ago=None)
    aborted = db.create_lobby(CHATS[3], opened_by=12)
    db.abort_game(aborted.id)

    assert db.prune_logs(cutoff(90)) == 1
    assert db.actions(old.id) == ()
    assert len(db.actions(recent.id)) == 2 and len(db.actions(running.id)) == 1
    assert db.chat_stats(CHATS[0]).games_played == 1  # the result is kept
    assert db.get_game(old.id) is not None
    assert db.prune_logs(cutoff(90)) == 0  # nothing left to prune
    assert db.prune_logs(cutoff(5)) == 1  # a shorter retention reaches the recent one


def test_the_prune_command(tmp_path: object) -> None:
    url = f"sqlite:///{tmp_path}/prune.db"
    from tg_mafia.storage import open_database

    with open_database(url) as db:
        old = played(db, CHATS[0], ended_days_ago=100)

    clean = {k: v for k, v in os.environ.items() if k not in ("RETENTION_DAYS", "DATABASE_URL")}

    def prune(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tg_mafia.cli", "prune", "--database-url", url, *args],
            capture_output=True,
            text=True,
            env={**clean, **(env or {})},
            timeout=120,
        )

    refused = prune("--days", "ten")
    assert refused.returncode == 2 and "--days must be a number of days" in refused.stderr
    kept = prune(env={"RETENTION_DAYS": "0"})
    assert kept.returncode == 0 and "nothing pruned" in kept.stdout
    done = prune("--days", "30")
    assert done.returncode == 0, done.stderr
    assert "pruned the action logs of 1 games" in done.stdout
    with open_database(url) as db:
        assert db.actions(old.id) == ()
