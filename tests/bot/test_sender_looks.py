"""The sender's look at the outbox scans it whole in the database thread, which
every move waits for. Woken by every move that wrote calls, it looked once per
move (a third of that thread at 1,000 games): the next look now comes no sooner
than LOOK_SPACING times the last one's cost."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.bot.test_sender_stop import a_sender
from tg_mafia.runtime.outbox import sender as sender_module
from tg_mafia.runtime.outbox.sender import LOOK_SPACING
from tg_mafia.storage import Database

LOOK_COST = 0.005  # seconds: a large outbox


async def test_looks_at_the_outbox_take_at_most_a_tenth_of_the_database_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    looks = 0
    pending_chats = sender_module._timed_pending_chats

    def costly_look(db: Database, first: int) -> tuple[list[tuple[int, int, int, float]], float]:
        nonlocal looks
        looks += 1
        return pending_chats(db, first)[0], LOOK_COST  # as the scan of a large outbox costs

    monkeypatch.setattr(sender_module, "_timed_pending_chats", costly_look)
    async with a_sender(tmp_path) as sender:
        sender.start()
        began = asyncio.get_running_loop().time()
        while asyncio.get_running_loop().time() - began < 1.0:
            sender.wake()  # as a move that wrote calls does, 1,000 times a second
            await asyncio.sleep(0.001)
        await sender.stop()
    # Each look is followed by at least LOOK_SPACING times its cost without one.
    assert 2 <= looks <= 1.0 / (LOOK_COST * LOOK_SPACING) + 1
