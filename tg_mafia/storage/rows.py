"""Rows to records, and the guarded update every game write goes through."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, text, update
from sqlmodel import Session

from tg_mafia.storage.errors import GameNotFoundError, GameStatusError, StaleGameError
from tg_mafia.storage.models import GAME_TABLE, ChatSettings, Game, utc_now
from tg_mafia.storage.records import ChatSettingsRecord, GameRecord, GameStatus, Player


def guarded_update(
    session: Session,
    game_id: int,
    expected_version: int,
    statuses: Sequence[str],
    values: dict[str, Any],
) -> GameRecord:
    """Apply `values` and bump the version, only if the game is at `expected_version` and in
    one of `statuses`; otherwise raise and write nothing.

    One conditional UPDATE: the version check and the write cannot be separated by another
    writer, on either database.
    """
    # One UPDATE that also hands back the row as written (RETURNING, on either database).
    game = GAME_TABLE.c
    row: Game | Row[Any] | None = session.execute(
        update(GAME_TABLE)
        .where(game.id == game_id, game.version == expected_version, game.status.in_(statuses))
        .values(version=game.version + 1, updated_at=utc_now(), **values)
        .returning(*GAME_TABLE.c)
    ).first()
    session.expire_all()  # the UPDATE bypassed the identity map
    if row is None:
        row = session.get(Game, game_id)
        if row is None:
            raise GameNotFoundError(f"no game {game_id}")
        record = game_record(row)
        if record.version != expected_version:
            raise StaleGameError(
                f"game {record.id} is at version {record.version}, not {expected_version}"
            )
        raise GameStatusError(
            f"game {game_id} is {record.status.value}; this needs {' or '.join(statuses)}"
        )
    notify(session, f"game:{game_id}")
    return game_record(row)


def notify(session: Session, payload: str) -> None:
    """Tells the leading replica (PostgreSQL's LISTEN/NOTIFY, delivered at
    commit, the same payload once per transaction); SQLite has one process."""
    bind = session.get_bind()
    if bind.dialect.name == "postgresql":
        session.execute(text(NOTIFY), {"payload": payload})


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


def game_record(row: Game | Row[Any]) -> GameRecord:
    """From a model object, or a row of the game table (the same names)."""
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
    )
