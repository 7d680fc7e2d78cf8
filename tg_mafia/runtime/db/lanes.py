"""Two lanes into the database thread: what a person waits on (an update's
handling: a press's check and move, its popup behind them) goes before the
sender's bookkeeping (its reads of the outbox, the settling of made calls).
Under load the sender asks the database several times a call; in one queue a
press waited behind those, and its popup with it (benchmarks/load.py)."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Final

# benchmarks/load.py, real model, 200 games: popup p99 118 ms vs 482 ms in one queue (and Start
# answered after its deal)
URGENT: Final = 0
BACKGROUND: Final = 1

_LANE: ContextVar[int] = ContextVar("database_lane", default=URGENT)


def current() -> int:
    return _LANE.get()


def in_background() -> None:
    """This task's database calls, and those of the tasks it starts, wait behind the
    urgent ones: for a task of its own (the sender's), whose context is its own."""
    _LANE.set(BACKGROUND)
