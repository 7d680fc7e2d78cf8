"""Games survive SIGKILL: at least 50 games on the sandbox, each with the bot
process killed at a random moment and started again on the same database,
finish exactly as the uninterrupted reference game (see driver.py)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from engine import find_variant
from tests.crash.driver import CrashRun, summary

# A bot in another process: the wall clock, not the virtual one.
pytestmark = pytest.mark.real_time

SPEED = 200.0
# (variant, tables per bot process); batches run one after another.
BATCHES = [
    ("classic", 5),
    ("party", 5),
    ("classic", 5),
    ("party", 5),
    ("moscow", 5),
    ("club", 5),
    ("classic", 5),
    ("party", 5),
    ("moscow", 5),
    ("club", 5),
]


@pytest.mark.parametrize("batch", range(len(BATCHES)))
async def test_games_survive_sigkill(tmp_path: Path, batch: int) -> None:
    variant, tables = BATCHES[batch]
    rng = random.Random(7000 + batch)
    size = find_variant(variant).min_players
    async with CrashRun(tmp_path, SPEED, rng) as run:
        games = [run.add_table(variant, size, 100 * batch + i) for i in range(tables)]
        for table in games:
            await run.open_lobby(table)
        await asyncio.gather(*(run.play(table) for table in games))
        for table in games:
            run.check(table)
            assert table.killed and table.restarts_seen >= 1
        # A kill point may fall while the process is restarting for another game's.
        assert 1 <= summary(run)["kills"] <= tables
        assert run.bot is not None and run.bot.errors_logged() == []
