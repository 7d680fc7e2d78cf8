"""The hand-raise vote of moscow and club: a count per candidate, silent
voters added to the last one, ties, last words and the deciding vote."""

from __future__ import annotations

from collections import Counter

from engine import day
from engine.actions import Decide, Hand, Leave, Lower
from engine.context import Ctx
from engine.errors import IllegalAction
from engine.events import PUBLIC, EventKind, private
from engine.lifecycle import check_win, eliminate
from engine.state import Cause, GameState, Stage, VoteRound


def open_voting(ctx: Ctx) -> None:
    """After the speeches: the nominees who are still alive stand."""
    state = ctx.state
    nominees = tuple(p for p in state.nominees if state.is_alive(p))
    start_round(ctx, nominees, VoteRound.FIRST)


def start_round(ctx: Ctx, candidates: tuple[str, ...], kind: VoteRound) -> None:
    state = ctx.state
    candidates = tuple(p for p in candidates if state.is_alive(p))
    state.candidates = candidates
    state.vote_round = kind
    if not candidates:
        ctx.emit(EventKind.NO_VOTE, PUBLIC, outcome="no_nominee")
        day.end_day(ctx)
        return
    if len(candidates) == 1:
        # Decision: the first day with speeches needs two nominees for a
        # vote; later, a single candidate goes without one.
        if kind is VoteRound.FIRST and state.day == ctx.variant.first_speech_day:
            ctx.emit(EventKind.NO_VOTE, PUBLIC, outcome="single_first_day", target=candidates[0])
            day.end_day(ctx)
            return
        ctx.emit(EventKind.NO_VOTE, PUBLIC, outcome="single", target=candidates[0])
        _eliminate_and_close(ctx, candidates[0], Cause.VOTE)
        return
    state.count_index = 0
    state.voted = {}
    state.hands = frozenset()
    state.speaker = None
    ctx.emit(EventKind.VOTE_STARTED, PUBLIC, players=candidates, outcome=kind.value)
    _start_count(ctx)


def _start_count(ctx: Ctx) -> None:
    state = ctx.state
    state.hands = frozenset()
    seconds = ctx.option_int("vote_count_seconds")
    ctx.start_timer(Stage.VOTE, seconds)
    ctx.emit(
        EventKind.COUNT_STARTED,
        PUBLIC,
        target=state.candidates[state.count_index],
        number=state.count_index + 1,
        count=len(state.candidates),
        seconds=seconds,
        players=state.candidates,
        counts=finished_counts(state),
    )


def finished_counts(state: GameState) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The counts of this round so far, with who raised a hand in each."""
    return tuple(
        (c, tuple(v for v in state.seats if state.voted.get(v) == c))
        for c in state.candidates[: state.count_index]
    )


def may_vote(ctx: Ctx, player: str) -> bool:
    state = ctx.state
    return state.is_alive(player) and not state.is_blocked(player) and player not in state.voted


def raise_hand(ctx: Ctx, action: Hand) -> None:
    state = ctx.state
    _check_count(ctx)
    if not state.is_alive(action.actor) or state.is_blocked(action.actor):
        raise IllegalAction("may_not_vote", f"{action.actor} may not vote today")
    if action.actor in state.voted:
        raise IllegalAction("voted_already", f"{action.actor} has voted already")
    if action.actor in state.hands:
        raise IllegalAction("hand_up", "the hand is up already")
    state.hands = state.hands | {action.actor}
    ctx.emit(
        EventKind.HAND,
        PUBLIC,
        player=action.actor,
        flag=True,
        target=state.candidates[state.count_index],
    )


def lower_hand(ctx: Ctx, action: Lower) -> None:
    state = ctx.state
    _check_count(ctx)
    if action.actor not in state.hands:
        raise IllegalAction("hand_down", "the hand is not up")
    state.hands = state.hands - {action.actor}
    ctx.emit(
        EventKind.HAND,
        PUBLIC,
        player=action.actor,
        flag=False,
        target=state.candidates[state.count_index],
    )


def _check_count(ctx: Ctx) -> None:
    if ctx.state.stage is not Stage.VOTE:
        raise IllegalAction("no_count", "no candidate is being counted")


def leave_table(ctx: Ctx, action: Leave) -> None:
    """002 "leaving beautifully": in a two-candidate vote, during the first
    count, either candidate may leave; the other is eliminated too."""
    state = ctx.state
    if not ctx.variant.has_leave_table:
        raise IllegalAction("no_leaving", "this variant has no leaving the table")
    if (
        state.stage is not Stage.VOTE
        or len(state.candidates) != 2
        or state.count_index != 0
        or action.actor not in state.candidates
    ):
        raise IllegalAction("not_now", "only a candidate of a two-way vote, during the first count")
    other = next(p for p in state.candidates if p != action.actor)
    state.blocked = ()
    eliminate(ctx, action.actor, Cause.LEFT)
    eliminate(ctx, other, Cause.VOTE)
    if not check_win(ctx, at_dawn=False):
        day.end_day(ctx)


def end_count(ctx: Ctx) -> None:
    state = ctx.state
    candidate = state.candidates[state.count_index]
    raised = tuple(p for p in state.seats if p in state.hands)
    for voter in raised:
        state.voted[voter] = candidate
    state.hands = frozenset()
    state.count_index += 1
    ctx.emit(
        EventKind.COUNT_ENDED,
        PUBLIC,
        target=candidate,
        players=raised,
        number=state.count_index,
        count=len(state.candidates),
        counts=finished_counts(state),
    )
    if state.count_index < len(state.candidates):
        _start_count(ctx)
        return
    # 002: abstaining is forbidden; the silent go to the last candidate.
    silent = tuple(p for p in state.alive if may_vote(ctx, p))
    for voter in silent:
        state.voted[voter] = candidate
    counts = Counter(state.voted.values())
    state.votes = {p: counts[p] for p in state.candidates if counts[p]}
    _resolve(ctx, silent)


def _resolve(ctx: Ctx, silent: tuple[str, ...]) -> None:
    state = ctx.state
    counts = state.votes
    tally = tuple((p, counts.get(p, 0)) for p in state.candidates)
    top = max(c for _, c in tally)
    leaders = tuple(p for p, c in tally if c == top)
    if len(leaders) == 1:
        ctx.emit(
            EventKind.VOTE_RESULT,
            PUBLIC,
            tally=tally,
            target=leaders[0],
            outcome="eliminated",
            players=silent,
        )
        _eliminate_and_close(ctx, leaders[0], Cause.VOTE)
    elif len(leaders) > 2:
        if state.vote_round is VoteRound.FIRST:
            ctx.emit(EventKind.VOTE_RESULT, PUBLIC, tally=tally, outcome="revote", players=leaders)
            start_round(ctx, leaders, VoteRound.REVOTE)
        else:
            ctx.emit(EventKind.VOTE_RESULT, PUBLIC, tally=tally, outcome="nobody", players=leaders)
            _close(ctx)
    elif state.vote_round is not VoteRound.REPEAT:
        ctx.emit(EventKind.VOTE_RESULT, PUBLIC, tally=tally, outcome="last_words", players=leaders)
        state.candidates = leaders
        state.last_words = leaders
        next_last_word(ctx)
    else:
        ctx.emit(EventKind.VOTE_RESULT, PUBLIC, tally=tally, outcome="decide", players=leaders)
        _ask_decider(ctx, leaders)


def next_last_word(ctx: Ctx) -> None:
    state = ctx.state
    queue = tuple(p for p in state.last_words if state.is_alive(p))
    if not queue:
        state.last_words = ()
        start_round(ctx, state.candidates, VoteRound.REPEAT)
        return
    state.last_words = queue[1:]
    day.give_floor(ctx, queue[0], Stage.LAST_WORD, ctx.option_int("last_word_seconds"))


def decider_for(ctx: Ctx) -> str | None:
    """002: the town player killed in the night before this day; of two, the
    one killed last (the maniac's victim). A blocked one may not decide."""
    victims = ctx.state.night_victims
    if not victims or ctx.state.is_blocked(victims[-1]):
        return None
    return victims[-1]


def _ask_decider(ctx: Ctx, leaders: tuple[str, ...]) -> None:
    state = ctx.state
    decider = decider_for(ctx)
    if decider is None:
        ctx.emit(EventKind.NO_VOTE, PUBLIC, outcome="no_decider", players=leaders)
        _close(ctx)
        return
    state.candidates = leaders
    state.decider = decider
    state.speaker = decider
    seconds = ctx.option_int("last_word_seconds")
    ctx.start_timer(Stage.DECIDE, seconds)
    ctx.emit(EventKind.DECIDE_REQUESTED, PUBLIC, player=decider, players=leaders, seconds=seconds)
    ctx.emit(
        EventKind.DECIDE_REQUESTED,
        private(decider),
        player=decider,
        players=leaders,
        seconds=seconds,
        flag=True,
    )


def decide(ctx: Ctx, action: Decide) -> None:
    state = ctx.state
    if state.stage is not Stage.DECIDE or action.actor != state.decider:
        raise IllegalAction("not_decider", f"{action.actor} does not cast the deciding vote")
    if action.target not in state.candidates:
        raise IllegalAction("bad_target", f"{action.target} is not one of the two")
    ctx.emit(
        EventKind.VOTE_RESULT, PUBLIC, target=action.target, outcome="decided", player=action.actor
    )
    _eliminate_and_close(ctx, action.target, Cause.VOTE)


def decide_timeout(ctx: Ctx) -> None:
    ctx.emit(EventKind.NO_VOTE, PUBLIC, outcome="no_decision", players=ctx.state.candidates)
    _close(ctx)


def _eliminate_and_close(ctx: Ctx, player: str, cause: Cause) -> None:
    # The block ends with the day's voting, before the win is checked.
    ctx.state.blocked = ()
    eliminate(ctx, player, cause)
    if not check_win(ctx, at_dawn=False):
        day.end_day(ctx)


def _close(ctx: Ctx) -> None:
    day.end_day(ctx)


def candidate_removed(ctx: Ctx, player: str) -> None:
    """A candidate went out by warnings: that round starts again among the
    candidates left (RULES.md)."""
    state = ctx.state
    remaining = tuple(p for p in state.candidates if p != player)
    if state.stage is Stage.LAST_WORD:
        state.candidates = remaining
        if state.speaker == player:
            next_last_word(ctx)
        return
    start_round(ctx, remaining, state.vote_round)
