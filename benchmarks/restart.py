"""Restart: a bot started on a database of many unfinished games, at real network latency.

The bot runs in a process of its own as `tg-mafia run` builds it (bot_process.py),
against the sandbox over HTTP with a simulated network (--rtt ms round trip, ±--jitter
of each leg) and Telegram's limits enforced, as in load.py.

1. Set-up (not measured): --live games are opened, joined and started through the bot
   as players would, and their outbox drained; the bot is SIGKILLed. Then, with the bot
   down, --games more unfinished games are written to its database by the bot's own
   Runner in this process (the deal and the engine's random policy, so every stage
   occurs, short of the end): a tenth stay lobbies, the others are 0-39 moves in. For
   --waiting of them (a fraction) the calls of their last 2 moves (all of them, the
   deal's included, if fewer) stay in the outbox, as a crash leaves them; the rest are
   taken as delivered (their outbox emptied).
2. The bot is started again. Measured:
   - resumed: from the process's spawn, and from its imports done, to every
     unfinished game resumed (start_service returned: timers armed, sender running),
     and to polling (start_service arms every game's timer, `_arm_all`, before it
     returns); the games with a stored deadline, as /metrics reports them;
   - the catch-up: time until the outbox is empty, calls delivered, 429 answers;
   - live moves during the catch-up: the live games' players press the move the
     engine's policy picks, one press every --press-every seconds, round robin, from
     the moment the bot polls until the outbox is empty (--min-live seconds at least):
     time from the update to the callback answer and to the state written; and the
     live games' next message (p50, p99, max): from a press that moved its game (its
     write put calls in the outbox) to the next message in the chat of its button, and
     from a live game's stage timer that moved it (when it was due) to the group's next
     message. A line posted in the group, or a press that decided nothing yet, waits for
     no message and is not counted. The default pace (a press per game every 8 s) keeps
     each live group inside its own 15 calls a minute, so a late message there means
     the catch-up held it back, not its own group's budget.

    .venv/bin/python benchmarks/restart.py [--games 1000] [--live 20] [--waiting 0.2]
        [--rtt 50] [--jitter 0.2] [--press-every 0.4] [--min-live 20] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import logging
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import results  # noqa: E402
from benchmarks.bot_process import BotProcess  # noqa: E402
from benchmarks.load import (  # noqa: E402
    Reader,
    Window,
    errors_logged,
    make_tables,
    percentile,
    report,
    set_up,
    turn,
)
from engine import Phase, apply  # noqa: E402
from engine.simulation import lively_action  # noqa: E402
from tg_mafia.playtest.harness import BOT_RIGHTS  # noqa: E402
from tg_mafia.runtime.clock import BotClock  # noqa: E402
from tg_mafia.runtime.db.thread import AsyncDb  # noqa: E402
from tg_mafia.runtime.gameview import state_of  # noqa: E402
from tg_mafia.runtime.runner import Runner  # noqa: E402
from tg_mafia.sandbox import HttpTransport, Limits, Network, Sandbox  # noqa: E402
from tg_mafia.sandbox.limits import CHARGED_METHODS  # noqa: E402
from tg_mafia.storage import Database, Player, open_database  # noqa: E402

PLAYERS = 7
MAX_MOVES = 40
BACKLOG = 2  # a waiting game keeps the calls of its last moves


async def populate(
    sb: Sandbox, db: Database, path: Path, games: int, waiting: float, seed: int
) -> dict[str, int]:
    """Unfinished games written by the bot's Runner, the bot down; see the module's text."""
    rng = random.Random(seed)
    adb = AsyncDb(db)
    runner = Runner(adb, BotClock(1.0, time.time), lambda record, calls: None)
    reader = Reader(path)
    counts = {"lobbies": 0, "running": 0, "with_waiting_calls": 0}
    try:
        for index in range(games):
            users = sb.add_users(PLAYERS, prefix=f"R{index}P", started=True)
            admin = sb.add_user(f"RAdmin{index}")
            group = sb.add_group(
                f"r{index}", members=[*users, admin], owner=admin, bot_rights=BOT_RIGHTS
            )
            with db.transaction() as tx:
                lobby = tx.create_lobby(
                    group.id,
                    opened_by=admin.id,
                    variant="classic",
                    language="en",
                    players=[Player(u.id, f"R{index}P{n}") for n, u in enumerate(users)],
                    title=group.title or "",
                    bot_rights={"can_delete_messages": True, "can_pin_messages": True},
                    stage_deadline=time.time() + 600,
                )
            if index % 10 == 0:
                counts["lobbies"] += 1
                continue
            outcome = await runner.start(lobby, None)
            assert outcome.error is None and outcome.record is not None, outcome.error
            record = outcome.record
            state = state_of(record)
            keep = rng.random() < waiting
            moves = rng.randrange(MAX_MOVES)
            for move in range(moves):
                action = lively_action(state, rng, 0.0)
                if apply(state, action)[0].phase is Phase.ENDED:
                    break  # unfinished games only
                if keep and move == moves - BACKLOG:  # what came before was delivered
                    reader.raw.execute("DELETE FROM outbox WHERE game_id = ?", (record.id,))
                outcome = await runner.act(record.id, action)
                assert outcome.error is None and outcome.record is not None, outcome.error
                record, state = outcome.record, state_of(outcome.record)
            counts["running"] += 1
            if keep:
                counts["with_waiting_calls"] += 1
            else:
                reader.raw.execute("DELETE FROM outbox WHERE game_id = ?", (record.id,))
    finally:
        adb.close()
    counts["calls_waiting"] = reader.outbox()
    return counts


async def catch_up(
    sb: Sandbox,
    reader: Reader,
    live: list[Any],
    press_every: float,
    min_seconds: float,
) -> tuple[Window, list[tuple[int, float]], float]:
    """Live presses, round robin, until the outbox is empty and `min_seconds` have
    passed; (the presses, (group, sandbox time) of each, seconds until the outbox
    was first seen empty)."""
    window = Window()
    pushed: list[tuple[int, float]] = []  # (the chat of its button, the sandbox's time)
    window.began = time.monotonic()
    index = 0
    drained: float | None = None
    while time.monotonic() - window.began < 1800:
        if drained is None and reader.outbox() == 0:
            drained = time.monotonic() - window.began
        if drained is not None and time.monotonic() - window.began >= min_seconds:
            break
        table = live[index % len(live)]
        index += 1
        before = len(window.inputs)
        at = sb.clock.now()
        if turn(table, reader, window) and len(window.inputs) > before:
            pushed.append((window.inputs[-1].chat, at))
        await asyncio.sleep(press_every)
    window.ended = time.monotonic()
    return window, pushed, drained if drained is not None else window.ended - window.began


def next_message(sb: Sandbox, pushed: list[tuple[int, float]]) -> list[float]:
    """For each (chat, time): seconds until the next charged call to that chat landed."""
    by_chat: dict[int, list[float]] = {}
    for record in sb.log.records:
        if record.ok and record.method in CHARGED_METHODS and record.chat_id is not None:
            by_chat.setdefault(record.chat_id, []).append(record.time)
    waits = []
    for chat, at in pushed:
        later = [t for t in by_chat.get(chat, []) if t > at]
        if later:
            waits.append(min(later) - at)
    return waits


def live_timers(
    sb: Sandbox, live: list[Any], stamps: dict[str, dict[str, float]]
) -> list[tuple[int, float]]:
    """The live games' stage timers that moved their game: (its group, when it was
    due, on the sandbox's clock)."""
    groups = {table.game_id: table.h.group.id for table in live}
    offset = sb.clock.now() - time.monotonic()  # the bot's stamps are monotonic
    due, enqueued = stamps["timer_due"], stamps["enqueued"]
    return [
        (groups[game], due[key] + offset)
        for key in due
        if enqueued.get(key, 0) > 0 and (game := int(key[1:].split(":")[0])) in groups
    ]


def ms(values: list[float], q: float) -> float | None:
    if not values:
        return None
    return (statistics.median(values) if q == 0.5 else percentile(values, q)) * 1000


async def run(args: argparse.Namespace) -> dict[str, Any]:
    network = Network(rtt=args.rtt / 1000, jitter=args.jitter, seed=args.seed)
    sb = Sandbox(network=network, limits=Limits())
    http = HttpTransport(sb)
    await http.start()
    result: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
        path = Path(tmp) / "bot.db"
        url = f"sqlite:///{path}"
        db = open_database(url)
        reader = Reader(path)
        live = make_tables(sb, db, args.live, PLAYERS)
        bot = BotProcess(http.base_url, sb.token, url, 1.0)
        try:
            await bot.start(Path(tmp) / "bot.stderr")
            await set_up(live, reader, drain=True)
            await bot.stop()
            began = time.monotonic()
            result.update(await populate(sb, db, path, args.games, args.waiting, args.seed))
            result["populate_s"] = time.monotonic() - began
            log_before = len(sb.log.records)
            bot = BotProcess(http.base_url, sb.token, url, 1.0)
            ready = await bot.start(Path(tmp) / "bot.stderr")
            timings = ready["timings"]
            result["resumed_from_spawn_s"] = timings["service"] - bot.spawned
            result["resumed_from_imports_s"] = timings["service"] - timings["imported"]
            result["polling_from_spawn_s"] = timings["polling"] - bot.spawned
            metrics = (await bot.get("/metrics")).decode()
            result["games_with_a_deadline"] = next(
                float(line.split()[-1])
                for line in metrics.splitlines()
                if line.startswith("tg_mafia_timers_pending")
            )
            window, pushed, drained = await catch_up(
                sb, reader, live, args.press_every, args.min_live
            )
            await asyncio.sleep(3)  # the last presses are answered
            stamps = await bot.stages()
            written, enqueued = stamps["written"], stamps["enqueued"]
            result["catch_up_s"] = drained
            new = sb.log.records[log_before:]
            result["calls_delivered"] = sum(1 for r in new if r.ok and r.method in CHARGED_METHODS)
            result["count_429"] = sum(1 for r in new if r.error_code == 429)
            answers = [
                sb.callback_queries[i.query].answered_at - sb.callback_queries[i.query].created
                for i in window.inputs
                if i.query is not None and sb.callback_queries[i.query].answered_at is not None
            ]
            writes = [written[i.key] - i.pushed for i in window.inputs if i.key in written]
            moved = [
                place
                for given, place in zip(window.inputs, pushed, strict=True)
                if given.query is not None and enqueued.get(given.key, 0) > 0
            ]
            nexts = next_message(sb, moved + live_timers(sb, live, stamps))
            result["live_inputs"] = len(window.inputs)
            result["live_answer_p50_ms"] = ms(answers, 0.5)
            result["live_answer_p99_ms"] = ms(answers, 0.99)
            result["live_written_p50_ms"] = ms(writes, 0.5)
            result["live_written_p99_ms"] = ms(writes, 0.99)
            result["live_next_message_p50_ms"] = ms(nexts, 0.5)
            result["live_next_message_p99_ms"] = ms(nexts, 0.99)
            result["live_next_message_max_ms"] = ms(nexts, 1.0)
            result["errors_logged"] = errors_logged(Path(tmp) / "bot.stderr")
        finally:
            await bot.stop()
            db.close()
    await http.stop()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--live", type=int, default=20, help="games played through the bot")
    parser.add_argument("--waiting", type=float, default=0.2, help="share with calls waiting")
    parser.add_argument("--press-every", type=float, default=0.4, help="seconds, live presses")
    parser.add_argument("--min-live", type=float, default=20.0, help="seconds of live presses")
    parser.add_argument("--rtt", type=float, default=50.0, help="round trip, ms")
    parser.add_argument("--jitter", type=float, default=0.2, help="fraction of each leg")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tmp", default=None, help="where the database file goes")
    results.add_argument(parser)
    args = parser.parse_args()
    logging.getLogger("tornado.access").setLevel(logging.ERROR)
    began = datetime.datetime.now(datetime.UTC)
    started = results.Run.begin("restart")
    result = asyncio.run(run(args))
    report(began, result, places=2, width=26)
    started.write(args.json, [result])


if __name__ == "__main__":
    main()
