"""Each game's one timer, armed from the deadline stored with the game
(the JobQueue does not persist jobs: at start every unfinished game's
timer is armed again). A late or duplicate firing is harmless: it names
the timer it was armed for, and the engine refuses a timer the game has
left.

Beside it, the countdown: a second job at COUNTDOWN_SECONDS before the same
deadline, which redraws the stage's message once ("10 seconds left", as
clubs warn the speaker). It is derived from the stored deadline, so it
needs no storage of its own: re-armed with the timer (a deadline moved by
the message's delivery, the host's extension, a restart), and never armed
once its moment has passed, so a restart neither repeats it nor sends it
late.

Arms can arrive out of order: a delivery that moved the old stage's
deadline reports it after a move that opened the next stage has armed the
next timer (the report waits on the outbox's write meanwhile), and a start's
arming of every game reads the games before a fresh move arms one. An arm
for an older timer than the game's newest is therefore ignored: otherwise it
would replace the live timer with one the engine refuses, and the game
would wait for ever.

Most writes leave the game's deadline as it was (a vote, a post in the
middle of a floor): an arm that names the deadline and timer already armed
and not yet fired changes nothing, and costs nothing (APScheduler's
replacement of two jobs showed in the profile of benchmarks/load.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from tg_mafia.runtime.clock import BotClock
from tg_mafia.runtime.timers.scheduler import Scheduler

Fire = Callable[[int, int], Awaitable[None]]  # (game, timer id)

COUNTDOWN_SECONDS = 10  # of the game's time: the moment clubs warn the speaker


class TimerKeeper:
    def __init__(
        self, scheduler: Scheduler, clock: BotClock, fire: Fire, countdown: Fire | None = None
    ) -> None:
        self.scheduler = scheduler
        self.clock = clock
        self.fire = fire
        self.countdown = countdown
        self.newest: dict[int, int] = {}  # game → the newest timer id armed: older ones are stale
        self.armed: dict[int, tuple[float, int]] = {}  # game → its job's (deadline, timer id)

    @staticmethod
    def name(game_id: int) -> str:
        return f"game-{game_id}"

    @staticmethod
    def countdown_name(game_id: int) -> str:
        return f"game-{game_id}-countdown"

    def arm(self, game_id: int, deadline: float | None, timer_id: int) -> None:
        if timer_id < self.newest.get(game_id, timer_id):
            return  # a stale report: the game has a newer timer (see above)
        self.newest[game_id] = timer_id
        if deadline is None:
            self._cancel_jobs(game_id)  # paused, or a stage without a clock
            return
        if self.armed.get(game_id) == (deadline, timer_id):
            return  # that very job waits (see above)
        self.armed[game_id] = (deadline, timer_id)
        self.scheduler.arm(
            self.name(game_id), deadline - self.clock.now(), self._fired(game_id, timer_id)
        )
        self._arm_countdown(game_id, deadline, timer_id)

    def _fired(self, game_id: int, timer_id: int) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            # Fired: the next arm arms again, even with the same deadline (a firing the
            # game could not take, its database down say, is made again by the next write).
            if self.armed.get(game_id, (0.0, timer_id))[1] == timer_id:
                self.armed.pop(game_id, None)
            await self.fire(game_id, timer_id)

        return run

    def _arm_countdown(self, game_id: int, deadline: float, timer_id: int) -> None:
        name = self.countdown_name(game_id)
        # At the slowest clock's lead: a stage on a faster one drops it (runner.countdown).
        delay = deadline - COUNTDOWN_SECONDS / self.clock.slowest - self.clock.now()
        if self.countdown is None or delay <= 0:
            self.scheduler.cancel(name)  # its moment is past (or the stage is shorter)
            return
        self.scheduler.arm(name, delay, self._job(self.countdown, game_id, timer_id))

    @staticmethod
    def _job(fire: Fire, game_id: int, timer_id: int) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            await fire(game_id, timer_id)

        return run

    def cancel(self, game_id: int) -> None:
        """The game is over: no timer, and nothing kept for it."""
        self.newest.pop(game_id, None)
        self._cancel_jobs(game_id)

    def cancel_all(self) -> None:
        """Another process keeps the timers now: none here, and nothing remembered."""
        for game_id in list(self.newest):  # every game armed here (`arm` notes it first)
            self._cancel_jobs(game_id)
        self.newest.clear()

    def _cancel_jobs(self, game_id: int) -> None:
        self.armed.pop(game_id, None)
        self.scheduler.cancel(self.name(game_id))
        self.scheduler.cancel(self.countdown_name(game_id))
