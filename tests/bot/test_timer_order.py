"""A stale arm never replaces a game's live timer: a delivery that moved the
old stage's deadline can report it after the next stage's timer is armed (the
report waits on the outbox's write meanwhile). Armed with the old stage's id,
the game's one timer would fire a timeout the engine refuses, and the game
would wait for ever."""

from __future__ import annotations

import asyncio
from pathlib import Path

from engine import GameState
from tests.bot.harness import running_bot
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.runtime.clock import BotClock
from tg_mafia.runtime.timers.keeper import TimerKeeper
from tg_mafia.runtime.timers.scheduler import Fire
from tg_mafia.storage import GameRecord


def stage_of(record: GameRecord | None) -> tuple[int, int]:
    assert record is not None and record.state is not None
    state = GameState.from_dict(record.state)
    return state.step, state.clock.timer_id


async def test_a_late_report_of_an_old_deadline_leaves_the_live_timer(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 9, scheduler=scheduler) as h:
        h.db.save_settings(h.group.id, variant="moscow", language="en", options={})
        game_id = await h.open_and_fill()
        await asyncio.sleep(61)
        await h.press_start()
        old = h.db.get_game(game_id)
        assert old is not None and old.stage_deadline is not None
        name = TimerKeeper.name(game_id)
        assert await scheduler.fire(name)  # the stage ends on its timer
        await h.settle()
        new = h.db.get_game(game_id)
        assert stage_of(new)[1] > stage_of(old)[1]
        # The old stage's delivery reports its deadline now, late.
        h.service._deadline_moved(game_id, str(old.timer_token), old.stage_deadline)
        assert await scheduler.fire(name)  # the timer armed is the live stage's
        await h.settle()
        assert stage_of(h.db.get_game(game_id)) > stage_of(new)


def test_the_keeper_ignores_an_older_timer_and_forgets_an_ended_game() -> None:
    scheduler = ManualScheduler()
    fired: list[tuple[int, int]] = []

    async def fire(game: int, timer: int) -> None:
        fired.append((game, timer))

    keeper = TimerKeeper(scheduler, BotClock(source=lambda: 0.0), fire)
    keeper.arm(1, 30.0, 4)
    keeper.arm(1, 60.0, 3)  # stale
    assert asyncio.run(scheduler.fire(TimerKeeper.name(1)))
    assert fired == [(1, 4)]
    keeper.arm(1, None, 5)  # a stage without a clock: nothing armed, id remembered
    keeper.arm(1, 60.0, 4)
    assert TimerKeeper.name(1) not in scheduler.armed
    keeper.cancel(1)  # the game ended
    assert keeper.newest == {}


class CountingScheduler(ManualScheduler):
    """A scheduler that counts its arms and, like PTB's JobQueue, lists no jobs."""

    def __init__(self) -> None:
        super().__init__()
        self.arms = 0

    def arm(self, name: str, delay: float, fire: Fire) -> None:
        self.arms += 1
        super().arm(name, delay, fire)


def test_an_arm_of_the_timer_already_waiting_changes_nothing_until_it_fires() -> None:
    scheduler = CountingScheduler()
    fired: list[tuple[int, int]] = []

    async def fire(game: int, timer: int) -> None:
        fired.append((game, timer))

    keeper = TimerKeeper(scheduler, BotClock(source=lambda: 0.0), fire)
    keeper.arm(1, 5.0, 4)  # shorter than the countdown: one job
    keeper.arm(1, 5.0, 4)  # a vote in the same stage: the same deadline
    assert scheduler.arms == 1
    keeper.arm(1, 6.0, 4)  # the stage's message delivered late: the deadline moved
    assert scheduler.arms == 2
    assert asyncio.run(scheduler.fire(TimerKeeper.name(1)))
    assert fired == [(1, 4)]
    keeper.arm(1, 6.0, 4)  # fired, and the game could not take it: armed again
    assert scheduler.arms == 3 and TimerKeeper.name(1) in scheduler.armed


def test_a_replica_that_stops_leading_keeps_no_timer() -> None:
    scheduler = CountingScheduler()

    async def fire(game: int, timer: int) -> None:
        return None

    keeper = TimerKeeper(scheduler, BotClock(source=lambda: 0.0), fire, countdown=fire)
    keeper.arm(1, 60.0, 4)
    keeper.arm(2, 5.0, 2)
    assert len(scheduler.armed) == 3  # two timers and a countdown
    keeper.cancel_all()
    assert scheduler.armed == {} and keeper.newest == {} and keeper.armed == {}
    keeper.arm(1, 60.0, 4)  # leading again: armed again
    assert TimerKeeper.name(1) in scheduler.armed
