"""Posts in the group: who may post when, deletions, warnings, and the thanks
word that ends a floor."""

from __future__ import annotations

from engine import fouls, handvote, night
from engine.actions import HOST, Depart, Say
from engine.context import Ctx, Entry
from engine.errors import IllegalAction, Reason
from engine.events import PUBLIC, PostDeleted, Warned
from engine.lifecycle import check_win, eliminate
from engine.state import FLOOR_STAGES, Cause, FloorMode, Stage
from engine.thanks import says_thanks
from engine.vocab import Breach

FREE_STAGES = frozenset({Stage.DISCUSSION, Stage.BALLOT, Stage.CONFIRM, Stage.ENDED})
VOTE_STAGES = frozenset({Stage.VOTE, Stage.DECIDE, Stage.LIFT})


def say(ctx: Ctx, action: Say) -> None:
    state = ctx.state
    player = action.actor
    if player == HOST:
        return  # the host speaks freely
    if player not in state.table.roles:
        raise IllegalAction(Reason.NOT_A_PLAYER, f"{player} is not in this game")
    if state.stage in (Stage.CONFIRM, Stage.ENDED):
        return
    # The floor holder speaks (a sport farewell's holder although dead), unless
    # the floor is silent.
    holds_floor = state.stage in FLOOR_STAGES and state.day.speaker == player
    if holds_floor and state.day.floor_mode is not FloorMode.SILENT:
        if state.options.get("thanks_rule") and says_thanks(action.text, state.language):
            ctx.go(Entry.END_FLOOR)
        return
    if not state.table.is_alive(player):
        _delete(ctx, player, Breach.DEAD)
        return
    if state.stage in FREE_STAGES and not state.is_blocked(player):
        return
    reason = _why_out_of_turn(ctx, player)
    _delete(ctx, player, reason)
    if ctx.variant.has_warnings:
        warn(ctx, player, reason)


def _why_out_of_turn(ctx: Ctx, player: str) -> Breach:
    """What a warning says: on one's own silent floor, at night, during a
    vote, after one's own floor, blocked for the day, or on someone else's floor."""
    state = ctx.state
    if state.day.speaker == player and state.stage in FLOOR_STAGES:
        return Breach.SILENT
    if state.stage is Stage.NIGHT:
        return Breach.NIGHT
    if state.stage in VOTE_STAGES:
        return Breach.DURING_VOTE
    if state.is_blocked(player):
        return Breach.BLOCKED
    spoken = state.day.speaking_order[: max(0, state.day.floor_index)]
    if state.stage in (Stage.INTRO, Stage.SPEECH) and player in spoken:
        return Breach.AFTER_FLOOR
    return Breach.OUT_OF_TURN


def _delete(ctx: Ctx, player: str, reason: Breach) -> None:
    ctx.state.table.deleted += 1
    ctx.emit(PostDeleted(audience=PUBLIC, player=player, reason=reason))


def warn(ctx: Ctx, player: str, reason: Breach) -> None:
    if ctx.variant.has_fouls:
        fouls.foul(ctx, player, reason)
        return
    state = ctx.state
    count = state.table.warnings.get(player, 0) + 1
    state.table.warnings[player] = count
    limit = ctx.option_int("warnings_limit")
    ctx.emit(Warned(audience=PUBLIC, player=player, count=count, limit=limit, reason=reason))
    if limit and count >= limit:
        remove(ctx, player, Cause.WARNINGS)


def depart(ctx: Ctx, action: Depart) -> None:
    """A player who left the group is out at once, wherever the game is."""
    state = ctx.state
    if action.actor not in state.table.roles:
        raise IllegalAction(Reason.NOT_A_PLAYER, f"{action.actor} is not in this game")
    if state.is_over:
        raise IllegalAction(Reason.GAME_OVER, "the game is over")
    if not state.table.is_alive(action.actor):
        raise IllegalAction(Reason.DEAD, f"{action.actor} is out of the game already")
    if ctx.variant.has_fouls:
        fouls.remove(ctx, action.actor, Cause.DEPARTED)  # sport: as a removal, the vote falls
    else:
        remove(ctx, action.actor, Cause.DEPARTED)


def remove(ctx: Ctx, player: str, cause: Cause) -> None:
    """The player is out mid-stage (warnings, or gone from the group); the
    stage goes on without them."""
    state = ctx.state
    stage = state.stage
    was_speaker = state.day.speaker == player
    was_candidate = player in state.vote.candidates and stage in (
        Stage.VOTE,
        Stage.LAST_WORD,
        Stage.DECIDE,
    )
    eliminate(ctx, player, cause)
    if check_win(ctx, at_dawn=False):
        return
    if was_candidate:
        handvote.candidate_removed(ctx, player)
    elif stage in FLOOR_STAGES and was_speaker:
        ctx.go(Entry.END_FLOOR)
    elif stage is Stage.NIGHT and night.all_chosen(ctx):
        ctx.go(Entry.DAWN)
