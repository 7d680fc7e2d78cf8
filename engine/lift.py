"""sport's ties: each tied candidate holds a re-speech, then the tied are
voted on again; when the same players tie again, the lift vote asks "who is
for all of them leaving the table?", and more than half of the living must
raise a hand for every one of them to leave."""

from __future__ import annotations

from collections.abc import Iterable

from engine.actions import Action, Hand, Lower
from engine.context import Ctx, Entry
from engine.errors import IllegalAction, Reason
from engine.events import PUBLIC, LiftEnded, LiftHandChanged, LiftStarted
from engine.lifecycle import check_win, eliminate
from engine.moves import Move
from engine.state import Cause, Stage, VoteRound
from engine.vocab import VoteOutcome


def after_tie(ctx: Ctx, leaders: tuple[str, ...]) -> VoteOutcome:
    """What a tie leads to: `respeeches` (a first tie, or fewer players tied
    than were voted on), `lift` (the same players tied again), or
    `table_split` (they are every living player: nobody leaves)."""
    state = ctx.state
    if state.vote.round is VoteRound.FIRST or len(leaders) < len(state.vote.candidates):
        return VoteOutcome.RESPEECHES
    if set(leaders) == set(state.table.alive):
        return VoteOutcome.TABLE_SPLIT
    return VoteOutcome.LIFT


def start_lift(ctx: Ctx, tied: tuple[str, ...]) -> None:
    state = ctx.state
    state.vote.candidates = tied
    state.vote.hands = frozenset()
    state.day.speaker = None
    seconds = ctx.option_int("vote_count_seconds")
    ctx.enter(Stage.LIFT, seconds)
    ctx.emit(
        LiftStarted(
            audience=PUBLIC, candidates=tied, living=len(state.table.alive), seconds=seconds
        )
    )


def end_lift(ctx: Ctx) -> None:
    """The count is over: no hand is added; more than half of the living
    lift every tied player, in candidate order, and the win is checked once
    they have all left."""
    state = ctx.state
    voters = tuple(p for p in state.table.seats if p in state.vote.hands)
    living = len(state.table.alive)
    leave = 2 * len(voters) > living
    state.vote.last_lift = len(voters)
    state.vote.hands = frozenset()
    ctx.emit(
        LiftEnded(
            audience=PUBLIC,
            candidates=state.vote.candidates,
            voters=voters,
            living=living,
            leave=leave,
        )
    )
    if leave:
        for player in state.vote.candidates:
            eliminate(ctx, player, Cause.VOTE)
        if check_win(ctx, at_dawn=False):
            return
    ctx.go(Entry.END_DAY)


# ----- hands -------------------------------------------------------------------------------


def check_hand(ctx: Ctx, action: Hand) -> None:
    state = ctx.state
    if not state.table.is_alive(action.actor):
        raise IllegalAction(Reason.MAY_NOT_VOTE, f"{action.actor} may not vote")
    if action.actor in state.vote.hands:
        raise IllegalAction(Reason.HAND_UP, "the hand is up already")


def raise_hand(ctx: Ctx, action: Hand) -> None:
    ctx.state.vote.hands = ctx.state.vote.hands | {action.actor}
    ctx.emit(LiftHandChanged(audience=PUBLIC, player=action.actor, up=True))


def check_lower(ctx: Ctx, action: Lower) -> None:
    if action.actor not in ctx.state.vote.hands:
        raise IllegalAction(Reason.HAND_DOWN, "the hand is not up")


def lower_hand(ctx: Ctx, action: Lower) -> None:
    ctx.state.vote.hands = ctx.state.vote.hands - {action.actor}
    ctx.emit(LiftHandChanged(audience=PUBLIC, player=action.actor, up=False))


def _hand_candidates(ctx: Ctx) -> Iterable[Action]:
    return (Hand(p) for p in ctx.state.table.alive)


def _lower_candidates(ctx: Ctx) -> Iterable[Action]:
    return (Lower(p) for p in ctx.state.table.alive)


HAND = Move(Hand, check_hand, raise_hand, _hand_candidates)
LOWER = Move(Lower, check_lower, lower_hand, _lower_candidates)
