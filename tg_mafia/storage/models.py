"""SQLModel tables. The migrations in `migrations/versions` must produce exactly this schema
(tests/storage compare them)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    text,
)
from sqlmodel import Field, SQLModel

# SQLite only auto-increments an INTEGER PRIMARY KEY; PostgreSQL gets a 64-bit id.
ID_TYPE = BigInteger().with_variant(Integer(), "sqlite")

# Nullable JSON columns store Python None as SQL NULL (not JSON 'null') so
# "IS NULL" queries, e.g. for permissions still to restore, work.
NULLABLE_JSON = JSON(none_as_null=True)

ACTIVE_GAME_WHERE = "status IN ('lobby', 'running')"


def utc_now() -> datetime:
    return datetime.now(UTC)


class ChatSettings(SQLModel, table=True):
    __tablename__ = "chat_settings"

    chat_id: int = Field(sa_column=Column(BigInteger(), primary_key=True, autoincrement=False))
    language: str = Field(default="en", sa_column=Column(String(16), nullable=False))
    variant: str = Field(default="classic", sa_column=Column(String(32), nullable=False))
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON(), nullable=False))
    title: str | None = Field(default=None, sa_column=Column(String(255), nullable=True))
    updated_at: datetime = Field(
        default_factory=utc_now, sa_column=Column(DateTime(timezone=True), nullable=False)
    )
    # Revision 0004: a full lobby starts by itself.
    autostart: bool = Field(
        default=False,
        sa_column=Column(Boolean(), nullable=False, server_default=text("false")),
    )


class Game(SQLModel, table=True):
    __tablename__ = "game"
    __table_args__ = (
        CheckConstraint(
            "status IN ('lobby', 'running', 'ended', 'aborted')", name="ck_game_status"
        ),
        # One lobby or running game per chat (per forum topic), enforced by the database.
        Index(
            "uq_game_active_chat",
            "chat_id",
            "topic",
            unique=True,
            postgresql_where=text(ACTIVE_GAME_WHERE),
            sqlite_where=text(ACTIVE_GAME_WHERE),
        ),
    )

    id: int | None = Field(default=None, sa_column=Column(ID_TYPE, primary_key=True))
    chat_id: int = Field(sa_column=Column(BigInteger(), nullable=False, index=True))
    # The forum topic the game lives in (message_thread_id); 0: not a forum topic.
    topic: int = Field(
        default=0, sa_column=Column(BigInteger(), nullable=False, server_default=text("0"))
    )
    status: str = Field(sa_column=Column(String(16), nullable=False))
    variant: str = Field(sa_column=Column(String(32), nullable=False))
    language: str = Field(sa_column=Column(String(16), nullable=False))
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON(), nullable=False))
    seed: int = Field(sa_column=Column(BigInteger(), nullable=False))
    host_user_id: int | None = Field(default=None, sa_column=Column(BigInteger(), nullable=True))
    opened_by: int = Field(sa_column=Column(BigInteger(), nullable=False))
    players: list[dict[str, Any]] = Field(
        default_factory=list, sa_column=Column(JSON(), nullable=False)
    )
    state: dict[str, Any] | None = Field(default=None, sa_column=Column(NULLABLE_JSON))
    version: int = Field(default=0, sa_column=Column(Integer(), nullable=False))
    stage_deadline: float | None = Field(default=None, sa_column=Column(Float(), nullable=True))
    timer_token: str | None = Field(default=None, sa_column=Column(String(64), nullable=True))
    saved_permissions: dict[str, Any] | None = Field(default=None, sa_column=Column(NULLABLE_JSON))
    # Revision 0003 gave each of these its place (they lived in a catch-all JSON column).
    title: str = Field(
        default="", sa_column=Column(String(255), nullable=False, server_default=text("''"))
    )
    bot_rights: dict[str, Any] = Field(
        default_factory=dict, sa_column=Column(JSON(), nullable=False, server_default="{}")
    )
    opener_name: str = Field(
        default="", sa_column=Column(String(255), nullable=False, server_default=text("''"))
    )
    host_name: str | None = Field(default=None, sa_column=Column(String(255), nullable=True))
    # Seconds left on a timer the host paused.
    paused_left: float | None = Field(default=None, sa_column=Column(Float(), nullable=True))
    created_at: datetime = Field(
        default_factory=utc_now, sa_column=Column(DateTime(timezone=True), nullable=False)
    )
    updated_at: datetime = Field(
        default_factory=utc_now, sa_column=Column(DateTime(timezone=True), nullable=False)
    )
    ended_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )
    # Added by revision 0002.
    winner: str | None = Field(default=None, sa_column=Column(String(32), nullable=True))
    # Revision 0008: when retention took its players' names and ids out (docs/privacy.md).
    anonymised_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )
    # Revision 0010: the bot (its Telegram id) that runs the game; NULL: stored before
    # there were several, taken by the first token at its next start (docs/storage.md).
    bot_id: int | None = Field(default=None, sa_column=Column(BigInteger(), nullable=True))


class GameAction(SQLModel, table=True):
    """Append-only log: with the game's seed and players it rebuilds the engine state."""

    __tablename__ = "game_action"
    # The unique (game_id, seq) index also serves lookups by game_id.
    __table_args__ = (
        UniqueConstraint("game_id", "seq", name="uq_game_action_seq"),
        # Each bot numbers its updates on its own (revision 0010 added the bot).
        Index("uq_game_action_update", "update_id", "bot_id", unique=True),
    )

    id: int | None = Field(default=None, sa_column=Column(ID_TYPE, primary_key=True))
    game_id: int = Field(
        sa_column=Column(ID_TYPE, ForeignKey("game.id", name="fk_game_action_game"), nullable=False)
    )
    seq: int = Field(sa_column=Column(Integer(), nullable=False))
    action: dict[str, Any] = Field(sa_column=Column(JSON(), nullable=False))
    # The Telegram update that made this move (None: a timer, a host's button in a
    # replayed log): an update delivered twice is applied once.
    update_id: int | None = Field(default=None, sa_column=Column(BigInteger(), nullable=True))
    created_at: datetime = Field(
        default_factory=utc_now, sa_column=Column(DateTime(timezone=True), nullable=False)
    )
    # The bot whose update it was (revision 0010): NULL as the game's.
    bot_id: int | None = Field(default=None, sa_column=Column(BigInteger(), nullable=True))


class PlayerResult(SQLModel, table=True):
    """One row per player of an ended game, for /stats and the ratings (revision 0002).
    The player is their pseudonym (revision 0008), never their user id: the
    `pseudonym` table ties the two while the user plays, and once that row
    goes (/forget, or long idle) nothing ties the results to anyone."""

    __tablename__ = "player_result"
    __table_args__ = (UniqueConstraint("game_id", "player", name="uq_player_result_player"),)

    id: int | None = Field(default=None, sa_column=Column(ID_TYPE, primary_key=True))
    game_id: int = Field(
        sa_column=Column(
            ID_TYPE, ForeignKey("game.id", name="fk_player_result_game"), nullable=False
        )
    )
    chat_id: int = Field(sa_column=Column(BigInteger(), nullable=False, index=True))
    player: int = Field(sa_column=Column(BigInteger(), nullable=False, index=True))
    # '' once the retention period is over, or after /forget.
    name: str = Field(sa_column=Column(String(255), nullable=False))
    role: str = Field(sa_column=Column(String(32), nullable=False))
    side: str = Field(sa_column=Column(String(32), nullable=False))
    won: bool = Field(sa_column=Column(Boolean(), nullable=False))
    created_at: datetime = Field(
        default_factory=utc_now, sa_column=Column(DateTime(timezone=True), nullable=False)
    )


class Pseudonym(SQLModel, table=True):
    """The one place a user id meets the results: a random number per user
    (never reused) that their results carry instead of their id (revision
    0008). Deleted by /forget, and by the retention once the user has
    finished no game for the retention period (docs/privacy.md)."""

    __tablename__ = "pseudonym"
    __table_args__ = (UniqueConstraint("user_id", name="uq_pseudonym_user"),)

    pseudonym: int = Field(sa_column=Column(BigInteger(), primary_key=True, autoincrement=False))
    user_id: int = Field(sa_column=Column(BigInteger(), nullable=False))


class Seat(SQLModel, table=True):
    """Who plays where: the user -> game index (revision 0003). A user sits
    at one active table at a time, across every group (the partial unique
    index); a seat stops being active when the game ends or the player
    leaves the lobby."""

    __tablename__ = "seat"
    __table_args__ = (
        UniqueConstraint("game_id", "user_id", name="uq_seat_player"),
        Index(
            "uq_seat_active_user",
            "user_id",
            unique=True,
            postgresql_where=text("active"),
            sqlite_where=text("active"),
        ),
    )

    id: int | None = Field(default=None, sa_column=Column(ID_TYPE, primary_key=True))
    game_id: int = Field(
        sa_column=Column(ID_TYPE, ForeignKey("game.id", name="fk_seat_game"), nullable=False)
    )
    user_id: int = Field(sa_column=Column(BigInteger(), nullable=False))
    active: bool = Field(sa_column=Column(Boolean(), nullable=False))


class LivingMessage(SQLModel, table=True):
    """The id of a message the bot edits in place (the lobby, the floor, a
    count, a private prompt), by its key: any process can edit it, after a
    restart too (revision 0003)."""

    __tablename__ = "living_message"
    __table_args__ = (UniqueConstraint("game_id", "chat_id", "key", name="uq_living_message_key"),)

    id: int | None = Field(default=None, sa_column=Column(ID_TYPE, primary_key=True))
    game_id: int = Field(
        sa_column=Column(
            ID_TYPE, ForeignKey("game.id", name="fk_living_message_game"), nullable=False
        )
    )
    chat_id: int = Field(sa_column=Column(BigInteger(), nullable=False))
    key: str = Field(sa_column=Column(String(64), nullable=False))
    message_id: int = Field(sa_column=Column(BigInteger(), nullable=False))


class ButtonMessage(SQLModel, table=True):
    """A message the bot put buttons on, and the only presses it takes: the
    callback data of its buttons as they stand (`choices`). Telegram vouches for
    the message a press is on, not for its data, so a press counts only when
    its data is one of these (runtime/gate.py). `game_id` is the game the message
    serves (None: the settings menu of the chat it is in) (revision 0006)."""

    __tablename__ = "button_message"
    __table_args__ = (
        # A private chat's message ids are per bot (revision 0010 added the bot).
        UniqueConstraint("chat_id", "message_id", "bot_id", name="uq_button_message"),
        Index("ix_button_message_game", "game_id"),
    )

    id: int | None = Field(default=None, sa_column=Column(ID_TYPE, primary_key=True))
    chat_id: int = Field(sa_column=Column(BigInteger(), nullable=False))
    # None: a message on its way, written before its call goes out (the sender), so that
    # no press can come before its record; still None after the call, a copy that went
    # out before a crash and was never written down (`entry_id`: the outbox call).
    message_id: int | None = Field(default=None, sa_column=Column(BigInteger(), nullable=True))
    entry_id: int | None = Field(default=None, sa_column=Column(BigInteger(), nullable=True))
    game_id: int | None = Field(default=None, sa_column=Column(ID_TYPE, nullable=True))
    # None: recorded by the upgrade to revision 0006 from a living message, whose
    # buttons were not written down then: any button of its game.
    choices: list[str] | None = Field(default=None, sa_column=Column(NULLABLE_JSON, nullable=True))
    created_at: float = Field(sa_column=Column(Float(), nullable=False))
    # The bot that sent the message (revision 0010): NULL as a game's.
    bot_id: int | None = Field(default=None, sa_column=Column(BigInteger(), nullable=True))


class OutboxEntry(SQLModel, table=True):
    """A call the bot decided to make, written in the same transaction as
    the action that caused it and deleted once Telegram took it: nothing
    decided is lost in a crash, and a chat's calls go out in order
    (revision 0003)."""

    __tablename__ = "outbox"
    __table_args__ = (
        Index("ix_outbox_chat", "chat_id", "id"),
        # The sender's look (OutboxTx.pending_chats) from the index alone (revision 0011).
        Index("ix_outbox_pending", "bot_id", "chat_id", "priority", "id", "created_at"),
    )

    id: int | None = Field(default=None, sa_column=Column(ID_TYPE, primary_key=True))
    chat_id: int = Field(sa_column=Column(BigInteger(), nullable=False))
    game_id: int | None = Field(default=None, sa_column=Column(ID_TYPE, nullable=True))
    # 0 first: the game's own messages; then answers to commands; then reminders.
    priority: int = Field(default=0, sa_column=Column(Integer(), nullable=False))
    op: dict[str, Any] = Field(sa_column=Column(JSON(), nullable=False))
    created_at: float = Field(sa_column=Column(Float(), nullable=False))
    attempts: int = Field(default=0, sa_column=Column(Integer(), nullable=False))
    # The bot that makes the call (revision 0010): NULL as a game's.
    bot_id: int | None = Field(default=None, sa_column=Column(BigInteger(), nullable=True))


class NextGameWatch(SQLModel, table=True):
    """Who asked (/nextgame) to be told in private when a lobby opens in a
    chat (or forum topic): kept across games and restarts until they ask
    again to stop (revision 0004)."""

    __tablename__ = "next_game_watch"
    __table_args__ = (
        UniqueConstraint("chat_id", "topic", "user_id", name="uq_next_game_watch_user"),
    )

    id: int | None = Field(default=None, sa_column=Column(ID_TYPE, primary_key=True))
    chat_id: int = Field(sa_column=Column(BigInteger(), nullable=False))
    topic: int = Field(sa_column=Column(BigInteger(), nullable=False))
    user_id: int = Field(sa_column=Column(BigInteger(), nullable=False))
    created_at: datetime = Field(
        default_factory=utc_now, sa_column=Column(DateTime(timezone=True), nullable=False)
    )


# The tables themselves, for the few statements of a move's hot path that skip
# the ORM (no model object, no identity map: a plain INSERT or UPDATE).
GAME_TABLE = SQLModel.metadata.tables["game"]
GAME_ACTION_TABLE = SQLModel.metadata.tables["game_action"]
OUTBOX_TABLE = SQLModel.metadata.tables["outbox"]
BUTTON_MESSAGE_TABLE = SQLModel.metadata.tables["button_message"]


class ChatMove(SQLModel, table=True):
    """A basic group that became a supergroup (a new chat id): its old messages keep
    the old id, and so do its join links, so a press or a join there is followed to the
    new chat (revision 0007)."""

    __tablename__ = "chat_move"

    old_chat_id: int = Field(sa_column=Column(BigInteger(), primary_key=True, autoincrement=False))
    new_chat_id: int = Field(sa_column=Column(BigInteger(), nullable=False))
    moved_at: datetime = Field(
        default_factory=utc_now, sa_column=Column(DateTime(timezone=True), nullable=False)
    )


class WaitingGroup(SQLModel, table=True):
    """A group (or forum topic) whose /newgame found the bot token's budget full: it
    waits for a table, first come first served (bot/waitlist.py). Once a table frees it
    is told so, and the table is held for it until `held_until` (the bot clock's time;
    None: still waiting) (revision 0009)."""

    __tablename__ = "waiting_group"
    __table_args__ = (UniqueConstraint("chat_id", "topic", name="uq_waiting_group_chat"),)

    id: int | None = Field(default=None, sa_column=Column(ID_TYPE, primary_key=True))
    chat_id: int = Field(sa_column=Column(BigInteger(), nullable=False))
    topic: int = Field(sa_column=Column(BigInteger(), nullable=False))
    # The variant it asked for: what its table will cost.
    variant: str = Field(sa_column=Column(String(32), nullable=False))
    title: str = Field(sa_column=Column(String(255), nullable=False))  # the group's
    held_until: float | None = Field(default=None, sa_column=Column(Float(), nullable=True))
    created_at: datetime = Field(
        default_factory=utc_now, sa_column=Column(DateTime(timezone=True), nullable=False)
    )
    # The bot whose budget it waits for (revision 0010): NULL as a game's.
    bot_id: int | None = Field(default=None, sa_column=Column(BigInteger(), nullable=True))
