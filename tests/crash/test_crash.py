"""Games survive SIGKILL: games on the sandbox, each with the bot process
killed at a random moment and started again on the same database, finish
exactly as the uninterrupted reference game (see driver.py), and every message
the reference game says they produced reaches its chat (messages.py); the
calls repeated after a crash (duplicates) are counted and printed.

By default 4 batches of 5 games (one batch per variant, every kill mode in each:
20 games, 20 kill points); TG_MAFIA_CRASH_RUNS=10 runs all 10 batches (50 games)."""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path

import pytest

from engine import find_variant
from tests.crash.driver import CrashRun, summary, watchdog
from tests.crash.messages import Verdict

# A bot in another process: the wall clock, not the virtual one.
pytestmark = pytest.mark.real_time

SPEED = 200.0
# (variant, tables per bot process); batches run one after another, the first
# TG_MAFIA_CRASH_RUNS of them (4 by default: every variant once).
BATCHES = [
    ("classic", 5),
    ("party", 5),
    ("moscow", 5),
    ("club", 5),
    ("classic", 5),
    ("party", 5),
    ("moscow", 5),
    ("club", 5),
    ("classic", 5),
    ("party", 5),
]
# Real seconds for a batch at most (about 30 on an idle machine): past it, every
# waiting task's stack is printed, and the test fails instead of hanging.
BATCH_TIMEOUT = 900.0
RUNS = min(len(BATCHES), int(os.environ.get("TG_MAFIA_CRASH_RUNS", "4")))


@pytest.mark.parametrize("batch", range(RUNS))
async def test_games_survive_sigkill(
    tmp_path: Path, batch: int, capsys: pytest.CaptureFixture[str]
) -> None:
    variant, tables = BATCHES[batch]
    rng = random.Random(7000 + batch)
    size = find_variant(variant).min_players
    async with CrashRun(tmp_path, SPEED, rng) as run:
        games = [run.add_table(variant, size, 100 * batch + i, i) for i in range(tables)]
        for table in games:
            await run.open_lobby(table)
        async with watchdog(BATCH_TIMEOUT):
            await asyncio.gather(*(run.play(table) for table in games))
        await run.delivered()
        verdict = Verdict()
        for table in games:
            run.check(table)
            assert table.killed and table.restarts_seen >= 1, run.describe(table)
            verdict.add(run.messages(table))
        with capsys.disabled():  # shown in every run: the duplicates are a measure
            print(
                f"\n[crash {batch} {variant}] messages expected {verdict.expected}, "
                f"missing {len(verdict.missing)}, duplicates {verdict.duplicates}, "
                f"other sends {len(verdict.other)}"
            )
        assert not verdict.missing, "messages lost:\n" + "\n".join(verdict.missing)
        # A kill point may fall while the process is restarting for another game's.
        assert 1 <= summary(run)["kills"] <= tables
        assert run.bot is not None and run.bot.errors_logged() == []
