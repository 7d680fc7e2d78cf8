"""Waiting for an asyncio.Event with a timeout, without `asyncio.wait_for`.

On Python 3.11, `wait_for` swallows a cancellation that lands in the same
loop iteration as the awaited future completes (CPython gh-86296, fixed in
3.12): the task that was told to stop carries on. The sender's loop hit it
when it was stopped (its workers' last act sets the very event it waits on),
and the bot then waited for the sender for ever. `asyncio.timeout` tells its
own cancellation from another's."""

from __future__ import annotations

import asyncio


async def wait_set(event: asyncio.Event, timeout: float) -> bool:
    """Until `event` is set (True) or `timeout` seconds have passed (False);
    a cancellation always propagates."""
    try:
        async with asyncio.timeout(max(0.0, timeout)):
            await event.wait()
    except TimeoutError:
        return False
    return True
