"""Open day votes: classic's live majority vote and party's ballot."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engine.actions import Action, Unvote, Vote
from engine.context import Ctx, Entry
from engine.errors import IllegalAction, Reason
from engine.events import (
    PUBLIC,
    BallotCast,
    BallotCounted,
    BallotStarted,
    DiscussionStarted,
    LiveVoteChanged,
    VoteResult,
    private,
)
from engine.lifecycle import check_win, eliminate
from engine.moves import Move
from engine.state import Cause, Stage
from engine.variants import DayMode
from engine.vocab import VoteOutcome


def start_discussion(ctx: Ctx) -> None:
    seconds = ctx.option_int("day_seconds")
    ctx.state.vote.ballots = {}
    ctx.enter(Stage.DISCUSSION, seconds)
    live = ctx.variant.day_mode is DayMode.LIVE_VOTE
    ctx.emit(
        DiscussionStarted(
            audience=PUBLIC, day=ctx.state.day.number, seconds=seconds, live_vote=live
        )
    )


def start_ballot(ctx: Ctx) -> None:
    seconds = ctx.option_int("ballot_seconds")
    ctx.state.vote.ballots = {}
    ctx.enter(Stage.BALLOT, seconds)
    ctx.emit(BallotStarted(audience=PUBLIC, day=ctx.state.day.number, seconds=seconds))


def voting_open(ctx: Ctx) -> bool:
    stage = ctx.state.stage
    if ctx.variant.day_mode is DayMode.LIVE_VOTE:
        return stage is Stage.DISCUSSION
    return ctx.variant.day_mode is DayMode.BALLOT and stage is Stage.BALLOT


def tally(ctx: Ctx) -> dict[str, int]:
    counts = Counter(ctx.state.vote.ballots.values())
    return {p: counts[p] for p in ctx.state.table.seats if counts[p]}


def _check_voter(ctx: Ctx, voter: str) -> None:
    if not voting_open(ctx):
        raise IllegalAction(Reason.NO_VOTE_NOW, "there is no vote now")
    if not ctx.state.table.is_alive(voter):
        raise IllegalAction(Reason.DEAD, f"{voter} is out of the game")


def check_vote(ctx: Ctx, action: Vote) -> None:
    state = ctx.state
    _check_voter(ctx, action.actor)
    if action.target == action.actor:
        raise IllegalAction(Reason.SELF_TARGET, "nobody may vote for themselves")
    if not state.table.is_alive(action.target):
        raise IllegalAction(Reason.BAD_TARGET, f"{action.target} is not a living player")


def vote(ctx: Ctx, action: Vote) -> None:
    if ctx.state.vote.ballots.get(action.actor) == action.target:
        return  # voting again for the same player changes nothing
    ctx.state.vote.ballots[action.actor] = action.target
    _announce(ctx, action.actor, action.target)


def check_unvote(ctx: Ctx, action: Unvote) -> None:
    _check_voter(ctx, action.actor)
    if action.actor not in ctx.state.vote.ballots:
        raise IllegalAction(Reason.NO_VOTE_GIVEN, f"{action.actor} has not voted")


def unvote(ctx: Ctx, action: Unvote) -> None:
    del ctx.state.vote.ballots[action.actor]
    _announce(ctx, action.actor, None)


def _announce(ctx: Ctx, voter: str, target: str | None) -> None:
    counts = tally(ctx)
    if ctx.variant.day_mode is DayMode.BALLOT:
        cast = len(ctx.state.vote.ballots)
        ctx.emit(BallotCast(audience=private(voter), voter=voter, target=target, cast=cast))
        ctx.emit(BallotCounted(audience=PUBLIC, cast=cast))
        return
    ctx.emit(
        LiveVoteChanged(audience=PUBLIC, voter=voter, target=target, tally=tuple(counts.items()))
    )
    if target is not None and counts[target] * 2 > len(ctx.state.table.alive):
        ctx.state.vote.votes = counts
        eliminate(ctx, target, Cause.VOTE)
        if not check_win(ctx, at_dawn=False):
            ctx.go(Entry.END_DAY)


def timeout(ctx: Ctx) -> None:
    state = ctx.state
    if ctx.variant.day_mode is DayMode.BALLOT and state.stage is Stage.DISCUSSION:
        start_ballot(ctx)
        return
    counts = tally(ctx)
    state.vote.votes = counts
    top = max(counts.values(), default=0)
    leaders = tuple(p for p, c in counts.items() if c == top)
    # classic: no majority by the deadline; party: the most votes, a tie saves all.
    loser = leaders[0] if ctx.variant.day_mode is DayMode.BALLOT and len(leaders) == 1 else None
    ctx.emit(
        VoteResult(
            audience=PUBLIC,
            outcome=_outcome(ctx, loser, leaders),
            tally=tuple(counts.items()),
            target=loser,
            leaders=leaders if loser is None else (),
        )
    )
    if loser is not None:
        eliminate(ctx, loser, Cause.VOTE)
        if check_win(ctx, at_dawn=False):
            return
    ctx.go(Entry.END_DAY)


def _outcome(ctx: Ctx, loser: str | None, leaders: tuple[str, ...]) -> VoteOutcome:
    if loser is not None:
        return VoteOutcome.ELIMINATED
    if ctx.variant.day_mode is DayMode.LIVE_VOTE:
        return VoteOutcome.NO_MAJORITY  # classic: nobody reached a majority by the deadline
    return VoteOutcome.TIE if len(leaders) > 1 else VoteOutcome.NOBODY


def _vote_candidates(ctx: Ctx) -> Iterable[Action]:
    living = ctx.state.table.alive
    return (Vote(voter, target) for voter in living for target in living)


def _unvote_candidates(ctx: Ctx) -> Iterable[Action]:
    return (Unvote(voter) for voter in ctx.state.table.alive)


VOTE = Move(Vote, check_vote, vote, _vote_candidates)
UNVOTE = Move(Unvote, check_unvote, unvote, _unvote_candidates)
