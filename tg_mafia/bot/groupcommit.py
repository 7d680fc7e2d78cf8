"""SQLite's one writer thread, with group commit: the calls queued while it
was busy run together in one transaction (each call's own transactions
become savepoints), committed with one fsync, and only then is each call
answered. Under load the cost of a durable commit is shared by a batch
instead of paid by every move; when the bot is quiet a batch is one call.

Two lanes: the moves an update waits for (a press, a post, a timer) go
ahead of the background's calls (the sender's looks at the outbox and its
bookkeeping), which would otherwise stand in a press's way for tens of
milliseconds; a batch still takes one background call when any waits, so
the sender is never starved. A move may also say what it decided as soon
as it has run, before its batch's commit (`on_run`): what a button's popup
needs, a few milliseconds before the commit that makes it durable."""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from typing import Any, Final

from tg_mafia.storage import Database

log = logging.getLogger(__name__)

# A bound on a batch keeps the first call's wait short (a move costs a few ms).
MAX_BATCH: Final = 32


@dataclass(frozen=True, slots=True)
class _Call:
    run: Callable[[], Any]
    future: Future[Any]
    on_run: Callable[[Any], None] | None = None  # its result, before the commit


class GroupCommitter(Executor):
    """An Executor for `loop.run_in_executor`: one thread; calls in their order
    within each lane, the urgent lane's first."""

    def __init__(self, db: Database, max_batch: int = MAX_BATCH) -> None:
        self.db = db
        self.max_batch = max_batch
        self._urgent: deque[_Call] = deque()
        self._background: deque[_Call] = deque()
        self._ready = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name="tg-mafia-db", daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """A background call (the Executor's own entry)."""
        return self._queue(self._background, _Call(lambda: fn(*args, **kwargs), Future()))

    def submit_first(
        self, fn: Callable[[], Any], on_run: Callable[[Any], None] | None = None
    ) -> Future[Any]:
        """A call an update waits for: ahead of every background call. `on_run`
        gets its result in this thread as soon as it has run (not if it raised),
        before the batch's commit; the future still resolves after the commit."""
        return self._queue(self._urgent, _Call(fn, Future(), on_run))

    def _queue(self, lane: deque[_Call], call: _Call) -> Future[Any]:
        with self._ready:
            if self._closed:
                raise RuntimeError("the database thread is shut down")
            lane.append(call)
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
        """The next batch, urgent calls first; None once shut down and emptied."""
        with self._ready:
            while not self._urgent and not self._background:
                if self._closed:
                    return None
                self._ready.wait()
            room = self.max_batch - (1 if self._background else 0)
            batch = [self._urgent.popleft() for _ in range(min(room, len(self._urgent)))]
            while self._background and len(batch) < self.max_batch:
                batch.append(self._background.popleft())
            return batch

    def _run(self, batch: list[_Call]) -> None:
        if not batch:
            return
        outcomes: list[tuple[bool, Any]] = []
        try:
            with self.db.grouped():
                for call in batch:
                    try:
                        value = call.run()
                    except BaseException as error:  # the call's own failure, for its caller
                        outcomes.append((False, error))
                        continue
                    outcomes.append((True, value))
                    if call.on_run is not None:
                        _tell(call.on_run, value)
        except BaseException as error:
            # The commit failed: nothing of the batch is stored, and every call says so.
            outcomes = [(False, error)] * len(batch)
        for call, (ok, value) in zip(batch, outcomes, strict=True):
            if ok:
                call.future.set_result(value)
            else:
                call.future.set_exception(value)


def _tell(on_run: Callable[[Any], None], value: Any) -> None:
    """A call's early result to whoever waits: their failure is not the batch's."""
    try:
        on_run(value)
    except Exception:
        log.exception("the database thread could not hand a result over early")
