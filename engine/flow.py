"""The game's stages as one table (boardgame.io's phases and stages): the
moves each stage accepts, the option that times it, and what its timer
does when it runs out; and the ways from one part of the game into another
(`Entry`), so that the phase modules need not import each other."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from engine import abandon, day, farewell, handvote, host, idle, lift, night, openvote
from engine.actions import Action
from engine.context import Ctx, Entry, Flow
from engine.moves import Move
from engine.state import Phase, Stage


@dataclass(frozen=True, slots=True)
class StageRule:
    moves: tuple[Move, ...]  # the players' moves it accepts (posts are always taken)
    timer: tuple[str, ...]  # the options that time it (none: no timer)
    on_timeout: Callable[[Ctx], None] | None

    def move_for(self, kind: type[Action]) -> Move | None:
        return next((m for m in self.moves if m.action is kind), None)


def end_floor(ctx: Ctx) -> None:
    """The floor holder is done (pass, thanks, timeout, host skip, or out)."""
    if ctx.state.stage is Stage.LAST_WORD:
        handvote.next_last_word(ctx)
    elif ctx.state.stage is Stage.FAREWELL:
        farewell.end_farewell(ctx)
    else:
        day.next_floor(ctx)


# A floor's or a night's timer first counts the idle (engine/idle.py).
FLOOR = StageRule((day.PASS,), ("intro_seconds",), idle.floor_timeout)
STAGES: Mapping[Stage, StageRule] = MappingProxyType(
    {
        Stage.NIGHT: StageRule(night.MOVES, ("night_seconds",), idle.night_timeout),
        Stage.INTRO: FLOOR,
        # A silent or short speech (sport's third foul) is timed by last_word_seconds.
        Stage.SPEECH: StageRule(
            (day.PASS, day.NOMINATE), ("speech_seconds", "last_word_seconds"), idle.floor_timeout
        ),
        Stage.LAST_WORD: StageRule((day.PASS,), ("last_word_seconds",), idle.floor_timeout),
        Stage.VOTE: StageRule(
            (handvote.HAND, handvote.LOWER, handvote.LEAVE),
            ("vote_count_seconds",),
            handvote.end_count,
        ),
        Stage.DECIDE: StageRule(
            (handvote.DECIDE,), ("last_word_seconds",), handvote.decide_timeout
        ),
        Stage.DISCUSSION: StageRule(
            (openvote.VOTE, openvote.UNVOTE), ("day_seconds",), openvote.timeout
        ),
        Stage.BALLOT: StageRule(
            (openvote.VOTE, openvote.UNVOTE), ("ballot_seconds",), openvote.timeout
        ),
        Stage.FAREWELL: StageRule(
            (day.PASS, farewell.BEST), ("speech_seconds",), idle.floor_timeout
        ),
        Stage.LIFT: StageRule((lift.HAND, lift.LOWER), ("vote_count_seconds",), lift.end_lift),
        Stage.CONFIRM: StageRule((), ("confirm_seconds",), host.confirm_timeout),
        Stage.ENDED: StageRule((), (), None),
    }
)

ENTRIES: Flow = MappingProxyType(
    {
        # A phase begins unless nobody has played for a whole day and night.
        Entry.NIGHT: abandon.phase_begins(Phase.DAY, night.start_night),
        Entry.DAY: abandon.phase_begins(Phase.NIGHT, day.start_day),
        Entry.END_DAY: farewell.close_day,
        Entry.NEXT_FLOOR: day.next_floor,
        Entry.END_FLOOR: end_floor,
        Entry.VOTING: handvote.open_voting,
        Entry.DAWN: night.dawn,
        Entry.FAREWELL: farewell.next_farewell,
    }
)
