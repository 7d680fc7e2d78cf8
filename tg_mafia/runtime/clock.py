"""The bot's sense of time. `speed` > 1 runs every game timer and rate
window faster (the browser play mode); in production it is 1. `source` is
the wall clock, or the clock of an event loop that keeps its own
(`loop_time_source`: the virtual clock of tests and the offline demo,
tg_mafia/sandbox/virtual_time.py).

`own_pace` (the play page only) names the stages a person plays (from the
engine's views of the game: who may move now): their timers run at most
at real time whatever `speed` does for the simulated players, so that a
person has the time to read and tap."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from engine import Views


@dataclass(frozen=True, slots=True)
class BotClock:
    speed: float = 1.0
    source: Callable[[], float] = field(default=time.time)
    own_pace: Callable[[Views], bool] | None = None

    def now(self) -> float:
        return self.source()

    def real(self, game_seconds: float) -> float:
        """Real seconds that `game_seconds` of game time last."""
        return game_seconds / self.speed

    def deadline(self, game_seconds: float) -> float:
        return self.now() + self.real(game_seconds)

    def left(self, deadline: float) -> float:
        """Game seconds left until `deadline`."""
        return max(0.0, (deadline - self.now()) * self.speed)

    def stage(self, views: Views) -> BotClock:
        """The clock the timer of the stage `views` show runs on."""
        if self.own_pace is None or self.speed <= 1.0 or not self.own_pace(views):
            return self
        return self.at(1.0)

    def at(self, speed: float) -> BotClock:
        """This clock running at `speed`."""
        return self if speed == self.speed else replace(self, speed=speed)

    @property
    def slowest(self) -> float:
        """The lowest speed any stage's timer runs at."""
        return min(self.speed, 1.0) if self.own_pace is not None else self.speed


def loop_time_source() -> Callable[[], float]:
    """The running event loop's own Unix time when it keeps one (`wall_time`: a loop on
    a virtual clock, as the tests and the offline demo run), else the wall clock."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return time.time
    wall_time = getattr(loop, "wall_time", None)
    return wall_time if callable(wall_time) else time.time
