"""The countdown: a floor shows the time left as a relative date_time, and
gets one edit when 10 seconds are left; that edit is dropped rather than
sent late, over the group's budget, twice, or for a stage that is over."""

from __future__ import annotations

import asyncio
from pathlib import Path

from engine import GameState, Stage
from tests.bot.harness import Harness, running_bot
from tests.database_ops import backlog
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.runtime.outbox.budgets import GROUP_BUDGET
from tg_mafia.runtime.timers.keeper import COUNTDOWN_SECONDS, TimerKeeper
from tg_mafia.storage import GameRecord

LEFT = "⏱ 10 seconds left!"


async def started(h: Harness) -> tuple[GameRecord, GameState]:
    h.db.save_settings(h.group.id, variant="moscow", language="en", options={})
    game_id = await h.open_and_fill()
    await asyncio.sleep(61)  # the lobby's calls leave the group's budget window
    await h.press_start()
    record = h.db.get_game(game_id)
    assert record is not None and record.state is not None
    state = GameState.from_dict(record.state)
    assert state.stage is Stage.INTRO
    return record, state


def countdown_edits(h: Harness) -> int:
    return sum(
        1
        for r in h.sb.log.records
        if r.ok and r.method == "editMessageText" and LEFT in str(r.params.get("text", ""))
    )


async def until_countdown(h: Harness, record: GameRecord) -> None:
    assert record.stage_deadline is not None
    await asyncio.sleep(record.stage_deadline - COUNTDOWN_SECONDS - h.service.clock.now())


async def test_a_floor_counts_down_and_is_edited_once_at_ten_seconds(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 9, scheduler=scheduler) as h:
        record, _ = await started(h)
        floor = next(m for m in h.admin.view(h.group) if "Now: " in (m.text or ""))
        # The time left, which each reader's app counts down, ends at the stage's deadline.
        [time_left] = floor.entities_of("date_time")
        assert time_left["date_time_format"] == "r"
        assert time_left["unix_time"] == round(record.stage_deadline or 0)
        name = TimerKeeper.countdown_name(record.id)
        assert name in scheduler.armed
        await until_countdown(h, record)
        await scheduler.fire(name)
        await h.settle()
        assert countdown_edits(h) == 1
        assert any(LEFT in text and "Now: " in text for text in h.group_texts())
        # A duplicate firing (a second process, a repeated job) edits nothing more.
        await h.service.runner.countdown(record.id, int(record.timer_token or 0), 10)
        await h.settle()
        assert countdown_edits(h) == 1
        # Armed again past its moment (as at a restart): no countdown job, the timer only.
        h.service.keeper.arm(record.id, record.stage_deadline, int(record.timer_token or 0))
        assert name not in scheduler.armed and TimerKeeper.name(record.id) in scheduler.armed


async def test_the_countdown_is_dropped_when_the_group_budget_is_spent(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 9, scheduler=scheduler) as h:
        record, _ = await started(h)
        await until_countdown(h, record)
        # The group's whole minute spent just now.
        sender = h.service.sender
        sender.windows.of(h.group.id).stamps.extend([sender.clock.now()] * GROUP_BUDGET.calls)
        await scheduler.fire(TimerKeeper.countdown_name(record.id))
        await h.settle()
        assert countdown_edits(h) == 0  # dropped, not sent a minute late
        assert backlog(h.db) == (0, None)


async def test_no_countdown_for_a_stage_that_is_over(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 9, scheduler=scheduler) as h:
        record, _ = await started(h)
        await until_countdown(h, record)
        await scheduler.fire(TimerKeeper.name(record.id))  # the speech ends first
        await h.settle()
        outcome = await h.service.runner.countdown(record.id, int(record.timer_token or 0), 10)
        await h.settle()
        assert outcome.error == "stale_timer" and countdown_edits(h) == 0
