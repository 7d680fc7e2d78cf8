"""Posts in the group: who may post when, deletions, warnings, and the thanks
word that ends a floor."""

from __future__ import annotations

from engine import day, handvote, night
from engine.actions import HOST, Say
from engine.context import Ctx
from engine.errors import IllegalAction
from engine.events import PUBLIC, EventKind
from engine.lifecycle import check_win, eliminate
from engine.state import FLOOR_STAGES, Cause, Stage
from engine.thanks import says_thanks

FREE_STAGES = frozenset({Stage.DISCUSSION, Stage.BALLOT, Stage.CONFIRM, Stage.ENDED})


def say(ctx: Ctx, action: Say) -> None:
    state = ctx.state
    player = action.actor
    if player == HOST:
        return  # the host speaks freely
    if player not in state.roles:
        raise IllegalAction("not_a_player", f"{player} is not in this game")
    if state.stage in (Stage.CONFIRM, Stage.ENDED):
        return
    if not state.is_alive(player):
        _delete(ctx, player, "dead")
        return
    if state.stage in FREE_STAGES and not state.is_blocked(player):
        return
    if state.stage in FLOOR_STAGES and state.speaker == player:
        if state.options.get("thanks_rule") and says_thanks(action.text, state.language):
            day.end_floor(ctx)
        return
    reason = "night" if state.stage is Stage.NIGHT else "out_of_turn"
    _delete(ctx, player, reason)
    if ctx.variant.has_warnings:
        warn(ctx, player)


def _delete(ctx: Ctx, player: str, reason: str) -> None:
    ctx.state.deleted += 1
    ctx.emit(EventKind.POST_DELETED, PUBLIC, player=player, outcome=reason)


def warn(ctx: Ctx, player: str) -> None:
    state = ctx.state
    count = state.warnings.get(player, 0) + 1
    state.warnings[player] = count
    limit = ctx.option_int("warnings_limit")
    ctx.emit(EventKind.WARNED, PUBLIC, player=player, count=count, number=limit)
    if limit and count >= limit:
        remove_by_warnings(ctx, player)


def remove_by_warnings(ctx: Ctx, player: str) -> None:
    """The player is out mid-stage; the stage goes on without them."""
    state = ctx.state
    stage = state.stage
    was_speaker = state.speaker == player
    was_candidate = player in state.candidates and stage in (
        Stage.VOTE,
        Stage.LAST_WORD,
        Stage.DECIDE,
    )
    eliminate(ctx, player, Cause.WARNINGS)
    if check_win(ctx, at_dawn=False):
        return
    if was_candidate:
        handvote.candidate_removed(ctx, player)
    elif stage in FLOOR_STAGES and was_speaker:
        day.end_floor(ctx)
    elif stage is Stage.NIGHT and night.all_chosen(ctx):
        night.dawn(ctx)
