"""Rows to records; the notification channel's name."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Row

from tg_mafia.records import ChatSettingsRecord, GameRecord, GameStatus, Player
from tg_mafia.storage.models import ChatSettings, Game

# The channel of this schema's bot, named in SQL so that a write costs no extra
# query; the leader asks the database for the same expression to LISTEN on it.
CHANNEL_SQL = (
    "CASE WHEN current_schema() = 'public' THEN 'tg_mafia'"
    " ELSE 'tg_mafia_' || left(md5(current_schema()), 8) END"
)
NOTIFY = f"SELECT pg_notify({CHANNEL_SQL}, :payload)"


def check_seed(seed: int) -> None:
    if not -(2**63) <= seed < 2**63:
        raise ValueError(f"seed {seed} does not fit in 64 bits")


def players_json(players: Sequence[Player]) -> list[dict[str, Any]]:
    return [{"user_id": player.user_id, "name": player.name} for player in players]


def aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes; every stored time is UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def settings_record(row: ChatSettings) -> ChatSettingsRecord:
    return ChatSettingsRecord(
        chat_id=row.chat_id,
        language=row.language,
        variant=row.variant,
        options=dict(row.options),
        title=row.title,
        updated_at=aware(row.updated_at),
        autostart=bool(row.autostart),
    )


def game_record(row: Game | Row[Any] | SimpleNamespace) -> GameRecord:
    """From a model object, a row of the game table, or its columns by name."""
    assert row.id is not None
    return GameRecord(
        id=row.id,
        chat_id=row.chat_id,
        topic=row.topic,
        status=GameStatus(row.status),
        variant=row.variant,
        language=row.language,
        options=dict(row.options),
        seed=row.seed,
        host_user_id=row.host_user_id,
        opened_by=row.opened_by,
        players=tuple(Player(int(p["user_id"]), str(p["name"])) for p in row.players),
        state=row.state,
        version=row.version,
        stage_deadline=row.stage_deadline,
        timer_token=row.timer_token,
        saved_permissions=row.saved_permissions,
        title=row.title,
        bot_rights={k: bool(v) for k, v in dict(row.bot_rights).items()},
        opener_name=row.opener_name,
        host_name=row.host_name,
        paused_left=row.paused_left,
        created_at=aware(row.created_at),
        updated_at=aware(row.updated_at),
        ended_at=aware(row.ended_at) if row.ended_at else None,
        winner=row.winner,
        bot_id=row.bot_id,
    )
