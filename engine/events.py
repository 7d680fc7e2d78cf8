"""What the engine says happened: one small frozen class per kind of
event, each naming its audience.

Group text is rendered only from events whose audience is public; this is
how roles and night moves stay out of the group chat. A renderer is picked
by the event's class (a table in the shell), not by a chain of cases."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.roles import Role, Side
from engine.state import Cause, FloorMode, Stage, VoteRound
from engine.variants import NightMove
from engine.vocab import (
    Breach,
    CancelledVote,
    CheckAnswer,
    EndReason,
    FoulEffect,
    MoveResult,
    NoVoteReason,
    TimerChange,
    VoteOutcome,
)


@dataclass(frozen=True, slots=True)
class Audience:
    public: bool = False
    players: frozenset[str] = frozenset()
    mafia: bool = False  # every living member of the mafia
    host: bool = False  # the human host, when there is one

    @property
    def is_public(self) -> bool:
        return self.public


PUBLIC = Audience(public=True)
MAFIA = Audience(mafia=True, host=True)
HOST_ONLY = Audience(host=True)
# Nobody while the game runs: kept for the record (the protocol, built after the end).
RECORD = Audience()


def private(*players: str) -> Audience:
    """Some players in private; a human host sees every private event too."""
    return Audience(players=frozenset(players), host=True)


Seats = tuple[str, ...]
RoleList = tuple[tuple[str, Role], ...]  # (player, role), in seat order
Tally = tuple[tuple[str, int], ...]  # (candidate, votes)
Counts = tuple[tuple[str, Seats], ...]  # (candidate, voters), one per finished count


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    kind: ClassVar[str] = "event"
    audience: Audience


# ----- the deal ---------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted(Event):
    kind: ClassVar[str] = "game_started"
    players: Seats


@dataclass(frozen=True, slots=True, kw_only=True)
class RoleDealt(Event):
    kind: ClassVar[str] = "role_dealt"
    player: str
    role: Role


@dataclass(frozen=True, slots=True, kw_only=True)
class AllRoles(Event):
    """To a human host: every role."""

    kind: ClassVar[str] = "all_roles"
    roles: RoleList


# ----- the night ----------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class NightStarted(Event):
    kind: ClassVar[str] = "night_started"
    night: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FamilyMet(Event):
    """The mafia learn each other (the first night)."""

    kind: ClassVar[str] = "family_met"
    members: RoleList
    night: int
    talk: bool  # the family may talk through the bot tonight
    plan: bool  # the boss may set a kill list tonight


@dataclass(frozen=True, slots=True, kw_only=True)
class SheriffSeen(Event):
    """sport, the zero night: the sheriff wakes and the judge sees them."""

    kind: ClassVar[str] = "sheriff_seen"
    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NightPrompt(Event):
    kind: ClassVar[str] = "night_prompt"
    player: str
    move: NightMove
    targets: Seats
    night: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ChoiceMade(Event):
    kind: ClassVar[str] = "choice_made"
    player: str
    role: Role
    move: NightMove
    target: str | None  # None: an explicit skip
    shared: bool  # a mafia shot: the family sees it


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanSet(Event):
    kind: ClassVar[str] = "plan_set"
    player: str
    targets: Seats


@dataclass(frozen=True, slots=True, kw_only=True)
class MafiaChatted(Event):
    kind: ClassVar[str] = "mafia_chatted"
    player: str
    text: str


# ----- dawn -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """One night move as it stood at dawn, and what came of it."""

    player: str
    move: NightMove
    target: str | None  # None: no target (skipped, or no choice in time)
    # kill: killed, saved (healed), missed (no shot), outvoted (the family shot
    # another), gone (the target had left the game); check: the answer;
    # heal: saved, no_shot; block: blocked; any move: skipped, no_choice.
    result: MoveResult | CheckAnswer


@dataclass(frozen=True, slots=True, kw_only=True)
class NightResolved(Event):
    """Every move of the night's living actors and its result, just before
    the dawn is announced: for the record only (audience RECORD)."""

    kind: ClassVar[str] = "night_resolved"
    night: int
    moves: tuple[MoveOutcome, ...]  # in seat order


@dataclass(frozen=True, slots=True, kw_only=True)
class DayStarted(Event):
    kind: ClassVar[str] = "day_started"
    day: int
    victims: Seats  # killed in the night, in the order they died
    missed: bool  # the mafia's shot missed for want of agreement
    shown: RoleList  # the victims' roles, where the variant shows them


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckResult(Event):
    kind: ClassVar[str] = "check_result"
    player: str
    target: str
    answer: CheckAnswer


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerBlocked(Event):
    kind: ClassVar[str] = "player_blocked"
    player: str


# ----- the floor and the group's posts ---------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class FloorGiven(Event):
    kind: ClassVar[str] = "floor_given"
    player: str
    stage: Stage  # intro, speech, last_word
    seconds: int
    day: int
    mode: FloorMode = FloorMode.NORMAL


@dataclass(frozen=True, slots=True, kw_only=True)
class PostDeleted(Event):
    kind: ClassVar[str] = "post_deleted"
    player: str
    reason: Breach  # anything but HOST


@dataclass(frozen=True, slots=True, kw_only=True)
class Warned(Event):
    kind: ClassVar[str] = "warned"
    player: str
    count: int
    limit: int  # 0: warnings never eliminate
    reason: Breach  # anything but DEAD


@dataclass(frozen=True, slots=True, kw_only=True)
class Fouled(Event):
    """sport: a foul, and what it does at the third and at the limit."""

    kind: ClassVar[str] = "fouled"
    player: str
    count: int
    limit: int  # 0: fouls never remove
    reason: Breach  # anything but DEAD
    effect: FoulEffect


@dataclass(frozen=True, slots=True, kw_only=True)
class VoteCancelled(Event):
    """sport: a removal by fouls cancels a vote: the running one (`now`),
    the day's (`today`) or the next day's (`next_day`)."""

    kind: ClassVar[str] = "vote_cancelled"
    player: str
    when: CancelledVote


@dataclass(frozen=True, slots=True, kw_only=True)
class Nominated(Event):
    kind: ClassVar[str] = "nominated"
    player: str
    target: str
    nominees: Seats  # every nominee so far, in order


# ----- the hand-raise vote ------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class NoVote(Event):
    kind: ClassVar[str] = "no_vote"
    reason: NoVoteReason
    target: str | None = None
    candidates: Seats = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class VoteStarted(Event):
    kind: ClassVar[str] = "vote_started"
    candidates: Seats
    round: VoteRound


@dataclass(frozen=True, slots=True, kw_only=True)
class CountStarted(Event):
    kind: ClassVar[str] = "count_started"
    candidate: str
    number: int  # 1-based
    of: int
    seconds: int
    counts: Counts  # the counts of this round already finished


@dataclass(frozen=True, slots=True, kw_only=True)
class HandChanged(Event):
    kind: ClassVar[str] = "hand_changed"
    player: str
    up: bool
    candidate: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CountEnded(Event):
    kind: ClassVar[str] = "count_ended"
    candidate: str
    voters: Seats
    number: int
    of: int
    counts: Counts


@dataclass(frozen=True, slots=True, kw_only=True)
class VoteResult(Event):
    """How a vote ended. `outcome`: eliminated, revote, last_words, decide,
    nobody (moscow and club); eliminated, respeeches, lift, table_split
    (sport: every living player tied twice, nobody leaves); eliminated,
    no_majority, tie, nobody (classic, party); decided (the deciding vote)."""

    kind: ClassVar[str] = "vote_result"
    outcome: VoteOutcome
    tally: Tally = ()
    target: str | None = None
    silent: Seats = ()  # voters who raised no hand, added to the last candidate
    leaders: Seats = ()  # the tied, for revote, last_words, decide, nobody
    decider: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DeciderNamed(Event):
    """The group learns who casts the deciding vote."""

    kind: ClassVar[str] = "decider_named"
    decider: str
    candidates: Seats
    seconds: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DecideAsked(Event):
    """The decider, in private: choose one of the two."""

    kind: ClassVar[str] = "decide_asked"
    decider: str
    candidates: Seats
    seconds: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Eliminated(Event):
    kind: ClassVar[str] = "eliminated"
    player: str
    cause: Cause  # any but KILLED (the dawn's DayStarted)
    role: Role | None  # shown in the group, where the variant shows it


# ----- sport: the farewell, the best move, the lift vote ---------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class FarewellGiven(Event):
    """The farewell floor of a player who has just left the table."""

    kind: ClassVar[str] = "farewell_given"
    player: str
    seconds: int
    day: int
    best_move: bool  # the holder may make the best move during it


@dataclass(frozen=True, slots=True, kw_only=True)
class BestMoveAsked(Event):
    """To the farewell holder: name up to `most` of these players."""

    kind: ClassVar[str] = "best_move_asked"
    player: str
    choices: Seats
    most: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BestMoveMade(Event):
    kind: ClassVar[str] = "best_move_made"
    player: str
    targets: Seats


@dataclass(frozen=True, slots=True, kw_only=True)
class BestMoveLapsed(Event):
    """To the holder: the farewell ended with no best move."""

    kind: ClassVar[str] = "best_move_lapsed"
    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class LiftStarted(Event):
    kind: ClassVar[str] = "lift_started"
    candidates: Seats  # the players tied twice
    living: int  # more than half of them must raise a hand
    seconds: int


@dataclass(frozen=True, slots=True, kw_only=True)
class LiftHandChanged(Event):
    kind: ClassVar[str] = "lift_hand_changed"
    player: str
    up: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class LiftEnded(Event):
    kind: ClassVar[str] = "lift_ended"
    candidates: Seats
    voters: Seats  # whose hands were up
    living: int
    leave: bool  # more than half: every candidate leaves


# ----- free talk and open votes --------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class DiscussionStarted(Event):
    kind: ClassVar[str] = "discussion_started"
    day: int
    seconds: int
    live_vote: bool  # classic: the live majority vote is open


@dataclass(frozen=True, slots=True, kw_only=True)
class LiveVoteChanged(Event):
    kind: ClassVar[str] = "live_vote_changed"
    voter: str
    target: str | None  # None: withdrawn
    tally: Tally


@dataclass(frozen=True, slots=True, kw_only=True)
class BallotStarted(Event):
    kind: ClassVar[str] = "ballot_started"
    day: int
    seconds: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BallotCounted(Event):
    """The group learns how many have voted, never for whom."""

    kind: ClassVar[str] = "ballot_counted"
    cast: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BallotCast(Event):
    """In private (and to the host): a ballot given or withdrawn."""

    kind: ClassVar[str] = "ballot_cast"
    voter: str
    target: str | None
    cast: int  # how many have voted so far


# ----- idle players ----------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class IdleReminded(Event):
    """In private: one of the player's own turns passed with no action from
    them; `limit` idle turns in a row put them out."""

    kind: ClassVar[str] = "idle_reminded"
    player: str
    count: int  # idle turns in a row so far
    limit: int

    @property
    def left(self) -> int:
        return self.limit - self.count


# ----- the host and the end ----------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class TimerChanged(Event):
    kind: ClassVar[str] = "timer_changed"
    change: TimerChange
    seconds: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Suspended(Event):
    """The game stands still (engine/suspension.py), `limit` seconds at most."""

    kind: ClassVar[str] = "suspended"
    limit: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Unsuspended(Event):
    """The game goes on from where it stood."""

    kind: ClassVar[str] = "unsuspended"


@dataclass(frozen=True, slots=True, kw_only=True)
class ConfirmRequested(Event):
    kind: ClassVar[str] = "confirm_requested"
    winner: Side


@dataclass(frozen=True, slots=True, kw_only=True)
class Drawn(Event):
    """sport: nights and days in a row with nobody leaving the table."""

    kind: ClassVar[str] = "drawn"
    nights: int


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEnded(Event):
    kind: ClassVar[str] = "game_ended"
    winner: Side | None  # Side.DRAW: nobody won; None: unscored, nobody won or lost
    roles: RoleList
    winners: Seats
    reason: EndReason = EndReason.DECIDED


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerResult(Event):
    """Each player, in private: won or lost, with what role."""

    kind: ClassVar[str] = "player_result"
    player: str
    role: Role
    winner: Side
    won: bool
