"""The working context of one `apply`: the state being changed, its variant,
the events said so far, and the way into another stage.

Phase modules never import each other: when the night ends, `night` asks
`ctx.go(Entry.DAY)`, and the flow table (engine/flow.py) knows which
function opens the day. That keeps them free of import circles and puts
every way between stages in one table."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from types import MappingProxyType

from engine.events import Event
from engine.state import GameState, Stage
from engine.variants import Variant, find_variant


class Entry(StrEnum):
    """The ways into a part of the game that another module starts."""

    NIGHT = "night"  # night falls
    DAY = "day"  # the day after dawn (or the first day)
    END_DAY = "end_day"  # the voting is over: (sport) the farewells, the block ends, night falls
    NEXT_FLOOR = "next_floor"  # the next speaker, or the vote after the last
    END_FLOOR = "end_floor"  # the floor holder is done
    VOTING = "voting"  # after the speeches: the nominees stand
    DAWN = "dawn"  # every night move is in: resolve the night
    FAREWELL = "farewell"  # sport: the next farewell; after the last, the speeches or the night


Flow = Mapping[Entry, Callable[["Ctx"], None]]
NO_FLOW: Flow = MappingProxyType({})  # a context that only reads: views, legal moves


class Ctx:
    __slots__ = ("events", "flow", "state", "variant")

    def __init__(
        self, state: GameState, variant: Variant | None = None, flow: Flow | None = None
    ) -> None:
        self.state = state
        self.variant = variant or find_variant(state.variant)
        self.events: list[Event] = []
        self.flow: Flow = flow if flow is not None else NO_FLOW

    def emit(self, event: Event) -> None:
        audience = event.audience
        if (
            audience.host
            and not (audience.public or audience.players or audience.mafia)
            and not self.state.human_host
        ):
            return  # a host-only event without a host reaches nobody
        self.events.append(event)

    def go(self, entry: Entry) -> None:
        self.flow[entry](self)

    def option_int(self, name: str) -> int:
        value = self.state.options[name]
        assert isinstance(value, int)
        return value

    def later_option(self, name: str) -> int:
        """An option added after games were first stored: a game set up
        without it reads 0 (off), and plays on as it began."""
        value = self.state.options.get(name, 0)
        assert isinstance(value, int)
        return value

    def enter(self, stage: Stage, seconds: int | None) -> None:
        """Enter a stage (a new floor or count is a new entry too): a new
        step, so buttons made for the last one are stale, and a fresh timer."""
        state = self.state
        state.stage = stage
        state.step += 1
        state.clock.timer_id += 1
        state.clock.timer_seconds = seconds
        state.clock.paused = False
        state.activity.present = frozenset()
