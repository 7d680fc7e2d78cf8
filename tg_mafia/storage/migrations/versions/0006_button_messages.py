"""The messages the bot put buttons on, with the callback data of their
buttons: a press counts only on such a message and with one of its choices.

Revision ID: 0006
Revises: 0005
Create Date: 2027-02-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID_TYPE = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "button_message",
        sa.Column("id", ID_TYPE, primary_key=True),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("entry_id", sa.BigInteger(), nullable=True),
        sa.Column("game_id", ID_TYPE, nullable=True),
        sa.Column("choices", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.UniqueConstraint("chat_id", "message_id", name="uq_button_message"),
    )
    op.create_index("ix_button_message_game", "button_message", ["game_id"])
    # The living messages of the games under way keep their buttons across the upgrade;
    # their choices were never written down, so any button of their game counts (NULL,
    # left out of the INSERT: PostgreSQL reads a bare NULL as text, not JSON).
    op.execute(
        "INSERT INTO button_message (chat_id, message_id, game_id, created_at)"
        " SELECT chat_id, message_id, MIN(game_id), 0 FROM living_message"
        " GROUP BY chat_id, message_id"
    )
    # Their other messages were never written down at all: each such game keeps, in its
    # group and in its players' and host's private chats, the rule of the release before
    # (a button of the game counts in those chats), under message id -game (gate.py).
    op.execute(
        "INSERT INTO button_message (chat_id, message_id, game_id, created_at)"
        " SELECT chat_id, -id, id, 0 FROM game WHERE status IN ('lobby', 'running')"
        " UNION SELECT seat.user_id, -game.id, game.id, 0 FROM seat"
        " JOIN game ON game.id = seat.game_id WHERE game.status IN ('lobby', 'running')"
        " UNION SELECT host_user_id, -id, id, 0 FROM game"
        " WHERE host_user_id IS NOT NULL AND status IN ('lobby', 'running')"
    )


def downgrade() -> None:
    op.drop_index("ix_button_message_game", table_name="button_message")
    op.drop_table("button_message")
