"""What the engine says happened, each event naming its audience.

Group text is rendered only from events whose audience is public; this is
how roles and night moves stay out of the group chat."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from engine.roles import Role, Side


@dataclass(frozen=True, slots=True)
class Audience:
    public: bool = False
    players: frozenset[str] = frozenset()
    mafia: bool = False  # every living and dead member of the mafia
    host: bool = False  # the human host, when there is one

    @property
    def is_public(self) -> bool:
        return self.public


PUBLIC = Audience(public=True)
MAFIA = Audience(mafia=True, host=True)
HOST_ONLY = Audience(host=True)


def private(*players: str) -> Audience:
    """Some players in private; a human host sees every private event too."""
    return Audience(players=frozenset(players), host=True)


class EventKind(StrEnum):
    GAME_STARTED = "game_started"
    ROLE = "role"
    FAMILY = "family"
    ALL_ROLES = "all_roles"
    NIGHT_STARTED = "night_started"
    NIGHT_PROMPT = "night_prompt"
    CHOICE_MADE = "choice_made"
    PLAN_SET = "plan_set"
    MAFIA_CHAT = "mafia_chat"
    DAY_STARTED = "day_started"
    CHECK_RESULT = "check_result"
    PLAYER_BLOCKED = "player_blocked"
    FLOOR = "floor"
    POST_DELETED = "post_deleted"
    WARNED = "warned"
    NOMINATED = "nominated"
    NO_VOTE = "no_vote"
    VOTE_STARTED = "vote_started"
    COUNT_STARTED = "count_started"
    HAND = "hand"
    COUNT_ENDED = "count_ended"
    VOTE_RESULT = "vote_result"
    DECIDE_REQUESTED = "decide_requested"
    ELIMINATED = "eliminated"
    DISCUSSION_STARTED = "discussion_started"
    LIVE_VOTE = "live_vote"
    BALLOT_STARTED = "ballot_started"
    BALLOT_VOTE = "ballot_vote"
    TIMER = "timer"
    CONFIRM_REQUESTED = "confirm_requested"
    GAME_ENDED = "game_ended"


@dataclass(frozen=True, slots=True)
class Event:
    kind: EventKind
    audience: Audience
    player: str | None = None
    target: str | None = None
    players: tuple[str, ...] = ()
    role: Role | None = None
    # (player, role) pairs: the family, the roles shown, the end screen.
    roles: tuple[tuple[str, Role], ...] = ()
    move: str | None = None
    answer: str | None = None
    stage: str | None = None
    number: int = 0
    count: int = 0
    seconds: int = 0
    tally: tuple[tuple[str, int], ...] = ()
    outcome: str | None = None
    text: str | None = None
    winner: Side | None = None
    flag: bool = False
    extra: tuple[tuple[str, str], ...] = field(default=())
    # The hand-raise vote: each finished count of this round, in candidate
    # order, with the voters whose hands were up.
    counts: tuple[tuple[str, tuple[str, ...]], ...] = ()
