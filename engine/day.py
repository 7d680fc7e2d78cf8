"""The day: the floor (introductions, speeches, nominations) for moscow and
club, free discussion for classic and party, and the way into the night."""

from __future__ import annotations

from collections.abc import Iterable

from engine import openvote
from engine.actions import Action, Nominate, Pass
from engine.context import Ctx, Entry
from engine.errors import IllegalAction
from engine.events import PUBLIC, FloorGiven, Nominated
from engine.moves import Move
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


def next_speaker(ctx: Ctx) -> str | None:
    """Who speaks after the current speech or introduction (last words
    have their own order); None after the last one."""
    state = ctx.state
    if state.stage not in (Stage.INTRO, Stage.SPEECH):
        return None
    for player in state.speaking_order[state.floor_index + 1 :]:
        if may_speak(ctx, player):
            return player
    return None


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
        ctx.go(Entry.END_DAY if is_intro_day(ctx) else Entry.VOTING)
        return
    state.floor_index = index
    stage = Stage.INTRO if is_intro_day(ctx) else Stage.SPEECH
    seconds = ctx.option_int("intro_seconds" if stage is Stage.INTRO else "speech_seconds")
    give_floor(ctx, order[index], stage, seconds)


def give_floor(ctx: Ctx, player: str, stage: Stage, seconds: int) -> None:
    state = ctx.state
    state.speaker = player
    state.nominated_this_floor = False
    ctx.enter(stage, seconds)
    ctx.emit(
        FloorGiven(
            audience=PUBLIC, player=player, stage=stage.value, seconds=seconds, day=state.day
        )
    )


def end_day(ctx: Ctx) -> None:
    """The day's voting is over: the block ends, and night falls."""
    state = ctx.state
    state.blocked = ()
    state.speaker = None
    state.decider = None
    state.last_words = ()
    ctx.go(Entry.NIGHT)


# ----- the floor's moves -------------------------------------------------------------


def check_pass(ctx: Ctx, action: Pass) -> None:
    state = ctx.state
    if state.stage not in FLOOR_STAGES or state.speaker != action.actor:
        raise IllegalAction("not_your_floor", f"{action.actor} does not hold the floor")


def pass_floor(ctx: Ctx, action: Pass) -> None:
    ctx.go(Entry.END_FLOOR)


def pass_candidates(ctx: Ctx) -> Iterable[Action]:
    speaker = ctx.state.speaker
    return (Pass(speaker),) if speaker is not None else ()


def check_nominate(ctx: Ctx, action: Nominate) -> None:
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


def nominate(ctx: Ctx, action: Nominate) -> None:
    state = ctx.state
    state.nominees = (*state.nominees, action.target)
    state.nominated_this_floor = True
    ctx.emit(
        Nominated(
            audience=PUBLIC, player=action.actor, target=action.target, nominees=state.nominees
        )
    )


def nominate_candidates(ctx: Ctx) -> Iterable[Action]:
    speaker = ctx.state.speaker
    if speaker is None:
        return ()
    return (Nominate(speaker, target) for target in ctx.state.alive)


PASS = Move(Pass, check_pass, pass_floor, pass_candidates)
NOMINATE = Move(Nominate, check_nominate, nominate, nominate_candidates)
