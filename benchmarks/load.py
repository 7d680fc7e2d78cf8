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

Two load models. The real one (the default) is an evening of games as people play
them; the uniform one (--rate or --offered) offers random updates at a set rate, to
push the bot's handling.

THE REAL MODEL (benchmarks/real_play.py says how each table plays, and where each of
its figures comes from):

- --games groups, each with the variant's standard table of players (ten, moscow
  eleven: real_play.STANDARD_SIZE; --players to change it), an admin and --spectators
  (2) members who only watch; the variants in turn (--variant, default all five), in
  English, with the variants' stored defaults for every timer (engine/options.py, as
  RULES.md lists them: a night 60 s, classic's day 300 s, party's 180 s and its ballot
  60 s, a speech 60 s, moscow's introduction 15 s, a last word 30 s, a count 6 s).
- The start curve: the games open over the first --starts-over seconds of the window
  (default three quarters of it) on a ramp, ever more of them (a rate rising in a
  straight line from zero, as an evening fills), each with its admin's /newgame; the
  lobby fills and starts as real_play says. Nothing is set up beforehand: the lobbies,
  joins and deals are part of the load.
- The real pace: the bot's timers run at their real length (no --timer-speed: the
  model is about what players wait for, and a faster clock would crowd a table's
  moves and messages into less of Telegram's time than they take); the tables act
  only on what reached their chats, so a late message delays them as it would people.
- The window lasts --seconds (210), then every table stops.
- With --tokens N, the one process serves N bot tokens (`tg-mafia run` with
  TELEGRAM_BOT_TOKEN=<t1>,...,<tN>): group i adds bot i mod N, and each bot has its own
  budget, outbox, timers and admission. The figures below are over every token, and
  per token (`per_token`: its games admitted, calls a second, charged calls a second,
  busiest second, 429s).

Measured over the window (the run's figures): /newgames sent (and of them those sent
again when the bot's queue told the group a table is free), games admitted (a lobby
stored) and started; the one token's Bot API calls a second (every call but getUpdates
and the webhook's set-up; of them the charged ones Telegram counts against the 30 a
second: in the window, in its last minute, and the busiest second); admission's count of
the tables in the last minute against the calls they spent (benchmarks/estimate.py);
from a press (the update queued) to its popup's answer, and where its time went
(`press_stages`, below: each stage's median and its mean over the slowest 1%); from a
press that moved its game (its write put calls in the outbox) to the next message (a
send or an edit) in the chat of its button, and of those in the group to the group's
next message; from a stage timer that moved its game (when it was due) to the group's
next message; the 429 answers (there must be none); the outbox at the end, and how long
its oldest call has waited.

THE UNIFORM MODEL:

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

    .venv/bin/python benchmarks/load.py [--games 200] [--seconds 210] [--webhook]
        [--variant V] [--players N] [--spectators 2] [--starts-over S] [--json PATH]
    .venv/bin/python benchmarks/load.py --rate 0.3 | --offered 300 [--games 100]
        [--players 7] [--seconds 60] [--rtt 50] [--jitter 0.2] [--timer-speed 10]
        [--no-drain] [--game-rate 3] [--fast-setup] [--stagger 0] [--webhook] [--json PATH]
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
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import estimate, machine, results  # noqa: E402
from benchmarks.bot_process import WITHOUT, BotProcess, Pauses  # noqa: E402
from benchmarks.real_play import (  # noqa: E402
    STANDARD_SIZE,
    Inputs,
    Observer,
    Reader,
    RealTable,
)
from engine import public_view  # noqa: E402
from engine.actions import Nominate, Timeout  # noqa: E402
from engine.simulation import CHATTER_LINES, lively_action  # noqa: E402
from tg_mafia.ops import heap  # noqa: E402
from tg_mafia.playtest.autoplay import AutoPlayers, find_button, prefix  # noqa: E402
from tg_mafia.playtest.harness import BOT_RIGHTS, Harness  # noqa: E402
from tg_mafia.render.callbacks import Kind  # noqa: E402
from tg_mafia.sandbox import (  # noqa: E402
    HttpTransport,
    Limits,
    Network,
    Sandbox,
    SandboxBot,
    SimUser,
)
from tg_mafia.sandbox.errors import SimulationError  # noqa: E402
from tg_mafia.sandbox.limits import CHARGED_METHODS  # noqa: E402
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
        # No application here: the bot runs in its own process (AutoPlayers sets its
        # input limiter on this stand-in, and the real one is left as `tg-mafia run` has it).
        h = Harness(sb, SimpleNamespace(bot_data=SimpleNamespace()), db, group, users, admin)
        tables.append(Table(h, AutoPlayers(h, None, index), random.Random(index)))  # type: ignore[arg-type]
    return tables


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
        chat, match = players.button_for(record, public_view(state), action)
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
    speaker: SimUser = players.user(table.rng.choice(sorted(state.table.alive)))
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
    for bot in sb.bots.values():  # every token's getUpdates
        peek = bot.updates.peek

        def stamped(limit: int = 100, peek: Any = peek) -> list[dict[str, Any]]:
            updates: list[dict[str, Any]] = peek(limit)
            now = time.monotonic()
            for update in updates:
                key = update_key(update)
                if key is not None:
                    handed.setdefault(key, now)
            return updates

        bot.updates.peek = stamped  # type: ignore[method-assign]
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


@contextlib.asynccontextmanager
async def telegram(args: argparse.Namespace) -> AsyncIterator[tuple[Sandbox, HttpTransport]]:
    """The sandbox served over HTTP behind the simulated network, for either model;
    stopped once the killed bot's last calls have come in."""
    network = Network(rtt=args.rtt / 1000, jitter=args.jitter, seed=args.seed)
    sb = Sandbox(network=network, limits=Limits())
    http = HttpTransport(sb)
    await http.start()
    try:
        yield sb, http
    finally:
        await asyncio.sleep(2 * args.rtt / 1000 + 0.5)  # the killed bot's calls end
        await sb.stop_webhook()
        await http.stop()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    result: dict[str, Any] = {}
    async with telegram(args) as (sb, http):
        with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
            path = Path(tmp) / "bot.db"
            db = open_database(f"sqlite:///{path}")
            tables = make_tables(sb, db, args.games, args.players)
            bot = BotProcess(
                http.base_url,
                sb.token,
                f"sqlite:///{path}",
                args.timer_speed,
                webhook=args.webhook,
                without=tuple(args.without),
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
    return result


# ----- the real model ---------------------------------------------------------------------

GRACE = 5.0  # s after the window: the last presses are answered
NOT_CALLS = frozenset({"getUpdates", "setWebhook", "deleteWebhook", "getMe", "getWebhookInfo"})


def bot_accounts(sb: Sandbox, tokens: int) -> list[SandboxBot]:
    """The sandbox's bots the process serves: its default one, and --tokens - 1 more."""
    return [sb.default_bot, *(sb.create_bot(f"mafia_{n + 2}_bot") for n in range(tokens - 1))]


def make_real_tables(
    sb: Sandbox,
    db: Database,
    args: argparse.Namespace,
    reader: Reader,
    observer: Observer,
    inputs: Inputs,
    bots: list[SandboxBot],
) -> list[RealTable]:
    """One group a game: its players (the variant's standard table unless --players),
    its admin and its spectators; the variants in turn; group i adds bot i mod N."""
    variants = args.variant or list(STANDARD_SIZE)
    tables = []
    for index in range(args.games):
        variant = variants[index % len(variants)]
        bot = bots[index % len(bots)]
        users = sb.add_users(args.players or STANDARD_SIZE[variant], prefix=f"G{index}P")
        admin = sb.add_user(f"Admin{index}")
        spectators = [sb.add_user(f"G{index}W{n}") for n in range(args.spectators)]
        group = sb.add_group(
            f"g{index}", members=[*users, admin, *spectators], owner=admin,
            bot_rights=BOT_RIGHTS, bots=[bot],
        )  # fmt: skip
        db.save_settings(group.id, variant=variant, language="en")
        h = Harness(sb, None, db, group, users, admin, bot)
        seed = args.seed * 100_003 + index
        tables.append(RealTable(h, spectators, reader.snapshot, observer, inputs, seed))
    return tables


def start_curve(games: int, over: float, seed: int) -> list[float]:
    """Each game's /newgame, in seconds from the window's opening: the evening's ramp,
    starts ever more frequent (a rate rising in a straight line from 0), the last at
    `over` (the moment u of a uniform draw, at over·√u)."""
    rng = random.Random(seed)
    return sorted(over * rng.random() ** 0.5 for _ in range(games))


@dataclass
class Evening:
    """What the real model's window saw, beside the tables' inputs."""

    began: float = 0.0  # monotonic
    ended: float = 0.0
    sandbox_began: float = 0.0
    sandbox_ended: float = 0.0
    log_from: int = 0  # the sandbox's call log at the opening
    outbox_peak: int = 0
    outbox_at_end: int = 0
    oldest_at_end_s: float = 0.0
    stamps: dict[str, dict[str, float]] = field(default_factory=dict)
    samples: estimate.Samples = field(default_factory=estimate.Samples)
    group_of: dict[int, int] = field(default_factory=dict)  # a private chat's table's group


STOP_WITHIN = 30.0  # seconds the tables get to stop once the window closes


async def evening(
    tables: list[RealTable],
    sb: Sandbox,
    reader: Reader,
    bot: BotProcess,
    args: argparse.Namespace,
) -> Evening:
    """The window: each table opens its game at its moment of the start curve and
    plays until the window closes."""
    seen = Evening(log_from=len(sb.log.records))
    for table in tables:
        people = [*table.h.users, table.h.admin, *table.spectators]
        seen.group_of.update((person.id, table.group) for person in people)
    opens = start_curve(len(tables), args.starts_over, args.seed)

    async def table_at(table: RealTable, delay: float) -> None:
        await asyncio.sleep(delay)
        await table.play()

    async def take() -> None:
        for kind, got in (await bot.stages()).items():
            seen.stamps.setdefault(kind, {}).update(got)

    async def watch() -> None:
        while True:
            await asyncio.sleep(5)
            await take()
            seen.outbox_peak = max(seen.outbox_peak, reader.outbox())
            seen.samples.take(reader.raw, sb.clock.now())

    seen.began, seen.sandbox_began = time.monotonic(), sb.clock.now()
    playing = [asyncio.ensure_future(table_at(t, at)) for t, at in zip(tables, opens, strict=True)]
    watcher = asyncio.ensure_future(watch())
    print(f"# the window opens: bot pid {bot.process and bot.process.pid}", file=sys.stderr)
    done, _ = await asyncio.wait(playing, timeout=args.seconds, return_when=asyncio.FIRST_EXCEPTION)
    seen.ended, seen.sandbox_ended = time.monotonic(), sb.clock.now()
    seen.outbox_at_end = reader.outbox()
    seen.samples.take(reader.raw, seen.sandbox_ended)
    oldest = reader.oldest_call()
    seen.oldest_at_end_s = 0.0 if oldest is None else max(0.0, seen.sandbox_ended - oldest)
    seen.outbox_peak = max(seen.outbox_peak, seen.outbox_at_end)
    for task in [*playing, watcher]:
        task.cancel()
    failed = [t for t in done if not t.cancelled() and t.exception() is not None]
    _, stuck = await asyncio.wait([*playing, watcher], timeout=STOP_WITHIN)
    if stuck:
        raise RuntimeError(f"{len(stuck)} tables still playing {STOP_WITHIN} s after the window")
    if failed:
        raise RuntimeError("a table failed") from failed[0].exception()
    await asyncio.sleep(GRACE)
    await take()
    return seen


def ms_figures(name: str, values: list[float]) -> dict[str, Any]:
    """`name`'s n, p50 and p99 in ms (None without values)."""
    ms = 1000.0
    return {
        f"{name}_n": len(values),
        f"{name}_p50_ms": statistics.median(values) * ms if values else None,
        f"{name}_p99_ms": percentile(values, 0.99) * ms if values else None,
        f"{name}_max_ms": max(values) * ms if values else None,
    }


def summarise_evening(
    sb: Sandbox,
    reader: Reader,
    inputs: Inputs,
    observer: Observer,
    seen: Evening,
    handed: dict[str, float] | None = None,
) -> dict[str, Any]:
    """The real model's figures (see the module's text)."""
    window = seen.ended - seen.began
    statuses = [status for _, status, _ in reader.games().values()]
    pressed = [p for p in inputs.pressed if p.at <= seen.ended]
    answers, unanswered = [], 0
    parts: list[tuple[float, dict[str, float]]] = []
    for press in pressed:
        query = sb.callback_queries[press.query]
        if query.answered_at is None:
            unanswered += 1
        else:
            answers.append(query.answered_at - query.created)
            given = Input(f"q{press.query}", press.at, press.query, press.chat)
            stages = press_stages(given, answers[-1], handed or {}, seen.stamps)
            if stages is not None:
                parts.append((answers[-1], stages))
    enqueued = seen.stamps.get("enqueued", {})
    moved = [p for p in pressed if enqueued.get(f"q{p.query}", 0) > 0]
    after_press = [observer.next_message(p.chat, p.at) for p in moved]
    by_kind: dict[str, list[float]] = {}
    for press, wait in zip(moved, after_press, strict=True):
        if wait is not None:
            by_kind.setdefault(press.kind, []).append(wait)
    group_presses = [p for p in moved if p.chat == p.group]
    after_group_press = [observer.next_message(p.chat, p.at) for p in group_presses]
    chats = dict(reader.raw.execute("SELECT id, chat_id FROM game"))
    due, fired = seen.stamps.get("timer_due", {}), seen.stamps.get("timer_fired", {})
    timers = [k for k in enqueued if k.startswith("t") and enqueued[k] > 0 and k in due]
    timers = [k for k in timers if due[k] <= seen.ended]
    after_timer = [observer.next_message(chats[int(k[1:].split(":")[0])], due[k]) for k in timers]
    late = [fired[k] - due[k] for k in timers if k in fired]
    calls = [
        r
        for r in sb.log.records[seen.log_from :]
        if r.ok and r.method not in NOT_CALLS and r.time <= seen.sandbox_ended
    ]
    charged_calls = [r for r in calls if r.method in CHARGED_METHODS]
    charged = [r.time for r in charged_calls]
    last_minute = [t for t in charged if t > seen.sandbox_ended - 60]
    bots = [bot.id for bot in sb.bots.values()]
    against = estimate.compare(seen.samples, charged_calls, seen.group_of, bots, seen.sandbox_ended)
    return {
        "model": "real",
        "tokens": len(sb.bots),
        "per_token": per_token(sb, reader, seen, calls),
        "window_s": window,
        "newgames": inputs.newgames,
        "newgames_queued": inputs.queued,
        "games_admitted": len(statuses),
        "games_started": sum(s != GameStatus.LOBBY.value for s in statuses),
        "games_ended": sum(s == GameStatus.ENDED.value for s in statuses),
        "presses": len(pressed),
        "time_presses": sum(1 for p in pressed if p.kind == Kind.TIME.value),
        "lines": inputs.lines,
        "lines_out_of_turn": inputs.out_of_turn,
        "joins": inputs.joins,
        "presses_given_up": inputs.gave_up,
        "calls_per_s": len(calls) / window,
        "charged_per_s": len(charged) / window,
        "charged_per_s_last_60s": len(last_minute) / min(60.0, window),
        "charged_peak_1s": most_within(charged, 1.0),
        "admission_estimate": against,
        "unanswered": unanswered,
        **ms_figures("answer", answers),
        **summarise_stages(parts),
        **ms_figures("press_next", [w for w in after_press if w is not None]),
        "press_no_message": sum(1 for w in after_press if w is None),
        # By the button's kind (tg_mafia.render.callbacks.Kind): n, p50 and p99 in ms.
        "press_next_by_kind": {
            kind: [len(w), round(statistics.median(w) * 1000), round(percentile(w, 0.99) * 1000)]
            for kind, w in sorted(by_kind.items())
        },
        **ms_figures("group_press_next", [w for w in after_group_press if w is not None]),
        **ms_figures("timer_next", [w for w in after_timer if w is not None]),
        "timer_no_message": sum(1 for w in after_timer if w is None),
        "timer_late_p99_ms": percentile(late, 0.99) * 1000 if late else None,
        "count_429": sb.log.count_429(),
        "outbox_peak": seen.outbox_peak,
        "outbox_at_end": seen.outbox_at_end,
        "outbox_oldest_s": seen.oldest_at_end_s,
    }


def per_token(sb: Sandbox, reader: Reader, seen: Evening, calls: list[Any]) -> list[dict[str, Any]]:
    """Each token's share of the window: its games admitted (stored), its Bot API calls
    a second (and of them the charged ones), its busiest second, its 429s."""
    window = seen.ended - seen.began
    admitted = dict(reader.raw.execute("SELECT bot_id, count(*) FROM game GROUP BY bot_id"))
    out = []
    for bot in sb.bots.values():
        mine = [r for r in calls if r.bot_id == bot.id]
        charged = [r.time for r in mine if r.method in CHARGED_METHODS]
        errors = [
            r for r in sb.log.records[seen.log_from :]
            if r.bot_id == bot.id and r.error_code == 429
        ]  # fmt: skip
        out.append(
            {
                "bot": bot.username,
                "games_admitted": int(admitted.get(bot.id, 0)),
                "calls_per_s": round(len(mine) / window, 2),
                "charged_per_s": round(len(charged) / window, 2),
                "charged_peak_1s": most_within(charged, 1.0),
                "count_429": len(errors),
            }
        )
    return out


async def run_real(args: argparse.Namespace) -> dict[str, Any]:
    """The real model: an evening of games (see the module's text)."""
    result: dict[str, Any] = {}
    async with telegram(args) as (sb, http):
        with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
            path = Path(tmp) / "bot.db"
            db = open_database(f"sqlite:///{path}")
            reader, observer, inputs = Reader(path), Observer(sb), Inputs()
            bots = bot_accounts(sb, args.tokens)
            tables = make_real_tables(sb, db, args, reader, observer, inputs, bots)
            bot = BotProcess(
                http.base_url,
                ",".join(account.token for account in bots),
                f"sqlite:///{path}",
                1.0,
                webhook=args.webhook,
                without=tuple(args.without),
            )
            stderr = Path(tmp) / "bot.stderr"
            handed = stamp_handouts(sb, args.webhook)
            try:
                await bot.start(stderr)
                await asyncio.sleep(2)  # idle: the baseline
                idle_rss = bot.rss_mb()
                await bot.stages()  # the start's stamps are not measured
                heap.settle()
                cpu_before, own_cpu_before = bot.cpu_seconds(), time.process_time()
                seen = await evening(tables, sb, reader, bot, args)
                measured = seen.ended - seen.began + GRACE
                result.update(summarise_evening(sb, reader, inputs, observer, seen, handed))
                result["bot_cpu_share"] = (bot.cpu_seconds() - cpu_before) / measured
                result["benchmark_cpu_share"] = (time.process_time() - own_cpu_before) / measured
                result["rss_idle_mb"] = idle_rss
                result["rss_end_mb"] = bot.rss_mb()
                result["sandbox_bugs"] = len(sb.bugs)
                result["table_failures"] = inputs.failures
                result["errors_logged"] = errors_logged(stderr)
                if args.verbose:
                    print(stderr.read_text()[-5000:])
                    print("\n".join(sb.bugs))
            finally:
                await bot.stop()
                reader.raw.close()
                db.close()
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


UNIFORM_ONLY = ("timer_speed", "fast_setup", "no_drain", "stagger", "game_rate")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--model",
        choices=("real", "uniform"),
        default=None,
        help="real: an evening of games at their real pace (the default); uniform: random "
        "updates at a set rate (the default with --rate or --offered)",
    )
    parser.add_argument("--games", type=int, default=None, help="100 (real: 200)")
    parser.add_argument(
        "--players", type=int, default=None, help="a table (uniform: 7; real: the variant's)"
    )
    parser.add_argument(
        "--seconds", type=float, default=None, help="the measured window (uniform: 60; real: 210)"
    )
    parser.add_argument("--webhook", action="store_true", help="updates by webhook (see the text)")
    parser.add_argument(
        "--tokens",
        type=int,
        default=1,
        help="the real model: bot tokens the one process serves, the groups spread over them",
    )
    parser.add_argument("--rtt", type=float, default=50.0, help="round trip, ms")
    parser.add_argument("--jitter", type=float, default=0.2, help="fraction of each leg")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tmp", default=None, help="where the database file goes")
    parser.add_argument("--verbose", action="store_true", help="show the 429s and the bot's log")
    parser.add_argument(
        "--without",
        choices=WITHOUT,
        action="append",
        default=[],
        help="the bot without this scale mechanism, on its simple path (bot_process.py)",
    )
    real = parser.add_argument_group("the real model")
    real.add_argument(
        "--starts-over",
        type=float,
        default=None,
        help="seconds over which the games open, on a ramp (default: 3/4 of the window)",
    )
    real.add_argument("--variant", choices=sorted(STANDARD_SIZE), action="append")
    real.add_argument("--spectators", type=int, default=2, help="a table's, pressing ⏱")
    uniform = parser.add_argument_group("the uniform model")
    uniform.add_argument("--rate", type=float, default=None, help="updates a second per game")
    uniform.add_argument(
        "--offered",
        type=float,
        default=None,
        help="updates a second in all, whatever the games' stages (instead of --rate)",
    )
    uniform.add_argument(
        "--game-rate",
        type=float,
        default=None,
        help="with --offered: the most updates a second one game is given (default 3; 0: no bound)",
    )
    uniform.add_argument("--timer-speed", type=float, default=None, help="default 10")
    uniform.add_argument(
        "--no-drain", action="store_true", help="measure with the set-up's backlog"
    )
    uniform.add_argument(
        "--fast-setup",
        action="store_true",
        help="set up with every limit lifted, then restart the bot with them (see the text)",
    )
    uniform.add_argument(
        "--stagger",
        type=float,
        default=None,
        help="seconds over which the games' starts are spread (default 0: all at once)",
    )
    results.add_argument(parser)
    args = parser.parse_args()
    if args.tokens < 1:
        parser.error("--tokens must be 1 or more")
    model = args.model or ("uniform" if args.rate or args.offered else "real")
    if model == "real":
        given = [f"--{n.replace('_', '-')}" for n in UNIFORM_ONLY if getattr(args, n)]
        if args.rate or args.offered or given:
            parser.error(f"the real model takes no {' '.join(given) or '--rate/--offered'}")
        args.games = args.games or 200
        args.seconds = args.seconds or 210.0
        if args.starts_over is None:
            args.starts_over = 0.75 * args.seconds
    else:
        if args.variant or args.starts_over is not None or args.tokens != 1:
            parser.error("--variant, --starts-over and --tokens are the real model's")
        args.games = args.games or 100
        args.players = args.players or 7
        args.seconds = args.seconds or 60.0
        args.rate = 0.3 if args.rate is None else args.rate
        args.game_rate = 3.0 if args.game_rate is None else args.game_rate
        args.timer_speed = 10.0 if args.timer_speed is None else args.timer_speed
        args.stagger = args.stagger or 0.0
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)  # the sandbox's own errors
    logging.getLogger("tornado.access").setLevel(logging.ERROR)  # every 4xx would be a line
    began = datetime.datetime.now(datetime.UTC)
    started = results.Run.begin("load")
    result = asyncio.run(run_real(args) if model == "real" else run(args))
    report(began, result, places=1, width=26)
    started.write(args.json, [result])


if __name__ == "__main__":
    main()
