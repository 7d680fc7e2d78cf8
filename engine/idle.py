"""Idle players (bot host only): a living player's own turn — their floor,
or a night move they were asked for — that ends on its timer with no action
at all from them is an idle turn. After each one short of `idle_limit` they
are reminded in private; at the limit, in a row, they are out as a player
out by warnings (sport: by fouls) is. An action on their own turn resets
the count. While no player at all plays, nobody is singled out: the whole
table is idle, and engine/abandon.py ends the game."""

from __future__ import annotations

from engine import abandon, fouls, night, posts
from engine.context import Ctx, Entry
from engine.events import IdleReminded, private
from engine.state import FLOOR_STAGES, Cause


def limit(ctx: Ctx) -> int:
    """0: the rule is off (also with a human host, who sees the table and warns)."""
    return 0 if ctx.state.human_host else ctx.later_option("idle_limit")


def on_own_turn(ctx: Ctx, player: str) -> bool:
    state = ctx.state
    if state.stage in FLOOR_STAGES:
        return state.day.speaker == player
    return bool(night.actor_moves(ctx, player))


def note_action(ctx: Ctx, player: str) -> None:
    """An action of `player`, before it is played: on their own turn they
    are present for this step, and no longer idle."""
    state = ctx.state
    if state.is_over or not on_own_turn(ctx, player):
        return
    state.activity.present = state.activity.present | {player}
    if player in state.activity.idle:
        state.activity.idle = {p: n for p, n in state.activity.idle.items() if p != player}


def floor_timeout(ctx: Ctx) -> None:
    """The floor's timer: an idle holder first, then the floor passes (unless
    putting the holder out already moved the game on)."""
    state = ctx.state
    step, holder = state.step, state.day.speaker
    if holder is not None and state.table.is_alive(holder) and holder not in state.activity.present:
        lapse(ctx, holder)
    if state.step == step and not state.is_over:
        ctx.go(Entry.END_FLOOR)


def night_timeout(ctx: Ctx) -> None:
    """The night's timer: those asked for a move who made none are idle; the
    ones out leave before dawn, so the shot needs only the living."""
    state = ctx.state
    step = state.step
    asked = [
        p
        for p in state.table.alive
        if night.actor_moves(ctx, p) and p not in state.activity.present
    ]
    for player in asked:
        if state.is_over:
            return
        lapse(ctx, player)
    if state.step == step and not state.is_over:
        ctx.go(Entry.DAWN)


def lapse(ctx: Ctx, player: str) -> None:
    """One more idle turn of `player`: a reminder, or out at the limit. When
    nobody at all plays, nobody is singled out: the game will be abandoned."""
    most = limit(ctx)
    if not most or abandon.table_idle(ctx):
        return
    state = ctx.state
    count = state.activity.idle.get(player, 0) + 1
    state.activity.idle = {**state.activity.idle, player: count}
    if count < most:
        ctx.emit(IdleReminded(audience=private(player), player=player, count=count, limit=most))
    elif ctx.variant.has_fouls:
        fouls.remove(ctx, player, Cause.IDLE)  # sport: as a removal, a vote falls
    else:
        posts.remove(ctx, player, Cause.IDLE)
