"""A basic group that became a supergroup: the old chat id and the new one, so that
presses on the old chat's messages and its join links are followed to the new chat.

Revision ID: 0007
Revises: 0006
Create Date: 2027-02-10
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_move",
        sa.Column("old_chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("new_chat_id", sa.BigInteger(), nullable=False),
        sa.Column("moved_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("old_chat_id"),
    )


def downgrade() -> None:
    op.drop_table("chat_move")
