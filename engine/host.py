"""What a human host may do: warn, pause, resume, extend, skip, confirm."""

from __future__ import annotations

from engine import day, posts
from engine.actions import (
    HOST,
    Action,
    HostConfirm,
    HostExtend,
    HostPause,
    HostResume,
    HostSkip,
    HostWarn,
)
from engine.context import Ctx
from engine.errors import IllegalAction
from engine.events import PUBLIC, EventKind
from engine.lifecycle import end_game
from engine.state import FLOOR_STAGES, Stage

EXTEND_SECONDS = 30


def host_act(ctx: Ctx, action: Action) -> None:
    state = ctx.state
    if not state.human_host or action.actor != HOST:
        raise IllegalAction("not_host", "only a human host may do this")
    if isinstance(action, HostConfirm):
        if state.stage is not Stage.CONFIRM or state.pending_winner is None:
            raise IllegalAction("nothing_to_confirm", "no side has won yet")
        end_game(ctx, state.pending_winner)
        return
    if state.is_over:
        raise IllegalAction("game_over", "the game is over")
    if isinstance(action, HostWarn):
        if not ctx.variant.has_warnings:
            raise IllegalAction("no_warnings", "this variant has no warnings")
        if not state.is_alive(action.target):
            raise IllegalAction("bad_target", f"{action.target} is not a living player")
        posts.warn(ctx, action.target)
    elif isinstance(action, HostPause):
        if state.timer_seconds is None:
            raise IllegalAction("no_timer", "no timer is running")
        if state.paused:
            raise IllegalAction("paused", "the timer is paused already")
        state.paused = True
        ctx.emit(EventKind.TIMER, PUBLIC, outcome="paused")
    elif isinstance(action, HostResume):
        if not state.paused:
            raise IllegalAction("not_paused", "the timer is running")
        state.paused = False
        ctx.emit(EventKind.TIMER, PUBLIC, outcome="resumed")
    elif isinstance(action, HostExtend):
        if state.timer_seconds is None:
            raise IllegalAction("no_timer", "no timer is running")
        # A new timer id: the shell re-arms the deadline later by this much.
        state.timer_id += 1
        state.timer_seconds += EXTEND_SECONDS
        ctx.emit(EventKind.TIMER, PUBLIC, outcome="extended", seconds=EXTEND_SECONDS)
    elif isinstance(action, HostSkip):
        if state.stage not in FLOOR_STAGES:
            raise IllegalAction("no_floor", "nobody holds the floor")
        day.end_floor(ctx)
    else:
        raise IllegalAction("unknown", f"unknown host action {action.verb}")
