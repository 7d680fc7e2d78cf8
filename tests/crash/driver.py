"""Scripted games against a bot in another process, killed with SIGKILL.

How the crash test stays deterministic:

- The sandbox runs in the test process and serves the Bot API over HTTP
  (`HttpTransport`); the bot runs unmodified in a subprocess
  (`bot_process.py`) on a SQLite file, with a `ManualScheduler`: a game timer
  fires only when the test asks for it through the script's control endpoint.
- Once a lobby is full, the test reads the game's seed, seats, variant and
  options from the database and plays the *reference game* in the engine
  alone: `new_game` exactly as the bot starts it, then the engine's seeded
  random policy (`lively_action`, no chatter) until the end. That gives the
  list of player inputs (the reference actions) and the expected final state.
- The players then feed those actions through the UI: each action is the
  press of the button that stands for it (found by its callback data, with
  the current stage token) or, for a `Timeout`, a fire of the armed timer.
  Which action comes next is read from the database: the reference actions
  are matched, in order, against the game's stored action log. A press lost
  in a crash is therefore simply pressed again after the restart.
- Telegram redelivers updates that were not confirmed before the crash, so
  an action may reach the bot twice. The engine treats a repeated press in
  the same stage as a no-op (it changes nothing; a press for a stage the
  game has left is refused by its stage token); the final check replays the
  stored log in the engine and requires every entry to be either the next
  reference action or such a no-op.
- Each game picks its own kill point: an action index and a mode ("press":
  right after the input reaches the sandbox, maybe before the bot read it;
  "written": as soon as the action is in the database, i.e. between the
  write and the messages; "later": a few milliseconds after that). When a
  game reaches it, the bot process is SIGKILLed and started again on the
  same database; several games share a process, so a kill also lands at
  another random moment in the others.

At the end every game must have the reference winner and final state, its
log must match the reference as above, and the group's permissions must be
those from before the game (restored at the end, or at start-up after a
crash)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import json
import os
import random
import signal
import sqlite3
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from engine import GameState, IllegalAction, Stage, apply, new_game
from engine.actions import (
    Action,
    Decide,
    Hand,
    Leave,
    Lower,
    NightChoice,
    Nominate,
    Pass,
    Timeout,
    Unvote,
    Vote,
    action_from_dict,
)
from engine.simulation import lively_action
from tests.crash.messages import Verdict, compare, expected_messages, reference_calls
from tg_mafia.i18n import LANGUAGES, translator
from tg_mafia.render import texts
from tg_mafia.render.callbacks import Kind
from tg_mafia.sandbox import HttpTransport, Limits, Sandbox, SimUser
from tg_mafia.sandbox.core import Press
from tg_mafia.sandbox.world.state import Chat
from tg_mafia.storage import Database, GameRecord, GameStatus, open_database

SCRIPT = Path(__file__).with_name("bot_process.py")
ROOT = Path(__file__).resolve().parents[2]
BOT_RIGHTS = {"can_delete_messages": True, "can_restrict_members": True, "can_pin_messages": True}
STEP_TIMEOUT = 60.0  # real seconds for one step to show its effect (a loaded CI is slow)
# Real seconds a copy of a message refused as out of date is passed over: pressed again
# at once, it would be refused again until the user's input limit cut them off.
STALE_PAUSE = 3.0
KILL_MODES = ("press", "written", "later")


class BotDied(Exception):
    """The bot process was killed while a step waited for it."""


class PressRefused(Exception):
    """A press of the step was answered as out of date: the step is tried anew."""


STALE = frozenset(texts.popup(translator(language), "stale") for language in LANGUAGES)


def child_state(pid: int, parent: int) -> str | None:
    """The state of process `pid` (R, S, Z...) if it is a child of `parent`, else None:
    gone, or its pid taken since by another process (pids wrap at 32,768 here, and the
    other tests' processes come and go), which must never be signalled."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return fields[0] if int(fields[1]) == parent else None


async def kill_child(pid: int, parent: int) -> None:
    """SIGKILL the child `pid` of `parent` (not a process that took its pid since), and
    wait until it can no longer answer or send (a zombie, or gone)."""
    if child_state(pid, parent) is None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    while child_state(pid, parent) not in (None, "Z", "X"):
        await asyncio.sleep(0.001)


class BotProcess:
    """The bot process: start, SIGKILL, start again on the same database
    (forked from a zygote that has the imports done: see bot_process.py)."""

    def __init__(self, base_url: str, token: str, db_path: Path, speed: float) -> None:
        self.args = [base_url, token, str(db_path), str(speed)]
        self.zygote: asyncio.subprocess.Process | None = None
        self.pid = 0
        self.control: str = ""
        self.generation = 0
        self.ready = asyncio.Event()
        self.starts: list[float] = []  # real seconds each start took
        self.kills = 0
        self._lock = asyncio.Lock()
        self.stderr = db_path.with_suffix(".stderr")

    async def start(self) -> None:
        """Fork a fresh bot process from the zygote and wait until it is ready."""
        began = time.perf_counter()
        if self.zygote is None:
            env = {**os.environ, "PYTHONPATH": str(ROOT)}
            with self.stderr.open("ab") as err:
                self.zygote = await asyncio.create_subprocess_exec(
                    sys.executable,
                    str(SCRIPT),
                    "--zygote",
                    *self.args,
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=err,
                    env=env,
                    start_new_session=True,  # its bots in its group: stop() kills them all
                )
        if self.zygote.returncode is not None:
            raise RuntimeError(f"the zygote is gone ({self.zygote.returncode})")
        assert self.zygote.stdin is not None and self.zygote.stdout is not None
        self.zygote.stdin.write(b"spawn\n")
        await self.zygote.stdin.drain()
        line = await asyncio.wait_for(self.zygote.stdout.readline(), 60)
        if not line:
            raise RuntimeError(f"the bot process did not start: {self.stderr.read_text()[-3000:]}")
        ready = json.loads(line)
        self.pid = int(ready["pid"])
        self.control = f"http://127.0.0.1:{ready['control_port']}"
        self.starts.append(time.perf_counter() - began)
        self.ready.set()

    async def kill_and_restart(self, generation: int) -> None:
        """SIGKILL, then start again; a no-op if the process of `generation` is gone already."""
        async with self._lock:
            if generation != self.generation:
                return
            self.generation += 1
            self.ready.clear()
            await self._kill()
            self.kills += 1
            await self.start()

    def alive(self) -> bool:
        """Whether the current process runs (neither gone nor a zombie)."""
        if not self.pid or self.zygote is None:
            return False
        return child_state(self.pid, self.zygote.pid) not in (None, "Z", "X")

    def status(self) -> str:
        """The process's /proc status line: a zombie's holds its wait status (field 52)."""
        try:
            return Path(f"/proc/{self.pid}/stat").read_text()
        except (FileNotFoundError, ProcessLookupError):
            return "gone"

    async def _kill(self) -> None:
        assert self.zygote is not None
        await kill_child(self.pid, self.zygote.pid)

    async def stop(self) -> None:
        if self.alive():
            await self._kill()
        if self.zygote is not None and self.zygote.returncode is None:  # not reaped: ours
            with contextlib.suppress(ProcessLookupError):  # any bot it forked, too
                os.killpg(self.zygote.pid, signal.SIGKILL)
            assert self.zygote.stdin is not None
            self.zygote.stdin.close()
            await self.zygote.wait()
        self.pid = 0

    def errors_logged(self) -> list[str]:
        text = self.stderr.read_text() if self.stderr.exists() else ""
        return [line for line in text.splitlines() if line.startswith("ERROR")]


@dataclass
class Table:
    """One group with its players and the game scripted in it."""

    variant: str
    group: Chat
    users: list[SimUser]
    admin: SimUser
    policy_seed: int
    kill_at: int  # index into the reference actions; -1: right after Start
    kill_mode: str
    game_id: int = 0
    reference: list[Action] = field(default_factory=list)
    expected: GameState | None = None
    permissions_before: dict[str, bool] = field(default_factory=dict)
    killed: bool = False
    restarts_seen: int = 0
    progress_at: tuple[int, int] = (-1, 0)  # (log size, reference actions taken)


class CrashRun:
    def __init__(self, tmp: Path, speed: float, rng: random.Random) -> None:
        self.tmp = tmp
        self.speed = speed
        self.rng = rng
        self.sb = Sandbox(speed=speed, limits=Limits(callback_answer_timeout=15.0 * speed))
        self.db_path = tmp / "bot.db"
        self.db: Database = open_database(f"sqlite:///{self.db_path}")
        self.raw = sqlite3.connect(self.db_path, isolation_level=None, check_same_thread=False)
        self.http: HttpTransport | None = None
        self.bot: BotProcess | None = None
        self.client = httpx.AsyncClient(timeout=STEP_TIMEOUT)
        self._track_presses()

    def _track_presses(self) -> None:
        """The presses' bookkeeping (a subclass that builds its own run calls it too)."""
        self.step_presses: list[Press] = []  # the current step's
        self.step_copies: list[tuple[int, int]] = []  # (chat, message) of each
        self.passed_over: dict[tuple[int, int], float] = {}  # copy → when it was refused

    # ----- set-up -----------------------------------------------------------------------

    def add_table(self, variant: str, players: int, policy_seed: int, index: int) -> Table:
        """The `index`-th table of a batch: the kill modes take turns, so a batch of
        three or more tables has each."""
        users = self.sb.add_users(players)
        admin = self.sb.add_user("Admin")
        group = self.sb.add_group(
            f"Crash {variant} {policy_seed}",
            members=[*users, admin],
            owner=admin,
            bot_rights=BOT_RIGHTS,
        )
        self.db.save_settings(group.id, variant=variant, language="en")
        return Table(variant, group, users, admin, policy_seed, 0, KILL_MODES[index % 3])

    async def __aenter__(self) -> CrashRun:
        self.http = HttpTransport(self.sb)
        await self.http.start()
        self.bot = BotProcess(self.http.base_url, self.sb.token, self.db_path, self.speed)
        await self.bot.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.bot is not None:
            await self.bot.stop()
        await self.client.aclose()
        if self.http is not None:
            await self.http.stop()
        self.raw.close()
        self.db.close()

    # ----- waiting on the bot ----------------------------------------------------------

    async def until(
        self, predicate: Callable[[], bool], generation: int | None = None, poll: float = 0.01
    ) -> None:
        """Until `predicate()`, re-checked after every Bot API call and every `poll`
        seconds; BotDied if the process of `generation` was killed meanwhile."""
        assert self.bot is not None
        end = time.monotonic() + STEP_TIMEOUT
        while not predicate():
            if generation is not None and self.bot.generation != generation:
                raise BotDied
            if time.monotonic() > end:
                raise TimeoutError("the bot did not react in time")
            with contextlib.suppress(TimeoutError):
                await self.sb.wait_for(lambda: False, timeout=poll, poll=poll / 10)

    def log_size(self, game_id: int) -> int:
        row = self.raw.execute(
            "SELECT count(*) FROM game_action WHERE game_id = ?", (game_id,)
        ).fetchone()
        return int(row[0])

    def progress(self, table: Table) -> int:
        """How many reference actions the stored log has taken, in order."""
        size = self.log_size(table.game_id)
        if table.progress_at[0] == size:
            return table.progress_at[1]
        done = 0
        for record in self.db.actions(table.game_id):
            if done < len(table.reference) and record.action == table.reference[done].to_dict():
                done += 1
        table.progress_at = (size, done)
        return done

    # ----- buttons ------------------------------------------------------------------------

    def find(self, chat_id: int, match: Callable[[list[str]], bool]) -> tuple[int, str] | None:
        chat = self.sb.world.resolve_chat(chat_id)
        now = time.monotonic()
        for message in reversed(chat.messages.values()):  # newest first
            if message.deleted or not message.reply_markup:
                continue
            if self._passed_over((chat_id, message.message_id), now):
                continue
            for row in message.reply_markup.get("inline_keyboard", []):
                for button in row:
                    data = button.get("callback_data")
                    if data and match(data.split(":")):
                        return message.message_id, str(button["text"])
        return None

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
        def match(parts: list[str]) -> bool:
            return (
                parts[0] == kind.value
                and parts[1] == str(game_id)
                and parts[2] == token
                and tuple(parts[3:]) == args
            )

        found: list[tuple[int, str] | None] = [None]

        def visible() -> bool:
            found[0] = self.find(chat_id, match)
            return found[0] is not None

        await self.until(lambda: visible() or self.refused(), generation)
        if self.refused():
            raise PressRefused
        assert found[0] is not None
        message_id, label = found[0]
        self.step_presses.append(user.press(chat_id, label, message_id=message_id))
        self.step_copies.append((chat_id, message_id))

    def refused(self) -> bool:
        """A press of this step answered as out of date: the copy of a message that
        went out just before a kill, never written down; the bot sends it again, and
        the step is tried anew on the newest copy, as a person would. A copy the bot
        does not know (one of a timeline a restore took back) is passed over for a
        while: the person tries another, or opens their menu anew."""
        now, stale = time.monotonic(), False
        for press, copy in zip(self.step_presses, self.step_copies, strict=True):
            if press.answered and press.answer.get("text") in STALE:
                stale = True
                if not self._passed_over(copy, now):
                    self.passed_over[copy] = now
        return stale

    def _passed_over(self, copy: tuple[int, int], now: float) -> bool:
        refused = self.passed_over.get(copy)
        return refused is not None and now - refused < STALE_PAUSE

    # ----- playing --------------------------------------------------------------------------

    async def open_lobby(self, table: Table) -> None:
        """/newgame, every player joins by the deep link; the reference game is played."""
        assert self.bot is not None
        table.admin.command(table.group, "newgame", mention=True)
        await self.until(lambda: self.db.active_game(table.group.id) is not None)
        record = self.db.active_game(table.group.id)
        assert record is not None
        table.game_id = record.id
        for user in table.users:
            user.open_deep_link(self.sb.deep_link(f"join_{table.group.id}"))
        await self.until(lambda: len(self._record(table).players) == len(table.users))
        record = self._record(table)
        options = dict(record.options)
        options["host"] = "auto"
        seats = tuple(str(p.user_id) for p in record.players)
        state, _ = new_game(record.variant, seats, options, record.seed, record.language)
        rng = random.Random(table.policy_seed)
        while state.stage is not Stage.ENDED:
            action = lively_action(state, rng, 0.0)
            state, _ = apply(state, action)
            table.reference.append(action)
            assert len(table.reference) < 20_000
        table.expected = state
        table.kill_at = self.rng.randrange(-1, len(table.reference))
        table.permissions_before = dict(self.sb.world.resolve_chat(table.group.id).permissions)

    def _record(self, table: Table) -> GameRecord:
        record = self.db.get_game(table.game_id)
        assert record is not None
        return record

    async def play(self, table: Table) -> None:
        assert self.bot is not None
        bot = self.bot
        glitches = 0
        while True:
            await bot.ready.wait()
            generation = bot.generation
            try:
                if await self._step(table, generation):
                    break
            except BotDied:
                self._restarted(table)
                continue
            except httpx.HTTPError as error:
                if bot.generation == generation and bot.alive():
                    # not a kill: a connection of the client's pool that was stale (a
                    # restarted process may listen on its predecessor's port); again
                    glitches += 1
                    assert glitches <= 3, f"the control endpoint fails: {error!r}"
                    continue
                assert bot.generation != generation or bot.alive(), (
                    f"the bot process {bot.pid} died by itself ({bot.status()}): "
                    f"{bot.stderr.read_text()[-3000:]}"
                )
                # the control endpoint died with the process
                await self.until(lambda g=generation: bot.generation != g)
                self._restarted(table)
                continue
            except TimeoutError as error:
                raise TimeoutError(f"{error}: {await self.stuck(table)}") from None
        await bot.ready.wait()
        # The group's permissions come back (at the end, or at start-up after a crash).
        group = self.sb.world.resolve_chat(table.group.id)
        await self.until(
            lambda: (
                dict(group.permissions) == table.permissions_before
                and self._record(table).saved_permissions is None
            )
        )

    def _restarted(self, table: Table) -> None:
        """The process of a step of `table` died: another table's kill. If it came
        after the step's action was stored and before its answer, and that action was
        the table's own kill point, that kill was the table's (a step makes one action:
        the point is passed only by the step that makes it)."""
        table.restarts_seen += 1
        if not table.killed and 0 <= table.kill_at < self.progress(table):
            table.killed = True

    def stored(self, table: Table) -> list[Action]:
        """The table's stored action log, in order."""
        return [action_from_dict(dict(row.action)) for row in self.db.actions(table.game_id)]

    def describe(self, table: Table) -> str:
        """A finished table's kill point against its stored log (for a failed check)."""
        stored = self.stored(table)
        return (
            f"game {table.game_id} ({table.variant}): kill point {table.kill_at} "
            f"({table.kill_mode}) of {len(table.reference)} reference actions, killed "
            f"{table.killed}; stored {len(stored)}: {stored}; reference {table.reference}"
        )

    async def stuck(self, table: Table) -> str:
        """What a step that timed out waited for: the game, the bot's timers, its errors."""
        assert self.bot is not None
        done = self.progress(table)
        record = self._record(table)
        try:
            armed = (await self.client.get(f"{self.bot.control}/armed")).json()["armed"]
        except httpx.HTTPError as error:
            armed = f"unknown ({error!r})"
        waited = table.reference[done] if done < len(table.reference) else "the end"
        stored = self.stored(table)
        stderr = self.bot.stderr.read_text()[-2000:] if self.bot.stderr.exists() else ""
        return (
            f"game {table.game_id} ({table.variant}), {record.status.value}, step "
            f"{(record.state or {}).get('step')}, timer {record.timer_token}, deadline "
            f"{record.stage_deadline}; reference action {done} of {len(table.reference)}: "
            f"{waited}; armed timers {armed}; restarts seen {table.restarts_seen}; "
            f"stored actions {len(stored)}, the last {stored[-4:]}; "
            f"the bot's stderr ends:\n{stderr}"
        )

    async def _step(self, table: Table, generation: int) -> bool:
        """One input; True when the game is over."""
        assert self.bot is not None
        record = self._record(table)
        if record.status is GameStatus.LOBBY:
            await self.press(table.admin, table.group.id, Kind.LOBBY, table.game_id, "-",
                             ("start",), generation)  # fmt: skip
            if table.kill_at == -1 and not table.killed:
                table.killed = True
                await self.bot.kill_and_restart(generation)
                raise BotDied
            await self.until(lambda: self._record(table).status is not GameStatus.LOBBY,
                             generation)  # fmt: skip
            return False
        if record.status is not GameStatus.RUNNING:
            return True
        done = self.progress(table)
        if done >= len(table.reference):
            return True  # the bot must have ended the game: checked by the caller
        action = table.reference[done]
        state = GameState.from_dict(record.state or {})
        size = self.log_size(table.game_id)
        self.step_presses, self.step_copies = [], []
        try:
            if not await self.perform(table, record, state, action, generation):
                return False  # a timer not armed yet: read the game again and retry
        except PressRefused:
            return False
        if table.kill_at == done and not table.killed:
            table.killed = True
            if table.kill_mode == "written":
                # between the write and the messages: poll the database closely
                await self.until(lambda: self.log_size(table.game_id) > size, generation, 0.001)
            elif table.kill_mode == "later":
                await self.until(lambda: self.progress(table) > done, generation)
                await asyncio.sleep(self.rng.random() * 0.03)
            await self.bot.kill_and_restart(generation)
            raise BotDied
        await self.until(lambda: self.progress(table) > done or self.refused(), generation)
        return False

    async def perform(
        self, table: Table, record: GameRecord, state: GameState, action: Action, generation: int
    ) -> bool:
        """Makes the input; False when it could not be made yet: a Timeout whose
        timer is not armed (the bot arms a stage's timer once the stage's message
        is delivered, and again after a restart), or armed still for the stage
        before, so that nothing happened."""
        assert self.bot is not None
        token = str(state.step)
        gid = record.id
        group = table.group.id

        def seat(player: str | None) -> str:
            return str(state.table.seats.index(player) + 1) if player else "0"

        if isinstance(action, Timeout):
            name = f"game-{gid}"
            before = self.progress(table)
            answer = await self.client.post(f"{self.bot.control}/fire/{name}")
            # The fire answers once its move is written, or refused: a job armed for the
            # stage before (a night ended by its last move, the next stage's timer not yet
            # armed by the write's aftermath) is refused as stale, and the fire is made again.
            if answer.json()["fired"] and self.progress(table) > before:
                return True
            await asyncio.sleep(0.01)
            return False
        user = next(u for u in [*table.users, table.admin] if str(u.id) == action.actor)
        if isinstance(action, NightChoice):
            args = (action.move.value, seat(action.target))
            await self.press(user, user.id, Kind.NIGHT, gid, token, args, generation)
        elif isinstance(action, Pass):
            await self.press(user, group, Kind.PASS, gid, token, (), generation)
        elif isinstance(action, Nominate):
            wanted = (seat(action.target),)

            def menu(parts: list[str]) -> bool:
                return parts[:3] == [Kind.NOMINATE.value, str(gid), token] and (
                    tuple(parts[3:]) == wanted
                )

            if self.find(user.id, menu) is None:
                await self.press(user, group, Kind.NOMINATE_MENU, gid, token, (), generation)
            await self.press(user, user.id, Kind.NOMINATE, gid, token, wanted, generation)
        elif isinstance(action, Hand):
            await self.press(user, group, Kind.HAND, gid, token, (), generation)
        elif isinstance(action, Lower):
            await self.press(user, group, Kind.LOWER, gid, token, (), generation)
        elif isinstance(action, Leave):
            await self.press(user, group, Kind.LEAVE, gid, token, (), generation)
        elif isinstance(action, Vote):
            await self.press(user, group, Kind.VOTE, gid, token, (seat(action.target),), generation)
        elif isinstance(action, Unvote):
            await self.press(user, group, Kind.UNVOTE, gid, token, (), generation)
        elif isinstance(action, Decide):
            await self.press(
                user, user.id, Kind.DECIDE, gid, token, (seat(action.target),), generation
            )
        else:
            raise AssertionError(f"the script cannot do {action}")
        return True

    # ----- the verdict ------------------------------------------------------------------------

    def check(self, table: Table) -> None:
        record = self._record(table)
        expected = table.expected
        assert expected is not None and expected.outcome.winner is not None
        assert record.status is GameStatus.ENDED, record.status
        assert record.winner == expected.outcome.winner.value
        assert record.state == expected.to_dict(), "the final state differs from the reference"
        assert record.saved_permissions is None, "the saved permissions were not cleared"
        # Replay the stored log: the reference actions in order, and only no-op repeats.
        options = dict(record.options)
        options["host"] = "auto"
        seats = tuple(str(p.user_id) for p in record.players)
        state, _ = new_game(record.variant, seats, options, record.seed, record.language)
        done = 0
        for action in self.stored(table):
            if done < len(table.reference) and action == table.reference[done]:
                state, _ = apply(state, action)
                done += 1
                continue
            try:
                after, _ = apply(state, action)
            except IllegalAction:  # pragma: no cover - the bot never stores a refused action
                raise AssertionError(f"a refused action was stored: {action}") from None
            assert after.to_dict() == state.to_dict(), f"a stray action changed the game: {action}"
        assert done == len(table.reference)
        assert state.to_dict() == expected.to_dict()
        permissions = dict(self.sb.world.resolve_chat(table.group.id).permissions)
        assert permissions == table.permissions_before

    async def delivered(self) -> None:
        """Until the outbox is empty: every call decided has been made."""
        await self.until(lambda: self.raw.execute("SELECT count(*) FROM outbox").fetchone()[0] == 0)

    def messages(self, table: Table) -> Verdict:
        """The reference game's messages against the chats' (messages.py)."""
        # As the game ran: the group's permissions saved (the night closes the chat).
        record = dataclasses.replace(
            self._record(table), saved_permissions=table.permissions_before
        )
        calls = reference_calls(record, table.reference, self.speed)
        return compare(self.sb, expected_messages(calls))


@contextlib.asynccontextmanager
async def watchdog(seconds: float) -> AsyncIterator[None]:
    """Fails after `seconds`, printing what every task waited on (taken before the
    waiting task is cancelled, while the others still wait where they were stuck)."""
    main = asyncio.current_task()
    assert main is not None
    stacks: list[str] = []

    def expire() -> None:
        dump = io.StringIO()
        for task in asyncio.all_tasks():
            task.print_stack(file=dump)
        stacks.append(dump.getvalue())
        main.cancel()

    timer = asyncio.get_running_loop().call_later(seconds, expire)
    try:
        yield
    except asyncio.CancelledError:
        if not stacks:
            raise
        main.uncancel()
        raise AssertionError(f"still running after {seconds} s:\n{stacks[0]}") from None
    finally:
        timer.cancel()


def summary(run: CrashRun) -> dict[str, Any]:
    assert run.bot is not None
    starts = run.bot.starts
    return {
        "kills": run.bot.kills,
        "starts": len(starts),
        "start_median_s": sorted(starts)[len(starts) // 2] if starts else 0.0,
    }
