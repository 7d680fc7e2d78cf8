"""A backup taken from a running bot in the middle of a game, restored on a fresh
machine, and the game played to its end there, as an operator would do it: the bot in a
process of its own on the HTTP sandbox (the crash test's driver, tests/crash/driver.py),
`tg-mafia backup` and `tg-mafia restore` as the commands an operator types.

The backup is taken while a move is being made. After it the game goes on for a few
moves, then the machine is lost with its database. On the fresh one the backup is
restored into a new database and a new bot process starts on it: the game resumes from
the backup's moment (the moves after it are gone, and the players make them again),
every button a player needs is there, and the game ends as the uninterrupted reference
game does, with the group's permissions given back."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import sys
from pathlib import Path

import pytest

from engine import find_variant
from tests.crash.driver import BotProcess, CrashRun
from tg_mafia.config import ENV_VARS
from tg_mafia.storage import GameStatus, open_database

# A bot in another process: the wall clock, not the virtual one.
pytestmark = pytest.mark.real_time

ROOT = Path(__file__).resolve().parents[2]
SPEED = 200.0
MOVES_LOST = 3  # moves made after the backup, lost with the machine
SEED = int(os.environ.get("TG_MAFIA_BACKUP_SEED", "36"))
# The variants the crash test's driver plays (it presses what a player of each may press).
VARIANTS = ["classic", "moscow", "party", "club"]


async def tg_mafia(*argv: str) -> tuple[int, str, str]:
    """`tg-mafia ARGV` as a shell runs it: its exit code, stdout and stderr."""
    env = {k: v for k, v in os.environ.items() if k not in ENV_VARS.values()}
    env["PYTHONPATH"] = str(ROOT)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tg_mafia.cli", *argv, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def step(run: CrashRun, table: object) -> None:
    """One player input of the reference game (the driver's own step)."""
    assert run.bot is not None
    await run._step(table, run.bot.generation)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", VARIANTS)
async def test_a_backup_from_a_running_bot_restores_on_a_fresh_machine(
    variant: str, tmp_path: Path
) -> None:
    old_machine, new_machine = tmp_path / "old", tmp_path / "new"
    old_machine.mkdir()
    new_machine.mkdir()
    backup = tmp_path / "night.backup"
    async with CrashRun(old_machine, SPEED, random.Random(SEED)) as run:
        table = run.add_table(variant, find_variant(variant).min_players, SEED, 0)
        await run.open_lobby(table)
        table.killed = True  # the driver's kill point: none here
        half = len(table.reference) // 2
        while run.progress(table) < half:
            await step(run, table)

        # The operator's backup, while a player's move is being made.
        url = f"sqlite:///{run.db_path}"
        (code, out, err), _ = await asyncio.gather(
            tg_mafia("backup", "--database-url", url, str(backup)), step(run, table)
        )
        assert code == 0, err
        assert out.startswith(f"backed up {url} (revision ") and "1 unfinished" in out
        for _ in range(MOVES_LOST):
            await step(run, table)
        made = run.progress(table)

        # The machine is lost, with its database.
        assert run.bot is not None
        await run.bot.stop()
        run.raw.close()
        run.db.close()
        for path in old_machine.glob("bot.db*"):
            path.unlink()

        # A fresh machine: the backup restored into a new database, a new bot on it.
        restored = new_machine / "bot.db"
        code, out, err = await tg_mafia("restore", "--database-url", f"sqlite:///{restored}",
                                        str(backup))  # fmt: skip
        assert code == 0, err
        assert "1 unfinished" in out
        run.db_path, run.db = restored, open_database(f"sqlite:///{restored}")
        run.raw = sqlite3.connect(restored, isolation_level=None, check_same_thread=False)
        record = run.db.get_game(table.game_id)
        assert record is not None and record.status is GameStatus.RUNNING
        resumed_at = run.progress(table)
        assert half <= resumed_at < made  # the backup's moment: what came after is gone
        assert run.http is not None
        run.bot = BotProcess(run.http.base_url, run.sb.token, restored, SPEED)
        await run.bot.start()

        # The players make the lost moves again and play on, by the buttons they see.
        await run.play(table)
        await run.delivered()
        run.check(table)
        assert run.bot.errors_logged() == []
