"""The state of one game: everything the rules need, nothing about Telegram.

`apply` works on a copy (`GameState.copy`), so a refused action leaves the
game it was given untouched. The few dicts the rules change in place
(`_COPIED_DICTS`) are copied; every other container is only ever replaced,
never changed in place, so a copy shares it with the original."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from engine.options import OptionValue
from engine.roles import Role, Side


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


@dataclass(slots=True)
class GameState:
    variant: str
    options: dict[str, OptionValue]
    language: str
    seed: int
    seats: tuple[str, ...]
    roles: dict[str, Role]
    phase: Phase = Phase.NIGHT
    day: int = 0
    night: int = 0
    stage: Stage = Stage.NIGHT
    # How many stages (floors, counts) the game has entered: a button made
    # for one step is stale at any other.
    step: int = 0
    # The running timer: its id changes whenever a new one starts (a new
    # step, or a host's extension), so a late timer is recognised and refused.
    timer_id: int = 0
    timer_seconds: int | None = None
    paused: bool = False  # by a human host
    # Suspended from outside (engine/suspension.py): nothing moves until it is lifted.
    # Still set once the game has ended at the suspension's limit: it ended unscored.
    suspended: bool = False
    dead: dict[str, Cause] = field(default_factory=dict)
    # Night: "actor:move" -> target (None: an explicit skip).
    choices: dict[str, str | None] = field(default_factory=dict)
    plan: tuple[str, ...] = ()
    last_heal: str | None = None
    # The last dawn.
    announced: tuple[str, ...] = ()
    missed: bool = False
    learned: dict[str, dict[str, str]] = field(default_factory=dict)
    learned_all: dict[str, dict[str, str]] = field(default_factory=dict)
    blocked: tuple[str, ...] = ()
    night_victims: tuple[str, ...] = ()  # town players killed, in the order they died
    eliminated: tuple[str, ...] = ()
    # The floor.
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
    vote_cancelled: bool = False  # a removal by fouls: the next vote is not held
    best_mover: str | None = None  # the night-2 victim with a best move
    best_move: tuple[str, ...] = ()  # the players it named
    last_lift: int | None = None  # hands up in the last finished lift vote
    last_departure: int = 0  # variants.departure_time of the last one out (the draw)
    # The hand-raise vote.
    candidates: tuple[str, ...] = ()
    vote_round: VoteRound = VoteRound.FIRST
    count_index: int = 0
    hands: frozenset[str] = frozenset()
    voted: dict[str, str] = field(default_factory=dict)
    last_words: tuple[str, ...] = ()  # still to speak
    decider: str | None = None
    # The classic live vote and the party ballot: voter -> target.
    ballots: dict[str, str] = field(default_factory=dict)
    votes: dict[str, int] = field(default_factory=dict)  # the last finished count
    warnings: dict[str, int] = field(default_factory=dict)
    revealed: dict[str, Role] = field(default_factory=dict)
    deleted: int = 0
    winner: Side | None = None
    pending_winner: Side | None = None
    # Idle players (engine/idle.py): idle turns in a row, and who has acted
    # on the current step (cleared by every new step).
    idle: dict[str, int] = field(default_factory=dict)
    present: frozenset[str] = frozenset()
    # Abandoned games (engine/abandon.py): phases begun since a player last
    # acted, and the kinds of phase (day, night) that passed whole meanwhile.
    calm_phases: int = 0
    quiet: frozenset[str] = frozenset()
    abandoned: bool = False  # ended with nobody acting: no winner
    # `alive` is asked for at nearly every step: it is kept with the number
    # of the dead it was worked out for (players only ever join `dead`).
    _alive: tuple[int, tuple[str, ...]] = field(
        default=(-1, ()), init=False, repr=False, compare=False
    )

    def copy(self) -> GameState:
        return _copy_state(self)

    # ----- derived facts -------------------------------------------------

    @property
    def human_host(self) -> bool:
        return self.options.get("host") == "human"

    def is_alive(self, player: str) -> bool:
        return player in self.roles and player not in self.dead

    @property
    def alive(self) -> tuple[str, ...]:
        """The living, in seat order."""
        dead_count, alive = self._alive
        if dead_count != len(self.dead):
            alive = tuple(p for p in self.seats if p not in self.dead)
            self._alive = (len(self.dead), alive)
        return alive

    def seat_of(self, player: str) -> int:
        return self.seats.index(player) + 1

    def is_blocked(self, player: str) -> bool:
        return player in self.blocked

    def mafia_members(self) -> tuple[str, ...]:
        return tuple(p for p in self.seats if self.roles[p].is_mafia)

    @property
    def is_over(self) -> bool:
        return self.stage in (Stage.CONFIRM, Stage.ENDED)

    @property
    def unscored(self) -> bool:
        """Ended with no result to count: abandoned, or at a suspension's limit."""
        return self.phase is Phase.ENDED and (self.abandoned or self.suspended)

    # ----- snapshot --------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able snapshot; `from_dict` rebuilds the same state."""
        data: dict[str, Any] = {}
        for f in fields(self):
            if f.name.startswith("_"):
                continue  # a cache, not part of the game
            value = getattr(self, f.name)
            if isinstance(value, frozenset):
                value = sorted(value)
            elif isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, dict):
                value = {k: (dict(v) if isinstance(v, dict) else v) for k, v in value.items()}
            data[f.name] = value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        state = cls(
            variant=data["variant"],
            options=dict(data["options"]),
            language=data["language"],
            seed=data["seed"],
            seats=tuple(data["seats"]),
            roles={p: Role(r) for p, r in data["roles"].items()},
        )
        state.phase = Phase(data["phase"])
        state.day, state.night = data["day"], data["night"]
        state.stage = Stage(data["stage"])
        state.step = data.get("step", data["timer_id"])  # saved before steps: timers counted them
        state.timer_id, state.timer_seconds = data["timer_id"], data["timer_seconds"]
        state.paused = data["paused"]
        state.suspended = data.get("suspended", False)  # saved before suspensions: none
        state.dead = {p: Cause(c) for p, c in data["dead"].items()}
        state.choices = dict(data["choices"])
        state.plan = tuple(data["plan"])
        state.last_heal = data["last_heal"]
        state.announced = tuple(data["announced"])
        state.missed = data["missed"]
        state.learned = {k: dict(v) for k, v in data["learned"].items()}
        state.learned_all = {k: dict(v) for k, v in data["learned_all"].items()}
        state.blocked = tuple(data["blocked"])
        state.night_victims = tuple(data["night_victims"])
        state.eliminated = tuple(data["eliminated"])
        state.speaking_order = tuple(data["speaking_order"])
        state.floor_index = data["floor_index"]
        state.speaker = data["speaker"]
        state.floor_mode = FloorMode(data.get("floor_mode", FloorMode.NORMAL))
        state.nominated_this_floor = data["nominated_this_floor"]
        state.nominees = tuple(data["nominees"])
        # Saved before sport: these fields keep their defaults.
        state.opener = data.get("opener")
        state.farewells = tuple(data.get("farewells", ()))
        state.silenced = tuple(data.get("silenced", ()))
        state.vote_cancelled = data.get("vote_cancelled", False)
        state.best_mover = data.get("best_mover")
        state.best_move = tuple(data.get("best_move", ()))
        state.last_lift = data.get("last_lift")
        state.last_departure = data.get("last_departure", 0)
        state.candidates = tuple(data["candidates"])
        state.vote_round = VoteRound(data["vote_round"])
        state.count_index = data["count_index"]
        state.hands = frozenset(data["hands"])
        state.voted = dict(data["voted"])
        state.last_words = tuple(data["last_words"])
        state.decider = data["decider"]
        state.ballots = dict(data["ballots"])
        state.votes = dict(data["votes"])
        state.warnings = dict(data["warnings"])
        state.revealed = {p: Role(r) for p, r in data["revealed"].items()}
        state.deleted = data["deleted"]
        state.winner = Side(data["winner"]) if data["winner"] else None
        state.pending_winner = Side(data["pending_winner"]) if data["pending_winner"] else None
        # Saved before idle players and abandoned games: the defaults.
        state.idle = dict(data.get("idle", {}))
        state.present = frozenset(data.get("present", ()))
        state.calm_phases = data.get("calm_phases", 0)
        state.quiet = frozenset(data.get("quiet", ()))
        state.abandoned = data.get("abandoned", False)
        return state


# The dicts the rules change in place, copied on every apply. The other dicts
# (options, roles, dead, revealed, votes, learned, learned_all, idle) are replaced
# whole when they change, so the copy and the original can share them.
_COPIED_DICTS = frozenset({"choices", "voted", "ballots", "warnings"})


def _build_copier() -> Callable[[GameState], GameState]:
    """`apply` copies the state once per action: a straight-line function
    (as dataclasses generates its methods) is several times faster than a
    loop over the fields."""
    lines = ["def copy_state(self):", "    clone = new(GameState)"]
    for f in fields(GameState):
        if f.name in _COPIED_DICTS:
            lines.append(f"    clone.{f.name} = dict(self.{f.name})")
        else:
            lines.append(f"    clone.{f.name} = self.{f.name}")
    lines.append("    return clone")
    namespace: dict[str, Any] = {"GameState": GameState, "new": object.__new__}
    exec("\n".join(lines), namespace)
    copier: Callable[[GameState], GameState] = namespace["copy_state"]
    return copier


_copy_state = _build_copier()
