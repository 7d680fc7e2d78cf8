"""Between games: who waits for the next game of a chat (/nextgame), and
the group's autostart setting (a full lobby starts by itself).

Revision ID: 0004
Revises: 0003
Create Date: 2027-01-10
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID_TYPE = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.add_column(
        "chat_settings",
        sa.Column("autostart", sa.Boolean(), nullable=False, server_default=sa.text("false")),
    )
    op.create_table(
        "next_game_watch",
        sa.Column("id", ID_TYPE, primary_key=True),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("topic", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("chat_id", "topic", "user_id", name="uq_next_game_watch_user"),
    )


def downgrade() -> None:
    op.drop_table("next_game_watch")
    # Plain DROP COLUMN (SQLite >= 3.35), as 0003 does.
    op.drop_column("chat_settings", "autostart")
