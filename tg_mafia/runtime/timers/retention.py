"""Retention: `days` days after a game ends, what it keeps of its players
goes (docs/privacy.md): its action log, their names and user ids, their
seats, the records of its messages; the results stay for /stats under
pseudonyms, which go too once their user has finished no game for as long.
What players wrote is gone already at the end (runner.forget_texts). The
leader prunes once at the start of its lead and then every day; `tg-mafia
prune` does the same by hand."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.runtime.timers.scheduler import Scheduler
from tg_mafia.storage import Database, Pruned

log = logging.getLogger(__name__)

JOB = "retention"
EVERY = 86400.0  # seconds between two prunes


def cutoff(days: int, now: datetime | None = None) -> datetime:
    """Games that ended before this lose what they keep of their players."""
    return (now or datetime.now(UTC)) - timedelta(days=days)


# What each count of a prune is, for the log and `tg-mafia prune`.
KINDS = {
    "logs": "action logs deleted",
    "games": "games anonymised (players' names and user ids taken out)",
    "seats": "seats deleted",
    "results": "result names blanked",
    "messages": "message records deleted",
    "pseudonyms": "pseudonyms deleted (users who finished no game since)",
    "watches": "/nextgame subscriptions lapsed (chats with no game since)",
}


def describe(pruned: Pruned) -> list[str]:
    """Each kind with its count, one per line."""
    return [f"{label}: {getattr(pruned, name)}" for name, label in KINDS.items()]


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
            pruned = await self.adb.run(Database.prune, cutoff(self.days))
        except Exception:
            log.exception("pruning old games failed; tried again in a day")
        else:
            if pruned.total:
                log.info("retention of %d days: %s", self.days, "; ".join(describe(pruned)))
        self.scheduler.arm(JOB, EVERY, self.prune)
