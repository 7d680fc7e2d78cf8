"""Abandoned games: when no player acts during a whole day and a whole
night, in either order, ended by their timers, the game ends with no
winner. A night counts only if someone was asked for a move in it (the
first nights of classic, moscow, club and sport ask nobody, so their
silence says nothing). A human host's moves are not a player's: a table
where no player acts is dead either way."""

from __future__ import annotations

from collections.abc import Callable

from engine.context import Ctx
from engine.lifecycle import abandon
from engine.state import Phase

WHOLE_TABLE_ROUND = frozenset({Phase.DAY.value, Phase.NIGHT.value})


def table_idle(ctx: Ctx) -> bool:
    """No player has acted since before the phase before this one began: the
    whole table is idle (and no one player is singled out for it)."""
    return ctx.state.activity.calm_phases >= 2


def note_action(ctx: Ctx) -> None:
    state = ctx.state
    state.activity.calm_phases = 0
    state.activity.quiet = frozenset()


def _asked_somebody(ctx: Ctx) -> bool:
    """The night that has just ended had a move for somebody."""
    state = ctx.state
    at_night = (*state.table.alive, *state.night.announced)  # the living, and those killed at dawn
    return any(ctx.variant.night_moves(state.table.roles[p], state.night.number) for p in at_night)


def phase_begins(ended: Phase, start: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
    """`start` (night falls, or the day after dawn), unless no player has
    acted since before the `ended` phase began, and that made a whole day
    and night: then the game is abandoned."""

    def begin(ctx: Ctx) -> None:
        state = ctx.state
        state.activity.calm_phases += 1
        whole = table_idle(ctx)  # the phase that has just ended passed whole
        if whole and (ended is Phase.DAY or _asked_somebody(ctx)):
            state.activity.quiet = state.activity.quiet | {ended.value}
        if state.activity.quiet >= WHOLE_TABLE_ROUND:
            abandon(ctx)
        else:
            start(ctx)

    return begin
