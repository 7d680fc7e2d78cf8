"""How a long-running command waits to be stopped."""

from __future__ import annotations

import asyncio
import signal


async def until_stopped() -> None:
    """Until Ctrl-C or SIGTERM. Both are handled here: a process that a script
    starts in the background inherits SIGINT ignored, and Python's own Ctrl-C
    would never come."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
