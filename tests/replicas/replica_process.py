"""One replica of the bot, for the replicas test and benchmark:
`python replica_process.py --zygote SETUP_JSON`, then one JSON line per
replica to start on stdin: `{"index": I, "port": P}`.

Each replica builds the unmodified application (`bootstrap`,
`start_service`) on the shared PostgreSQL database and takes its updates by
webhook on 127.0.0.1:P, as `tg-mafia run` does with WEBHOOK_URL (the same
`WebhookListener`, the balancer's URL and the shared secret). It is not
`tg-mafia run` itself for two reasons: the game timers run on a
`ManualScheduler`, so that a timer fires when the test's reference game
says, through this script's control endpoint; and a SIGKILLed replica comes
back in a fraction of a second, forked from a zygote that has the imports
done (they take over a second of CPU, and three replicas share two cores).

Control, on a port of its own (never in the bot):

    POST /fire/<name>   fire the armed timer `name`: {"fired": bool}
    GET  /armed         the names of the armed timers
    GET  /leading       {"leading": bool}: whether this replica leads (sends, keeps the timers)

When the replica is ready (service started, webhook set) the script prints
`{"ready": true, "index": I, "pid": P, "control_port": N}` on stdout.

SETUP_JSON: base_url, token, database_url, speed, secret, webhook_url; optional
lobby_seconds (default: never) and timers ("manual", the default, or "real": the
JobQueue, as in production, for the benchmark's takeover times).
"""

from __future__ import annotations

import asyncio
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

from tests.crash.bot_process import _Armed, _Fire
from tg_mafia.bootstrap import BotOptions, bootstrap, start_service
from tg_mafia.config import Address
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.runtime.service import GameService
from tg_mafia.storage import open_database
from tg_mafia.telegram.webhook import WebhookListener, set_webhook

HOOK_PATH = "hook"


class _Leading(RequestHandler):
    def initialize(self, app: Any) -> None:
        self.app = app

    def get(self) -> None:
        service: GameService | None = self.app.bot_data.service
        self.write({"leading": bool(service is not None and service.leading)})


def _control(scheduler: ManualScheduler, app: Any) -> int:
    web = WebApplication(
        [
            (r"/fire/([\w-]+)", _Fire, {"scheduler": scheduler}),
            (r"/armed", _Armed, {"scheduler": scheduler}),
            (r"/leading", _Leading, {"app": app}),
        ]
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    sock.setblocking(False)
    HTTPServer(web).add_sockets([sock])
    port: int = sock.getsockname()[1]
    return port


async def main(setup: dict[str, Any], index: int, port: int) -> None:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    db = open_database(setup["database_url"])
    builder: Any = ApplicationBuilder().token(setup["token"]).base_url(setup["base_url"])
    options = BotOptions(
        speed=float(setup["speed"]),
        lobby_seconds=int(setup.get("lobby_seconds", 10**6)),
        replica_id=f"replica-{index}",
        mode="webhook",
        webhook_secret=setup["secret"],
    )
    app = bootstrap(builder, db, options)
    scheduler = ManualScheduler()
    control_port = _control(scheduler, app)
    async with app:
        # "real" timers: the production scheduler (the JobQueue), for the benchmark
        await start_service(app, scheduler if setup.get("timers", "manual") == "manual" else None)
        listener = WebhookListener(
            Address("127.0.0.1", port),
            f"/{HOOK_PATH}",
            app.bot,
            app.process_update,
            setup["secret"],
        )
        listener.start()
        await set_webhook(app.bot, f"{setup['webhook_url']}/{HOOK_PATH}", setup["secret"])
        await app.start()
        ready = {"ready": True, "index": index, "pid": os.getpid(), "control_port": control_port}
        print(json.dumps(ready), flush=True)
        await asyncio.Event().wait()  # until killed


def zygote(setup: dict[str, Any]) -> None:
    """Fork one replica per line on stdin; reap the dead ones."""
    for line in sys.stdin:
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        if not line.strip():
            continue
        spawn = json.loads(line)
        if os.fork() == 0:
            sys.stdin.close()
            try:
                asyncio.run(main(setup, int(spawn["index"]), int(spawn["port"])))
            except BaseException:
                traceback.print_exc()
                print(json.dumps({"ready": False}), flush=True)
            finally:
                sys.stderr.flush()
                os._exit(1)


if __name__ == "__main__":
    assert sys.argv[1] == "--zygote", "usage: replica_process.py --zygote SETUP_JSON"
    zygote(json.loads(sys.argv[2]))
