"""Plain immutable values handed to callers, so no ORM object or session leaks out."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum, StrEnum
from typing import Any, Final

JsonObject = dict[str, Any]


class GameStatus(StrEnum):
    LOBBY = "lobby"
    RUNNING = "running"
    ENDED = "ended"
    ABORTED = "aborted"


# A chat may hold at most one game in these statuses.
ACTIVE_STATUSES: Final = (GameStatus.LOBBY.value, GameStatus.RUNNING.value)

DEFAULT_LANGUAGE: Final = "en"
DEFAULT_VARIANT: Final = "classic"


class Unset(Enum):
    """Marks an argument the caller did not pass (None is a real value for many fields)."""

    UNSET = "UNSET"


UNSET: Final = Unset.UNSET


@dataclass(frozen=True)
class Player:
    user_id: int
    name: str


@dataclass(frozen=True)
class ChatSettingsRecord:
    chat_id: int
    language: str = DEFAULT_LANGUAGE
    variant: str = DEFAULT_VARIANT
    options: JsonObject = field(default_factory=dict)
    title: str | None = None
    updated_at: datetime | None = None  # None: never saved, these are the defaults
    autostart: bool = False  # a full lobby starts by itself


@dataclass(frozen=True)
class GameRecord:
    id: int
    chat_id: int
    topic: int  # the forum topic (message_thread_id) the game lives in; 0: none
    status: GameStatus
    variant: str
    language: str
    options: JsonObject
    seed: int
    host_user_id: int | None
    opened_by: int
    players: tuple[Player, ...]
    state: JsonObject | None
    version: int
    stage_deadline: float | None
    timer_token: str | None
    saved_permissions: JsonObject | None
    title: str
    bot_rights: dict[str, bool]  # the bot's admin rights when the lobby opened
    opener_name: str
    host_name: str | None
    paused_left: float | None  # seconds left on a timer the host paused
    created_at: datetime
    updated_at: datetime
    ended_at: datetime | None
    winner: str | None
    bot_id: int | None = None  # the bot that runs it (None: stored before there were several)

    @property
    def is_active(self) -> bool:
        return self.status.value in ACTIVE_STATUSES

    def seat_of(self, user_id: int) -> int | None:
        """1-based seat of a player, None for someone not at the table."""
        for index, player in enumerate(self.players, start=1):
            if player.user_id == user_id:
                return index
        return None


@dataclass(frozen=True)
class ActionRecord:
    game_id: int
    seq: int
    action: JsonObject
    created_at: datetime


@dataclass(frozen=True)
class PlayerOutcome:
    """One player's result, given to finish_game."""

    user_id: int
    name: str
    role: str
    side: str
    won: bool


@dataclass(frozen=True)
class PlayerStanding:
    user_id: int
    name: str
    games: int
    wins: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class ChatStats:
    chat_id: int
    games_played: int
    wins_by_side: dict[str, int]
    top_players: tuple[PlayerStanding, ...]


@dataclass(frozen=True)
class RoleStats:
    games: int
    wins: int


@dataclass(frozen=True)
class PlayerStats:
    user_id: int
    games: int
    wins: int
    by_role: dict[str, RoleStats]


@dataclass(frozen=True)
class OutboxRecord:
    """A pending call to a chat (see storage.models.OutboxEntry)."""

    id: int
    chat_id: int
    game_id: int | None
    priority: int
    op: JsonObject
    created_at: float
    attempts: int


@dataclass(frozen=True)
class ButtonsRecord:
    """A message the bot put buttons on (see storage.models.ButtonMessage)."""

    chat_id: int
    message_id: int | None  # None: a message on its way, or a copy never written down
    game_id: int | None
    choices: tuple[str, ...] | None  # None: any button of its game (kept from before 0006)

    def offers(self, data: str) -> bool:
        """Whether `data` is one of the message's buttons as they stand."""
        return self.choices is None or data in self.choices


@dataclass(frozen=True)
class GameResult:
    """One finished game of a chat, for the rating: who played what and won."""

    game_id: int
    variant: str
    players: tuple[PlayerOutcome, ...]


@dataclass(frozen=True)
class Pruned:
    """What the retention took (or, in a dry run, would take) from the games
    that ended before its cut-off (docs/privacy.md)."""

    logs: int = 0  # games whose action log was deleted
    games: int = 0  # games whose players' names and user ids were taken out
    seats: int = 0  # seats (who sat at which table) deleted
    results: int = 0  # results whose player's name was blanked
    messages: int = 0  # records of the bot's messages (ids, buttons, pending calls) deleted
    pseudonyms: int = 0  # users idle for the period: no longer tied to their results
    watches: int = 0  # /nextgame subscriptions of chats without a game for the period

    @property
    def total(self) -> int:
        return sum(vars(self).values())


@dataclass(frozen=True)
class Forgotten:
    """What /forget erased of one user (docs/privacy.md)."""

    games: int = 0  # finished games their name and user id were taken out of
    results: int = 0  # results no longer tied to them (their rating is gone)
    watches: int = 0  # /nextgame subscriptions deleted
    messages: int = 0  # records of messages to them deleted (ids, buttons, pending calls)

    @property
    def total(self) -> int:
        return self.games + self.results + self.watches + self.messages


@dataclass(frozen=True)
class StillPlaying:
    """/forget refused: the user takes part in a game that has not ended."""

    title: str
    status: GameStatus
