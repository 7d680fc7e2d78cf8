"""Replicas on one PostgreSQL: takeover time after the leader's SIGKILL, and
throughput with 1, 2 and 3 replicas.

Both parts run real bot processes (tests/replicas/replica_process.py: the
unmodified application in webhook mode, behind the test's round-robin
balancer) against the sandbox over HTTP, on a scratch database created on
the server named by --database-url (default: TG_MAFIA_TEST_POSTGRES_URL).

Takeover (3 replicas, the wall clock, the production timers — PTB's
JobQueue): for each of N kills, a group opens a lobby; 0.1 s before its timer
is due the leader is SIGKILLed, and a /help is sent into the group at once
(its answer waits in the outbox for a sender). The killed replica stays down
until the measures are in (a dead machine, not a quick restart: a replica
that starts takes the lead at once if it is free), then starts again.
Measured from the kill: the new leader's first Bot API call (its one-off
work, setMyCommands: it has the lock), its first sendMessage (the /help
answer: a new leader first waits out one token window, as its predecessor
may have spent the second's 30 calls), and the lobby's timer applied (its
status read in the database every 5 ms), with how late that was past the
deadline.

Throughput (1, 2, 3 replicas): the replicas test's scripted games (clock
x200, timers fired through the replicas' control endpoints, no kills), GAMES
at once, the sandbox answering every Bot API call 50 ms late and enforcing
Telegram's limits. Measured: updates delivered to the replicas per second of
play, and games per minute.

    .venv/bin/python benchmarks/replicas.py [--kills 10] [--games 12]
        [--database-url postgresql+psycopg://...] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import results  # noqa: E402
from benchmarks.machine import describe, load  # noqa: E402
from engine import find_variant  # noqa: E402
from tests.replicas.driver import ReplicaRun, ReplicaTable  # noqa: E402
from tests.storage.conftest import POSTGRES_URL_VARIABLE  # noqa: E402
from tg_mafia.playtest.harness import scratch_database  # noqa: E402
from tg_mafia.sandbox import Sandbox  # noqa: E402
from tg_mafia.storage import GameStatus  # noqa: E402

LOBBY_SECONDS = 3
KILL_BEFORE_DEADLINE = 0.1  # the timer falls due while nobody leads
ROUND_TRIP = 0.050  # seconds the sandbox adds to every Bot API call
VARIANTS = ("classic", "party", "moscow", "club")


def slow_down(sb: Sandbox, round_trip: float) -> None:
    """Every Bot API call answered `round_trip` seconds late (half before, half after)."""
    call = sb.call

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(round_trip / 2)
        answer = await call(*args, **kwargs)
        await asyncio.sleep(round_trip / 2)
        return answer

    sb.call = slow  # type: ignore[method-assign]


async def poll(predicate: Any, timeout: float = 60.0, every: float = 0.002) -> float:
    """Until `predicate()`: the time.monotonic() it was first seen true."""
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise TimeoutError("the replicas did not take over")
        await asyncio.sleep(every)
    return time.monotonic()


async def takeover(database_url: str, kills: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        rng = random.Random(0)
        run = ReplicaRun(
            Path(tmp), 1.0, rng, database_url, count=3, lobby_seconds=LOBBY_SECONDS, timers="real"
        )
        to_call, to_send, to_timer, late = [], [], [], []
        first_methods: Counter[str] = Counter()
        async with run:
            replicas = run.replicas
            assert replicas is not None
            for n in range(kills):
                table = run.add_table("classic", 7, n)
                group = table.group.id
                table.admin.command(table.group, "newgame", mention=True)
                await poll(lambda g=group: run.db.active_game(g) is not None, every=0.01)
                record = run.db.active_game(group)
                assert record is not None and record.stage_deadline is not None
                deadline = record.stage_deadline  # the bot's clock: the wall clock here
                leader = await replicas.wait_for_leader()
                await asyncio.sleep(max(0.0, deadline - KILL_BEFORE_DEADLINE - time.time()))
                await replicas.kill(leader, "leader")  # down until measured: a dead machine
                killed, killed_wall = replicas.last_kill, time.time()
                before = len(run.sb.log)  # the dead leader's calls are all in by now
                table.admin.command(table.group, "help", mention=True)

                def called(method: str | None, before: int = before) -> bool:
                    calls = run.sb.log.records[before:]
                    return any(method in (None, r.method) for r in calls)

                def closed(game: int = record.id) -> bool:
                    found = run.db.get_game(game)
                    return found is not None and found.status is not GameStatus.LOBBY

                first_call, first_send, timer = await asyncio.gather(
                    poll(lambda: called(None)),
                    poll(lambda: called("sendMessage")),
                    poll(closed, every=0.005),
                )
                first_methods[run.sb.log.records[before].method] += 1
                to_call.append(first_call - killed)
                to_send.append(first_send - killed)
                to_timer.append(timer - killed)
                late.append(timer - killed - max(0.0, deadline - killed_wall))
                await replicas.restart(leader)
                await replicas.wait_for_leader()
        return {
            "kills": kills,
            "first_methods": dict(first_methods),
            "first_call": (statistics.median(to_call), max(to_call)),
            "first_send": (statistics.median(to_send), max(to_send)),
            "first_timer": (statistics.median(to_timer), max(to_timer)),
            "timer_late": (statistics.median(late), max(late)),
        }


async def throughput(database_url: str, count: int, games: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        run = ReplicaRun(Path(tmp), 200.0, random.Random(count), database_url, count=count)
        slow_down(run.sb, ROUND_TRIP)
        async with run:
            assert run.balancer is not None
            tables: list[ReplicaTable] = []
            for seed in range(games):
                variant = VARIANTS[seed % len(VARIANTS)]
                table = run.add_table(variant, find_variant(variant).min_players, seed)
                await run.open_lobby(table)
                table.kill_at, table.killed = -2, True  # no kills here
                tables.append(table)
            before = sum(run.balancer.delivered.values())
            began = time.perf_counter()
            await asyncio.gather(*(run.play(table) for table in tables))
            wall = time.perf_counter() - began
            updates = sum(run.balancer.delivered.values()) - before
            for table in tables:
                run.check(table)
            return {
                "replicas": count,
                "games": games,
                "updates": updates,
                "updates_per_s": updates / wall,
                "games_per_min": games / wall * 60,
                "wall_s": wall,
                "count_429": run.sb.log.count_429(),
            }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default=os.environ.get(POSTGRES_URL_VARIABLE))
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--replicas", type=int, action="append")
    results.add_argument(parser)
    args = parser.parse_args()
    run = results.Run.begin("replicas")
    rows: list[dict[str, Any]] = []
    logging.getLogger("tornado.access").setLevel(logging.ERROR)  # the sandbox's 4xx lines
    if not args.database_url:
        parser.error(f"a PostgreSQL server is needed: --database-url or {POSTGRES_URL_VARIABLE}")
    print(describe())
    with tempfile.TemporaryDirectory() as tmp:
        if args.kills:
            with scratch_database(Path(tmp), args.database_url) as url:
                r = asyncio.run(takeover(url, args.kills))
            print(f"takeover over {r['kills']} SIGKILLs of the leader (median / max, seconds):")
            for key, label in (
                ("first_call", "kill -> the new leader's first Bot API call"),
                ("first_send", "kill -> its first sendMessage"),
                ("first_timer", "kill -> a timer due meanwhile applied"),
                ("timer_late", "that timer's lateness past its deadline"),
            ):
                median, worst = r[key]
                print(f"  {label:<45} {median:6.2f} / {worst:6.2f}", flush=True)
                rows.append({"part": "takeover", "measure": key, "median_s": median,
                             "max_s": worst, "kills": r["kills"]})  # fmt: skip
            print(f"  (the first calls: {r['first_methods']})")
        if not args.games:
            run.write(args.json, rows)
            return
        print(f"# load {load()}")
        print("replicas  games  updates  updates/s  games/min  wall s  429s")
        for count in args.replicas or [1, 2, 3]:
            with scratch_database(Path(tmp), args.database_url) as url:
                t = asyncio.run(throughput(url, count, args.games))
            print(
                f"{t['replicas']:>8}  {t['games']:>5}  {t['updates']:>7}  "
                f"{t['updates_per_s']:>9.1f}  {t['games_per_min']:>9.1f}  {t['wall_s']:>6.0f}  "
                f"{t['count_429']:>4}",
                flush=True,
            )
            rows.append({"part": "throughput", **t})
        print(f"# load {load()}")
    run.write(args.json, rows)


if __name__ == "__main__":
    main()
