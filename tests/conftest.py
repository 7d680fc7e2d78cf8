"""Every async test runs on a virtual clock (tg_mafia.virtual_time): waiting
for a timer, a rate window or a long poll costs no real time, and a timeout
can only fire because the code is stuck, never because the machine is busy.

A test that needs the wall clock (a peer in another process, APScheduler's
own timers) says so with `@pytest.mark.real_time`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping

import pytest

from tg_mafia.virtual_time import VirtualTimeLoop


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "real_time: run on a real event loop (the wall clock), not the virtual one"
    )


def pytest_asyncio_loop_factories(
    config: pytest.Config, item: pytest.Item
) -> Mapping[str, Callable[[], asyncio.AbstractEventLoop]]:
    if item.get_closest_marker("real_time") is not None:
        return {"real": asyncio.new_event_loop}
    return {"virtual": VirtualTimeLoop}
