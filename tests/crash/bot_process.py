"""The bot as a separate process, for the crash test: `python bot_process.py
BASE_URL TOKEN DB_PATH SPEED`.

It builds the unmodified application (`bootstrap`) against the
sandbox's HTTP endpoint and a SQLite file, and runs polling. Game timers use
a `ManualScheduler` instead of the JobQueue, so that a timer fires only when
the test says so (a Timeout in the reference game): that is what makes a
crashed run comparable with an uninterrupted one. The control channel is a
tiny localhost HTTP server in this script (never in the bot):

    POST /fire/<name>   fire the armed timer `name`; answers {"fired": bool}
    GET  /armed         the names of the armed timers

When the bot is ready (service resumed, polling), the script prints one JSON
line `{"ready": true, "pid": P, "control_port": N}` on stdout.

Start-up is mostly imports (over a second of CPU). With `--zygote` the script
imports everything once, then forks a fresh bot process for every line
`spawn` read on stdin; each child is a whole bot process (its own event loop,
database connections, HTTP clients), killed by the test with SIGKILL by pid.
Nothing but imported modules is shared: the zygote opens no database, no
socket and no event loop before it forks.
"""

from __future__ import annotations

import asyncio
import faulthandler
import json
import logging
import os
import socket
import sys
import traceback
from typing import Any

from telegram.ext import ApplicationBuilder
from tornado.httpserver import HTTPServer
from tornado.web import Application as WebApplication
from tornado.web import RequestHandler

from tg_mafia.bootstrap import BotOptions, bootstrap, start_service, stop_service
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.storage import open_database


class _Fire(RequestHandler):
    def initialize(self, scheduler: ManualScheduler) -> None:
        self.scheduler = scheduler

    async def post(self, name: str) -> None:
        fired = await self.scheduler.fire(name)
        self.write({"fired": fired})


class _Armed(RequestHandler):
    def initialize(self, scheduler: ManualScheduler) -> None:
        self.scheduler = scheduler

    def get(self) -> None:
        self.write({"armed": sorted(self.scheduler.armed)})


async def main(base_url: str, token: str, db_path: str, speed: float) -> None:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    db = open_database(f"sqlite:///{db_path}")
    builder: Any = (
        ApplicationBuilder().token(token).base_url(base_url).get_updates_read_timeout(2.0)
    )
    app = bootstrap(builder, db, BotOptions(speed=speed, lobby_seconds=10**6))
    scheduler = ManualScheduler()
    web = WebApplication(
        [
            (r"/fire/([\w-]+)", _Fire, {"scheduler": scheduler}),
            (r"/armed", _Armed, {"scheduler": scheduler}),
        ]
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    sock.setblocking(False)
    port = sock.getsockname()[1]
    HTTPServer(web).add_sockets([sock])
    async with app:
        await start_service(app, scheduler)
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=1)
        await app.start()
        print(json.dumps({"ready": True, "pid": os.getpid(), "control_port": port}), flush=True)
        try:
            await asyncio.Event().wait()  # until killed
        finally:
            await app.updater.stop()
            await app.stop()
            await stop_service(app)


def zygote(args: list[str]) -> None:
    """Fork one bot process per `spawn` line on stdin; reap the dead ones."""
    for line in sys.stdin:
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        if line.strip() != "spawn":
            continue
        if os.fork() == 0:
            faulthandler.enable()  # a fatal signal's stack goes to stderr, for the test
            sys.stdin.close()
            try:
                asyncio.run(main(args[0], args[1], args[2], float(args[3])))
            except BaseException:
                traceback.print_exc()
            finally:
                sys.stderr.flush()
                os._exit(1)


if __name__ == "__main__":
    if sys.argv[1] == "--zygote":
        zygote(sys.argv[2:])
    else:
        asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])))
