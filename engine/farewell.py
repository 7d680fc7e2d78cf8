"""sport's farewell: a floor for each player who has just left the table
(the night's victim at the start of the day, the eliminated after the
vote), and the best move of the player killed on the first night with a
shot: one to three names, shown and recorded, changing nothing."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from engine import day
from engine.actions import Action, Best
from engine.context import Ctx
from engine.errors import IllegalAction, Reason
from engine.events import (
    PUBLIC,
    BestMoveAsked,
    BestMoveLapsed,
    BestMoveMade,
    FarewellGiven,
    private,
)
from engine.lifecycle import voting_over
from engine.moves import Move
from engine.state import Cause, Stage

BEST_MOVE_MOST = 3  # names in a best move
BEST_MOVE_LOST_AFTER = 2  # this many out by day 1's vote: no best move


def at_dawn(ctx: Ctx, victims: tuple[str, ...]) -> None:
    """Before the day begins: the victims' farewells, and whether the one
    killed on the first night with a shot has a best move."""
    state = ctx.state
    if not ctx.variant.has_farewells:
        return
    state.day.farewells = victims
    first_shot_night = 2 if ctx.variant.quiet_first_night else 1
    if not ctx.variant.has_best_move or state.night.number != first_shot_night or not victims:
        return
    # state.day.eliminated still holds those out since the last dawn: day 1's.
    voted_out = sum(1 for p in state.day.eliminated if state.table.dead[p] is Cause.VOTE)
    if voted_out < BEST_MOVE_LOST_AFTER:
        state.day.best_mover = victims[0]


def close_day(ctx: Ctx) -> None:
    """The day's voting is over: the farewells of those it eliminated, then night."""
    voting_over(ctx.state)
    if ctx.state.day.farewells:
        next_farewell(ctx)
    else:
        day.end_day(ctx)


def end_farewell(ctx: Ctx) -> None:
    """The holder is done (pass, thanks, timeout, host skip)."""
    state = ctx.state
    holder = state.day.speaker
    if holder is not None and holder == state.day.best_mover and not state.day.best_move:
        ctx.emit(BestMoveLapsed(audience=private(holder), player=holder))
    next_farewell(ctx)


def next_farewell(ctx: Ctx) -> None:
    """The next farewell; after the last, the morning's speeches begin, or
    after the vote night falls."""
    state = ctx.state
    if not state.day.farewells:
        if state.day.speaking_order:  # set when the speeches began: this is the evening
            day.end_day(ctx)
        else:
            day.begin_speeches(ctx)
        return
    holder, state.day.farewells = state.day.farewells[0], state.day.farewells[1:]
    seconds = ctx.option_int("speech_seconds")
    day.take_floor(ctx, holder, Stage.FAREWELL, seconds)
    best = may_make_best_move(ctx, holder)
    ctx.emit(
        FarewellGiven(
            audience=PUBLIC, player=holder, seconds=seconds, day=state.day.number, best_move=best
        )
    )
    if best:
        ctx.emit(
            BestMoveAsked(
                audience=private(holder),
                player=holder,
                choices=state.table.alive,
                most=BEST_MOVE_MOST,
            )
        )


def may_make_best_move(ctx: Ctx, player: str) -> bool:
    state = ctx.state
    return (
        state.stage is Stage.FAREWELL
        and state.day.speaker == player
        and state.day.best_mover == player
        and not state.day.best_move
    )


# ----- the best move ---------------------------------------------------------------------


def check_best(ctx: Ctx, action: Best) -> None:
    state = ctx.state
    if action.actor != state.day.best_mover:
        raise IllegalAction(Reason.NO_BEST_MOVE, f"{action.actor} has no best move")
    if state.stage is not Stage.FAREWELL or state.day.speaker != action.actor:
        raise IllegalAction(Reason.NOT_YOUR_FLOOR, "the best move is made during one's farewell")
    if state.day.best_move:
        raise IllegalAction(Reason.BEST_MOVE_MADE, "the best move is made once")
    targets = action.targets
    if not 1 <= len(targets) <= BEST_MOVE_MOST:
        raise IllegalAction(Reason.BEST_MOVE_SIZE, f"name one to {BEST_MOVE_MOST} players")
    if len(set(targets)) != len(targets):
        raise IllegalAction(Reason.BAD_TARGET, "a player is named twice")
    for target in targets:
        if target == action.actor:
            raise IllegalAction(Reason.SELF_TARGET, "the best move names other players")
        if not state.table.is_alive(target):
            raise IllegalAction(Reason.BAD_TARGET, f"{target} is not a living player")


def best_move(ctx: Ctx, action: Best) -> None:
    ctx.state.day.best_move = action.targets
    ctx.emit(BestMoveMade(audience=PUBLIC, player=action.actor, targets=action.targets))


def best_candidates(ctx: Ctx) -> Iterable[Action]:
    """Every set of one to three living players, in seat order (the order
    the shell sends them in; the rules take any order)."""
    state = ctx.state
    holder = state.day.best_mover
    if holder is None or not may_make_best_move(ctx, holder):
        return
    for size in range(1, BEST_MOVE_MOST + 1):
        for targets in combinations(state.table.alive, size):
            yield Best(holder, targets)


BEST = Move(Best, check_best, best_move, best_candidates)
