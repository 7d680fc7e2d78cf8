"""SQLite's one writer thread, with group commit: the calls queued while it
was busy run together in one transaction (each call's own transactions
become savepoints), committed with one fsync, and only then is each call
answered. Under load the cost of a durable commit is shared by a batch
instead of paid by every move; when the bot is quiet a batch is one call.
The urgent lane's calls go first (lanes.py); a batch that holds one takes few
of the others, whose commit it would wait for."""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from typing import Any, Final

from tg_mafia.runtime.db import lanes
from tg_mafia.storage import Database

# A bound on a batch keeps the first call's wait short (a move costs a few ms).
MAX_BATCH: Final = 32
# The background calls a batch with an urgent call in it may take (a few keep the
# sender going when updates come without a pause).
BACKGROUND_WITH_URGENT: Final = 4
_STOP: Final = 2  # after every lane: the calls queued before a shutdown run first


@dataclass(frozen=True, slots=True)
class _Call:
    run: Callable[[], Any]
    future: Future[Any]


# benchmarks/load.py --without group-commit, 100 updates/s: popup p99 190-282 ms vs 527-1898 ms
class GroupCommitter(Executor):
    """An Executor for `loop.run_in_executor`: one thread, calls in their order."""

    def __init__(self, db: Database, max_batch: int = MAX_BATCH) -> None:
        self.db = db
        self.max_batch = max_batch
        self._calls: queue.PriorityQueue[tuple[int, int, _Call | None]] = queue.PriorityQueue()
        self._order = itertools.count()  # a lane's calls in their order
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name="tg-mafia-db", daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if self._closed:
            raise RuntimeError("the database thread is shut down")
        future: Future[Any] = Future()
        call = _Call(lambda: fn(*args, **kwargs), future)
        self._calls.put((lanes.current(), next(self._order), call))  # the caller's lane
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if not self._closed:
            self._closed = True
            self._calls.put((_STOP, next(self._order), None))
        if wait:
            self._thread.join()

    def _serve(self) -> None:
        while True:
            lane, _, first = self._calls.get()
            if first is None:
                return
            batch, stop, urgent = [first], False, lane == lanes.URGENT
            others = 0  # background calls taken beside urgent ones
            while len(batch) < self.max_batch:
                try:
                    item = self._calls.get_nowait()
                except queue.Empty:
                    break
                lane, _, call = item
                if call is None:
                    stop = True
                    break
                if urgent and lane != lanes.URGENT:
                    if others >= BACKGROUND_WITH_URGENT:
                        self._calls.put(item)  # its place kept: the next batch's first
                        break
                    others += 1
                batch.append(call)
            self._run([call for call in batch if call.future.set_running_or_notify_cancel()])
            if stop:
                return

    def _run(self, batch: list[_Call]) -> None:
        if not batch:
            return
        outcomes: list[tuple[bool, Any]] = []
        try:
            with self.db.grouped():
                for call in batch:
                    try:
                        outcomes.append((True, call.run()))
                    except BaseException as error:  # the call's own failure, for its caller
                        outcomes.append((False, error))
        except BaseException as error:
            # The commit failed: nothing of the batch is stored, and every call says so.
            outcomes = [(False, error)] * len(batch)
        for call, (ok, value) in zip(batch, outcomes, strict=True):
            if ok:
                call.future.set_result(value)
            else:
                call.future.set_exception(value)
