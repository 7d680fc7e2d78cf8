"""The bot's CPU per Bot API call, by HTTP client: PTB's default request (httpx, one
pool of 256 connections) against the bot's (aiohttp, tg_mafia/telegram/transport.py).

A server in a process of its own answers every call as Telegram answers a callback
query ({"ok": true, "result": true}) after DELAY (half a round trip); this process
makes CALLS `answerCallbackQuery` through a PTB `Bot`, CONCURRENT at once, and counts
its own CPU time (time.process_time) per call: PTB's part and the client's, what the
bot's event loop pays for each call it makes. Each client is measured ROUNDS times,
in turn; the median is reported.

With --rate (as the bot lives), the calls come open loop instead, as a Poisson process
of RATE calls a second for --seconds, and the server answers each a whole round trip
(--rtt ms) late, as Telegram 30-150 ms away does: each client's CPU a call and share
of a core, and the time it adds to a call past the round trip (p50, p99), one round
per rate.

    .venv/bin/python benchmarks/http_client.py [--calls 3000] [--concurrent 60] [--json PATH]
    .venv/bin/python benchmarks/http_client.py --rate 60 [--rate 200] [--rtt 100]
        [--seconds 30] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from telegram import Bot  # noqa: E402
from telegram.request import BaseRequest, HTTPXRequest  # noqa: E402

from benchmarks import machine, results  # noqa: E402
from tg_mafia.telegram.transport import AiohttpRequest  # noqa: E402

DELAY = 0.025
ROUNDS = 3
WARM_UP = 300

SERVER = """
import asyncio, sys
from aiohttp import web

async def answer(request):
    await request.read()
    await asyncio.sleep(float(sys.argv[2]))
    return web.Response(body=b'{"ok":true,"result":true}', content_type="application/json")

app = web.Application()
app.router.add_route("POST", "/{tail:.*}", answer)
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None, access_log=None)
"""

CLIENTS: dict[str, Callable[[], BaseRequest]] = {
    "httpx (PTB's default)": lambda: HTTPXRequest(connection_pool_size=256),
    "aiohttp (the bot's)": AiohttpRequest,
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def wait_for(port: int) -> None:
    for _ in range(200):
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.05)
            continue
        writer.close()
        return
    raise RuntimeError("the server did not start")


async def cpu_per_call(
    port: int, make: Callable[[], BaseRequest], calls: int, at_once: int
) -> float:
    """Milliseconds of this process's CPU per call."""
    request = make()
    bot = Bot("1:bench", base_url=f"http://127.0.0.1:{port}/bot", request=request)
    await request.initialize()
    room = asyncio.Semaphore(at_once)

    async def answer(number: int) -> None:
        async with room:
            await bot.answer_callback_query(str(number), text="Vote counted")

    try:
        await asyncio.gather(*(answer(n) for n in range(WARM_UP)))  # connections opened
        began = time.process_time()
        await asyncio.gather(*(answer(n) for n in range(calls)))
        return (time.process_time() - began) * 1000 / calls
    finally:
        await request.shutdown()


async def open_loop(
    port: int, make: Callable[[], BaseRequest], rate: float, seconds: float, rtt: float
) -> dict[str, float]:
    """Calls at `rate` a second (Poisson) for `seconds`: this process's CPU a call and
    share of a core, and each call's time past the round trip (ms, p50 and p99)."""
    request = make()
    bot = Bot("1:bench", base_url=f"http://127.0.0.1:{port}/bot", request=request)
    await request.initialize()
    rng = random.Random(1)
    added: list[float] = []

    async def answer(number: int, timed: bool) -> None:
        began = time.perf_counter()
        await bot.answer_callback_query(str(number), text="Vote counted")
        if timed:
            added.append(time.perf_counter() - began - rtt)

    async def offer(count: int, timed: bool) -> None:
        calls, due = [], time.perf_counter()
        for number in range(count):
            due += rng.expovariate(rate)
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            calls.append(asyncio.ensure_future(answer(number, timed)))
        await asyncio.gather(*calls)

    try:
        await offer(int(rate * 2), timed=False)  # warm-up: the connections opened
        began, cpu = time.perf_counter(), time.process_time()
        count = int(rate * seconds)
        await offer(count, timed=True)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - began
    finally:
        await request.shutdown()
    added.sort()
    return {
        "rate": rate,
        "rtt_ms": rtt * 1000,
        "cpu_ms_per_call": cpu * 1000 / count,
        "cpu_share": cpu / wall,
        "added_p50_ms": statistics.median(added) * 1000,
        "added_p99_ms": added[min(len(added) - 1, int(0.99 * len(added)))] * 1000,
    }


async def served(delay: float, work: Callable[[int], Any]) -> Any:
    """`work(port)` with the answering server running in its own process."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port), str(delay)])
    try:
        await wait_for(port)
        return await work(port)
    finally:
        server.terminate()
        server.wait()


async def run(calls: int, at_once: int) -> dict[str, list[float]]:
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port), str(DELAY)])
    try:
        await wait_for(port)
        measured: dict[str, list[float]] = {name: [] for name in CLIENTS}
        for _ in range(ROUNDS):
            for name, make in CLIENTS.items():
                measured[name].append(await cpu_per_call(port, make, calls, at_once))
        return measured
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--concurrent", type=int, default=60)
    parser.add_argument("--rate", type=float, action="append", help="calls a second, open loop")
    parser.add_argument("--rtt", type=float, default=100.0, help="with --rate: round trip, ms")
    parser.add_argument("--seconds", type=float, default=30.0, help="with --rate: each round")
    results.add_argument(parser)
    args = parser.parse_args()
    began = results.Run.begin("http_client")
    if args.rate:
        as_lived(args, began)
        return
    measured = asyncio.run(run(args.calls, args.concurrent))
    print(f"# {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, {machine.describe()[2:]}")
    print(f"# {args.calls} answerCallbackQuery calls, {args.concurrent} at once, {ROUNDS} rounds")
    rows = []
    for name, values in measured.items():
        runs = ", ".join(f"{v:.3f}" for v in values)
        print(f"{name:>22}: {statistics.median(values):.3f} ms of CPU a call (runs {runs})")
        median = statistics.median(values)
        rows.append(
            {
                "client": name,
                "concurrent": args.concurrent,
                "delay_ms": DELAY * 1000,
                "cpu_ms_per_call": median,
                "runs_ms": values,
            }
        )
    began.write(args.json, rows)


def as_lived(args: argparse.Namespace, began: results.Run) -> None:
    """--rate: each client at each rate, open loop, a round trip of --rtt."""
    rtt = args.rtt / 1000

    async def every(port: int) -> list[dict[str, Any]]:
        rows = []
        for rate in args.rate:
            for name, make in CLIENTS.items():
                row = await open_loop(port, make, rate, args.seconds, rtt)
                rows.append({"client": name, **row})
        return rows

    rows = asyncio.run(served(rtt, every))
    print(f"# {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, {machine.describe()[2:]}")
    print(f"# open loop, {args.seconds:.0f} s a round, round trip {args.rtt:.0f} ms")
    for row in rows:
        print(
            f"{row['client']:>22} at {row['rate']:>5.0f}/s: {row['cpu_ms_per_call']:.3f} ms of "
            f"CPU a call, {row['cpu_share']:.3f} of a core; added p50 "
            f"{row['added_p50_ms']:.2f} ms, p99 {row['added_p99_ms']:.2f} ms"
        )
    began.write(args.json, rows)


if __name__ == "__main__":
    main()
