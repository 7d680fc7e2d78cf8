"""Tables that play as people do, at the variant's real pace: the load model of
benchmarks/load.py (the bot in a process of its own, real time) and the games of
benchmarks/calls_per_game.py (the bot in this process, the virtual clock).

Nothing here fires a timer: the bot's own timers end each stage when its time runs out
(the stored deadline), so every stage lasts as long as it does at a real table. The
players act only through Telegram, on what has reached their chats (a press needs its
button there; until it arrives they wait), and they read the stored game only to know
whose turn it is and what the engine's policy would do. Each table, after its /newgame:

- the lobby: each player opens the join link at a random moment within JOIN_WITHIN
  seconds of the lobby's message, and the admin presses Start START_AFTER seconds after
  the last one joined (UX.md: the lobby fills from its link, the admin starts); a
  /newgame the bot puts in its queue for a table (the token is full) is sent again
  TOLD_AFTER seconds after the group is told a table is free, as that message asks;
- the night (the group is closed, RULES.md "Night actions"): each move asked for is made
  in private at a random moment of the first NIGHT_SHARE of the night (issue 34), the
  move the engine's seeded policy picks (engine/simulation.py);
- a floor (speech, introduction, last word, farewell; RULES.md: one player holds it,
  `speech_seconds` 60, `intro_seconds` 15, `last_word_seconds` 30): only its holder
  writes, a line every LINE_EVERY seconds, except OUT_OF_TURN of the lines, posted by
  another living player, as people do (the bot deletes and warns them in moscow, club
  and sport); at a moment in DECIDE_WITHIN of the floor the holder does what the policy
  picks (nominate through the private list, sport's best move, pass), and passes
  before the timer in PASS_EARLY of the floors (UX.md's [Pass]), else the floor ends by
  its timer;
- the free discussion (classic's `day_seconds` 300, party's 180): one speaker at a time,
  each holding forth for TURN seconds (a line every LINE_EVERY), then another; again
  OUT_OF_TURN of the lines from someone else;
- a vote comes as a burst (issue 34): every voter presses within VOTE_BURST seconds of
  the vote opening. The hand-raise counts (moscow, club, sport; `vote_count_seconds` 6):
  a voter who has not voted raises on this candidate with a chance of one in the counts
  left, so the hands spread over the candidates and the last count takes the rest; the
  lift: half of the living. classic's live vote, at CLASSIC_VOTE_AT of the day: every
  living player votes, for the table's suspect (the first one named) with a chance of
  SUSPECT, else for another; party's ballot, when it opens, likewise. The deciding
  vote: within the first NIGHT_SHARE of its time;
- SPECTATORS group members who do not play press ⏱ (the time left, a popup; UX.md's
  floor, night and count messages carry it), each once every TIME_PRESS_EVERY seconds on
  average while the game runs.

Left out: the mafia's private talk relayed in classic and on moscow's first night, the
Don's kill list, moscow's "leave the table", a human host, and people who leave.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import GameState, public_view
from engine.actions import Action, Best, Decide, Hand, NightChoice, Nominate, Pass, Vote
from engine.context import Ctx
from engine.handvote import may_vote
from engine.openvote import voting_open
from engine.simulation import random_action
from engine.state import FLOOR_STAGES, FloorMode, Stage
from tg_mafia.playtest.autoplay import AutoPlayers, find_button, prefix, seats_arg
from tg_mafia.playtest.harness import Harness
from tg_mafia.render.callbacks import Kind
from tg_mafia.sandbox import Sandbox, SimUser
from tg_mafia.sandbox.errors import SimulationError
from tg_mafia.sandbox.limits import CHARGED_METHODS
from tg_mafia.storage import GameStatus
from tg_mafia.waiting import wait_set

# ----- the pace (see the module's text; RULES.md gives the stages' lengths) -------------

JOIN_WITHIN = 60.0  # s after the lobby's message: each player joins at a random moment
START_AFTER = (3.0, 15.0)  # s after the last join: the admin presses Start
TOLD_AFTER = (3.0, 30.0)  # s after "a table is free": the admin sends /newgame again
FREE_TABLE = "A table is free for this group"  # the bot's message then (English)
NIGHT_SHARE = 0.5  # night moves (and the deciding vote) within this share of the time
LINE_EVERY = (8.0, 16.0)  # s between two lines of one speaker (a sentence typed)
FIRST_LINE = (2.0, 6.0)  # s from the floor's message to its first line
OUT_OF_TURN = 0.05  # of the lines: posted by another living player
DECIDE_WITHIN = (0.4, 0.95)  # of the floor: when its holder nominates, moves or passes
PASS_EARLY = 0.5  # of the floors: passed before the timer
TURN = (20.0, 45.0)  # s one speaker holds forth in a free discussion
VOTE_BURST = 2.0  # s after the vote opens: every voter has pressed
CLASSIC_VOTE_AT = (0.5, 0.85)  # of classic's day: the table votes
SUSPECT = 0.6  # of the votes in a burst: for the table's suspect
LIFT_HANDS = 0.5  # of the living: raise for the lift
SPECTATORS = 2  # a table's members who only watch
TIME_PRESS_EVERY = 120.0  # s, mean, between one spectator's ⏱ presses
RETRY = 1.0  # s between looks for a button that has not arrived yet
LOOK_EVERY = 15.0  # s: a table looks at its game at least this often

# A table's lines: none holds a floor-ending "thank you" (RULES.md, moscow's thanks word).
LINES = (
    "I am a simple citizen.",
    "Seat 4 was too quiet last night.",
    "I would vote for 2, honestly.",
    "Not me, I promise.",
    "hmm",
    "Let us hear the others first.",
    "Check 6 tonight, please.",
    "I trust 3 for now.",
)

# The standard table of each variant: moscow's best count (RULES.md "11 is best"),
# sport's only one, ten elsewhere (a club's usual table).
STANDARD_SIZE = {"classic": 10, "moscow": 11, "party": 10, "club": 10, "sport": 10}

MESSAGE_METHODS = frozenset(m for m in CHARGED_METHODS if m.startswith(("send", "edit")))


# ----- what the tables read and see -----------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """A chat's newest game as stored."""

    game_id: int
    status: str  # a GameStatus value
    joined: int  # players in it (a lobby's so far)
    state: GameState | None
    deadline: float | None  # the bot's clock: Unix seconds


class Reader:
    """Plain reads of the bot's database file, off the bot's path (WAL readers)."""

    def __init__(self, path: Path) -> None:
        self.raw = sqlite3.connect(path, isolation_level=None)

    def games(self) -> dict[int, tuple[int, str, str]]:
        """By chat: (game id, status, players JSON) of its newest game."""
        rows = self.raw.execute("SELECT chat_id, id, status, players FROM game ORDER BY id")
        return {chat: (game, status, players) for chat, game, status, players in rows}

    def outbox(self) -> int:
        return int(self.raw.execute("SELECT count(*) FROM outbox").fetchone()[0])

    def oldest_call(self) -> float | None:
        """When the oldest call still in the outbox was written (the bot's clock)."""
        found = self.raw.execute("SELECT min(created_at) FROM outbox").fetchone()[0]
        return None if found is None else float(found)

    def running_state(self, game_id: int) -> GameState | None:
        """The engine's state of a running game (None once it is over)."""
        row = self.raw.execute("SELECT status, state FROM game WHERE id = ?", (game_id,)).fetchone()
        if row is None or row[0] != GameStatus.RUNNING.value:
            return None
        return GameState.from_dict(json.loads(row[1] or "{}"))

    def snapshot(self, chat_id: int) -> Snapshot | None:
        row = self.raw.execute(
            "SELECT id, status, players, state, stage_deadline FROM game WHERE chat_id = ?"
            " ORDER BY id DESC LIMIT 1",
            (chat_id,),
        ).fetchone()
        if row is None:
            return None
        game_id, status, players, state, deadline = row
        parsed = GameState.from_dict(json.loads(state)) if state else None
        return Snapshot(game_id, status, len(json.loads(players or "[]")), parsed, deadline)


class Signal:
    """Wakes every task waiting on it (a table's: something reached one of its chats)."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def fire(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    async def wait(self, timeout: float) -> None:
        # Not asyncio.wait_for: on Python 3.11 it can swallow the table's
        # cancellation, and the table then never stops (tg_mafia/waiting.py).
        await wait_set(self._event, timeout)


class Observer:
    """What reaches the chats: every call the sandbox carries out is seen here (its call
    log's `add`), a message (a send or an edit) into a chat is time-stamped on this
    loop's clock (time.monotonic on a real loop, as the bot process stamps), and wakes
    the table that chat belongs to."""

    def __init__(self, sb: Sandbox) -> None:
        self.messages: dict[int, list[float]] = {}
        self.signals: dict[int, Signal] = {}
        add = sb.log.add

        def seen(record: Any) -> None:
            add(record)
            chat = record.chat_id
            if record.ok and chat is not None and record.method in CHARGED_METHODS:
                if record.method in MESSAGE_METHODS:
                    self.messages.setdefault(chat, []).append(asyncio.get_running_loop().time())
                signal = self.signals.get(chat)
                if signal is not None:
                    signal.fire()

        sb.log.add = seen  # type: ignore[method-assign]

    def watch(self, chats: list[int]) -> Signal:
        signal = Signal()
        for chat in chats:
            self.signals[chat] = signal
        return signal

    def next_message(self, chat: int, after: float) -> float | None:
        """Seconds from `after` to the chat's next message."""
        for at in self.messages.get(chat, ()):
            if at > after:
                return at - after
        return None


@dataclass(frozen=True)
class Pressed:
    kind: str  # the button's Kind value
    chat: int  # where its button was
    group: int  # its table's group
    at: float  # this loop's clock, when it was made
    query: str  # the callback query's id


@dataclass
class Inputs:
    """Everything the tables sent the bot."""

    pressed: list[Pressed] = field(default_factory=list)
    lines: int = 0
    out_of_turn: int = 0
    refused_posts: int = 0  # the chat was closed to the poster
    newgames: int = 0
    queued: int = 0  # /newgame sent again: the queue told the group a table is free
    joins: int = 0
    starts: int = 0
    gave_up: int = 0  # presses whose button never came while its stage lasted
    failures: int = 0  # a table's stage that raised (shown on stderr)


# ----- a table -----------------------------------------------------------------------------


def loop_time() -> float:
    return asyncio.get_running_loop().time()


class RealTable:
    """One group's players, admin and spectators, playing one game at a real pace."""

    def __init__(
        self,
        h: Harness,
        spectators: list[SimUser],
        read: Callable[[int], Snapshot | None],
        observer: Observer,
        inputs: Inputs,
        seed: int,
    ) -> None:
        self.h = h
        self.group = h.group.id
        self.spectators = spectators
        self.read = read
        self.inputs = inputs
        self.rng = random.Random(seed)
        # Only its button mapping is used: the bot's own input limiter is left alone.
        self.players = AutoPlayers(_standalone(h), None, seed)  # type: ignore[arg-type]
        self.signal = observer.watch([self.group, *(u.id for u in h.users)])
        self.game_id = 0
        self.step = -1
        self.started_at: float | None = None  # this loop's clock: the admin pressed Start

    # ----- the evening ---------------------------------------------------------------------

    async def play(self) -> None:
        """From /newgame to the game's end (or until cancelled)."""
        await self.lobby()
        async with asyncio.TaskGroup() as tg:
            watching = [tg.create_task(self.spectate(s)) for s in self.spectators]
            await self.game()
            for task in watching:
                task.cancel()

    async def lobby(self) -> None:
        h = self.h
        while True:
            seen = len(h.admin.view(h.group))
            h.admin.command(h.group, "newgame", mention=True, bot=h.account)  # its group's bot
            self.inputs.newgames += 1
            snap = await self.until(
                lambda s, seen=seen: (
                    (s is not None and s.status == GameStatus.LOBBY.value) or self.told_free(seen)
                )
            )
            if snap is not None and snap.status == GameStatus.LOBBY.value:
                break
            self.inputs.queued += 1
            await asyncio.sleep(self.rng.uniform(*TOLD_AFTER))
        self.game_id = snap.game_id
        start = prefix(Kind.LOBBY, self.ref(), "start")
        await self.until(lambda s: find_button(h, self.group, start) is not None)
        link = h.sb.deep_link(f"join_{self.group}", h.account)
        joins = sorted(self.rng.uniform(0, JOIN_WITHIN) for _ in h.users)
        began = loop_time()
        for user, at in zip(h.users, joins, strict=True):
            await asyncio.sleep(max(0.0, began + at - loop_time()))
            user.open_deep_link(link)
            self.inputs.joins += 1
        size = len(h.users)
        await self.until(lambda s: s is not None and s.joined >= size)
        await asyncio.sleep(self.rng.uniform(*START_AFTER))
        if await self.press(h.admin, self.group, start, None, Kind.LOBBY):
            self.inputs.starts += 1
            self.started_at = loop_time()
        await self.until(lambda s: s is not None and s.status != GameStatus.LOBBY.value)

    async def game(self) -> None:
        """Each new step of the game played as its own task, until the game ends."""
        stage: asyncio.Task[None] | None = None
        try:
            while True:
                snap = self.look()
                if snap is None or snap.game_id != self.game_id:
                    return
                if snap.status != GameStatus.RUNNING.value or snap.state is None:
                    return
                if snap.state.step != self.step:
                    self.step = snap.state.step
                    if stage is not None:
                        stage.cancel()
                    stage = asyncio.ensure_future(self.stage(snap, snap.state))
                    stage.add_done_callback(self.failed)
                await self.signal.wait(LOOK_EVERY)
        finally:
            if stage is not None:
                stage.cancel()

    # ----- the stages ----------------------------------------------------------------------

    async def stage(self, snap: Snapshot, state: GameState) -> None:
        """One step: its talk and its moves, all cancelled when the next step begins."""
        left = self.left(snap, state)
        async with asyncio.TaskGroup() as tg:
            if state.stage is Stage.NIGHT:
                await self.night(state, left)
            elif state.stage in FLOOR_STAGES and state.day.speaker is not None:
                await self.floor(tg, state, left)
            elif state.stage in (Stage.VOTE, Stage.LIFT):
                self.hands(tg, state)
            elif state.stage is Stage.DECIDE and state.vote.decider is not None:
                await asyncio.sleep(self.rng.uniform(1.0, NIGHT_SHARE * left))
                await self.act(state.step, Decide)
            elif state.stage in (Stage.DISCUSSION, Stage.BALLOT):
                await self.discussion(tg, state, left)

    async def night(self, state: GameState, left: float) -> None:
        ctx = Ctx(state)
        asked = sum(
            len(ctx.variant.night_moves(state.table.roles[p], state.night.number))
            for p in state.table.alive
        )
        moments = sorted(self.rng.uniform(1.0, NIGHT_SHARE * left) for _ in range(asked))
        began = loop_time()
        for moment in moments:
            await asyncio.sleep(max(0.0, began + moment - loop_time()))
            await self.act(state.step, NightChoice)

    async def floor(self, tg: asyncio.TaskGroup, state: GameState, left: float) -> None:
        speaker = state.day.speaker
        assert speaker is not None
        silent = state.day.floor_mode is FloorMode.SILENT
        # The holder watches the clock: no line once the time is up or the floor passed.
        talk = tg.create_task(self.talk(lambda: speaker, state, silent=silent))
        tg.create_task(self.stop_at(talk, left))
        await asyncio.sleep(self.rng.uniform(*DECIDE_WITHIN) * left)
        passes = self.rng.random() < PASS_EARLY
        action = await self.act(state.step, (Nominate, Best, Pass), quiet=not passes)
        if isinstance(action, (Nominate, Best)) and passes:
            await asyncio.sleep(self.rng.uniform(2.0, 5.0))
            action = await self.act(state.step, Pass, forced=Pass(speaker))
        if isinstance(action, Pass) and passes:
            talk.cancel()

    @staticmethod
    async def stop_at(task: asyncio.Task[None], seconds: float) -> None:
        await asyncio.sleep(seconds)
        task.cancel()

    async def talk(self, speaker: Callable[[], str], state: GameState, silent: bool) -> None:
        """Lines in the group: the speaker's, a few of others' (OUT_OF_TURN)."""
        await asyncio.sleep(self.rng.uniform(*FIRST_LINE))
        users = self.players.users
        while True:
            holder = speaker()
            others = [p for p in state.table.alive if p != holder]
            poster, out = holder, False
            if others and self.rng.random() < OUT_OF_TURN:
                poster, out = self.rng.choice(others), True
            if out or not silent:
                try:
                    users[poster].send(self.group, self.rng.choice(LINES))
                    self.inputs.lines += 1
                    self.inputs.out_of_turn += out
                except SimulationError:  # the chat is closed to them
                    self.inputs.refused_posts += 1
            await asyncio.sleep(self.rng.uniform(*LINE_EVERY))

    async def discussion(self, tg: asyncio.TaskGroup, state: GameState, left: float) -> None:
        """One speaker at a time; classic's live vote at a moment of the day, party's
        ballot as it opens."""
        holder = [self.rng.choice(state.table.alive)]

        async def turns() -> None:
            while True:
                await asyncio.sleep(self.rng.uniform(*TURN))
                holder[0] = self.rng.choice(state.table.alive)

        tg.create_task(turns())
        tg.create_task(self.talk(lambda: holder[0], state, silent=False))
        if not voting_open(Ctx(state)):
            return  # party's discussion: its ballot is a stage of its own
        if state.stage is Stage.DISCUSSION:
            await asyncio.sleep(self.rng.uniform(*CLASSIC_VOTE_AT) * left)
        suspect = self.rng.choice(state.table.alive)
        for voter in state.table.alive:
            choices = [p for p in state.table.alive if p != voter]
            target = suspect if suspect != voter and self.rng.random() < SUSPECT else None
            vote = Vote(voter, target or self.rng.choice(choices))
            tg.create_task(self.later(state.step, vote))

    def hands(self, tg: asyncio.TaskGroup, state: GameState) -> None:
        ctx = Ctx(state)
        if state.stage is Stage.LIFT:
            voters = [p for p in state.table.alive if self.rng.random() < LIFT_HANDS]
        else:
            counts_left = max(1, len(state.vote.candidates) - state.vote.count_index)
            voters = [
                p
                for p in state.table.alive
                if may_vote(ctx, p)
                and p not in state.vote.hands
                and self.rng.random() < 1 / counts_left
            ]
        for voter in voters:
            tg.create_task(self.later(state.step, Hand(voter)))

    async def later(self, step: int, action: Action) -> None:
        """`action` within VOTE_BURST of now (a vote's burst)."""
        await asyncio.sleep(self.rng.uniform(0, VOTE_BURST))
        await self.act(step, type(action), forced=action)

    async def spectate(self, spectator: SimUser) -> None:
        """⏱ now and then, on the newest message that shows it."""
        match = prefix(Kind.TIME, self.ref())
        while True:
            await asyncio.sleep(self.rng.expovariate(1 / TIME_PRESS_EVERY))
            found = find_button(self.h, self.group, match)
            if found is not None:
                pressed = spectator.press(self.group, found[1], message_id=found[0])
                self.record(pressed.query_id, Kind.TIME, self.group)

    # ----- acting --------------------------------------------------------------------------

    async def act(
        self,
        step: int,
        kinds: type[Action] | tuple[type[Action], ...],
        *,
        forced: Action | None = None,
        quiet: bool = False,
    ) -> Action | None:
        """The move `forced`, or one of `kinds` as the engine's policy picks it on the
        stored state, pressed once its button has reached its chat, while the game is at
        `step`. `quiet`: a Pass is not pressed (the floor runs out). The action chosen."""
        snap = self.look()
        if snap is None or snap.state is None or snap.state.step != step:
            return None
        state = snap.state
        action = forced or self.pick(state, kinds)
        if action is None or (quiet and isinstance(action, Pass)):
            return action
        record = self.ref()
        actor = self.players.user(action.actor)
        if isinstance(action, Nominate):  # the list opens in private
            menu = prefix(Kind.NOMINATE_MENU, record)
            if not await self.press(actor, self.group, menu, step, Kind.NOMINATE_MENU):
                return None
        if isinstance(action, Best):  # one name tapped at a time, each redrawing the menu
            for count in range(1, len(action.targets) + 1):
                toggle = prefix(
                    Kind.BEST, record, "t", seats_arg(public_view(state), action.targets[:count])
                )
                if not await self.press(actor, actor.id, toggle, step, Kind.BEST):
                    return None
                await asyncio.sleep(self.rng.uniform(1.0, 2.0))
        chat, match = self.players.button_for(record, public_view(state), action)
        await self.press(actor, chat, match, step, KIND_OF.get(type(action), Kind.PASS))
        return action

    def pick(
        self, state: GameState, kinds: type[Action] | tuple[type[Action], ...]
    ) -> Action | None:
        """The engine's policy, asked until it names a move of these kinds."""
        for _ in range(50):
            action = random_action(state, self.rng)
            if isinstance(action, kinds):
                return action
        return None

    async def press(
        self,
        user: SimUser,
        chat: int,
        match: Callable[[str], bool],
        step: int | None,
        kind: Kind,
    ) -> bool:
        """Presses the newest button that matches once it is in the chat; gives up when
        the game has left `step` (None: waits as long as it takes)."""
        while True:
            found = find_button(self.h, chat, match)
            if found is not None:
                pressed = user.press(self.h.chat(chat), found[1], message_id=found[0])
                self.record(pressed.query_id, kind, chat)
                return True
            if step is not None:
                snap = self.look()
                if snap is None or snap.state is None or snap.state.step != step:
                    self.inputs.gave_up += 1
                    return False
            await self.signal.wait(RETRY)

    def record(self, query: str, kind: Kind, chat: int) -> None:
        self.inputs.pressed.append(Pressed(kind.value, chat, self.group, loop_time(), query))

    # ----- helpers -------------------------------------------------------------------------

    def ref(self) -> Any:
        """The game as the button helpers take it (they read only its id)."""
        return SimpleRecord(self.game_id)

    def look(self) -> Snapshot | None:
        return self.read(self.group)

    def told_free(self, seen: int) -> bool:
        """Whether the group was told a table is free since its first `seen` messages."""
        shown = self.h.admin.view(self.h.group)[seen:]
        return any(FREE_TABLE in (message.text or "") for message in shown)

    async def until(self, check: Callable[[Snapshot | None], bool]) -> Snapshot | None:
        while True:
            snap = self.look()
            if check(snap):
                return snap
            await self.signal.wait(RETRY)

    def left(self, snap: Snapshot, state: GameState) -> float:
        """Seconds the stage has left: its timer, or less by its stored deadline (a
        deadline still waits for its message's delivery, which sets it, while the bot
        has not yet heard that the message arrived)."""
        whole = float(state.clock.timer_seconds or 30)
        if snap.deadline is None:
            return whole
        return max(1.0, min(whole, snap.deadline - self.h.sb.clock.now()))

    def failed(self, task: asyncio.Task[None]) -> None:
        """A stage that failed is counted and shown: a model that silently stopped
        playing would measure an idle bot."""
        if not task.cancelled() and task.exception() is not None:
            self.inputs.failures += 1
            asyncio.get_running_loop().call_exception_handler(
                {"message": f"table {self.group}: a stage failed", "exception": task.exception()}
            )


KIND_OF: dict[type[Action], Kind] = {
    NightChoice: Kind.NIGHT,
    Nominate: Kind.NOMINATE,
    Decide: Kind.DECIDE,
    Best: Kind.BEST,
    Vote: Kind.VOTE,
    Hand: Kind.HAND,
    Pass: Kind.PASS,
}


@dataclass(frozen=True)
class SimpleRecord:
    """What the button helpers need of a game record: its id."""

    id: int


def _standalone(h: Harness) -> Harness:
    """The harness without the bot's application: AutoPlayers sets no limiter on it."""
    from types import SimpleNamespace

    return Harness(
        h.sb, SimpleNamespace(bot_data=SimpleNamespace()), h.db, h.group, h.users, h.admin
    )
