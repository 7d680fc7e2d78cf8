"""The sandbox's clock: real time, optionally running faster by a speed factor.

Every date the sandbox hands out and every rate window it keeps is measured on
this clock, so a test at speed 50 sees a 60-second group window close in 1.2
real seconds, and a bot that divides its timers by the same factor stays in step.
"""

from __future__ import annotations

import asyncio
import time


class SandboxClock:
    """Sandbox seconds since the Unix epoch, advancing `speed` times faster than real time."""

    def __init__(self, speed: float = 1.0, start: float | None = None) -> None:
        if speed <= 0:
            raise ValueError("speed must be positive")
        self.speed = float(speed)
        self._start = time.time() if start is None else float(start)
        # monotonic, so that a wall-clock jump on the host cannot reorder sandbox events
        self._origin = time.monotonic()
        self._offset = 0.0

    def now(self) -> float:
        """Sandbox seconds (float) since the epoch."""
        return self._start + self._offset + (time.monotonic() - self._origin) * self.speed

    def date(self) -> int:
        """The current time as Telegram dates it: whole seconds."""
        return int(self.now())

    def advance(self, seconds: float) -> None:
        """Jump forward in sandbox time (a test skipping a wait), without sleeping."""
        if seconds < 0:
            raise ValueError("the clock does not run backwards")
        self._offset += seconds

    def to_real(self, sandbox_seconds: float) -> float:
        """Real seconds that `sandbox_seconds` take at this speed (for scheduling timers)."""
        return sandbox_seconds / self.speed

    def to_sandbox(self, real_seconds: float) -> float:
        return real_seconds * self.speed

    async def sleep(self, sandbox_seconds: float) -> None:
        await asyncio.sleep(max(0.0, self.to_real(sandbox_seconds)))
