"""Each game's one timer, armed from the deadline stored with the game
(the JobQueue does not persist jobs: at start every unfinished game's
timer is armed again). A late or duplicate firing is harmless: it names
the timer it was armed for, and the engine refuses a timer the game has
left."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from tg_mafia.bot.clock import BotClock
from tg_mafia.bot.timers import Scheduler

Fire = Callable[[int, int], Awaitable[None]]  # (game, timer id)


class TimerKeeper:
    def __init__(self, scheduler: Scheduler, clock: BotClock, fire: Fire) -> None:
        self.scheduler = scheduler
        self.clock = clock
        self.fire = fire

    @staticmethod
    def name(game_id: int) -> str:
        return f"game-{game_id}"

    def arm(self, game_id: int, deadline: float | None, timer_id: int) -> None:
        if deadline is None:
            self.cancel(game_id)
            return
        fire = self.fire

        async def run() -> None:
            await fire(game_id, timer_id)

        self.scheduler.arm(self.name(game_id), deadline - self.clock.now(), run)

    def cancel(self, game_id: int) -> None:
        self.scheduler.cancel(self.name(game_id))
