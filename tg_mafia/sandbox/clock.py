"""The sandbox's clock: real time, optionally running faster by a speed factor,
or the virtual clock of the event loop it runs on (`tg_mafia.sandbox.virtual_time`).

Every date the sandbox hands out and every rate window it keeps is measured on
this clock, so a test at speed 50 sees a 60-second group window close in 1.2
real seconds, and a bot that divides its timers by the same factor stays in step.
On a virtual clock the speed is 1 and waiting costs nothing.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from tg_mafia.sandbox.virtual_time import current_time_source


class SandboxClock:
    """Sandbox seconds since the Unix epoch, advancing `speed` times faster than real time."""

    def __init__(
        self,
        speed: float = 1.0,
        start: float | None = None,
        source: Callable[[], float] | None = None,
    ) -> None:
        if speed <= 0:
            raise ValueError("speed must be positive")
        self.speed = float(speed)
        if source is None:
            found = current_time_source()
            # On the wall clock, measure with the monotonic one, so that a jump of
            # the host's clock cannot reorder sandbox events.
            source = time.monotonic if found is time.time else found
            if start is None and found is not time.time:
                start = found()  # a virtual clock is already a date
        self._source = source
        self._start = time.time() if start is None else float(start)
        self._origin = source()
        self._offset = 0.0

    def now(self) -> float:
        """Sandbox seconds (float) since the epoch."""
        return self._start + self._offset + (self._source() - self._origin) * self.speed

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
