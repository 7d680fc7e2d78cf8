"""Game timers on PTB's JobQueue (APScheduler). The JobQueue does not
persist jobs: deadlines are stored with the game and re-armed at start.

Every job has an explicit id and replaces the job it succeeds; a late or
duplicate job is harmless, because it names the timer it was set for and
the engine refuses a timer the game has left."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from apscheduler.jobstores.base import JobLookupError
from telegram.ext import CallbackContext, JobQueue

Fire = Callable[[], Awaitable[None]]


class Scheduler(Protocol):
    def arm(self, name: str, delay: float, fire: Fire) -> None: ...

    def cancel(self, name: str) -> None: ...


# A firing's move arms the game's next timer under the same id; due before that firing
# ends (an overdue stage, a slow database), APScheduler's default of one running
# instance per id would skip it, and the game would wait for ever. Overlaps are
# harmless (the engine refuses a timer the game has left): allow plenty.
OVERLAPPING_FIRINGS = 100


class JobQueueScheduler:
    def __init__(self, job_queue: JobQueue[Any]) -> None:
        self.job_queue = job_queue

    def arm(self, name: str, delay: float, fire: Fire) -> None:
        async def callback(context: CallbackContext[Any, Any, Any, Any]) -> None:
            await fire()

        # No cancel first: the id replaces the job this one succeeds.
        self.job_queue.run_once(
            callback,
            when=max(0.0, delay),
            name=name,
            job_kwargs={
                "id": name,
                "replace_existing": True,
                "misfire_grace_time": None,
                "max_instances": OVERLAPPING_FIRINGS,
            },
        )

    def cancel(self, name: str) -> None:
        # By id, a dictionary lookup: get_jobs_by_name builds a Job for every job of
        # every game (it showed in the profile of benchmarks/load.py at 1,000 games).
        with contextlib.suppress(JobLookupError):  # fired, or never armed
            self.job_queue.scheduler.remove_job(name)


class LoopScheduler:
    """Timers on the event loop's own clock (`loop.call_later`): on the
    virtual clock of tests and the offline demo, where APScheduler, which
    reads the wall clock, cannot follow."""

    def __init__(self) -> None:
        self.handles: dict[str, asyncio.TimerHandle] = {}
        self.running: set[asyncio.Task[None]] = set()  # fired, not finished: kept alive

    def arm(self, name: str, delay: float, fire: Fire) -> None:
        self.cancel(name)
        loop = asyncio.get_running_loop()

        async def run() -> None:
            await fire()

        def start() -> None:
            self.handles.pop(name, None)
            task = loop.create_task(run(), name=name)
            self.running.add(task)
            task.add_done_callback(self.running.discard)

        self.handles[name] = loop.call_later(max(0.0, delay), start)

    def cancel(self, name: str) -> None:
        handle = self.handles.pop(name, None)
        if handle is not None:
            handle.cancel()
