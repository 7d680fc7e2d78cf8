"""Several bot tokens: each game, its actions, the calls in the outbox, the messages
with buttons and the groups waiting for a table belong to a bot (`bot_id`, its
Telegram id). The rows stored before have none (NULL): the first token in
TELEGRAM_BOT_TOKEN takes them at its next start (docs/storage.md). A bot's update ids
are its own, and so are the message ids of its private chats: the two unique indexes
on them take the bot in.

Revision ID: 0010
Revises: 0009
Create Date: 2027-04-10
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("game", "game_action", "outbox", "button_message", "waiting_group")


def upgrade() -> None:
    # Plain ADD and DROP COLUMN (SQLite >= 3.35): a batch rebuild of `game` would lose
    # its CHECK constraint and partial index, and trip the foreign keys to it.
    for table in TABLES:
        op.add_column(table, sa.Column("bot_id", sa.BigInteger(), nullable=True))
    op.drop_index("uq_game_action_update", table_name="game_action")
    op.create_index("uq_game_action_update", "game_action", ["update_id", "bot_id"], unique=True)
    with op.batch_alter_table("button_message") as batch:
        batch.drop_constraint("uq_button_message", type_="unique")
        batch.create_unique_constraint("uq_button_message", ["chat_id", "message_id", "bot_id"])


def downgrade() -> None:
    # Back to one bot: what the others had is dropped where the old unique keys would
    # clash (two bots' updates of one id, two bots' private messages of one id).
    op.execute(
        "DELETE FROM button_message WHERE id NOT IN"
        " (SELECT MIN(id) FROM button_message GROUP BY chat_id, message_id)"
    )
    op.execute(
        "UPDATE game_action SET update_id = NULL WHERE update_id IS NOT NULL AND id NOT IN"
        " (SELECT MIN(id) FROM game_action WHERE update_id IS NOT NULL GROUP BY update_id)"
    )
    with op.batch_alter_table("button_message") as batch:
        batch.drop_constraint("uq_button_message", type_="unique")
        batch.create_unique_constraint("uq_button_message", ["chat_id", "message_id"])
    op.drop_index("uq_game_action_update", table_name="game_action")
    op.create_index("uq_game_action_update", "game_action", ["update_id"], unique=True)
    for table in reversed(TABLES):
        op.drop_column(table, "bot_id")
