"""The groups waiting for a table: /newgame found the bot token's budget full, and
the group is told when a table frees (bot/waitlist.py).

Revision ID: 0009
Revises: 0008
Create Date: 2027-03-20
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID_TYPE = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "waiting_group",
        sa.Column("id", ID_TYPE, primary_key=True),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("topic", sa.BigInteger(), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("title", sa.String(length=255), nullable=False),
        sa.Column("held_until", sa.Float(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("chat_id", "topic", name="uq_waiting_group_chat"),
    )


def downgrade() -> None:
    op.drop_table("waiting_group")
