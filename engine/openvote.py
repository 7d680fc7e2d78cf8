"""Open day votes: classic's live majority vote and party's ballot."""

from __future__ import annotations

from collections import Counter

from engine import day
from engine.actions import Unvote, Vote
from engine.context import Ctx
from engine.errors import IllegalAction
from engine.events import PUBLIC, EventKind, private
from engine.lifecycle import check_win, eliminate
from engine.state import Cause, Stage
from engine.variants import DayMode


def start_discussion(ctx: Ctx) -> None:
    ctx.state.ballots = {}
    ctx.start_timer(Stage.DISCUSSION, ctx.option_int("day_seconds"))
    ctx.emit(
        EventKind.DISCUSSION_STARTED,
        PUBLIC,
        number=ctx.state.day,
        seconds=ctx.option_int("day_seconds"),
        flag=ctx.variant.day_mode is DayMode.LIVE_VOTE,
    )


def start_ballot(ctx: Ctx) -> None:
    ctx.state.ballots = {}
    ctx.start_timer(Stage.BALLOT, ctx.option_int("ballot_seconds"))
    ctx.emit(
        EventKind.BALLOT_STARTED,
        PUBLIC,
        number=ctx.state.day,
        seconds=ctx.option_int("ballot_seconds"),
    )


def voting_open(ctx: Ctx) -> bool:
    stage = ctx.state.stage
    if ctx.variant.day_mode is DayMode.LIVE_VOTE:
        return stage is Stage.DISCUSSION
    return ctx.variant.day_mode is DayMode.BALLOT and stage is Stage.BALLOT


def tally(ctx: Ctx) -> dict[str, int]:
    counts = Counter(ctx.state.ballots.values())
    return {p: counts[p] for p in ctx.state.seats if counts[p]}


def _check_voter(ctx: Ctx, voter: str) -> None:
    if not voting_open(ctx):
        raise IllegalAction("no_vote_now", "there is no vote now")
    if not ctx.state.is_alive(voter):
        raise IllegalAction("dead", f"{voter} is out of the game")


def vote(ctx: Ctx, action: Vote) -> None:
    state = ctx.state
    _check_voter(ctx, action.actor)
    if action.target == action.actor:
        raise IllegalAction("self_target", "nobody may vote for themselves")
    if not state.is_alive(action.target):
        raise IllegalAction("bad_target", f"{action.target} is not a living player")
    if state.ballots.get(action.actor) == action.target:
        return  # voting again for the same player changes nothing
    state.ballots[action.actor] = action.target
    _announce(ctx, action.actor, action.target)


def unvote(ctx: Ctx, action: Unvote) -> None:
    _check_voter(ctx, action.actor)
    if action.actor not in ctx.state.ballots:
        raise IllegalAction("no_vote_given", f"{action.actor} has not voted")
    del ctx.state.ballots[action.actor]
    _announce(ctx, action.actor, None)


def _announce(ctx: Ctx, voter: str, target: str | None) -> None:
    counts = tally(ctx)
    if ctx.variant.day_mode is DayMode.BALLOT:
        ctx.emit(EventKind.BALLOT_VOTE, private(voter), player=voter, target=target)
        return
    ctx.emit(EventKind.LIVE_VOTE, PUBLIC, player=voter, target=target, tally=tuple(counts.items()))
    if target is not None and counts[target] * 2 > len(ctx.state.alive):
        ctx.state.votes = counts
        eliminate(ctx, target, Cause.VOTE)
        if not check_win(ctx, at_dawn=False):
            day.end_day(ctx)


def timeout(ctx: Ctx) -> None:
    state = ctx.state
    if ctx.variant.day_mode is DayMode.BALLOT and state.stage is Stage.DISCUSSION:
        start_ballot(ctx)
        return
    counts = tally(ctx)
    state.votes = counts
    top = max(counts.values(), default=0)
    leaders = [p for p, c in counts.items() if c == top]
    # classic: no majority by the deadline; party: the most votes, a tie saves all.
    loser = leaders[0] if ctx.variant.day_mode is DayMode.BALLOT and len(leaders) == 1 else None
    ctx.emit(
        EventKind.VOTE_RESULT,
        PUBLIC,
        tally=tuple(counts.items()),
        target=loser,
        outcome=_outcome(ctx, loser, leaders),
    )
    if loser is not None:
        eliminate(ctx, loser, Cause.VOTE)
        if check_win(ctx, at_dawn=False):
            return
    day.end_day(ctx)


def _outcome(ctx: Ctx, loser: str | None, leaders: list[str]) -> str:
    if loser is not None:
        return "eliminated"
    if ctx.variant.day_mode is DayMode.LIVE_VOTE:
        return "no_majority"  # classic: nobody reached a majority by the deadline
    return "tie" if len(leaders) > 1 else "nobody"
