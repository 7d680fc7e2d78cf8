"""The game timers on PTB's JobQueue (APScheduler), on the wall clock: a timer fires once,
a re-armed one replaces the one before, a cancelled one never fires, and cancelling looks
the job up by its id rather than walking every job of every game."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from telegram.ext import Application, ApplicationBuilder, JobQueue

from tg_mafia.runtime.timers.scheduler import JobQueueScheduler

pytestmark = pytest.mark.real_time


async def _started() -> tuple[Application[Any, Any, Any, Any, Any, Any], JobQueueScheduler]:
    """An application that is never started: only its JobQueue runs (it holds the
    application weakly, so the caller keeps it)."""
    app = ApplicationBuilder().token("123:sandbox").build()
    assert app.job_queue is not None
    await app.job_queue.start()
    return app, JobQueueScheduler(app.job_queue)


async def test_a_timer_fires_once_and_a_rearmed_one_replaces_it() -> None:
    app, timers = await _started()
    queue = timers.job_queue
    fired: list[str] = []

    def fire(label: str) -> Any:
        async def run() -> None:
            fired.append(label)

        return run

    try:
        timers.arm("game:1", 0.3, fire("first"))
        timers.arm("game:1", 0.05, fire("second"))  # the same timer, re-armed
        timers.arm("game:2", 0.05, fire("other"))
        timers.cancel("game:2")
        timers.cancel("game:3")  # never armed: nothing happens
        await asyncio.sleep(0.6)
        assert fired == ["second"]
        assert queue.jobs() == ()
        timers.cancel("game:1")  # already fired: nothing happens
    finally:
        await queue.stop(wait=False)
        del app


async def test_cancelling_does_not_walk_every_job(monkeypatch: pytest.MonkeyPatch) -> None:
    app, timers = await _started()
    queue = timers.job_queue

    async def never() -> None:
        raise AssertionError("a cancelled timer fired")

    def walk(self: JobQueue[Any], name: str) -> Any:
        raise AssertionError("get_jobs_by_name builds a Job for every job")

    try:
        for game in range(50):
            timers.arm(f"game:{game}", 30, never)
        monkeypatch.setattr(JobQueue, "get_jobs_by_name", walk)
        for game in range(50):
            timers.cancel(f"game:{game}")
        assert queue.jobs() == ()
    finally:
        await queue.stop(wait=False)
        del app


async def test_a_timer_rearmed_while_its_last_firing_runs_still_fires() -> None:
    """A firing's move arms the game's next timer under the same id; when that one is
    due before the first firing has finished (a stage already overdue, a slow database),
    APScheduler would skip it as a second instance of a running job, and the game would
    wait for a move that never comes."""
    app, timers = await _started()
    queue = timers.job_queue
    fired: list[str] = []
    first_done = asyncio.Event()

    async def second() -> None:
        fired.append("second")

    async def first() -> None:
        fired.append("first")
        timers.arm("game:1", 0.0, second)  # due at once, while this one still runs
        await asyncio.sleep(0.3)
        first_done.set()

    try:
        timers.arm("game:1", 0.05, first)
        await asyncio.wait_for(first_done.wait(), 5)
        await asyncio.sleep(0.2)
        assert fired == ["first", "second"]
    finally:
        await queue.stop(wait=False)
        del app
