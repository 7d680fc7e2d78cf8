"""The state of one game: everything the rules need, nothing about Telegram.

A `GameState` holds what is true of the game as a whole (its variant,
options, language and seed, and where it is: phase, stage, step) and one
record for each part of it: the table, the clock, the night, the day, the
vote, the players' activity and the outcome. engine/codec.py stores it.

`apply` works on a copy (`GameState.copy`), so a refused action leaves the
game it was given untouched. Every record is copied; of the containers in
them, the few dicts the rules change in place (`_COPIED_DICTS`) are copied
too; every other container is only ever replaced, never changed in place,
so a copy shares it with the original."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from engine.options import OptionValue
from engine.roles import Role, Side
from engine.vocab import CheckAnswer


class Phase(StrEnum):
    NIGHT = "night"
    DAY = "day"
    ENDED = "ended"


class Stage(StrEnum):
    NIGHT = "night"
    INTRO = "intro"
    SPEECH = "speech"
    LAST_WORD = "last_word"
    VOTE = "vote"
    DECIDE = "decide"
    DISCUSSION = "discussion"
    BALLOT = "ballot"
    FAREWELL = "farewell"  # sport: the floor of a player who has just left
    LIFT = "lift"  # sport: "who is for all of them leaving the table?"
    CONFIRM = "confirm"
    ENDED = "ended"


FLOOR_STAGES = frozenset({Stage.INTRO, Stage.SPEECH, Stage.LAST_WORD, Stage.FAREWELL})


class FloorMode(StrEnum):
    """How the floor holder may use it (sport's fouls and re-speeches)."""

    NORMAL = "normal"
    SILENT = "silent"  # third foul: nominate or pass; any post is deleted
    SHORT = "short"  # third foul with three or four alive: a shorter speech
    RESPEECH = "respeech"  # sport: a tied candidate's 30 seconds before the revote


class VoteRound(StrEnum):
    FIRST = "first"  # the nominees
    REVOTE = "revote"  # more than two tied leaders, among themselves
    REPEAT = "repeat"  # two tied candidates, after their last words
    TIED = "tied"  # sport: the tied, after their re-speeches


class Cause(StrEnum):
    KILLED = "killed"
    VOTE = "vote"
    WARNINGS = "warnings"
    FOULS = "fouls"  # sport: removed at the fouls limit, without a farewell
    LEFT = "left"  # left the table (moscow's "leaving beautifully")
    DEPARTED = "departed"  # left the group, or was removed from it
    IDLE = "idle"  # let `idle_limit` of their own turns pass in a row


class _AliveCache:
    """`Table.alive` is asked for at nearly every step: it is kept with the
    number of the dead it was worked out for (players only ever join `dead`).
    A slot outside the dataclass fields: not compared, not stored."""

    __slots__ = ("_alive",)
    _alive: tuple[int, tuple[str, ...]]

    def _keep_alive(self, dead_count: int, alive: tuple[str, ...]) -> None:
        # Set here, where mypy sees the slot (its dataclass plugin forgets a base's slots).
        self._alive = (dead_count, alive)


@dataclass(slots=True)
class Table(_AliveCache):
    """Who sits at the table, and what the group knows of them."""

    seats: tuple[str, ...]
    roles: dict[str, Role]
    dead: dict[str, Cause] = field(default_factory=dict)  # in the order they left
    revealed: dict[str, Role] = field(default_factory=dict)  # roles shown in the group
    warnings: dict[str, int] = field(default_factory=dict)  # sport: fouls
    deleted: int = 0  # posts deleted for being out of turn

    def __post_init__(self) -> None:
        self._keep_alive(-1, ())

    @property
    def alive(self) -> tuple[str, ...]:
        """The living, in seat order."""
        dead_count, alive = self._alive
        if dead_count != len(self.dead):
            alive = tuple(p for p in self.seats if p not in self.dead)
            self._keep_alive(len(self.dead), alive)
        return alive

    def is_alive(self, player: str) -> bool:
        return player in self.roles and player not in self.dead

    def seat_of(self, player: str) -> int:
        return self.seats.index(player) + 1

    def mafia_members(self) -> tuple[str, ...]:
        return tuple(p for p in self.seats if self.roles[p].is_mafia)


@dataclass(slots=True)
class Clock:
    """The running timer: its id changes whenever a new one starts (a new
    step, or a host's extension), so a late timer is recognised and refused."""

    timer_id: int = 0
    timer_seconds: int | None = None
    paused: bool = False  # by a human host
    # Suspended from outside (engine/suspension.py): nothing moves until it is lifted.
    # Still set once the game has ended at the suspension's limit: it ended unscored.
    suspended: bool = False


@dataclass(slots=True)
class Night:
    """The night's moves, and what the last dawn brought."""

    number: int = 0
    choices: dict[str, str | None] = field(default_factory=dict)  # "actor:move" -> target
    plan: tuple[str, ...] = ()  # the Don's kill list
    last_heal: str | None = None
    # The last dawn.
    announced: tuple[str, ...] = ()
    missed: bool = False
    learned: dict[str, dict[str, CheckAnswer]] = field(default_factory=dict)
    learned_all: dict[str, dict[str, CheckAnswer]] = field(default_factory=dict)
    blocked: tuple[str, ...] = ()
    victims: tuple[str, ...] = ()  # town players killed, in the order they died


@dataclass(slots=True)
class Day:
    """The day's floor: who speaks, who was nominated; sport's farewells."""

    number: int = 0
    speaking_order: tuple[str, ...] = ()
    floor_index: int = -1  # position of the speaker in speaking_order
    speaker: str | None = None
    floor_mode: FloorMode = FloorMode.NORMAL
    nominated_this_floor: bool = False
    nominees: tuple[str, ...] = ()
    opener: str | None = None  # who opened the last day's speeches (sport's rotation)
    # sport: farewells still to give (the night's victim, then the eliminated).
    farewells: tuple[str, ...] = ()
    silenced: tuple[str, ...] = ()  # third foul: their next speech is silent
    best_mover: str | None = None  # the night-2 victim with a best move
    best_move: tuple[str, ...] = ()  # the players it named
    eliminated: tuple[str, ...] = ()  # out since the last dawn, not killed


@dataclass(slots=True)
class Vote:
    """The hand-raise vote, the classic live vote and the party ballot."""

    candidates: tuple[str, ...] = ()
    round: VoteRound = VoteRound.FIRST
    count_index: int = 0
    hands: frozenset[str] = frozenset()
    voted: dict[str, str] = field(default_factory=dict)
    last_words: tuple[str, ...] = ()  # still to speak
    decider: str | None = None
    ballots: dict[str, str] = field(default_factory=dict)  # classic, party: voter -> target
    votes: dict[str, int] = field(default_factory=dict)  # the last finished count
    last_lift: int | None = None  # hands up in the last finished lift vote
    cancelled: bool = False  # a removal by fouls: the next vote is not held


@dataclass(slots=True)
class Activity:
    """Who plays. Idle players (engine/idle.py): idle turns in a row, and who
    has acted on the current step (cleared by every new step). Abandoned games
    (engine/abandon.py): phases begun since a player last acted, and the kinds
    of phase (day, night) that passed whole meanwhile."""

    idle: dict[str, int] = field(default_factory=dict)
    present: frozenset[str] = frozenset()
    calm_phases: int = 0
    quiet: frozenset[str] = frozenset()


@dataclass(slots=True)
class Outcome:
    winner: Side | None = None
    pending_winner: Side | None = None  # waiting for the human host's confirmation
    abandoned: bool = False  # ended with nobody acting: no winner
    last_departure: int = 0  # variants.departure_time of the last one out (the draw)


@dataclass(slots=True, kw_only=True)
class GameState:
    variant: str
    options: dict[str, OptionValue]
    language: str
    seed: int
    phase: Phase = Phase.NIGHT
    stage: Stage = Stage.NIGHT
    # How many stages (floors, counts) the game has entered: a button made
    # for one step is stale at any other.
    step: int = 0
    table: Table
    clock: Clock = field(default_factory=Clock)
    night: Night = field(default_factory=Night)
    day: Day = field(default_factory=Day)
    vote: Vote = field(default_factory=Vote)
    activity: Activity = field(default_factory=Activity)
    outcome: Outcome = field(default_factory=Outcome)

    def copy(self) -> GameState:
        return _copy_state(self)

    # ----- derived facts -------------------------------------------------

    @property
    def human_host(self) -> bool:
        return self.options.get("host") == "human"

    def is_blocked(self, player: str) -> bool:
        return player in self.night.blocked

    @property
    def is_over(self) -> bool:
        return self.stage in (Stage.CONFIRM, Stage.ENDED)

    @property
    def unscored(self) -> bool:
        """Ended with no result to count: abandoned, or at a suspension's limit."""
        return self.phase is Phase.ENDED and (self.outcome.abandoned or self.clock.suspended)

    # ----- snapshot --------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able snapshot (engine/codec.py); `from_dict` rebuilds the same state."""
        from engine import codec  # the codec imports this module

        return codec.encode(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        """A state stored by `to_dict`, of this schema or an earlier one."""
        from engine import codec

        return codec.decode(data)


# The records, by their field in GameState.
RECORDS: Mapping[str, type] = MappingProxyType(
    {
        "table": Table,
        "clock": Clock,
        "night": Night,
        "day": Day,
        "vote": Vote,
        "activity": Activity,
        "outcome": Outcome,
    }
)

# The dicts the rules change in place, copied on every apply. The other dicts
# (options, roles, dead, revealed, votes, learned, learned_all, idle) are replaced
# whole when they change, so the copy and the original can share them.
_COPIED_DICTS = frozenset(
    {("night", "choices"), ("vote", "voted"), ("vote", "ballots"), ("table", "warnings")}
)


def _build_copier() -> Callable[[GameState], GameState]:
    """`apply` copies the state once per action: a straight-line function
    (as dataclasses generates its methods) is several times faster than a
    loop over the fields."""
    lines = ["def copy_state(self):", "    clone = new(GameState)"]
    for f in fields(GameState):
        record = RECORDS.get(f.name)
        if record is None:
            lines.append(f"    clone.{f.name} = self.{f.name}")
            continue
        lines.append(f"    old, part = self.{f.name}, new({record.__name__})")
        for g in fields(record):
            copied = (f.name, g.name) in _COPIED_DICTS
            lines.append(
                f"    part.{g.name} = " + (f"dict(old.{g.name})" if copied else f"old.{g.name}")
            )
        if issubclass(record, _AliveCache):
            lines.append("    part._alive = old._alive")
        lines.append(f"    clone.{f.name} = part")
    lines.append("    return clone")
    namespace: dict[str, Any] = {"GameState": GameState, "new": object.__new__}
    namespace.update((record.__name__, record) for record in RECORDS.values())
    exec("\n".join(lines), namespace)
    copier: Callable[[GameState], GameState] = namespace["copy_state"]
    return copier


_copy_state = _build_copier()
