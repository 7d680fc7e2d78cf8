"""The day: the floor (introductions, speeches, nominations) for moscow and
club, free discussion for classic and party, and the way into the night."""

from __future__ import annotations

from engine import handvote, night, openvote
from engine.actions import Nominate, Pass
from engine.context import Ctx
from engine.errors import IllegalAction
from engine.events import PUBLIC, EventKind
from engine.state import FLOOR_STAGES, Phase, Stage
from engine.variants import DayMode


def start_day(ctx: Ctx) -> None:
    """The day after the morning announcement (or moscow's first day)."""
    state = ctx.state
    state.phase = Phase.DAY
    state.nominees = ()
    state.candidates = ()
    state.ballots = {}
    if ctx.variant.day_mode is DayMode.SPEECHES:
        seats = len(state.seats)
        first = (state.day - 1) % seats
        state.speaking_order = state.seats[first:] + state.seats[:first]
        state.floor_index = -1
        next_floor(ctx)
    else:
        openvote.start_discussion(ctx)


def is_intro_day(ctx: Ctx) -> bool:
    return ctx.variant.starts_with_day and ctx.state.day == 1


def may_speak(ctx: Ctx, player: str) -> bool:
    return ctx.state.is_alive(player) and not ctx.state.is_blocked(player)


def next_floor(ctx: Ctx) -> None:
    """Give the floor to the next seat whose player may speak, or, when the
    table has been round, move on to the vote (or the night)."""
    state = ctx.state
    order = state.speaking_order
    index = state.floor_index + 1
    while index < len(order) and not may_speak(ctx, order[index]):
        index += 1
    if index >= len(order):
        state.speaker = None
        state.floor_index = len(order)
        if is_intro_day(ctx):
            end_day(ctx)
        else:
            handvote.open_voting(ctx)
        return
    state.floor_index = index
    stage = Stage.INTRO if is_intro_day(ctx) else Stage.SPEECH
    seconds = ctx.option_int("intro_seconds" if stage is Stage.INTRO else "speech_seconds")
    give_floor(ctx, order[index], stage, seconds)


def give_floor(ctx: Ctx, player: str, stage: Stage, seconds: int) -> None:
    state = ctx.state
    state.speaker = player
    state.nominated_this_floor = False
    ctx.start_timer(stage, seconds)
    ctx.emit(
        EventKind.FLOOR, PUBLIC, player=player, stage=stage.value, seconds=seconds, number=state.day
    )


def end_floor(ctx: Ctx) -> None:
    """The floor holder is done (pass, thanks, timeout, host skip, or out)."""
    if ctx.state.stage is Stage.LAST_WORD:
        handvote.next_last_word(ctx)
    else:
        next_floor(ctx)


def pass_floor(ctx: Ctx, action: Pass) -> None:
    state = ctx.state
    if state.stage not in FLOOR_STAGES or state.speaker != action.actor:
        raise IllegalAction("not_your_floor", f"{action.actor} does not hold the floor")
    end_floor(ctx)


def nominate(ctx: Ctx, action: Nominate) -> None:
    state = ctx.state
    if state.stage is not Stage.SPEECH or state.speaker != action.actor:
        raise IllegalAction("not_your_floor", "only the speaker nominates, during a speech")
    if state.nominated_this_floor:
        raise IllegalAction("already_nominated", "one nomination per speech")
    if action.target == action.actor:
        raise IllegalAction("self_target", "a speaker may not nominate themselves")
    if not state.is_alive(action.target):
        raise IllegalAction("bad_target", f"{action.target} is not a living player")
    if action.target in state.nominees:
        raise IllegalAction("already_nominee", f"{action.target} is nominated already")
    state.nominees = (*state.nominees, action.target)
    state.nominated_this_floor = True
    ctx.emit(
        EventKind.NOMINATED,
        PUBLIC,
        player=action.actor,
        target=action.target,
        players=state.nominees,
    )


def end_day(ctx: Ctx) -> None:
    """The day's voting is over: the block ends, and night falls."""
    state = ctx.state
    state.blocked = ()
    state.speaker = None
    state.decider = None
    state.last_words = ()
    night.start_night(ctx)
