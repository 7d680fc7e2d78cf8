"""The bot's CPU per Bot API call, by HTTP client: PTB's default request (httpx, one
pool of 256 connections) against the bot's (aiohttp, tg_mafia/telegram/transport.py).

A server in a process of its own answers every call as Telegram answers a callback
query ({"ok": true, "result": true}) after DELAY (half a round trip); this process
makes CALLS `answerCallbackQuery` through a PTB `Bot`, CONCURRENT at once, and counts
its own CPU time (time.process_time) per call: PTB's part and the client's, what the
bot's event loop pays for each call it makes. Each client is measured ROUNDS times,
in turn; the median is reported.

    .venv/bin/python benchmarks/http_client.py [--calls 3000] [--concurrent 60] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

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
    results.add_argument(parser)
    args = parser.parse_args()
    began = results.Run.begin("http_client")
    measured = asyncio.run(run(args.calls, args.concurrent))
    print(f"# {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, {machine.describe()[2:]}")
    print(f"# {args.calls} answerCallbackQuery calls, {args.concurrent} at once, {ROUNDS} rounds")
    rows = []
    for name, values in measured.items():
        runs = ", ".join(f"{v:.3f}" for v in values)
        print(f"{name:>22}: {statistics.median(values):.3f} ms of CPU a call (runs {runs})")
        median = statistics.median(values)
        rows.append({"client": name, "cpu_ms_per_call": median, "runs_ms": values})
    began.write(args.json, rows)


if __name__ == "__main__":
    main()
