"""Initial schema: chat settings, games and their action log.

Revision ID: 0001
Revises:
Create Date: 2025-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Frozen copies of the column types of the time: a migration never imports the models.
ID_TYPE = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
ACTIVE_GAME_WHERE = "status IN ('lobby', 'running')"


def upgrade() -> None:
    op.create_table(
        "chat_settings",
        sa.Column("chat_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("language", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("title", sa.String(255), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "game",
        sa.Column("id", ID_TYPE, primary_key=True),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("language", sa.String(16), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("host_user_id", sa.BigInteger(), nullable=True),
        sa.Column("opened_by", sa.BigInteger(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("stage_deadline", sa.Float(), nullable=True),
        sa.Column("timer_token", sa.String(64), nullable=True),
        sa.Column("saved_permissions", sa.JSON(), nullable=True),
        sa.Column("messages", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('lobby', 'running', 'ended', 'aborted')", name="ck_game_status"
        ),
    )
    op.create_index("ix_game_chat_id", "game", ["chat_id"])
    op.create_index(
        "uq_game_active_chat",
        "game",
        ["chat_id"],
        unique=True,
        postgresql_where=sa.text(ACTIVE_GAME_WHERE),
        sqlite_where=sa.text(ACTIVE_GAME_WHERE),
    )
    op.create_table(
        "game_action",
        sa.Column("id", ID_TYPE, primary_key=True),
        sa.Column(
            "game_id",
            ID_TYPE,
            sa.ForeignKey("game.id", name="fk_game_action_game"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "seq", name="uq_game_action_seq"),
    )


def downgrade() -> None:
    op.drop_table("game_action")
    op.drop_index("uq_game_active_chat", table_name="game")
    op.drop_index("ix_game_chat_id", table_name="game")
    op.drop_table("game")
    op.drop_table("chat_settings")
