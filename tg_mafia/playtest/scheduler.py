"""Timers for tests: armed as the bot arms them, fired only when the test says so."""

from __future__ import annotations

from tg_mafia.runtime.timers.scheduler import Fire


class ManualScheduler:
    """Timers that fire only when told to: for tests and benchmarks that
    drive the clock themselves, so that no timer races a simulated player."""

    def __init__(self) -> None:
        self.armed: dict[str, tuple[float, Fire]] = {}

    def arm(self, name: str, delay: float, fire: Fire) -> None:
        self.armed[name] = (delay, fire)

    def cancel(self, name: str) -> None:
        self.armed.pop(name, None)

    async def fire(self, name: str) -> bool:
        """Fires the timer `name` as its job would; False if none is armed."""
        entry = self.armed.pop(name, None)
        if entry is None:
            return False
        await entry[1]()
        return True
