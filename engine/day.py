"""The day: the floor (introductions, speeches, nominations) for moscow,
club and sport, free discussion for classic and party, and the way into the
night."""

from __future__ import annotations

from collections.abc import Iterable

from engine import openvote
from engine.actions import Action, Nominate, Pass
from engine.context import Ctx, Entry
from engine.errors import IllegalAction, Reason
from engine.events import PUBLIC, FloorGiven, Nominated
from engine.moves import Move
from engine.state import FLOOR_STAGES, FloorMode, Phase, Stage
from engine.variants import DayMode, Rotation

SHORT_SPEECH_TABLE = 4  # sport: a silent speech with this many alive or fewer is a short one


def start_day(ctx: Ctx) -> None:
    """The day after the morning announcement (or moscow's first day): in
    sport the night's victim first holds the farewell floor."""
    state = ctx.state
    state.phase = Phase.DAY
    state.day.nominees = ()
    state.vote.candidates = ()
    state.vote.ballots = {}
    if ctx.variant.day_mode is not DayMode.SPEECHES:
        openvote.start_discussion(ctx)
        return
    state.day.speaking_order = ()  # set when the speeches begin
    state.day.floor_index = -1
    if state.day.farewells:
        ctx.go(Entry.FAREWELL)
    else:
        begin_speeches(ctx)


def begin_speeches(ctx: Ctx) -> None:
    state = ctx.state
    state.day.speaking_order = speaking_order(ctx)
    state.day.opener = state.day.speaking_order[
        0
    ]  # sport's rotation starts after this seat tomorrow
    state.day.floor_index = -1
    next_floor(ctx)


def speaking_order(ctx: Ctx) -> tuple[str, ...]:
    """Every seat, from the one that opens the day. moscow and club: day N
    opens at seat N (the dead are skipped as the floor goes round). sport:
    day 1 at seat 1, each later day at the first seat after yesterday's
    opener whose player is alive now."""
    state = ctx.state
    seats = state.table.seats
    if ctx.variant.rotation is Rotation.AFTER_OPENER:
        start = 0 if state.day.opener is None else seats.index(state.day.opener) + 1
        after = [seats[i % len(seats)] for i in range(start, start + len(seats))]
        first = seats.index(next(p for p in after if state.table.is_alive(p)))
    else:
        first = (state.day.number - 1) % len(seats)
    return seats[first:] + seats[:first]


def is_intro_day(ctx: Ctx) -> bool:
    return ctx.variant.starts_with_day and ctx.state.day.number == 1


def may_speak(ctx: Ctx, player: str) -> bool:
    return ctx.state.table.is_alive(player) and not ctx.state.is_blocked(player)


def next_speaker(ctx: Ctx) -> str | None:
    """Who speaks after the current speech or introduction (last words
    have their own order); None after the last one."""
    state = ctx.state
    if state.stage not in (Stage.INTRO, Stage.SPEECH):
        return None
    for player in state.day.speaking_order[state.day.floor_index + 1 :]:
        if may_speak(ctx, player):
            return player
    return None


def next_floor(ctx: Ctx) -> None:
    """Give the floor to the next seat whose player may speak, or, when the
    table has been round, move on to the vote (or the night)."""
    state = ctx.state
    order = state.day.speaking_order
    index = state.day.floor_index + 1
    while index < len(order) and not may_speak(ctx, order[index]):
        index += 1
    if index >= len(order):
        state.day.speaker = None
        state.day.floor_index = len(order)
        ctx.go(Entry.END_DAY if is_intro_day(ctx) else Entry.VOTING)
        return
    state.day.floor_index = index
    player = order[index]
    if is_intro_day(ctx):
        give_floor(ctx, player, Stage.INTRO, ctx.option_int("intro_seconds"))
    elif player in state.day.silenced:
        # sport's third foul: this speech is silent, once (short at a small table).
        state.day.silenced = tuple(p for p in state.day.silenced if p != player)
        small = len(state.table.alive) <= SHORT_SPEECH_TABLE
        mode = FloorMode.SHORT if small else FloorMode.SILENT
        give_floor(ctx, player, Stage.SPEECH, ctx.option_int("last_word_seconds"), mode)
    else:
        give_floor(ctx, player, Stage.SPEECH, ctx.option_int("speech_seconds"))


def take_floor(
    ctx: Ctx, player: str, stage: Stage, seconds: int, mode: FloorMode = FloorMode.NORMAL
) -> None:
    """The floor is `player`'s from now (the event that says so is the caller's)."""
    state = ctx.state
    state.day.speaker = player
    state.day.floor_mode = mode
    state.day.nominated_this_floor = False
    ctx.enter(stage, seconds)


def give_floor(
    ctx: Ctx, player: str, stage: Stage, seconds: int, mode: FloorMode = FloorMode.NORMAL
) -> None:
    state = ctx.state
    take_floor(ctx, player, stage, seconds, mode)
    ctx.emit(
        FloorGiven(
            audience=PUBLIC,
            player=player,
            stage=stage,
            seconds=seconds,
            day=state.day.number,
            mode=mode,
        )
    )


def end_day(ctx: Ctx) -> None:
    """The day's voting is over: the block ends, and night falls."""
    state = ctx.state
    state.night.blocked = ()
    state.day.speaker = None
    state.day.floor_mode = FloorMode.NORMAL
    state.vote.decider = None
    state.vote.last_words = ()
    ctx.go(Entry.NIGHT)


# ----- the floor's moves -------------------------------------------------------------


def check_pass(ctx: Ctx, action: Pass) -> None:
    state = ctx.state
    if state.stage not in FLOOR_STAGES or state.day.speaker != action.actor:
        raise IllegalAction(Reason.NOT_YOUR_FLOOR, f"{action.actor} does not hold the floor")


def pass_floor(ctx: Ctx, action: Pass) -> None:
    ctx.go(Entry.END_FLOOR)


def pass_candidates(ctx: Ctx) -> Iterable[Action]:
    speaker = ctx.state.day.speaker
    return (Pass(speaker),) if speaker is not None else ()


def check_nominate(ctx: Ctx, action: Nominate) -> None:
    state = ctx.state
    if state.stage is not Stage.SPEECH or state.day.speaker != action.actor:
        raise IllegalAction(Reason.NOT_YOUR_FLOOR, "only the speaker nominates, during a speech")
    if state.vote.cancelled:
        raise IllegalAction(Reason.VOTE_CANCELLED, "a removal by fouls cancelled today's vote")
    if state.day.nominated_this_floor:
        raise IllegalAction(Reason.ALREADY_NOMINATED, "one nomination per speech")
    if action.target == action.actor:
        raise IllegalAction(Reason.SELF_TARGET, "a speaker may not nominate themselves")
    if not state.table.is_alive(action.target):
        raise IllegalAction(Reason.BAD_TARGET, f"{action.target} is not a living player")
    if action.target in state.day.nominees:
        raise IllegalAction(Reason.ALREADY_NOMINEE, f"{action.target} is nominated already")


def nominate(ctx: Ctx, action: Nominate) -> None:
    state = ctx.state
    state.day.nominees = (*state.day.nominees, action.target)
    state.day.nominated_this_floor = True
    ctx.emit(
        Nominated(
            audience=PUBLIC, player=action.actor, target=action.target, nominees=state.day.nominees
        )
    )


def nominate_candidates(ctx: Ctx) -> Iterable[Action]:
    speaker = ctx.state.day.speaker
    if speaker is None:
        return ()
    return (Nominate(speaker, target) for target in ctx.state.table.alive)


PASS = Move(Pass, check_pass, pass_floor, pass_candidates)
NOMINATE = Move(Nominate, check_nominate, nominate, nominate_candidates)
