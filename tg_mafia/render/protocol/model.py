"""The protocol as values: players are named by their engine id (the
Telegram user id as text); the JSON schema turns them into seat numbers."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from engine import Cause, Role, Side, VoteRound, variants
from engine.options import OptionValue
from engine.vocab import (
    Breach,
    CheckAnswer,
    EndReason,
    FoulEffect,
    MoveResult,
    NoVoteReason,
    TimerChange,
    VoteOutcome,
)
from tg_mafia.render.fate import Fate


class Phase(StrEnum):
    NIGHT = "night"
    DAY = "day"


class VoteKind(StrEnum):
    """A vote that is not a round of the hand-raise vote (those are VoteRound's)."""

    LIVE = "live"  # classic's open vote
    BALLOT = "ballot"  # party's secret ballot: its tally only
    DECIDE = "decide"  # the deciding vote
    LIFT = "lift"  # sport's lift vote: one count for all the tied
    NONE = "none"  # no vote was held


class LiftOutcome(StrEnum):
    LEAVE = "leave"  # more than half: every tied player leaves
    STAY = "stay"


@dataclass(frozen=True)
class Moment:
    """A night or a day of the game, by its number."""

    phase: Phase
    number: int


@dataclass(frozen=True)
class SeatRecord:
    player: str
    seat: int
    name: str
    role: Role
    won: bool
    fate: Fate
    when: Moment | None  # None: survived
    warnings: int


@dataclass(frozen=True)
class NightMove:
    """A move as it stood at dawn (changes during the night are not kept),
    and what came of it (engine.events.MoveOutcome: a check's answer, a
    shot's killed / saved / missed / outvoted / gone, a heal's saved /
    no_shot, blocked; skipped or no_choice with no target)."""

    player: str
    role: Role
    move: variants.NightMove
    target: str | None  # None: chose to do nothing, or made no choice in time
    result: MoveResult | CheckAnswer


@dataclass(frozen=True)
class Count:
    candidate: str
    voters: tuple[str, ...]


@dataclass
class Vote:
    """One vote of a day. `kind`: a round of the hand-raise vote (first,
    revote, repeat, tied), or another kind of vote. `outcome`: the vote's
    result, why none was held, or the lift vote's."""

    kind: VoteRound | VoteKind
    candidates: tuple[str, ...] = ()
    counts: list[Count] = field(default_factory=list)
    tally: tuple[tuple[str, int], ...] = ()
    silent: tuple[str, ...] = ()  # raised no hand: counted for the last candidate
    outcome: VoteOutcome | NoVoteReason | LiftOutcome | None = None
    eliminated: list[str] = field(default_factory=list)
    decider: str | None = None
    # sport's lift vote (`kind` lift): one count for all the tied.
    voters: tuple[str, ...] = ()
    living: int | None = None


@dataclass(frozen=True)
class BestMove:
    """sport: the players the night-2 victim named in the farewell (none:
    the farewell ended without one)."""

    player: str
    targets: tuple[str, ...]


@dataclass(frozen=True)
class Warning:
    """A warning, or in sport a foul, and what it did."""

    player: str
    count: int
    reason: Breach
    effect: FoulEffect = FoulEffect.NONE


@dataclass(frozen=True)
class Elimination:
    player: str
    cause: Cause


@dataclass(frozen=True)
class TimerNote:
    change: TimerChange
    seconds: int


@dataclass
class Round:
    phase: Phase
    number: int
    started_at: datetime | None  # None: began with the deal
    # The night.
    moves: list[NightMove] = field(default_factory=list)
    plan: tuple[str, ...] | None = None  # the Don's kill list, when set
    killed: tuple[str, ...] = ()
    missed: bool = False
    blocked: str | None = None  # visited by the escort: silent the next day
    # The day.
    nominations: list[tuple[str, str]] = field(default_factory=list)  # (by, target)
    votes: list[Vote] = field(default_factory=list)
    farewells: list[str] = field(default_factory=list)  # sport: who held one, in order
    best_move: BestMove | None = None  # sport
    # Both.
    warnings: list[Warning] = field(default_factory=list)
    eliminations: list[Elimination] = field(default_factory=list)
    timer: list[TimerNote] = field(default_factory=list)

    @property
    def moment(self) -> Moment:
        return Moment(self.phase, self.number)


@dataclass(frozen=True)
class Position:
    """Where the game stood after an action: the replay's check that the
    action had the same result (tg_mafia/render/protocol/replay.py)."""

    day: int
    night: int
    stage: str
    speaker: str | None
    out: tuple[str, ...]  # who left the game with this action


@dataclass(frozen=True)
class LogEntry:
    action: dict[str, Any]  # engine.actions' dict, players by engine id, no player's text
    result: Position


@dataclass(frozen=True)
class Protocol:
    game_id: int
    title: str
    variant: str
    language: str
    options: dict[str, OptionValue]
    host: str | None  # the human host's name
    opened_at: datetime
    ended_at: datetime | None
    seats: tuple[SeatRecord, ...]
    rounds: tuple[Round, ...]
    winner: Side | None  # None: a draw
    ended: Moment | None  # the night or day the game ended in
    seed: int = 0  # the deal's: with `log`, the game again (engine.replay)
    log: tuple[LogEntry, ...] = ()
    # How it ended (engine.events.GameEnded.reason): decided, or suspended (its topic
    # stayed closed past the suspension's limit: no winner, unscored).
    reason: EndReason = EndReason.DECIDED

    def seat_of(self, player: str) -> int:
        return next(s.seat for s in self.seats if s.player == player)
