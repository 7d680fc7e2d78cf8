"""The drain for a deploy, with `tg-mafia run` as a real process on the HTTP sandbox.

A classic game is played in this process first, quickly (a sped-up bot, timers fired by
hand), to its last day: one mafioso left, the vote about to decide. The real command then
takes the game over, as after a deploy. SIGTERM: a new lobby is refused, the game is
played to its end, and the process exits by itself. A second SIGTERM exits at once;
at the limit (DRAIN_SECONDS) the process exits too; either way the game stays in the
database and resumes at the next start. The owner's /drain does what SIGTERM does."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from engine import GameState, Side, legal_actions, public_view
from engine.actions import Action, NightChoice, Timeout, Vote
from engine.night import choice_key
from engine.state import Stage
from engine.variants import NightMove
from tests.bot.autoplay import AutoPlayers
from tests.bot.harness import Harness, running_bot
from tests.database_ops import backlog
from tests.loopback import loopback_client
from tg_mafia.config import ENV_VARS
from tg_mafia.i18n import translator
from tg_mafia.playtest.autoplay import press
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render import texts
from tg_mafia.sandbox import HttpTransport, Sandbox
from tg_mafia.sandbox.world.state import Chat
from tg_mafia.storage import Database, GameRecord, GameStatus, open_database

# A bot in another process: the wall clock, not the virtual one.
pytestmark = pytest.mark.real_time

SPEED = 200.0  # the game before the handover: every timer and budget 200 times faster
RESTARTING = "The bot restarts soon for an update"


@dataclass
class Table:
    sb: Sandbox
    h: Harness  # the in-process bot's harness, stopped: its users, group and buttons
    url: str
    game_id: int
    other: Chat  # a second group, where /newgame is tried during the drain
    base_url: str

    def db(self) -> Database:
        return open_database(self.url)

    def game(self) -> GameRecord:
        with self.db() as db:
            record = db.get_game(self.game_id)
        assert record is not None
        return record


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    sb = Sandbox(speed=SPEED)
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    scheduler = ManualScheduler()
    async with HttpTransport(sb) as http:
        async with running_bot(
            tmp_path, 7, sb=sb, speed=SPEED, database_url=url, scheduler=scheduler
        ) as h:
            h.db.save_settings(h.group.id, variant="classic", language="en")
            game_id = await h.open_and_fill()
            await h.press_start()
            await play_to_the_last_day(h, scheduler, game_id)
            other = sb.add_group("Other club", members=[h.admin], owner=h.admin)
        # The day's timer was set on the fast clock: give it the minutes a real day has.
        with open_database(url) as db, db.engine.begin() as connection:
            connection.execute(
                sa.text("UPDATE game SET stage_deadline = :at WHERE id = :id"),
                {"at": time.time() + 600, "id": game_id},
            )
        yield Table(sb, h, url, game_id, other, http.base_url)
    await sb.close()


def mafia(state: GameState) -> list[str]:
    return [p for p in state.table.alive if state.table.roles[p].is_mafia]


def town_move(state: GameState) -> Action:
    """The town's script: every night move made at once (the mafia shoot at the town; a
    night without moves lasts its timer), and every day the whole town votes against the
    first mafioso alive."""
    if state.stage is Stage.NIGHT:
        moves = [
            a
            for a in legal_actions(state)
            if isinstance(a, NightChoice)
            and a.target is not None
            and choice_key(a.actor, a.move) not in state.night.choices
            and not (a.move is NightMove.KILL and state.table.roles[a.target].is_mafia)
        ]
        return moves[0] if moves else Timeout("clock", state.clock.timer_id)
    assert state.stage is Stage.DISCUSSION, state.stage
    target = mafia(state)[0]
    voter = next(
        p for p in state.table.alive if p != target and state.vote.ballots.get(p) != target
    )
    return Vote(voter, target)


async def play_to_the_last_day(h: Harness, scheduler: ManualScheduler, game_id: int) -> None:
    players = AutoPlayers(h, scheduler, seed=1)
    for _ in range(200):
        await h.settle()
        record = h.db.get_game(game_id)
        assert record is not None and record.status is GameStatus.RUNNING
        state = GameState.from_dict(record.state or {})
        if state.stage is Stage.DISCUSSION and len(mafia(state)) == 1:
            return
        await players.perform(record, public_view(state), town_move(state))
    raise AssertionError("the game never reached its last day")


@dataclass
class Bot:
    proc: asyncio.subprocess.Process
    log: Path
    health: str

    def output(self) -> str:
        return self.log.read_text()

    def term(self) -> None:
        self.proc.send_signal(signal.SIGTERM)

    async def exited(self, timeout: float) -> int:
        return await asyncio.wait_for(self.proc.wait(), timeout)

    async def status(self) -> dict[str, object] | None:
        try:
            async with loopback_client() as client:
                response = await client.get(self.health, timeout=5)
        except httpx.TransportError:
            return None
        body: dict[str, object] = response.json()
        return body if response.status_code == 200 else None

    async def until(self, wanted: dict[str, object], timeout: float = 20.0) -> None:
        """Until /healthz answers 200 with at least `wanted`."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.returncode is not None:
                raise AssertionError(f"the bot exited {self.proc.returncode}:\n{self.output()}")
            body = await self.status()
            if body is not None and wanted.items() <= body.items():
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"/healthz never answered {wanted}:\n{self.output()}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


async def launch(table: Table, tmp_path: Path, name: str, **env: str) -> Bot:
    port = free_port()
    clean = {k: v for k, v in os.environ.items() if k not in ENV_VARS.values()}
    clean |= {
        "TELEGRAM_BOT_TOKEN": table.sb.token,
        "TELEGRAM_BASE_URL": table.base_url,
        "DATABASE_URL": table.url,
        "HEALTH_LISTEN": str(port),
        "LOG_LEVEL": "INFO",
    } | env
    log = tmp_path / f"{name}.log"
    with log.open("wb") as out:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tg_mafia.cli", "run",
            env=clean, cwd=tmp_path, stdout=out, stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
    bot = Bot(proc, log, f"http://127.0.0.1:{port}/healthz")
    await bot.until({"ok": True, "games": 1})
    return bot


async def test_sigterm_refuses_lobbies_lets_the_game_end_then_exits(
    table: Table, tmp_path: Path
) -> None:
    bot = await launch(table, tmp_path, "drain")
    try:
        bot.term()
        await bot.until({"draining": True})
        admin = table.h.admin
        admin.command(table.other, "newgame", mention=True)
        await table.sb.wait_for(
            lambda: any(RESTARTING in (m.text or "") for m in admin.view(table.other)), 20
        )
        await asyncio.sleep(0.5)
        assert bot.proc.returncode is None  # the game still runs: the bot waits for it

        # The town votes the last mafioso out: the game ends.
        record = table.game()
        state = GameState.from_dict(record.state or {})
        players = AutoPlayers(table.h, ManualScheduler(), seed=1)
        target = mafia(state)[0]
        for voter in [p for p in state.table.alive if p != target]:
            chat, match = players.button_for(record, public_view(state), Vote(voter, target))
            assert press(table.h, players.user(voter), chat, match)
            await table.sb.wait_for(lambda v=voter: voted(table, v, target), 20)
            if table.game().status is not GameStatus.RUNNING:
                break
        assert await bot.exited(30) == 0, bot.output()
    finally:
        if bot.proc.returncode is None:
            bot.proc.kill()
    output = bot.output()
    assert "draining (SIGTERM)" in output and "drained: no game running" in output
    assert table.game().status is GameStatus.ENDED
    with table.db() as db:
        assert db.active_game(table.other.id) is None
        assert backlog(db) == (0, None)  # the end screen went out before the exit
    town_wins = texts.winner_line(translator("en"), Side.TOWN).replace("<b>", "")
    assert any(town_wins.replace("</b>", "") in text for text in table.h.group_texts())


def voted(table: Table, voter: str, target: str) -> bool:
    record = table.game()
    if record.status is not GameStatus.RUNNING:
        return True
    return GameState.from_dict(record.state or {}).vote.ballots.get(voter) == target


async def test_a_second_sigterm_exits_at_once_and_the_game_resumes(
    table: Table, tmp_path: Path
) -> None:
    bot = await launch(table, tmp_path, "first")
    try:
        bot.term()
        await bot.until({"draining": True})
        began = time.monotonic()
        bot.term()
        assert await bot.exited(15) == 0, bot.output()
        assert time.monotonic() - began < 10
    finally:
        if bot.proc.returncode is None:
            bot.proc.kill()
    assert "stopping now: games still running resume at the next start" in bot.output()
    assert table.game().status is GameStatus.RUNNING

    again = await launch(table, tmp_path, "second")  # healthy with the game: resumed
    try:
        assert "resumed 1 unfinished games" in again.output()
        again.term()
        await again.until({"draining": True})  # two signals at once would count as one
        again.term()
        assert await again.exited(15) == 0, again.output()
    finally:
        if again.proc.returncode is None:
            again.proc.kill()


async def test_the_owners_drain_exits_at_the_limit_and_the_game_stays(
    table: Table, tmp_path: Path
) -> None:
    owner = table.h.users[0]  # a player, who started the bot through the lobby's link
    bot = await launch(table, tmp_path, "limit", DRAIN_SECONDS="2", OWNER_ID=str(owner.id))
    try:
        began = time.monotonic()
        owner.command(owner.private_chat, "drain")
        assert await bot.exited(20) == 0, bot.output()
        assert 2 <= time.monotonic() - began < 15
    finally:
        if bot.proc.returncode is None:
            bot.proc.kill()
    assert "draining (the owner's /drain)" in bot.output()
    assert (
        "drain limit reached with 1 games running: they stay in the database and resume "
        "at the next start" in bot.output()
    )
    assert any("Draining from now on" in text for text in table.h.private_texts(owner))
    assert table.game().status is GameStatus.RUNNING
