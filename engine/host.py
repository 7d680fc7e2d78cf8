"""What a human host may do: warn, pause, resume, extend, skip, confirm."""

from __future__ import annotations

from collections.abc import Iterable

from engine import posts
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
from engine.context import Ctx, Entry
from engine.errors import IllegalAction, Reason
from engine.events import PUBLIC, TimerChanged
from engine.lifecycle import end_game
from engine.moves import Move
from engine.state import FLOOR_STAGES, Stage
from engine.vocab import Breach, TimerChange

EXTEND_SECONDS = 30


def _check_host(ctx: Ctx, action: Action) -> None:
    if not ctx.state.human_host or action.actor != HOST:
        raise IllegalAction(Reason.NOT_HOST, "only a human host may do this")


def _check_running(ctx: Ctx, action: Action) -> None:
    _check_host(ctx, action)
    if ctx.state.is_over:
        raise IllegalAction(Reason.GAME_OVER, "the game is over")


def _check_timer(ctx: Ctx, action: Action) -> None:
    _check_running(ctx, action)
    if ctx.state.clock.timer_seconds is None:
        raise IllegalAction(Reason.NO_TIMER, "no timer is running")


def check_confirm(ctx: Ctx, action: HostConfirm) -> None:
    _check_host(ctx, action)
    if ctx.state.stage is not Stage.CONFIRM or ctx.state.outcome.pending_winner is None:
        raise IllegalAction(Reason.NOTHING_TO_CONFIRM, "no side has won yet")


def confirm(ctx: Ctx, action: HostConfirm) -> None:
    assert ctx.state.outcome.pending_winner is not None
    end_game(ctx, ctx.state.outcome.pending_winner)


def confirm_timeout(ctx: Ctx) -> None:
    """The host stayed silent for confirm_seconds: the win stands."""
    assert ctx.state.outcome.pending_winner is not None
    end_game(ctx, ctx.state.outcome.pending_winner)


def pause_timeout(ctx: Ctx) -> None:
    """The pause's limit (pause_limit) ran out: the timer runs on from where it stopped."""
    ctx.state.clock.paused = False
    ctx.emit(TimerChanged(audience=PUBLIC, change=TimerChange.UNPAUSED))


def check_warn(ctx: Ctx, action: HostWarn) -> None:
    _check_running(ctx, action)
    if not ctx.variant.has_warnings:
        raise IllegalAction(Reason.NO_WARNINGS, "this variant has no warnings")
    if not ctx.state.table.is_alive(action.target):
        raise IllegalAction(Reason.BAD_TARGET, f"{action.target} is not a living player")


def host_warn(ctx: Ctx, action: HostWarn) -> None:
    posts.warn(ctx, action.target, Breach.HOST)


def check_pause(ctx: Ctx, action: HostPause) -> None:
    _check_timer(ctx, action)
    if ctx.state.clock.paused:
        raise IllegalAction(Reason.PAUSED, "the timer is paused already")


def pause(ctx: Ctx, action: HostPause) -> None:
    # The pause's limit is a timer of its own: a late firing of the stage's is stale.
    ctx.state.clock.timer_id += 1
    ctx.state.clock.paused = True
    ctx.emit(TimerChanged(audience=PUBLIC, change=TimerChange.PAUSED))


def check_resume(ctx: Ctx, action: HostResume) -> None:
    _check_running(ctx, action)
    if not ctx.state.clock.paused:
        raise IllegalAction(Reason.NOT_PAUSED, "the timer is running")


def resume(ctx: Ctx, action: HostResume) -> None:
    ctx.state.clock.paused = False
    ctx.emit(TimerChanged(audience=PUBLIC, change=TimerChange.RESUMED))


def extend(ctx: Ctx, action: HostExtend) -> None:
    # A new timer id (the same step): the shell moves the deadline by this much.
    state = ctx.state
    assert state.clock.timer_seconds is not None
    state.clock.timer_id += 1
    state.clock.timer_seconds += EXTEND_SECONDS
    ctx.emit(TimerChanged(audience=PUBLIC, change=TimerChange.EXTENDED, seconds=EXTEND_SECONDS))


def check_skip(ctx: Ctx, action: HostSkip) -> None:
    _check_running(ctx, action)
    if ctx.state.stage not in FLOOR_STAGES:
        raise IllegalAction(Reason.NO_FLOOR, "nobody holds the floor")


def skip(ctx: Ctx, action: HostSkip) -> None:
    ctx.go(Entry.END_FLOOR)


def _warn_candidates(ctx: Ctx) -> Iterable[Action]:
    return (HostWarn(HOST, p) for p in ctx.state.table.seats)


def _pause_candidates(ctx: Ctx) -> Iterable[Action]:
    return (HostPause(HOST),)


def _resume_candidates(ctx: Ctx) -> Iterable[Action]:
    return (HostResume(HOST),)


def _extend_candidates(ctx: Ctx) -> Iterable[Action]:
    return (HostExtend(HOST),)


def _skip_candidates(ctx: Ctx) -> Iterable[Action]:
    return (HostSkip(HOST),)


def _confirm_candidates(ctx: Ctx) -> Iterable[Action]:
    return (HostConfirm(HOST),)


MOVES = (
    Move(HostWarn, check_warn, host_warn, _warn_candidates),
    Move(HostPause, check_pause, pause, _pause_candidates),
    Move(HostResume, check_resume, resume, _resume_candidates),
    Move(HostExtend, _check_timer, extend, _extend_candidates),
    Move(HostSkip, check_skip, skip, _skip_candidates),
    Move(HostConfirm, check_confirm, confirm, _confirm_candidates),
)
