"""The hand-raise vote of moscow, club and sport: a count per candidate,
silent voters added to the last one, ties, last words and the deciding vote
(sport's ties go to re-speeches and the lift: engine/lift.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engine import lift
from engine.actions import Action, Decide, Hand, Leave, Lower
from engine.context import Ctx, Entry
from engine.day import give_floor, may_speak
from engine.errors import IllegalAction, Reason
from engine.events import (
    PUBLIC,
    CountEnded,
    CountStarted,
    DecideAsked,
    DeciderNamed,
    HandChanged,
    NoVote,
    VoteResult,
    VoteStarted,
    private,
)
from engine.lifecycle import check_win, eliminate
from engine.moves import Move
from engine.state import Cause, FloorMode, GameState, Stage, VoteRound
from engine.variants import TieMode
from engine.vocab import NoVoteReason, VoteOutcome


def open_voting(ctx: Ctx) -> None:
    """After the speeches: the nominees who are still alive stand (unless
    a removal by fouls cancelled this vote: sport)."""
    state = ctx.state
    if state.vote.cancelled:
        state.vote.cancelled = False
        ctx.emit(NoVote(audience=PUBLIC, reason=NoVoteReason.CANCELLED))
        ctx.go(Entry.END_DAY)
        return
    nominees = tuple(p for p in state.day.nominees if state.table.is_alive(p))
    start_round(ctx, nominees, VoteRound.FIRST)


def start_round(ctx: Ctx, candidates: tuple[str, ...], kind: VoteRound) -> None:
    state = ctx.state
    candidates = tuple(p for p in candidates if state.table.is_alive(p))
    state.vote.candidates = candidates
    state.vote.round = kind
    if not candidates:
        ctx.emit(NoVote(audience=PUBLIC, reason=NoVoteReason.NO_NOMINEE))
        ctx.go(Entry.END_DAY)
        return
    if len(candidates) == 1:
        # Decision: the first day with speeches needs two nominees for a
        # vote; later, a single candidate goes without one.
        if kind is VoteRound.FIRST and state.day.number == ctx.variant.first_speech_day:
            ctx.emit(
                NoVote(audience=PUBLIC, reason=NoVoteReason.SINGLE_FIRST_DAY, target=candidates[0])
            )
            ctx.go(Entry.END_DAY)
            return
        ctx.emit(NoVote(audience=PUBLIC, reason=NoVoteReason.SINGLE, target=candidates[0]))
        _eliminate_and_close(ctx, candidates[0], Cause.VOTE)
        return
    state.vote.count_index = 0
    state.vote.voted = {}
    state.vote.hands = frozenset()
    state.day.speaker = None
    ctx.emit(VoteStarted(audience=PUBLIC, candidates=candidates, round=kind))
    _start_count(ctx)


def _start_count(ctx: Ctx) -> None:
    state = ctx.state
    state.vote.hands = frozenset()
    seconds = ctx.option_int("vote_count_seconds")
    ctx.enter(Stage.VOTE, seconds)
    ctx.emit(
        CountStarted(
            audience=PUBLIC,
            candidate=state.vote.candidates[state.vote.count_index],
            number=state.vote.count_index + 1,
            of=len(state.vote.candidates),
            seconds=seconds,
            counts=finished_counts(state),
        )
    )


def finished_counts(state: GameState) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The counts of this round so far, with who raised a hand in each."""
    seats, vote = state.table.seats, state.vote
    return tuple(
        (c, tuple(v for v in seats if vote.voted.get(v) == c))
        for c in vote.candidates[: vote.count_index]
    )


def may_vote(ctx: Ctx, player: str) -> bool:
    state = ctx.state
    return (
        state.table.is_alive(player)
        and not state.is_blocked(player)
        and player not in state.vote.voted
    )


# ----- hands ---------------------------------------------------------------------------


def check_hand(ctx: Ctx, action: Hand) -> None:
    state = ctx.state
    if not state.table.is_alive(action.actor) or state.is_blocked(action.actor):
        raise IllegalAction(Reason.MAY_NOT_VOTE, f"{action.actor} may not vote today")
    if action.actor in state.vote.voted:
        raise IllegalAction(Reason.VOTED_ALREADY, f"{action.actor} has voted already")
    if action.actor in state.vote.hands:
        raise IllegalAction(Reason.HAND_UP, "the hand is up already")


def raise_hand(ctx: Ctx, action: Hand) -> None:
    state = ctx.state
    state.vote.hands = state.vote.hands | {action.actor}
    candidate = state.vote.candidates[state.vote.count_index]
    ctx.emit(HandChanged(audience=PUBLIC, player=action.actor, up=True, candidate=candidate))


def check_lower(ctx: Ctx, action: Lower) -> None:
    if action.actor not in ctx.state.vote.hands:
        raise IllegalAction(Reason.HAND_DOWN, "the hand is not up")


def lower_hand(ctx: Ctx, action: Lower) -> None:
    state = ctx.state
    state.vote.hands = state.vote.hands - {action.actor}
    candidate = state.vote.candidates[state.vote.count_index]
    ctx.emit(HandChanged(audience=PUBLIC, player=action.actor, up=False, candidate=candidate))


def check_leave(ctx: Ctx, action: Leave) -> None:
    state = ctx.state
    if not ctx.variant.has_leave_table:
        raise IllegalAction(Reason.NO_LEAVING, "this variant has no leaving the table")
    if (
        len(state.vote.candidates) != 2
        or state.vote.count_index != 0
        or action.actor not in state.vote.candidates
    ):
        raise IllegalAction(
            Reason.NOT_NOW, "only a candidate of a two-way vote, in the first count"
        )


def leave_table(ctx: Ctx, action: Leave) -> None:
    """002 "leaving beautifully": in a two-candidate vote, during the first
    count, either candidate may leave; the other is eliminated too."""
    state = ctx.state
    other = next(p for p in state.vote.candidates if p != action.actor)
    state.night.blocked = ()
    eliminate(ctx, action.actor, Cause.LEFT)
    eliminate(ctx, other, Cause.VOTE)
    if not check_win(ctx, at_dawn=False):
        ctx.go(Entry.END_DAY)


def _hand_candidates(ctx: Ctx) -> Iterable[Action]:
    return (Hand(p) for p in ctx.state.table.alive)


def _lower_candidates(ctx: Ctx) -> Iterable[Action]:
    return (Lower(p) for p in ctx.state.table.alive)


def _leave_candidates(ctx: Ctx) -> Iterable[Action]:
    return (Leave(p) for p in ctx.state.vote.candidates)


# ----- the end of a count, and ties ---------------------------------------------------


def end_count(ctx: Ctx) -> None:
    state = ctx.state
    candidate = state.vote.candidates[state.vote.count_index]
    hands = state.vote.hands
    raised = tuple(p for p in state.table.seats if p in hands)
    for voter in raised:
        state.vote.voted[voter] = candidate
    state.vote.hands = frozenset()
    state.vote.count_index += 1
    ctx.emit(
        CountEnded(
            audience=PUBLIC,
            candidate=candidate,
            voters=raised,
            number=state.vote.count_index,
            of=len(state.vote.candidates),
            counts=finished_counts(state),
        )
    )
    if state.vote.count_index < len(state.vote.candidates):
        _start_count(ctx)
        return
    # 002: abstaining is forbidden; the silent go to the last candidate.
    silent = tuple(p for p in state.table.alive if may_vote(ctx, p))
    for voter in silent:
        state.vote.voted[voter] = candidate
    counts = Counter(state.vote.voted.values())
    state.vote.votes = {p: counts[p] for p in state.vote.candidates if counts[p]}
    _resolve(ctx, silent)


def _resolve(ctx: Ctx, silent: tuple[str, ...]) -> None:
    """Ties (002): with more than two candidates, the tied leaders go to a
    new vote among themselves, without last words; with two, each tied
    candidate has a last word and the vote is repeated, then the deciding
    vote."""
    state = ctx.state
    tally = tuple((p, state.vote.votes.get(p, 0)) for p in state.vote.candidates)
    top = max(c for _, c in tally)
    leaders = tuple(p for p, c in tally if c == top)

    def result(outcome: VoteOutcome, target: str | None = None) -> None:
        ctx.emit(
            VoteResult(
                audience=PUBLIC,
                outcome=outcome,
                tally=tally,
                target=target,
                silent=silent,
                leaders=leaders if target is None else (),
            )
        )

    if len(leaders) == 1:
        result(VoteOutcome.ELIMINATED, leaders[0])
        _eliminate_and_close(ctx, leaders[0], Cause.VOTE)
    elif ctx.variant.tie_mode is TieMode.LIFT:
        outcome = lift.after_tie(ctx, leaders)
        result(outcome)
        if outcome is VoteOutcome.RESPEECHES:
            state.vote.candidates = leaders
            state.vote.last_words = leaders
            next_last_word(ctx)
        elif outcome is VoteOutcome.LIFT:
            lift.start_lift(ctx, leaders)
        else:
            ctx.go(Entry.END_DAY)
    elif len(state.vote.candidates) > 2:
        # Decision: a new vote among more than two that ties between exactly
        # two goes on as a vote between those two; tied among more, nobody.
        if state.vote.round is VoteRound.FIRST or len(leaders) == 2:
            result(VoteOutcome.REVOTE)
            start_round(ctx, leaders, VoteRound.REVOTE)
        else:
            result(VoteOutcome.NOBODY)
            ctx.go(Entry.END_DAY)
    elif state.vote.round is not VoteRound.REPEAT:
        result(VoteOutcome.LAST_WORDS)
        state.vote.last_words = leaders
        next_last_word(ctx)
    else:
        result(VoteOutcome.DECIDE)
        _ask_decider(ctx, leaders)


def next_last_word(ctx: Ctx) -> None:
    """The next tied candidate who may speak has a last word (sport: a
    re-speech); after the last, the vote is repeated. A blocked candidate
    has none (club)."""
    state = ctx.state
    respeech = ctx.variant.tie_mode is TieMode.LIFT
    queue = tuple(p for p in state.vote.last_words if may_speak(ctx, p))
    if not queue:
        state.vote.last_words = ()
        start_round(ctx, state.vote.candidates, VoteRound.TIED if respeech else VoteRound.REPEAT)
        return
    state.vote.last_words = queue[1:]
    mode = FloorMode.RESPEECH if respeech else FloorMode.NORMAL
    give_floor(ctx, queue[0], Stage.LAST_WORD, ctx.option_int("last_word_seconds"), mode)


def decider_for(ctx: Ctx) -> str | None:
    """002: the town player killed in the night before this day; of two, the
    one killed last (the maniac's victim). A blocked one may not decide."""
    victims = ctx.state.night.victims
    if not victims or ctx.state.is_blocked(victims[-1]):
        return None
    return victims[-1]


def _ask_decider(ctx: Ctx, leaders: tuple[str, ...]) -> None:
    state = ctx.state
    decider = decider_for(ctx)
    if decider is None:
        ctx.emit(NoVote(audience=PUBLIC, reason=NoVoteReason.NO_DECIDER, candidates=leaders))
        ctx.go(Entry.END_DAY)
        return
    state.vote.candidates = leaders
    state.vote.decider = decider
    state.day.speaker = decider
    seconds = ctx.option_int("last_word_seconds")
    ctx.enter(Stage.DECIDE, seconds)
    ctx.emit(DeciderNamed(audience=PUBLIC, decider=decider, candidates=leaders, seconds=seconds))
    ctx.emit(
        DecideAsked(audience=private(decider), decider=decider, candidates=leaders, seconds=seconds)
    )


def check_decide(ctx: Ctx, action: Decide) -> None:
    state = ctx.state
    if action.actor != state.vote.decider:
        raise IllegalAction(Reason.NOT_DECIDER, f"{action.actor} does not cast the deciding vote")
    if action.target not in state.vote.candidates:
        raise IllegalAction(Reason.BAD_TARGET, f"{action.target} is not one of the two")


def decide(ctx: Ctx, action: Decide) -> None:
    ctx.emit(
        VoteResult(
            audience=PUBLIC, outcome=VoteOutcome.DECIDED, target=action.target, decider=action.actor
        )
    )
    _eliminate_and_close(ctx, action.target, Cause.VOTE)


def _decide_candidates(ctx: Ctx) -> Iterable[Action]:
    decider = ctx.state.vote.decider
    if decider is None:
        return ()
    return (Decide(decider, c) for c in ctx.state.table.seats)


def decide_timeout(ctx: Ctx) -> None:
    ctx.emit(
        NoVote(
            audience=PUBLIC, reason=NoVoteReason.NO_DECISION, candidates=ctx.state.vote.candidates
        )
    )
    ctx.go(Entry.END_DAY)


def _eliminate_and_close(ctx: Ctx, player: str, cause: Cause) -> None:
    # The block ends with the day's voting, before the win is checked.
    ctx.state.night.blocked = ()
    eliminate(ctx, player, cause)
    if not check_win(ctx, at_dawn=False):
        ctx.go(Entry.END_DAY)


def candidate_removed(ctx: Ctx, player: str) -> None:
    """A candidate went out by warnings: that round starts again among the
    candidates left (RULES.md)."""
    state = ctx.state
    remaining = tuple(p for p in state.vote.candidates if p != player)
    if state.stage is Stage.LAST_WORD:
        state.vote.candidates = remaining
        if state.day.speaker == player:
            next_last_word(ctx)
        return
    start_round(ctx, remaining, state.vote.round)


HAND = Move(Hand, check_hand, raise_hand, _hand_candidates)
LOWER = Move(Lower, check_lower, lower_hand, _lower_candidates)
LEAVE = Move(Leave, check_leave, leave_table, _leave_candidates)
DECIDE = Move(Decide, check_decide, decide, _decide_candidates)
