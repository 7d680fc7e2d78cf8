"""SQLite's one writer thread, with group commit: the calls queued while it
was busy run together in one transaction (each call's own transactions
become savepoints), committed with one fsync, and only then is each call
answered. Under load the cost of a durable commit is shared by a batch
instead of paid by every move; when the bot is quiet a batch is one call.

Three lanes (`Lane`), in this order: the presses, whose popup someone watches
spin; the other moves (posts, timers); the background (the sender's looks at
the outbox and its bookkeeping). Each would otherwise stand in the way of the
one before it for tens of milliseconds under load. A batch still takes one call
of every lane that waits, so no lane is starved; and a press queued while a batch
runs joins it after the call in progress. A move may also say what it
decided as soon as it has run, before its batch's commit (`on_run`): what a
button's popup needs, a few milliseconds before the commit that makes it durable."""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Final

from tg_mafia.storage import Database

log = logging.getLogger(__name__)

# A bound on a batch keeps the first call's wait short (a move costs a few ms).
MAX_BATCH: Final = 32


class Lane(IntEnum):
    PRESS = 0
    MOVE = 1
    BACKGROUND = 2


@dataclass(frozen=True, slots=True)
class _Call:
    run: Callable[[], Any]
    future: Future[Any]
    lane: Lane
    on_run: Callable[[Any], None] | None = None  # its result, before the commit


class GroupCommitter(Executor):
    """An Executor for `loop.run_in_executor`: one thread; calls in their order
    within each lane, the lanes in theirs."""

    def __init__(self, db: Database, max_batch: int = MAX_BATCH) -> None:
        self.db = db
        self.max_batch = max_batch
        self._lanes: tuple[deque[_Call], ...] = tuple(deque() for _ in Lane)
        self._ready = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name="tg-mafia-db", daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """A background call (the Executor's own entry)."""
        return self.submit_in(Lane.BACKGROUND, lambda: fn(*args, **kwargs))

    def submit_in(
        self, lane: Lane, fn: Callable[[], Any], on_run: Callable[[Any], None] | None = None
    ) -> Future[Any]:
        """A call in `lane`. `on_run` gets its result in this thread as soon as it
        has run (not if it raised), before the batch's commit; the future still
        resolves after the commit."""
        call = _Call(fn, Future(), lane, on_run)
        with self._ready:
            if self._closed:
                raise RuntimeError("the database thread is shut down")
            self._lanes[lane].append(call)
            self._ready.notify()
        return call.future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._ready:
            self._closed = True
            self._ready.notify()
        if wait:
            self._thread.join()

    def _serve(self) -> None:
        while True:
            batch = self._take()
            if batch is None:
                return
            self._run([call for call in batch if call.future.set_running_or_notify_cancel()])

    def _take(self) -> list[_Call] | None:
        """The next batch: a place for each lane that waits, the rest of the room
        to the lanes in their order; None once shut down and emptied."""
        with self._ready:
            while not any(self._lanes):
                if self._closed:
                    return None
                self._ready.wait()
            room = self.max_batch - sum(1 for lane in self._lanes if lane)
            batch: list[_Call] = []
            for lane in self._lanes:
                if lane:
                    taken = min(len(lane), 1 + max(0, room))
                    room -= taken - 1
                    batch.extend(lane.popleft() for _ in range(taken))
            return batch

    def _presses_now(self) -> list[_Call]:
        """The presses queued since the batch began: they run next, in it."""
        with self._ready:
            presses = list(self._lanes[Lane.PRESS])
            self._lanes[Lane.PRESS].clear()
        return [call for call in presses if call.future.set_running_or_notify_cancel()]

    def _run(self, batch: list[_Call]) -> None:
        """One transaction for the batch, its presses first. A press queued while it
        runs joins it, after the presses already in it and before its other calls,
        so it waits for the call in progress, not for the batch (up to twice the
        batch's bound, so that its commit comes)."""
        taken = list(batch)
        presses = deque(call for call in batch if call.lane is Lane.PRESS)
        others = deque(call for call in batch if call.lane is not Lane.PRESS)
        outcomes: dict[int, tuple[bool, Any]] = {}
        try:
            with self.db.grouped():
                while presses or others:
                    call = presses.popleft() if presses else others.popleft()
                    outcomes[id(call)] = _outcome(call)
                    if len(taken) < 2 * self.max_batch and (joining := self._presses_now()):
                        taken.extend(joining)
                        presses.extend(joining)
        except BaseException as error:
            # The commit failed: nothing of the batch is stored, and every call says so.
            outcomes = {id(call): (False, error) for call in taken}
        for call in taken:
            ok, value = outcomes[id(call)]
            if ok:
                call.future.set_result(value)
            else:
                call.future.set_exception(value)


class LaneExecutor(Executor):
    """One lane of a committer as an Executor of its own, for `loop.run_in_executor`:
    what the loop hands a thread that way it counts as work under way (the tests'
    virtual clock does not jump while a thread works)."""

    def __init__(
        self, committer: GroupCommitter, lane: Lane, on_run: Callable[[Any], None] | None = None
    ) -> None:
        self.committer = committer
        self.lane = lane
        self.on_run = on_run

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return self.committer.submit_in(self.lane, lambda: fn(*args, **kwargs), self.on_run)


def _outcome(call: _Call) -> tuple[bool, Any]:
    """Runs the call: its result (told early to whoever asked) or its own failure."""
    try:
        value = call.run()
    except BaseException as error:  # the call's own failure, for its caller
        return False, error
    if call.on_run is not None:
        _tell(call.on_run, value)
    return True, value


def _tell(on_run: Callable[[Any], None], value: Any) -> None:
    """A call's early result to whoever waits: their failure is not the batch's."""
    try:
        on_run(value)
    except Exception:
        log.exception("the database thread could not hand a result over early")
