"""Results: the winning side of a game and one row per player, for /stats.

Revision ID: 0002
Revises: 0001
Create Date: 2025-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID_TYPE = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    # Nullable, so rows of games in progress need no back-fill.
    op.add_column("game", sa.Column("winner", sa.String(32), nullable=True))
    op.create_table(
        "player_result",
        sa.Column("id", ID_TYPE, primary_key=True),
        sa.Column(
            "game_id",
            ID_TYPE,
            sa.ForeignKey("game.id", name="fk_player_result_game"),
            nullable=False,
        ),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(255), nullable=False),
        sa.Column("role", sa.String(32), nullable=False),
        sa.Column("side", sa.String(32), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "user_id", name="uq_player_result_player"),
    )
    op.create_index("ix_player_result_chat_id", "player_result", ["chat_id"])
    op.create_index("ix_player_result_user_id", "player_result", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_player_result_user_id", table_name="player_result")
    op.drop_index("ix_player_result_chat_id", table_name="player_result")
    op.drop_table("player_result")
    # Plain ALTER TABLE ... DROP COLUMN (SQLite >= 3.35): a batch rebuild would lose the
    # CHECK constraint and the partial index.
    op.drop_column("game", "winner")
