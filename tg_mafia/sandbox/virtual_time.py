"""An asyncio event loop on a virtual clock, for tests and offline demos.

`loop.time()` is virtual: whenever nothing is ready to run and no work is
in flight in a thread, the loop jumps straight to its next timer instead of
waiting for it. A 60-second speech, a rate window or a 10-second long poll
costs no real time, and a timeout in virtual seconds can only fire because
the program is really stuck, never because the machine is busy.

Work handed to a thread (`run_in_executor`, `asyncio.to_thread`) holds the
clock still until it is done, so a slow database call under load does not
let timers overtake it. Real sockets between tasks of this loop (the
sandbox's HTTP side and a webhook server, both on loopback) need no waiting:
what one end writes is readable at the other at once. A peer in another
process is a different matter: tests that talk to one use a real loop.

`loop.time()` counts from 0, like the monotonic clock, so it keeps its
precision; `loop.wall_time()` adds a fixed date to it: the Unix time the
bot and the sandbox read, the same in every run of a test."""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import selectors
import time
from collections.abc import Callable
from typing import Any, TypeVar

# 2026-12-01 12:00:00 UTC: a fixed start, so dates in a test never vary.
DEFAULT_START = 1_796_126_400.0
# While a thread works, the loop waits for it in real time, this long at most
# between looks at its sockets (the thread's end wakes it at once anyway).
REAL_POLL = 0.05

T = TypeVar("T")
FileObject = Any  # a file descriptor or an object with fileno()


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """A selector event loop whose clock jumps over idle waits."""

    def __init__(self, start: float = DEFAULT_START) -> None:
        self._start = float(start)
        self._now = 0.0
        self._threads_busy = 0
        super().__init__(_JumpingSelector(selectors.DefaultSelector(), self))

    def time(self) -> float:
        return self._now

    def wall_time(self) -> float:
        """The virtual clock as Unix time."""
        return self._start + self._now

    def advance(self, seconds: float) -> None:
        """Moves the clock forward by hand (a test skipping ahead)."""
        if seconds < 0:
            raise ValueError("the clock does not run backwards")
        self._now += seconds

    @property
    def threads_busy(self) -> int:
        return self._threads_busy

    def run_in_executor(  # type: ignore[override]
        self,
        executor: concurrent.futures.Executor | None,
        func: Callable[..., T],
        *args: Any,
    ) -> asyncio.Future[T]:
        future = super().run_in_executor(executor, func, *args)
        self._threads_busy += 1
        future.add_done_callback(self._thread_done)
        return future

    def _thread_done(self, _future: asyncio.Future[Any]) -> None:
        self._threads_busy -= 1

    def _jump(self, seconds: float) -> None:
        # Always forward, even by less than the float's precision: a timer
        # a hair in the future must come due, or the loop would spin on it.
        self._now = max(self._now + seconds, math.nextafter(self._now, math.inf))


class _JumpingSelector(selectors.BaseSelector):
    """The loop's selector: real I/O first; then, if nothing else can
    happen, the clock jumps to the next timer instead of sleeping."""

    def __init__(self, real: selectors.BaseSelector, loop: VirtualTimeLoop) -> None:
        self._real = real
        self._loop = loop

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        ready = self._real.select(0)
        if timeout == 0 and not ready:
            # Callbacks are due: the clock still moves a hair, as a real one would.
            # A timer set for "now" again and again (aiolimiter's, after a float's
            # rounding) would otherwise come due forever at the same instant.
            self._loop._jump(0.0)
        if ready or timeout == 0:
            return ready
        if self._loop.threads_busy:
            # A thread is working: wait for it in real time, clock still.
            wait = REAL_POLL if timeout is None else min(timeout, REAL_POLL)
            return self._real.select(wait)
        if timeout is None:
            # No timer at all: only real I/O (or a thread's call) can wake us.
            return self._real.select(None)
        self._loop._jump(timeout)
        return []

    # Everything else is the real selector's business.
    def register(self, fileobj: FileObject, events: int, data: Any = None) -> selectors.SelectorKey:
        return self._real.register(fileobj, events, data)

    def unregister(self, fileobj: FileObject) -> selectors.SelectorKey:
        return self._real.unregister(fileobj)

    def modify(self, fileobj: FileObject, events: int, data: Any = None) -> selectors.SelectorKey:
        return self._real.modify(fileobj, events, data)

    def get_key(self, fileobj: FileObject) -> selectors.SelectorKey:
        return self._real.get_key(fileobj)

    def get_map(self) -> Any:
        return self._real.get_map()

    def close(self) -> None:
        self._real.close()


def current_time_source() -> Callable[[], float]:
    """The running loop's clock as Unix time when it is virtual, else the
    wall clock: what the bot and the sandbox measure time with."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return time.time
    if isinstance(loop, VirtualTimeLoop):
        return loop.wall_time
    return time.time


def run(main: Any, start: float = DEFAULT_START) -> Any:
    """`asyncio.run` on a virtual clock (the offline demo)."""
    with asyncio.Runner(loop_factory=lambda: VirtualTimeLoop(start)) as runner:
        return runner.run(main)
