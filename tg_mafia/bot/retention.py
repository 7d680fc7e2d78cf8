"""Retention: a finished game's action log (what was played, move by move) is
kept `days` days for its protocol, then deleted; its result stays for /stats.
What players wrote is gone already at the end (runner.forget_texts). The
leader prunes once at the start of its lead and then every day; `tg-mafia
prune` does the same by hand."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from tg_mafia.bot.dbthread import AsyncDb
from tg_mafia.bot.timers import Scheduler
from tg_mafia.storage import Database

log = logging.getLogger(__name__)

JOB = "retention"
EVERY = 86400.0  # seconds between two prunes


def cutoff(days: int, now: datetime | None = None) -> datetime:
    """Games that ended before this lose their logs."""
    return (now or datetime.now(UTC)) - timedelta(days=days)


class Retention:
    def __init__(self, adb: AsyncDb, scheduler: Scheduler, days: int) -> None:
        self.adb = adb
        self.scheduler = scheduler
        self.days = days  # 0: kept for ever

    def start(self) -> None:
        if self.days:
            self.scheduler.arm(JOB, 0.0, self.prune)

    def stop(self) -> None:
        self.scheduler.cancel(JOB)

    async def prune(self) -> None:
        try:
            pruned = await self.adb.run(Database.prune_logs, cutoff(self.days))
        except Exception:
            log.exception("pruning old games' logs failed; tried again in a day")
        else:
            if pruned:
                log.info(
                    "pruned the action logs of %d games ended over %d days ago", pruned, self.days
                )
        self.scheduler.arm(JOB, EVERY, self.prune)
