"""Personal data with a lifetime: results carry a pseudonym instead of the
user id (the `pseudonym` table ties the two while the user plays), and a game
records when the retention took its players' names and ids out
(docs/privacy.md).

Revision ID: 0008
Revises: 0007
Create Date: 2027-03-01
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PSEUDONYM_BITS = 62  # positive, and far from any Telegram user id in the same column type

RESULT = sa.table(
    "player_result",
    sa.column("user_id", sa.BigInteger()),
    sa.column("player", sa.BigInteger()),
)
PSEUDONYM = sa.table(
    "pseudonym",
    sa.column("pseudonym", sa.BigInteger()),
    sa.column("user_id", sa.BigInteger()),
)


def upgrade() -> None:
    op.create_table(
        "pseudonym",
        sa.Column("pseudonym", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.UniqueConstraint("user_id", name="uq_pseudonym_user"),
    )
    op.add_column("game", sa.Column("anonymised_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("player_result", sa.Column("player", sa.BigInteger(), nullable=True))
    _give_pseudonyms()
    op.drop_index("ix_player_result_user_id", table_name="player_result")
    # A rebuild on SQLite (a column in a unique constraint cannot be dropped in place);
    # player_result has no CHECK or partial index to lose.
    with op.batch_alter_table("player_result") as batch:
        batch.drop_constraint("uq_player_result_player", type_="unique")
        batch.drop_column("user_id")
        batch.alter_column("player", existing_type=sa.BigInteger(), nullable=False)
        batch.create_unique_constraint("uq_player_result_player", ["game_id", "player"])
    op.create_index("ix_player_result_player", "player_result", ["player"])


def _give_pseudonyms() -> None:
    """Each user with results gets a random pseudonym, and their results carry it."""
    bind = op.get_bind()
    users = bind.execute(sa.select(RESULT.c.user_id).distinct()).scalars().all()
    taken: set[int] = set()
    for user_id in users:
        pseudonym = 0
        while not pseudonym or pseudonym in taken:
            pseudonym = secrets.randbits(PSEUDONYM_BITS) + 1
        taken.add(pseudonym)
        bind.execute(PSEUDONYM.insert().values(pseudonym=pseudonym, user_id=user_id))
        bind.execute(RESULT.update().where(RESULT.c.user_id == user_id).values(player=pseudonym))


def downgrade() -> None:
    op.drop_index("ix_player_result_player", table_name="player_result")
    op.add_column("player_result", sa.Column("user_id", sa.BigInteger(), nullable=True))
    # Results no pseudonym ties to anyone any more keep a negative stand-in id.
    op.execute(
        "UPDATE player_result SET user_id = COALESCE((SELECT pseudonym.user_id FROM pseudonym"
        " WHERE pseudonym.pseudonym = player_result.player), -player_result.player)"
    )
    with op.batch_alter_table("player_result") as batch:
        batch.drop_constraint("uq_player_result_player", type_="unique")
        batch.drop_column("player")
        batch.alter_column("user_id", existing_type=sa.BigInteger(), nullable=False)
        batch.create_unique_constraint("uq_player_result_player", ["game_id", "user_id"])
    op.create_index("ix_player_result_user_id", "player_result", ["user_id"])
    op.drop_column("game", "anonymised_at")
    op.drop_table("pseudonym")
