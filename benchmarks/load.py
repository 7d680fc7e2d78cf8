"""Load: many concurrent games on one bot process at real network latency.

The bot runs in a process of its own, built as `tg-mafia run` builds it
(bot_process.py: the rate limiter as app.py sets it, the outbox's budgets in real
seconds), against the sandbox served over HTTP in this process, every call delayed by a
simulated network (a round trip of --rtt ms, ±--jitter of each leg), and the
sandbox enforcing Telegram's limits (20 a minute per group, 1 a second per
private chat, 30 a second for the bot: nothing lifted). The bot takes its updates by
long polling, or with --webhook by webhook: the sandbox then delivers them as
Telegram does (up to 100 at once, each chat's one at a time, a leg to the bot and
the answer's leg back), and carries out the popup the answer may name.

1. Set-up (not measured): GAMES groups of PLAYERS; in each the admin sends
   /newgame, the players join by the deep link, the admin presses Start once the
   lobby is in the group; then, unless --no-drain, until the outbox is empty
   (Telegram's 30 messages a second pace that part: about 20 calls per game).
   With --fast-setup (for 1,000 games and more, whose set-up would spend Telegram's
   whole budget for many minutes before the first button arrived): the
   set-up runs with the limits lifted on both sides (the bot's budgets and rate
   limiter, the sandbox's 429s) and is drained, then the bot is SIGKILLed and
   started again with every limit in force, resuming the games, as after a crash.
   The measured window is the same either way. With --stagger S, the games' Starts
   are spread over S seconds: started together, a thousand games reach their
   nights and mornings in the same second (nearly all at night when the window
   opens, the few others taking every update), as no real ones do.
2. The measured window (--seconds): simulated players give the bot updates as a
   Poisson process of --rate updates a second per game, spread over the games at
   random, a draw lost when its game can take no update (so the offered load
   follows the games' stages and changes from run to run);
   or, with --offered, of that many updates a second in all, each to the first game
   drawn that can take one and was given none in the last 1/--game-rate seconds
   (3 a second by default: seven people at a table; unbounded, a few groups would
   take dozens a second) (open loop either way: the offered load does not slow
   down when the bot does, so a slow bot shows as latency, not as fewer updates).
   Each update is the move the engine's random policy picks for the game's stored
   state, pressed on its button when that button has reached the chat; else (the
   button still in the outbox, or the policy waiting for a timer) a living player's
   line in the group. The game timers fire --timer-speed times sooner than their
   deadlines, so the games move on; the Bot API's clock is not sped up.

Measured, from the moment the sandbox queued the update (so the network leg to
the bot and any wait in the bot count):
- callback answer: until answerCallbackQuery reached the sandbox; and where a press's
  time went (`press_stages`): held in the sandbox until a getUpdates took it (by
  webhook: until its delivery began, as its chat's one before it was answered), back to
  the bot (parsed), on to its handler, to its move's commit, to the answer's call, the
  answer's leg (each stage's median, and its mean over the slowest 1% of presses);
- state written: until the game write the update caused had run in the bot's database
  thread (stamped there as its transaction ends: on SQLite a savepoint of its group
  commit's batch, which commits after the batch's last call);
- updates/s: updates the bot finished handling within the window, per second;
- handling: from an update's handler starting to its end (by webhook its delivery is
  open that long, and its chat's next update waits), for presses and for posts;
- how the load fell on the chats: how many were given updates, and the most one chat
  was given within a second;
- memory per game: the bot process's RSS growth from its idle start, per game;
- 429 answers, and the outbox backlog at the end.

    .venv/bin/python benchmarks/load.py [--games 100] [--players 7] [--seconds 60]
        [--rate 0.3 | --offered 300] [--rtt 50] [--jitter 0.2] [--timer-speed 10] [--no-drain]
        [--game-rate 3] [--fast-setup] [--stagger 0] [--webhook] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import gc
import json
import logging
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import machine, results  # noqa: E402
from benchmarks.bot_process import BotProcess, Pauses  # noqa: E402
from engine import GameState  # noqa: E402
from engine.actions import Nominate, Timeout  # noqa: E402
from engine.simulation import CHATTER_LINES, lively_action  # noqa: E402
from tg_mafia.ops import heap  # noqa: E402
from tg_mafia.playtest.autoplay import AutoPlayers, find_button, prefix  # noqa: E402
from tg_mafia.playtest.harness import BOT_RIGHTS, Harness  # noqa: E402
from tg_mafia.render.callbacks import Kind  # noqa: E402
from tg_mafia.sandbox import HttpTransport, Limits, Network, Sandbox, SimUser  # noqa: E402
from tg_mafia.sandbox.errors import SimulationError  # noqa: E402
from tg_mafia.sandbox.records import most_within  # noqa: E402
from tg_mafia.sandbox.transport.webhook import WebhookDeliverer  # noqa: E402
from tg_mafia.storage import Database, GameStatus, open_database  # noqa: E402

POLL = 0.5  # seconds between looks at the database during the set-up
# --offered: the games drawn for one arrival at most, and how long a game that could
# take no update is not drawn (a night's closed chat lasts longer than that).
OFFER_DRAWS = 200
IDLE_AFTER_IMPOSSIBLE = 1.0


@dataclass
class Table:
    h: Harness
    players: AutoPlayers
    rng: random.Random
    game_id: int = 0
    idle_until: float = 0.0  # monotonic: --offered draws no update of it until then


@dataclass
class Input:
    key: str  # as the bot process stamps it
    pushed: float  # monotonic
    query: str | None = None  # a press's callback query id
    chat: int = 0  # where it was made (a press: its button's chat)


@dataclass
class Window:
    inputs: list[Input] = field(default_factory=list)
    presses: int = 0
    posts: int = 0
    impossible: int = 0  # a closed chat and no button: no update could be made
    missed: int = 0  # --offered: arrivals that found no game able to take an update
    began: float = 0.0
    ended: float = 0.0
    stages_at_open: dict[str, int] = field(default_factory=dict)  # how many games at each


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def make_tables(sb: Sandbox, db: Database, games: int, players: int) -> list[Table]:
    tables = []
    for index in range(games):
        users = sb.add_users(players, prefix=f"G{index}P")
        admin = sb.add_user(f"Admin{index}")
        group = sb.add_group(
            f"g{index}", members=[*users, admin], owner=admin, bot_rights=BOT_RIGHTS
        )
        db.save_settings(group.id, variant="classic", language="en")
        h = Harness(sb, None, db, group, users, admin)
        tables.append(Table(h, AutoPlayers(h, None, index), random.Random(index)))  # type: ignore[arg-type]
    return tables


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

    def running_state(self, game_id: int) -> GameState | None:
        """The engine's state of a running game (None once it is over)."""
        row = self.raw.execute("SELECT status, state FROM game WHERE id = ?", (game_id,)).fetchone()
        if row is None or row[0] != GameStatus.RUNNING.value:
            return None
        return GameState.from_dict(json.loads(row[1] or "{}"))


async def until(check: Any, what: str, timeout: float) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise TimeoutError(f"set-up: {what} took over {timeout:.0f} s")
        await asyncio.sleep(POLL)


async def set_up(tables: list[Table], reader: Reader, drain: bool, stagger: float = 0.0) -> None:
    """Lobbies opened and filled, then each game started: with `stagger`, game i's Start
    is pressed i/N of that many seconds after the first (a thousand games that all
    start together all reach their mornings in the same second, as no real ones do)."""
    by_chat = {t.h.group.id: t for t in tables}
    order = {t.h.group.id: i for i, t in enumerate(tables)}
    for table in tables:
        table.h.admin.command(table.h.group, "newgame", mention=True)
    await until(lambda: len(reader.games()) == len(tables), "opening the lobbies", 600)
    for table in tables:
        for user in table.h.users:
            user.open_deep_link(table.h.sb.deep_link(f"join_{table.h.group.id}"))
    players = len(tables[0].h.users)

    def joined() -> bool:
        return all(len(json.loads(p)) == players for _, _, p in reader.games().values())

    await until(joined, "the joins", 600)
    waiting = set(by_chat)
    first_start = time.monotonic()

    def start_visible_lobbies() -> bool:
        games = reader.games()
        due = (time.monotonic() - first_start) / stagger * len(tables) if stagger else len(tables)
        for chat in list(waiting):
            if order[chat] > due:
                continue
            table = by_chat[chat]
            game_id = games[chat][0]
            found = find_button(
                table.h, chat, lambda d, g=game_id: d == f"{Kind.LOBBY.value}:{g}:-:start"
            )
            if found is not None:
                table.h.admin.press(chat, found[1], message_id=found[0])
                table.game_id = game_id
                waiting.discard(chat)
        return not waiting

    await until(
        start_visible_lobbies, "the lobbies reaching their groups", 3 * len(tables) + stagger + 600
    )
    await until(
        lambda: all(s == GameStatus.RUNNING.value for _, s, _ in reader.games().values()),
        "the starts",
        600,
    )
    if drain:
        await until(lambda: reader.outbox() == 0, "the outbox", 60 * len(tables) + 600)


def turn(table: Table, reader: Reader, window: Window) -> bool:
    """One update for this game; False when the game is over."""
    state = reader.running_state(table.game_id)
    if state is None:
        return False
    # The buttons name their game by id: that is all a record is needed for here.
    record: Any = SimpleNamespace(id=table.game_id)
    h, players = table.h, table.players
    action = lively_action(state, table.rng, 0.0)
    if not isinstance(action, Timeout):
        chat, match = players.button_for(record, state, action)
        if isinstance(action, Nominate) and find_button(h, chat, match) is None:
            chat, match = h.group.id, prefix(Kind.NOMINATE_MENU, record)  # opens the list
        found = find_button(h, chat, match)
        if found is not None:
            actor = players.user(action.actor)
            press = actor.press(chat, found[1], message_id=found[0])
            window.inputs.append(
                Input(f"q{press.query_id}", time.monotonic(), press.query_id, chat)
            )
            window.presses += 1
            return True
    # Nothing to press yet: a living player talks in the group.
    speaker: SimUser = players.user(table.rng.choice(sorted(state.alive)))
    try:
        message = speaker.send(h.group, table.rng.choice(CHATTER_LINES))
    except SimulationError:  # the night has closed the chat
        window.impossible += 1
        return True
    window.inputs.append(
        Input(f"m{h.group.id}:{message.message_id}", time.monotonic(), chat=h.group.id)
    )
    window.posts += 1
    return True


def update_key(update: dict[str, Any]) -> str | None:
    """An update's key as the bot process stamps it (bot_process.update_key)."""
    if "callback_query" in update:
        return f"q{update['callback_query']['id']}"
    message = update.get("message")
    if message is not None:
        return f"m{message['chat']['id']}:{message['message_id']}"
    return None


def stamp_handouts(sb: Sandbox, webhook: bool) -> dict[str, float]:
    """When getUpdates first handed each update to the bot (before the leg back), or the
    webhook's delivery of it began (before its leg to the bot)."""
    handed: dict[str, float] = {}
    if webhook:  # at its delivery's start: the deliverer peeks at every pending update
        deliver = WebhookDeliverer._deliver

        async def delivering(
            deliverer: WebhookDeliverer, update: dict[str, Any], headers: dict[str, str]
        ) -> None:
            key = update_key(update)
            if key is not None:
                handed.setdefault(key, time.monotonic())
            await deliver(deliverer, update, headers)

        WebhookDeliverer._deliver = delivering  # type: ignore[method-assign]
        return handed
    peek = sb.updates.peek

    def stamped(limit: int = 100) -> list[dict[str, Any]]:
        updates = peek(limit)
        now = time.monotonic()
        for update in updates:
            key = update_key(update)
            if key is not None:
                handed.setdefault(key, now)
        return updates

    sb.updates.peek = stamped  # type: ignore[method-assign]
    return handed


def stage_counts(tables: list[Table], reader: Reader) -> dict[str, int]:
    """How many running games are at each stage."""
    counts: dict[str, int] = {}
    for table in tables:
        state = reader.running_state(table.game_id)
        if state is not None:
            counts[state.stage.value] = counts.get(state.stage.value, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: -kv[1]))


def offer(
    live: list[Table], reader: Reader, window: Window, rng: random.Random, game_rate: float
) -> None:
    """One update, to the first game drawn that can take one: a game that could
    not (a closed chat and nothing to press) is left alone for a while, so the
    draws stay few; a game given one is left alone for 1/game_rate seconds (seven
    people at a table: none of Telegram's groups takes 50 posts a second from them);
    an arrival that finds no game at all is counted as missed."""
    now = time.monotonic()
    for _ in range(OFFER_DRAWS):
        if not live:
            break
        table = rng.choice(live)
        if table.idle_until > now:
            continue
        impossible = window.impossible
        if not turn(table, reader, window):
            live.remove(table)
        elif window.impossible == impossible:
            if game_rate > 0:
                table.idle_until = now + 1.0 / game_rate
            return
        else:
            table.idle_until = now + IDLE_AFTER_IMPOSSIBLE
    window.missed += 1


async def measure(
    tables: list[Table],
    reader: Reader,
    bot: BotProcess,
    seconds: float,
    rate: float,
    seed: int,
    offered: float | None = None,
    game_rate: float = 0.0,
) -> tuple[Window, dict[str, dict[str, float]], list[float]]:
    rng = random.Random(seed)
    live = list(tables)
    window = Window()
    stamps: dict[str, dict[str, float]] = {}
    rss: list[float] = []

    async def take() -> None:
        for kind, got in (await bot.stages()).items():
            stamps.setdefault(kind, {}).update(got)

    async def collect() -> None:
        while True:
            await asyncio.sleep(5)
            await take()
            rss.append(bot.rss_mb())

    collector = asyncio.ensure_future(collect())
    window.stages_at_open = stage_counts(tables, reader)
    # --offered: the total rate itself, whatever the games' stages (each arrival goes to
    # the first game, drawn at random, that can take an update); --rate: per game, each
    # draw lost when its game can take none, so the offered load follows the stages.
    fixed = offered is not None
    total_rate = offered if offered is not None else rate * len(tables)
    window.began = time.monotonic()
    # On stderr, for whoever attaches a profiler to the window only.
    bot_pid = bot.process.pid if bot.process else None
    print(
        f"# the window opens: bot pid {bot_pid}, this pid {os.getpid()}",
        file=sys.stderr,
        flush=True,
    )
    end = window.began + seconds
    due = window.began
    while live:
        due += rng.expovariate(total_rate)
        if due >= end:
            break
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        if fixed:
            offer(live, reader, window, rng, game_rate)
        else:
            table = rng.choice(live)
            if not turn(table, reader, window):
                live.remove(table)
    window.ended = time.monotonic()
    # Grace: the last updates are handled and answered.
    await asyncio.sleep(10)
    collector.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await collector
    await take()
    rss.append(bot.rss_mb())
    return window, stamps, rss


STAGES = ("held", "to_bot", "to_handler", "to_commit", "to_answer", "answer_leg")


def press_stages(
    given: Input, answer: float, handed: dict[str, float], stamps: dict[str, dict[str, float]]
) -> dict[str, float] | None:
    """Where a press's time went: held in the sandbox until a getUpdates took it, back
    to the bot (the leg, parsing), on to its handler (PTB's queue, the event loop), to
    its move's commit, to the answer's call, and the answer's leg. None without every
    stamp (a press refused writes nothing: its answer follows its receipt)."""
    key = given.key

    def stamp(kind: str) -> float | None:
        return stamps.get(kind, {}).get(key)

    fetched, received, answering = stamp("fetched"), stamp("received"), stamp("answering")
    if key not in handed or fetched is None or received is None or answering is None:
        return None
    written = stamp("written")
    committed = received if written is None else written
    return {
        "held": handed[key] - given.pushed,
        "to_bot": fetched - handed[key],
        "to_handler": received - fetched,
        "to_commit": committed - received,
        "to_answer": answering - committed,
        "answer_leg": given.pushed + answer - answering,
    }


def summarise_stages(parts: list[tuple[float, dict[str, float]]]) -> dict[str, Any]:
    """Each stage's p50 over all presses, and its mean over the slowest 1%."""
    if not parts:
        return {}
    ms = 1000.0
    slow_from = percentile([total for total, _ in parts], 0.99)
    slow = [stages for total, stages in parts if total >= slow_from]
    out: dict[str, Any] = {"stages_n": len(parts)}
    for stage in STAGES:
        out[f"stage_{stage}_p50_ms"] = statistics.median(p[stage] for _, p in parts) * ms
        out[f"stage_{stage}_slowest1pc_ms"] = statistics.fmean(p[stage] for p in slow) * ms
    return out


def summarise_handling(window: Window, stamps: dict[str, dict[str, float]]) -> dict[str, Any]:
    """How long the bot held each update, from its handler's start to its end (by
    webhook, its delivery is open that long, and its chat's next update waits): p50
    and p99 over all, and the p50 of presses and of posts."""
    received, handled = stamps.get("received", {}), stamps.get("handled", {})
    held: dict[bool, list[float]] = {True: [], False: []}  # presses, posts
    for given in window.inputs:
        if given.key in received and given.key in handled:
            held[given.query is not None].append(handled[given.key] - received[given.key])
    every = held[True] + held[False]
    if not every:
        return {}
    ms = 1000.0
    return {
        "handling_p50_ms": statistics.median(every) * ms,
        "handling_p99_ms": percentile(every, 0.99) * ms,
        "handling_press_p50_ms": statistics.median(held[True]) * ms if held[True] else None,
        "handling_post_p50_ms": statistics.median(held[False]) * ms if held[False] else None,
    }


def summarise_chats(window: Window) -> dict[str, Any]:
    """How the load fell on the chats: the most updates one chat was given within a
    second, and over the chats given any, the median and p99 of that figure."""
    by_chat: dict[int, list[float]] = {}
    for given in window.inputs:
        by_chat.setdefault(given.chat, []).append(given.pushed)
    peaks = [most_within(sorted(stamps), 1.0) for stamps in by_chat.values()]
    if not peaks:
        return {}
    return {
        "chats_given_updates": len(peaks),
        "chat_peak_per_s_p50": statistics.median(peaks),
        "chat_peak_per_s_p99": percentile([float(p) for p in peaks], 0.99),
        "chat_peak_per_s_max": max(peaks),
    }


def summarise_polls(stamps: dict[str, dict[str, float]]) -> dict[str, Any]:
    """The bot's getUpdates that brought updates: how long each took (the round trip,
    the sandbox's wait, parsing), and how long after it the next one was called."""
    called, returned = stamps.get("poll_called", {}), stamps.get("poll_returned", {})
    after = stamps.get("poll_next", {})
    took = [returned[n] - called[n] for n in called if n in returned]
    turns = [after[n] - returned[n] for n in after if n in returned]
    if not took or not turns:
        return {}
    ms = 1000.0
    return {
        "polls": len(took),
        "poll_took_p50_ms": statistics.median(took) * ms,
        "poll_took_p99_ms": percentile(took, 0.99) * ms,
        "poll_turnaround_p50_ms": statistics.median(turns) * ms,
        "poll_turnaround_p99_ms": percentile(turns, 0.99) * ms,
    }


def summarise_pauses(name: str, pauses: dict[str, float], window: Window) -> dict[str, Any]:
    within = [s for t, s in pauses.items() if window.began <= float(t) <= window.ended]
    if not within:
        return {}
    return {
        f"{name}_gc_pauses": len(within),
        f"{name}_gc_total_ms": sum(within) * 1000,
        f"{name}_gc_max_ms": max(within) * 1000,
    }


def summarise(
    sb: Sandbox,
    window: Window,
    stamps: dict[str, dict[str, float]],
    handed: dict[str, float],
) -> dict[str, Any]:
    speed = sb.clock.speed
    handled, written = stamps.get("handled", {}), stamps.get("written", {})
    answers, unanswered = [], 0
    parts: list[tuple[float, dict[str, float]]] = []
    for given in window.inputs:
        if given.query is None:
            continue
        query = sb.callback_queries[given.query]
        if query.answered_at is None:
            unanswered += 1
        else:
            answer = (query.answered_at - query.created) / speed
            answers.append(answer)
            stages = press_stages(given, answer, handed, stamps)
            if stages is not None:
                parts.append((answer, stages))
    writes = [written[i.key] - i.pushed for i in window.inputs if i.key in written]
    duration = window.ended - window.began
    done = sum(1 for t in handled.values() if window.began <= t <= window.ended)
    ms = 1000.0
    return {
        "window_s": duration,
        "updates_offered": len(window.inputs),
        "presses": window.presses,
        "posts": window.posts,
        "no_input_possible": window.impossible,
        "arrivals_missed": window.missed,
        "stages_at_open": json.dumps(window.stages_at_open),
        "offered_per_s": len(window.inputs) / duration,
        "handled_per_s": done / duration,
        "answer_p50_ms": statistics.median(answers) * ms if answers else None,
        "answer_p99_ms": percentile(answers, 0.99) * ms if answers else None,
        "answer_max_ms": max(answers) * ms if answers else None,
        "unanswered": unanswered,
        "written_n": len(writes),
        "written_p50_ms": statistics.median(writes) * ms if writes else None,
        "written_p99_ms": percentile(writes, 0.99) * ms if writes else None,
        "written_max_ms": max(writes) * ms if writes else None,
        **summarise_handling(window, stamps),
        **summarise_stages(parts),
        **summarise_chats(window),
        **summarise_polls(stamps),
        **summarise_pauses("bot", stamps.get("gc_pauses", {}), window),
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    network = Network(rtt=args.rtt / 1000, jitter=args.jitter, seed=args.seed)
    sb = Sandbox(network=network, limits=Limits())
    http = HttpTransport(sb)
    await http.start()
    result: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
        path = Path(tmp) / "bot.db"
        db = open_database(f"sqlite:///{path}")
        tables = make_tables(sb, db, args.games, args.players)
        bot = BotProcess(
            http.base_url, sb.token, f"sqlite:///{path}", args.timer_speed, webhook=args.webhook
        )
        try:
            stderr = Path(tmp) / "bot.stderr"
            await bot.start(stderr, unlimited=args.fast_setup)
            await asyncio.sleep(2)  # idle: the baseline
            idle_rss = bot.rss_mb()
            began = time.monotonic()
            reader = Reader(path)
            if args.fast_setup:
                sb.limiter.limits = Limits(enabled=False)
            await set_up(tables, reader, args.fast_setup or not args.no_drain, args.stagger)
            if args.fast_setup:
                await bot.stop()  # SIGKILL, as a crash: the games resume at the start
                sb.limiter.limits = sb.limits
                await bot.start(stderr)
                restarted = time.monotonic()
                await until(lambda: reader.outbox() == 0, "the restart's catch-up", 3600)
                result["restart_catch_up_s"] = time.monotonic() - restarted
            result["setup_s"] = time.monotonic() - began
            await bot.log()  # the set-up's stamps are not measured
            setup_rss = bot.rss_mb()
            handed = stamp_handouts(sb, args.webhook)
            # The sandbox's world (every group, message and call of the set-up) out of the
            # collector's walks: its full collections held this process's loop, and every
            # simulated leg with it, as Telegram never would (the sandbox_gc_* figures).
            heap.settle()
            pauses = Pauses()
            gc.callbacks.append(pauses)
            cpu_before, own_cpu_before = bot.cpu_seconds(), time.process_time()
            window, stamps, rss = await measure(
                tables,
                reader,
                bot,
                args.seconds,
                args.rate,
                args.seed,
                args.offered,
                args.game_rate,
            )
            cpu, own_cpu = bot.cpu_seconds() - cpu_before, time.process_time() - own_cpu_before
            gc.callbacks.remove(pauses)
            result.update(summarise(sb, window, stamps, handed))
            result.update(summarise_pauses("sandbox", pauses.take(), window))
            measured = window.ended - window.began + 10  # the grace included
            result["bot_cpu_share"] = cpu / measured
            # This process: the sandbox, its HTTP side and the generator. Near 1.0 it is
            # the bottleneck, and the bot's figures say more about it than about the bot.
            result["benchmark_cpu_share"] = own_cpu / measured
            result["rss_idle_mb"] = idle_rss
            result["rss_after_setup_mb"] = setup_rss
            result["rss_end_mb"] = rss[-1]
            result["mb_per_game"] = (max([setup_rss, *rss]) - idle_rss) / args.games
            result["outbox_at_end"] = reader.outbox()
            result["count_429"] = sb.log.count_429()
            result["sandbox_bugs"] = len(sb.bugs)
            if args.verbose:
                from tg_mafia.sandbox.limits import CHARGED_METHODS

                charged = [r for r in sb.log.records if r.ok and r.method in CHARGED_METHODS]
                for record in sb.log.records:
                    if record.error_code == 429:
                        t = record.time
                        bot_1s = sum(1 for r in charged if t - 1.0 < r.time <= t)
                        chat_60 = sum(
                            1
                            for r in charged
                            if r.chat_id == record.chat_id and t - 60 < r.time <= t
                        )
                        print(
                            f"429 {record.method} chat {record.chat_id} at {t:.3f}: "
                            f"bot {bot_1s}/1s, chat {chat_60}/60s, retry {record.retry_after}"
                        )
                print((Path(tmp) / "bot.stderr").read_text()[-5000:])
                print("\n".join(sb.bugs))
            result["errors_logged"] = errors_logged(Path(tmp) / "bot.stderr")
        finally:
            await bot.stop()
            db.close()
    # The calls the killed bot left in flight end (else the loop's close cancels them,
    # and each is logged as a 500), and so do the webhook's deliveries.
    await asyncio.sleep(2 * args.rtt / 1000 + 0.5)
    await sb.stop_webhook()
    await http.stop()
    return result


def errors_logged(stderr: Path) -> int:
    """The ERROR lines the bot process wrote to its stderr."""
    return sum(1 for line in stderr.read_text().splitlines() if line.startswith("ERROR"))


def report(began: datetime.datetime, result: dict[str, Any], places: int, width: int) -> None:
    """The run's results, headed by the machine and the load it ran under."""
    print(f"# {began:%Y-%m-%d %H:%M} UTC, {machine.describe()[2:]}")
    print(f"# {' '.join(sys.argv[1:])}")
    for key, value in result.items():
        shown = f"{value:.{places}f}" if isinstance(value, float) else str(value)
        print(f"{key:>{width}}: {shown}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured window")
    parser.add_argument("--rate", type=float, default=0.3, help="updates a second per game")
    parser.add_argument(
        "--offered",
        type=float,
        default=None,
        help="updates a second in all, whatever the games' stages (instead of --rate)",
    )
    parser.add_argument(
        "--game-rate",
        type=float,
        default=3.0,
        help="with --offered: the most updates a second one game is given (0: no bound)",
    )
    parser.add_argument("--rtt", type=float, default=50.0, help="round trip, ms")
    parser.add_argument("--jitter", type=float, default=0.2, help="fraction of each leg")
    parser.add_argument("--timer-speed", type=float, default=10.0)
    parser.add_argument("--no-drain", action="store_true", help="measure with the set-up's backlog")
    parser.add_argument(
        "--fast-setup",
        action="store_true",
        help="set up with every limit lifted, then restart the bot with them (see the text)",
    )
    parser.add_argument(
        "--webhook",
        action="store_true",
        help="updates by webhook (each delivery a leg to the bot, its answer a leg back)",
    )
    parser.add_argument(
        "--stagger",
        type=float,
        default=0.0,
        help="seconds over which the games' starts are spread (0: all at once)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tmp", default=None, help="where the database file goes")
    parser.add_argument("--verbose", action="store_true", help="show the 429s and the bot's log")
    results.add_argument(parser)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)  # the sandbox's own errors
    logging.getLogger("tornado.access").setLevel(logging.ERROR)  # every 4xx would be a line
    began = datetime.datetime.now(datetime.UTC)
    started = results.Run.begin("load")
    result = asyncio.run(run(args))
    report(began, result, places=1, width=20)
    started.write(args.json, [result])


if __name__ == "__main__":
    main()
