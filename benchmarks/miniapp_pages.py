"""Open Mini App pages: how soon a move reaches every page watching its game,
and what a page costs the bot.

The bot's side runs here as `tg-mafia run` builds it in webhook mode: the game
service on a SQLite database and the Mini App's routes on the webhook listener
(tornado). GAMES running `moscow` games of PAGES players each are written to the
database; every player opens their page (PAGES x GAMES event streams, each with
its own player's snapshot: the costliest viewer) from a client process of its own,
so the bot's memory is the bot's. Then, for --seconds, the speakers pass their
floors (the engine's Pass, made through the runner as a press makes it) at --rate
moves a second over the games at random, and the clients stamp when each page
got the event of each version.

Delay: from the moment the move was started (before its transaction) to the
moment a page read its event, over every (move, page) pair: p50, p99, max, and the
pairs never delivered. Memory: the bot process's RSS growth from before the pages
opened to when every page had its first snapshot, per page.

    .venv/bin/python benchmarks/miniapp_pages.py [--games 100] [--pages 10] \
        [--seconds 15] [--rate 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import results  # noqa: E402
from engine import new_game  # noqa: E402
from engine.actions import Pass  # noqa: E402
from tg_mafia.config import Address  # noqa: E402
from tg_mafia.miniapp.routes import MiniApp, MiniAppConfig  # noqa: E402
from tg_mafia.playtest.scheduler import ManualScheduler  # noqa: E402
from tg_mafia.runtime.clock import BotClock  # noqa: E402
from tg_mafia.runtime.service import GameService, ServiceConfig  # noqa: E402
from tg_mafia.sandbox import Sandbox  # noqa: E402
from tg_mafia.sandbox.webapp import init_data  # noqa: E402
from tg_mafia.sandbox.world.state import User  # noqa: E402
from tg_mafia.storage import Database, Player, open_database  # noqa: E402
from tg_mafia.telegram.limiter import InputLimiter  # noqa: E402
from tg_mafia.telegram.webhook import WebhookListener  # noqa: E402


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def make_games(db: Database, games: int, pages: int) -> list[tuple[int, list[int]]]:
    made = []
    for g in range(games):
        ids = [10_000_000 + g * 100 + i for i in range(pages)]
        players = [Player(u, f"P{u % 100}") for u in ids]
        state, _ = new_game("moscow", [str(u) for u in ids], seed=g)
        with db.transaction() as tx:
            lobby = tx.create_lobby(
                -1_000_000_000 - g, opened_by=ids[0], players=players, variant="moscow", seed=g
            )
            record = tx.start_game(
                lobby.id,
                lobby.version,
                state.to_dict(),
                stage_deadline=time.time() + 3600,
                timer_token=str(state.clock.timer_id),
            )
        made.append((record.id, ids))
    return made


# ----- the clients' process ----------------------------------------------------------------


async def client_main(port: int, streams: list[tuple[int, str]], seconds: float) -> None:
    """Opens every stream, says "ready" once each has its first event, reads for
    `seconds` more, then prints (game, version, time) of every event seen."""
    seen: list[tuple[int, int, int, float]] = []  # (stream, game, version, when)
    first: set[int] = set()
    ready = asyncio.Event()

    async def read(index: int, game: int, auth: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**20)
        path = f"/app/events?game={game}&auth={quote(auth)}"
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        await writer.drain()
        while line := await reader.readline():
            if line.startswith(b"id: "):
                version = int(line[4:].split(b"-")[0])
                seen.append((index, game, version, time.time()))
                if index not in first:
                    first.add(index)
                    if len(first) == len(streams):
                        ready.set()

    tasks = [asyncio.create_task(read(i, g, a)) for i, (g, a) in enumerate(streams)]
    await ready.wait()
    print("ready", flush=True)
    await asyncio.sleep(seconds)
    for task in tasks:
        task.cancel()
    print(json.dumps(seen), flush=True)


# ----- the bot's process -----------------------------------------------------------------------


async def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="miniapp-bench-"))
    db = open_database(f"sqlite:///{folder / 'bot.db'}")
    games = make_games(db, args.games, args.pages)
    sb = Sandbox()
    service = GameService(sb.bot(), db, BotClock(), ManualScheduler(), ServiceConfig())
    miniapp = MiniApp(service, InputLimiter(), MiniAppConfig(token=sb.token))
    listener = WebhookListener(
        Address("127.0.0.1", 0), "/bot", sb.bot(), _ignore, "secret", routes=miniapp.routes()
    )
    listener.start()
    now = int(time.time())
    streams = [
        (game, init_data(User(id=u, first_name="P"), sb.token, now, f"g{game}"))
        for game, ids in games
        for u in ids
    ]
    before = rss_mb()
    clients = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--client",
        str(listener.port),
        str(args.seconds + 2),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert clients.stdin is not None and clients.stdout is not None
    clients.stdin.write(json.dumps(streams).encode() + b"\n")
    await clients.stdin.drain()
    clients.stdin.close()
    opening = time.time()
    line = await clients.stdout.readline()
    assert line.strip() == b"ready", line
    opened = time.time() - opening
    after = rss_mb()
    moves: dict[tuple[int, int], float] = {}  # (game, version) -> when the move began
    rng = random.Random(7)
    end = time.time() + args.seconds
    ids = [game for game, _ in games]
    while time.time() < end:
        game = rng.choice(ids)
        began = time.time()
        outcome = await service.runner.act(game, _pass)
        if outcome.error is None and outcome.record is not None:
            moves[(game, outcome.record.version)] = began
        await asyncio.sleep(rng.expovariate(args.rate))
    out, _ = await clients.communicate()
    seen = json.loads(out.decode().strip().splitlines()[-1])
    # A page has a move once it has an event of that version or a later one (two moves
    # of a game in the same moment reach it as one snapshot).
    events: dict[int, list[tuple[int, float]]] = {}  # stream -> (version, when), in order
    for index, _, version, at in seen:
        events.setdefault(index, []).append((version, at))
    of_game: dict[int, list[int]] = {}
    for index, (game, _) in enumerate(streams):
        of_game.setdefault(game, []).append(index)
    delays = []
    missed = 0
    for (game, version), began in moves.items():
        for index in of_game[game]:
            at = next((t for v, t in events.get(index, []) if v >= version), None)
            if at is None:
                missed += 1
            else:
                delays.append(at - began)
    await listener.stop()
    miniapp.stop()
    service.adb.close()
    return {
        "games": args.games,
        "pages": len(streams),
        "moves": len(moves),
        "deliveries": len(delays),
        "missed": missed,
        "delay_ms": {
            "p50": round(percentile(delays, 0.5) * 1000, 1),
            "p99": round(percentile(delays, 0.99) * 1000, 1),
            "max": round(max(delays, default=float("nan")) * 1000, 1),
        },
        "open_all_s": round(opened, 2),
        "rss_mb": {"before": round(before, 1), "after": round(after, 1)},
        "kb_per_page": round((after - before) * 1024 / len(streams), 1),
    }


def _pass(record: Any, state: Any) -> Any:
    return Pass(state.day.speaker) if state.day.speaker else "no_speaker"


async def _ignore(update: Any) -> None:
    return None


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--client":
        port, seconds = int(sys.argv[2]), float(sys.argv[3])
        streams = [tuple(s) for s in json.loads(sys.stdin.readline())]
        asyncio.run(client_main(port, streams, seconds))  # type: ignore[arg-type]
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--pages", type=int, default=10, help="players (pages) per game")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--rate", type=float, default=20.0, help="moves a second, in all")
    results.add_argument(parser)
    args = parser.parse_args()
    started = results.Run.begin("miniapp_pages")
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=2))
    delay, rss = result.pop("delay_ms"), result.pop("rss_mb")
    row = {**result, **{f"delay_{k}_ms": v for k, v in delay.items()}}
    row.update(rss_before_mb=rss["before"], rss_after_mb=rss["after"])
    started.write(args.json, [row])


if __name__ == "__main__":
    main()
