"""Each move remembers the Telegram update that made it: an update delivered
twice (a replica killed before it answered, a webhook re-sent) is applied once.

Revision ID: 0005
Revises: 0004
Create Date: 2027-01-20
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("game_action", sa.Column("update_id", sa.BigInteger(), nullable=True))
    # Unique, NULLs apart (timers and the host's moves have no update), on both databases.
    op.create_index("uq_game_action_update", "game_action", ["update_id"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_game_action_update", table_name="game_action")
    op.drop_column("game_action", "update_id")
