"""The working context of one `apply`: the state being changed, its variant,
and the events said so far."""

from __future__ import annotations

from typing import Any

from engine.events import Audience, Event, EventKind
from engine.state import GameState, Stage
from engine.variants import Variant, find_variant


class Ctx:
    __slots__ = ("events", "state", "variant")

    def __init__(self, state: GameState, variant: Variant | None = None) -> None:
        self.state = state
        self.variant = variant or find_variant(state.variant)
        self.events: list[Event] = []

    def emit(self, kind: EventKind, audience: Audience, **data: Any) -> None:
        if (
            audience.host
            and not (audience.public or audience.players or audience.mafia)
            and not self.state.human_host
        ):
            return  # a host-only event without a host reaches nobody
        self.events.append(Event(kind, audience, **data))

    def option_int(self, name: str) -> int:
        value = self.state.options[name]
        assert isinstance(value, int)
        return value

    def start_timer(self, stage: Stage, seconds: int | None) -> None:
        """Enter a stage; every timed stage gets a fresh timer id."""
        state = self.state
        state.stage = stage
        state.timer_id += 1
        state.timer_seconds = seconds
        state.paused = False
