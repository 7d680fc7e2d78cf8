"""The bot's sense of time. `speed` > 1 runs every game timer and rate
window faster (tests, the demo); in production it is 1."""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BotClock:
    speed: float = 1.0

    def now(self) -> float:
        return time.time()

    def real(self, game_seconds: float) -> float:
        """Real seconds that `game_seconds` of game time last."""
        return game_seconds / self.speed

    def deadline(self, game_seconds: float) -> float:
        return self.now() + self.real(game_seconds)

    def left(self, deadline: float) -> float:
        """Game seconds left until `deadline`."""
        return max(0.0, (deadline - self.now()) * self.speed)
