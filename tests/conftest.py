"""Every async test runs on a virtual clock (tg_mafia.sandbox.virtual_time): waiting
for a timer, a rate window or a long poll costs no real time, and a timeout
can only fire because the code is stuck, never because the machine is busy.

A test that needs the wall clock (a peer in another process, APScheduler's
own timers) says so with `@pytest.mark.real_time`.

The suite runs on every core (pytest-xdist, `-n auto` in pyproject.toml).
The wall-clock tests go to one worker, one after another: they start real
processes and wait on them, and two of them side by side would each see the
machine twice as busy. They and the longest tests (`@pytest.mark.slow`)
are handed out first, so that no worker is left with one at the end while the other
idles."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping

import pytest

from tg_mafia.sandbox.virtual_time import VirtualTimeLoop


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "real_time: run on a real event loop (the wall clock), not the virtual one"
    )
    config.addinivalue_line("markers", "slow: one of the longest tests, handed out first")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("real_time") is not None:
            item.add_marker(pytest.mark.xdist_group("wall_clock"))
    items.sort(key=_hand_out_order)  # stable: the order within each part is kept


def _hand_out_order(item: pytest.Item) -> int:
    """The wall-clock tests first (one worker takes them all), then the longest."""
    if item.get_closest_marker("real_time") is not None:
        return 0
    return 1 if item.get_closest_marker("slow") is not None else 2


def pytest_asyncio_loop_factories(
    config: pytest.Config, item: pytest.Item
) -> Mapping[str, Callable[[], asyncio.AbstractEventLoop]]:
    if item.get_closest_marker("real_time") is not None:
        return {"real": asyncio.new_event_loop}
    return {"virtual": VirtualTimeLoop}
