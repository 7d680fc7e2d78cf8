"""The runtime's own tables: a durable outbox, the ids of living messages,
the user -> game index; each of the game's catch-all `messages` values in a
column of its own; forum topics.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID_TYPE = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
ACTIVE_GAME_WHERE = "status IN ('lobby', 'running')"

# A frozen view of the game table for the data moves below.
GAME = sa.table(
    "game",
    sa.column("id", ID_TYPE),
    sa.column("status", sa.String()),
    sa.column("players", sa.JSON()),
    sa.column("messages", sa.JSON()),
    sa.column("title", sa.String()),
    sa.column("bot_rights", sa.JSON()),
    sa.column("opener_name", sa.String()),
    sa.column("host_name", sa.String()),
    sa.column("paused_left", sa.Float()),
)
SEAT = sa.table(
    "seat",
    sa.column("game_id", ID_TYPE),
    sa.column("user_id", sa.BigInteger()),
    sa.column("active", sa.Boolean()),
)


def upgrade() -> None:
    op.add_column(
        "game", sa.Column("topic", sa.BigInteger(), nullable=False, server_default=sa.text("0"))
    )
    op.add_column(
        "game", sa.Column("title", sa.String(255), nullable=False, server_default=sa.text("''"))
    )
    op.add_column("game", sa.Column("bot_rights", sa.JSON(), nullable=False, server_default="{}"))
    op.add_column(
        "game",
        sa.Column("opener_name", sa.String(255), nullable=False, server_default=sa.text("''")),
    )
    op.add_column("game", sa.Column("host_name", sa.String(255), nullable=True))
    op.add_column("game", sa.Column("paused_left", sa.Float(), nullable=True))
    op.drop_index("uq_game_active_chat", table_name="game")
    op.create_index(
        "uq_game_active_chat",
        "game",
        ["chat_id", "topic"],
        unique=True,
        postgresql_where=sa.text(ACTIVE_GAME_WHERE),
        sqlite_where=sa.text(ACTIVE_GAME_WHERE),
    )
    op.create_table(
        "seat",
        sa.Column("id", ID_TYPE, primary_key=True),
        sa.Column(
            "game_id", ID_TYPE, sa.ForeignKey("game.id", name="fk_seat_game"), nullable=False
        ),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.UniqueConstraint("game_id", "user_id", name="uq_seat_player"),
    )
    op.create_index(
        "uq_seat_active_user",
        "seat",
        ["user_id"],
        unique=True,
        postgresql_where=sa.text("active"),
        sqlite_where=sa.text("active"),
    )
    op.create_table(
        "living_message",
        sa.Column("id", ID_TYPE, primary_key=True),
        sa.Column(
            "game_id",
            ID_TYPE,
            sa.ForeignKey("game.id", name="fk_living_message_game"),
            nullable=False,
        ),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.UniqueConstraint("game_id", "chat_id", "key", name="uq_living_message_key"),
    )
    op.create_table(
        "outbox",
        sa.Column("id", ID_TYPE, primary_key=True),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("game_id", ID_TYPE, nullable=True),
        sa.Column("priority", sa.Integer(), nullable=False),
        sa.Column("op", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
    )
    op.create_index("ix_outbox_chat", "outbox", ["chat_id", "id"])
    _move_messages_into_columns()
    # Plain DROP COLUMN (SQLite >= 3.35): a batch rebuild would lose the CHECK
    # constraint and the partial index.
    op.drop_column("game", "messages")


def _move_messages_into_columns() -> None:
    """Games in progress keep their title, names, rights and a paused timer;
    their players get seats (one active table per user: the oldest keeps it)."""
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(GAME.c.id, GAME.c.status, GAME.c.players, GAME.c.messages).order_by(GAME.c.id)
    ).all()
    seated: set[int] = set()
    for game_id, status, players, messages in rows:
        values: dict[str, Any] = messages or {}
        paused = values.get("paused_left")
        bind.execute(
            GAME.update()
            .where(GAME.c.id == game_id)
            .values(
                title=str(values.get("title") or "")[:255],
                bot_rights={k: bool(v) for k, v in dict(values.get("rights") or {}).items()},
                opener_name=str(values.get("opener_name") or "")[:255],
                host_name=values.get("host_name"),
                paused_left=float(paused) if paused is not None else None,
            )
        )
        active = status in ("lobby", "running")
        for player in players or []:
            user_id = int(player["user_id"])
            bind.execute(
                SEAT.insert().values(
                    game_id=game_id, user_id=user_id, active=active and user_id not in seated
                )
            )
            if active:
                seated.add(user_id)


def downgrade() -> None:
    op.add_column("game", sa.Column("messages", sa.JSON(), nullable=False, server_default="{}"))
    bind = op.get_bind()
    for game_id, title, rights, opener, host, paused in bind.execute(
        sa.select(
            GAME.c.id,
            GAME.c.title,
            GAME.c.bot_rights,
            GAME.c.opener_name,
            GAME.c.host_name,
            GAME.c.paused_left,
        )
    ).all():
        messages: dict[str, Any] = {"title": title, "rights": rights, "opener_name": opener}
        if host is not None:
            messages["host_name"] = host
        if paused is not None:
            messages["paused_left"] = paused
        bind.execute(GAME.update().where(GAME.c.id == game_id).values(messages=messages))
    op.drop_index("ix_outbox_chat", table_name="outbox")
    op.drop_table("outbox")
    op.drop_table("living_message")
    op.drop_index("uq_seat_active_user", table_name="seat")
    op.drop_table("seat")
    op.drop_index("uq_game_active_chat", table_name="game")
    op.create_index(
        "uq_game_active_chat",
        "game",
        ["chat_id"],
        unique=True,
        postgresql_where=sa.text(ACTIVE_GAME_WHERE),
        sqlite_where=sa.text(ACTIVE_GAME_WHERE),
    )
    for column in ("paused_left", "host_name", "opener_name", "bot_rights", "title", "topic"):
        op.drop_column("game", column)
