"""Scripted games against three bot replicas on one PostgreSQL, one of them
SIGKILLed at random moments and started again.

The model is the crash test's (tests/crash/driver.py, whose reference games,
button presses and verdict this reuses): once a lobby is full the engine
alone plays the reference game from the stored seed and seats, and the
players feed its actions through the buttons; the stored action log must
replay to the reference's end, with nothing applied twice.

What differs with replicas:

- Three processes (`replica_process.py`) take the updates: the sandbox
  delivers them by webhook to a round-robin balancer in the test
  (`balancer.py`), which spreads them over the replicas. One of them leads
  (tg_mafia/runtime/db/leader.py): it alone sends the outbox and keeps the timers.
- Timers are deterministic: each replica runs a `ManualScheduler`, and a
  `Timeout` of the reference game is fired through the control endpoint of
  every live replica at once, again and again until the game's log has it.
  Only the leader has the timer armed; after the leader's death the next
  one arms it from the stored deadline. Firing the same timer twice, or a
  stale one, must change nothing: each `Timeout` must be in the log once.
- A move is never pressed again: every press must reach the log, whichever
  replica took it and whenever one died. A replica answers the webhook only
  once the update is handled (tg_mafia/telegram/webhook.py), so an update it took as
  it was killed is delivered again, to another replica.
- Each table picks a kill point (an action index and a mode, as in the
  crash test) and a victim: the leader, the replica the balancer gave the
  latest update to, or any replica. The kill and the restart run beside the
  games; one replica is down at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import text

from engine import GameState
from engine.actions import Timeout, action_from_dict
from tests.crash.driver import STEP_TIMEOUT, CrashRun, Table, kill_child
from tests.replicas.balancer import Balancer
from tg_mafia.render.callbacks import Kind
from tg_mafia.sandbox import HttpTransport, Limits, Sandbox, SimUser
from tg_mafia.sandbox.acting import Press
from tg_mafia.sandbox.limits import CHARGED_METHODS
from tg_mafia.sandbox.records import CallLog, most_within
from tg_mafia.storage import GameStatus, open_database

SCRIPT = Path(__file__).with_name("replica_process.py")
ROOT = Path(__file__).resolve().parents[2]
VICTIMS = ("leader", "handler", "any")


@dataclass
class Replica:
    index: int
    port: int
    pid: int = 0
    control: str = ""


class Replicas:
    """The replica processes, forked from one zygote; kill and restart one at a time."""

    def __init__(self, setup: dict[str, Any], count: int, stderr: Path) -> None:
        self.setup = setup
        self.replicas = [Replica(i, _free_port()) for i in range(count)]
        self.zygote: asyncio.subprocess.Process | None = None
        self.stderr = stderr
        self.kills: Counter[str] = Counter()  # by victim: leader, other
        self.last_kill = 0.0  # time.monotonic() of the latest kill
        self.starts: list[float] = []
        self._lock = asyncio.Lock()
        self._lines: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.client = httpx.AsyncClient(timeout=STEP_TIMEOUT)

    @property
    def ports(self) -> list[int]:
        return [r.port for r in self.replicas]

    async def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        with self.stderr.open("ab") as err:
            self.zygote = await asyncio.create_subprocess_exec(
                sys.executable, str(SCRIPT), "--zygote", json.dumps(self.setup),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=err,
                env=env,
            )  # fmt: skip
        for replica in self.replicas:  # one after another: the first creates nothing twice
            await self._spawn(replica)

    async def _spawn(self, replica: Replica) -> None:
        assert self.zygote is not None
        assert self.zygote.stdin is not None and self.zygote.stdout is not None
        began = time.perf_counter()
        line = json.dumps({"index": replica.index, "port": replica.port}) + "\n"
        self.zygote.stdin.write(line.encode())
        await self.zygote.stdin.drain()
        answer = await asyncio.wait_for(self.zygote.stdout.readline(), 60)
        ready = json.loads(answer or "{}")
        if not ready.get("ready"):
            raise RuntimeError(f"a replica did not start: {self.stderr.read_text()[-3000:]}")
        assert ready["index"] == replica.index
        replica.pid = int(ready["pid"])
        replica.control = f"http://127.0.0.1:{ready['control_port']}"
        self.starts.append(time.perf_counter() - began)

    async def leading(self) -> list[int]:
        """The replicas that say they lead (one, or none during a takeover)."""

        async def ask(replica: Replica) -> bool:
            with contextlib.suppress(httpx.HTTPError):
                answer = await self.client.get(f"{replica.control}/leading", timeout=5)
                return bool(answer.json()["leading"])
            return False

        found = await asyncio.gather(*(ask(r) for r in self.replicas))
        return [r.index for r, yes in zip(self.replicas, found, strict=True) if yes]

    async def wait_for_leader(self, timeout: float = STEP_TIMEOUT) -> int:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            leaders = await self.leading()
            if len(leaders) == 1:
                return leaders[0]
            await asyncio.sleep(0.05)
        raise TimeoutError("no replica took the lead")

    async def kill_and_restart(self, index: int, victim: str) -> None:
        async with self._lock:
            await self.kill(index, victim)
            await self.restart(index)

    async def kill(self, index: int, victim: str) -> None:
        """SIGKILLs replica `index`; it stays down until `restart`."""
        replica = self.replicas[index]
        leaders = await self.leading()
        self.last_kill = time.monotonic()
        await kill_child(replica.pid, self._zygote_pid())
        replica.pid = 0
        self.kills["leader" if index in leaders else "other"] += 1
        self.kills[f"chosen:{victim}"] += 1

    async def restart(self, index: int) -> None:
        await self._spawn(self.replicas[index])

    async def fire(self, name: str) -> int:
        """Fires timer `name` on every replica at once: how many had it armed."""

        async def one(replica: Replica) -> bool:
            with contextlib.suppress(httpx.HTTPError, ValueError):
                answer = await self.client.post(f"{replica.control}/fire/{name}")
                return bool(answer.json()["fired"])
            return False

        return sum(await asyncio.gather(*(one(r) for r in self.replicas)))

    async def stop(self) -> None:
        for replica in self.replicas:
            if replica.pid:
                await kill_child(replica.pid, self._zygote_pid())
                replica.pid = 0
        if self.zygote is not None and self.zygote.returncode is None:
            assert self.zygote.stdin is not None
            self.zygote.stdin.close()
            await self.zygote.wait()
        await self.client.aclose()

    def _zygote_pid(self) -> int:
        assert self.zygote is not None
        return self.zygote.pid

    def errors_logged(self) -> list[str]:
        text_ = self.stderr.read_text() if self.stderr.exists() else ""
        return [line for line in text_.splitlines() if line.startswith("ERROR")]


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class ReplicaTable(Table):
    victim: str = "any"
    timer_fires: int = 0  # fires that found the timer armed


class ReplicaRun(CrashRun):
    """The crash test's run, on replicas (see the module's docstring)."""

    def __init__(
        self,
        tmp: Path,
        speed: float,
        rng: random.Random,
        database_url: str,
        count: int = 3,
        **setup: Any,  # more for replica_process.py: lobby_seconds, timers
    ) -> None:
        self.extra_setup = setup
        self.tmp = tmp
        self.speed = speed
        self.rng = rng
        # The balancer stands for the health-checking proxy in front of the replicas
        # (deploy/Caddyfile): an update a dead replica failed is soon tried again on a
        # live one, not after Telegram's growing wait.
        limits = Limits(callback_answer_timeout=15.0 * speed, webhook_retry_cap=1.0)
        self.sb = Sandbox(speed=speed, limits=limits)
        self.database_url = database_url
        self.db = open_database(database_url)  # creates the tables before any replica starts
        self.count = count
        self.http: HttpTransport | None = None
        self.balancer: Balancer | None = None
        self.replicas: Replicas | None = None
        self.bot: Any = None
        self.client = httpx.AsyncClient(timeout=STEP_TIMEOUT)
        self.kill_tasks: list[asyncio.Task[None]] = []  # kept: a failed restart fails the test
        self.presses: dict[int, list[Press]] = {}  # by game: the current step's presses
        self._track_presses()  # the crash test's; see refused()

    def add_table(
        self, variant: str, players: int, policy_seed: int, index: int = 0
    ) -> ReplicaTable:
        table = super().add_table(variant, players, policy_seed, index)
        return ReplicaTable(**{f: getattr(table, f) for f in Table.__dataclass_fields__})

    async def __aenter__(self) -> ReplicaRun:
        self.http = HttpTransport(self.sb)
        await self.http.start()
        setup = {
            "base_url": self.http.base_url,
            "token": self.sb.token,
            "database_url": self.database_url,
            "speed": self.speed,
            "secret": secrets.token_urlsafe(16),
            "webhook_url": "",
            **self.extra_setup,
        }
        self.replicas = Replicas(setup, self.count, self.tmp / "replicas.stderr")
        self.balancer = Balancer(self.replicas.ports)
        await self.balancer.start()
        setup["webhook_url"] = self.balancer.url
        await self.replicas.start()
        self.bot = self.replicas  # CrashRun.perform checks there is one
        await self.replicas.wait_for_leader()
        return self

    async def __aexit__(self, *exc: object) -> None:
        for task in self.kill_tasks:
            task.cancel()
        if self.replicas is not None:
            await self.replicas.stop()
        if self.balancer is not None:
            await self.balancer.stop()
        await self.client.aclose()
        if self.http is not None:
            await self.http.stop()
        await self.sb.close()
        self.db.close()

    def log_size(self, game_id: int) -> int:
        with self.db.engine.connect() as connection:
            query = text("SELECT count(*) FROM game_action WHERE game_id = :game")
            return int(connection.execute(query, {"game": game_id}).scalar_one())

    # ----- presses, remembered so that an answered one is never pressed again ---------------

    async def press(
        self,
        user: SimUser,
        chat_id: int,
        kind: Kind,
        game_id: int,
        token: str,
        args: tuple[str, ...],
        generation: int,
    ) -> None:
        await super().press(user, chat_id, kind, game_id, token, args, generation)
        # The press was the last thing super().press did, with no wait after it.
        query = next(reversed(self.sb.callback_queries.values()))
        assert query.user_id == user.id
        self.presses.setdefault(game_id, []).append(Press(self.sb, query.id))

    def refused(self) -> bool:
        """Never a reason to press again here. The crash test presses a step anew when
        its press was answered out of date (a copy of a message never written down);
        with every message's buttons written down before it goes out, an "out of date"
        here answers an update delivered again after a replica died having handled it
        (a Start, whose effect is no game move; a move's own repeat is answered
        silently, gate.Refusal.REPEATED). Whether the press counted is what `_applied`
        checks: a press refused wrongly leaves its move out of the log."""
        return False

    # ----- playing ------------------------------------------------------------------------

    async def until(
        self, predicate: Callable[[], bool], generation: int | None = None, poll: float = 0.01
    ) -> None:
        """Until `predicate()`. Unlike the crash test, a kill interrupts no step: the
        players never press again because a replica died."""
        await super().until(predicate, None, poll)

    async def play(self, table: Table) -> None:
        assert isinstance(table, ReplicaTable)
        while not await self._step(table, 0):
            pass
        group = self.sb.world.resolve_chat(table.group.id)
        await self.until(
            lambda: (
                dict(group.permissions) == table.permissions_before
                and self._record(table).saved_permissions is None
            )
        )

    async def _step(self, table: Table, generation: int) -> bool:
        assert isinstance(table, ReplicaTable)
        record = self._record(table)
        if record.status is GameStatus.LOBBY:
            self.presses[table.game_id] = []
            await self.press(table.admin, table.group.id, Kind.LOBBY, table.game_id, "-",
                             ("start",), generation)  # fmt: skip
            if table.kill_at == -1 and not table.killed:
                self._kill(table, 0)
            await self._applied(table, lambda: self._record(table).status is not GameStatus.LOBBY)
            return False
        if record.status is not GameStatus.RUNNING:
            return True
        done = self.progress(table)
        if done >= len(table.reference):
            return True
        action = table.reference[done]
        if table.kill_at == done and not table.killed:
            self._kill(table, self.log_size(table.game_id))
        if isinstance(action, Timeout):
            await self._fire(table, done)
            return False
        state = GameState.from_dict(record.state or {})
        self.presses[table.game_id] = []
        await self.perform(table, record, state, action, generation)
        await self._applied(table, lambda: self.progress(table) > done)
        return False

    async def _applied(self, table: ReplicaTable, done: Callable[[], bool]) -> None:
        """Until the move is in the log: re-read once its press is answered (the move is
        written by then), else every 0.1 s (the database is the replicas' too)."""
        end = time.monotonic() + STEP_TIMEOUT
        presses = self.presses.get(table.game_id, [])
        while not done():
            if time.monotonic() > end:
                answers = [p.answer if p.answered else None for p in presses]
                raise AssertionError(f"game {table.game_id}: a move was lost (answers {answers})")
            with contextlib.suppress(TimeoutError):
                await self.sb.wait_for(
                    lambda: all(p.answered for p in presses), timeout=0.1, poll=0.01
                )
            if all(p.answered for p in presses):
                await asyncio.sleep(0.01)

    async def _fire(self, table: ReplicaTable, done: int) -> None:
        """A reference Timeout: fired on every replica until the log has it."""
        assert self.replicas is not None
        end = time.monotonic() + STEP_TIMEOUT
        while self.progress(table) <= done:
            if time.monotonic() > end:
                raise AssertionError(f"game {table.game_id}: its timer never fired")
            table.timer_fires += await self.replicas.fire(f"game-{table.game_id}")
            await asyncio.sleep(0.02)

    def _kill(self, table: ReplicaTable, size: int) -> None:
        """The table's kill point: a victim is SIGKILLed beside the game, and started again."""
        table.killed = True
        task = asyncio.get_running_loop().create_task(self._kill_at(table, size))
        self.kill_tasks.append(task)

    async def _kill_at(self, table: ReplicaTable, size: int) -> None:
        assert self.replicas is not None and self.balancer is not None
        if table.kill_mode == "written":  # between the write and the messages
            with contextlib.suppress(TimeoutError):
                await self.until(lambda: self.log_size(table.game_id) > size, None, 0.001)
        elif table.kill_mode == "later":
            await asyncio.sleep(self.rng.random() * 0.03)
        if table.victim == "leader":
            leaders = await self.replicas.leading()
            index = leaders[0] if leaders else self.rng.randrange(self.count)
        elif table.victim == "handler" and self.balancer.last is not None:
            index = self.balancer.last
        else:
            index = self.rng.randrange(self.count)
        await self.replicas.kill_and_restart(index, table.victim)

    async def open_lobby(self, table: Table) -> None:
        assert isinstance(table, ReplicaTable)
        await super().open_lobby(table)
        table.victim = self.rng.choice(VICTIMS)

    def check(self, table: Table) -> None:
        super().check(table)
        timeouts = Counter(
            action.timer
            for stored in self.db.actions(table.game_id)
            if isinstance(action := action_from_dict(dict(stored.action)), Timeout)
        )
        assert all(n == 1 for n in timeouts.values()), f"a timer applied twice: {timeouts}"
        expected = sum(isinstance(a, Timeout) for a in table.reference)
        assert sum(timeouts.values()) == expected

    async def settled(self) -> None:
        """Until every kill has finished its restart (a restart that failed raises here)."""
        await asyncio.gather(*self.kill_tasks)


def peak(log: CallLog, window: float, chat: Callable[[int | None], bool]) -> int:
    """The most successful charged calls within any `window` sandbox seconds, over the
    calls to the chats `chat` accepts."""
    stamps = sorted(r.time for r in log if r.ok and r.method in CHARGED_METHODS and chat(r.chat_id))
    return most_within(stamps, window)
