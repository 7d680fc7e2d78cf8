"""The bot's sense of time. `speed` > 1 runs every game timer and rate
window faster (the browser play mode); in production it is 1. `source` is
the wall clock, or the virtual clock of tests and the offline demo
(`tg_mafia.virtual_time`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class BotClock:
    speed: float = 1.0
    source: Callable[[], float] = field(default=time.time)

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
