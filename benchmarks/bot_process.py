"""The bot in a process of its own, built as `tg-mafia run` builds it, for the
benchmarks (load.py, restart.py): `BotProcess` starts and reads it from the
benchmark; `serve` is the process.

    python benchmarks/bot_process.py BASE_URL TOKEN[,TOKEN...] DATABASE_URL TIMER_SPEED
        [unlimited] [webhook] [without:MECHANISM ...]

As `tg-mafia run` (tg_mafia/commands/run.py, `serve`): the calls on aiohttp
(tg_mafia/telegram/transport.py; one connection for getUpdates), each call
counted by `MeteredRequest`; one Application per token (`bootstrap_fleet`: one
process, several tokens, as `tg-mafia run` makes them); speed 1, so the rate limiter
(tg_mafia/telegram/ratelimit.py) holds the bot to 30 message calls a second and the
outbox keeps Telegram's per-chat budgets in real seconds; long polling with every
kind of update, or with `webhook` the webhook listener (tg_mafia/telegram/webhook.py) on a free
loopback port, set as `tg-mafia run` sets it. What differs, for the measure, and
nothing else:

- The game timers (PTB's JobQueue, as in production) fire TIMER_SPEED times
  sooner than their deadlines: the games' clock runs faster, the Bot API's does
  not. Scripted players fill the lobbies, so a lobby waits 10^6 s.
- With `unlimited` (a benchmark's unmeasured set-up only: load.py --fast-setup):
  no rate limiter and no outbox budgets, so the set-up's calls go out as fast as
  the network takes them, and no admission (tg_mafia/ops/budget.py): every
  /newgame opens its game, past what one token carries; the process is then killed
  and started again without it.
- Each update is time-stamped (time.monotonic, the same clock in every process on
  Linux) when its getUpdates returned it (by webhook: when its handling began), when
  its handler began and ended, when the
  game write it caused committed (in the database thread, right after the commit)
  and how many calls that write put in the outbox,
  and, for a press, when its answer was called; so are the getUpdates calls, each
  stage timer's firing (when it was due, when it fired, and its write as an update's),
  and the garbage collections.
- With `without:MECHANISM` (load.py --without), one of the bot's scale mechanisms
  is left out, to measure the simple path in its place (`WITHOUT` lists them).
- A control server on 127.0.0.1, never part of the bot:
      GET /log       {"fetched" | "received" | "handled" | "written" | "answering" |
                     "timer_due" | "timer_fired": {key: t}, "enqueued": {key: calls}},
                     keys "q<callback query id>", "m<chat>:<message id>" or
                     "t<game id>:<n>" (a timer's firing);
                     "poll_called" | "poll_returned" | "poll_next": {poll number: t};
                     "gc_pauses": {start: seconds}; all emptied by each read
      GET /metrics   the bot's own /metrics text

When polling, it prints one JSON line: {"ready": true, "pid", "control_port",
"timings": {"imported", "service", "polling"}}: monotonic times at which the
imports were done, the service had resumed every unfinished game (timers armed,
sender running), and polling had started."""

from __future__ import annotations

import time

IMPORTS_BEGAN = time.monotonic()

import asyncio  # noqa: E402
import contextvars  # noqa: E402
import gc  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import socket  # noqa: E402
import sys  # noqa: E402
from collections.abc import Awaitable, Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


class BotProcess:
    """The benchmark's side: start the bot process, read its log, its memory, stop it."""

    def __init__(
        self,
        base_url: str,
        token: str,
        database_url: str,
        timer_speed: float,
        *,
        webhook: bool = False,
        without: tuple[str, ...] = (),
    ) -> None:
        self.args = [base_url, token, database_url, str(timer_speed)]
        self.args += [f"without:{mechanism}" for mechanism in without]
        self.webhook = webhook
        self.process: asyncio.subprocess.Process | None = None
        self.ready: dict[str, Any] = {}
        self.spawned = 0.0  # monotonic
        self.control = ""

    async def start(self, stderr: Path, *, unlimited: bool = False) -> dict[str, Any]:
        self.spawned = time.monotonic()
        with stderr.open("ab") as err:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                str(Path(__file__)),
                *self.args,
                *(["unlimited"] if unlimited else []),
                *(["webhook"] if self.webhook else []),
                stdout=asyncio.subprocess.PIPE,
                stderr=err,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), 600)
        if not line:
            raise RuntimeError(f"the bot did not start: {stderr.read_text()[-3000:]}")
        self.ready = json.loads(line)
        self.control = f"http://127.0.0.1:{self.ready['control_port']}"
        return self.ready

    def rss_mb(self) -> float:
        assert self.process is not None
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS")

    def cpu_seconds(self) -> float:
        """User and system CPU time the bot process has used."""
        assert self.process is not None
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    async def get(self, path: str) -> bytes:
        import httpx

        async with httpx.AsyncClient(timeout=120) as client:
            answer = await client.get(f"{self.control}{path}")
            answer.raise_for_status()
            return answer.content

    async def log(self) -> tuple[dict[str, float], dict[str, float]]:
        stamps = await self.stages()
        return stamps["handled"], stamps["written"]

    async def stages(self) -> dict[str, dict[str, float]]:
        """Every kind of stamp (see `Stamps`), emptied by the read."""
        data: dict[str, dict[str, float]] = json.loads(await self.get("/log"))
        return data

    async def stop(self) -> None:
        """SIGKILL: the benchmarks never need the bot's drain."""
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


# ----- the bot process ------------------------------------------------------------------------


class FasterTimers:
    """The game timers, `factor` times sooner than their deadlines (the games' clock);
    each stage timer's firing time-stamped (`Stamps.timer`)."""

    def __init__(self, inner: Any, factor: float, stamps: Stamps | None = None) -> None:
        self.inner = inner
        self.factor = factor
        self.stamps = stamps

    def arm(self, name: str, delay: float, fire: Callable[[], Awaitable[None]]) -> None:
        delay /= self.factor
        if self.stamps is not None and not name.endswith("-countdown"):
            fire = self.stamps.timer(name, time.monotonic() + delay, fire)
        self.inner.arm(name, delay, fire)

    def cancel(self, name: str) -> None:
        self.inner.cancel(name)


def update_key(update: Any) -> str | None:
    if update.callback_query is not None:
        return f"q{update.callback_query.id}"
    message = update.effective_message
    if message is not None:
        return f"m{message.chat.id}:{message.message_id}"
    return None


class Pauses:
    """A process's garbage collections, for `gc.callbacks`: each one's seconds, by the
    monotonic time it began."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.monotonic()
        else:
            self.seconds[str(self._began)] = time.monotonic() - self._began

    def take(self) -> dict[str, float]:
        taken, self.seconds = self.seconds, {}
        return taken


# Each update's stamps, by its key: its getUpdates returned it (parsed), its handling
# began and ended, the game write it caused committed, its answer was called. Each
# getUpdates that brought updates, by its number: when it was called, when it returned,
# and when the one after it was called.
STAMP_KINDS = (
    "fetched", "received", "handled", "written", "enqueued", "answering",
    "poll_called", "poll_returned", "poll_next", "timer_due", "timer_fired",
)  # fmt: skip


class Stamps:
    """When each update came back from its getUpdates, when its handling began and
    ended, when the game write it caused committed, and, for a press, when its answer
    was called; the getUpdates calls, and the process's garbage collections."""

    def __init__(self) -> None:
        self.current: contextvars.ContextVar[str | None] = contextvars.ContextVar(
            "update", default=None
        )
        self.log: dict[str, dict[str, float]] = {kind: {} for kind in STAMP_KINDS}
        self.pauses = Pauses()
        self.committed: dict[tuple[int, int], float] = {}  # (game, version): in the db thread
        self._timers = itertools.count()

    def install(self, apps: list[Any]) -> None:
        """Every bot's updates stamped; the Bot class's calls and the runner's moves
        (patched once, whatever the bots)."""
        for app in apps:
            self._install_updates(app)
        self._install_calls(type(apps[0].bot))

    def _install_updates(self, app: Any) -> None:
        process = app.process_update

        async def timed(update: Any) -> None:
            key = update_key(update)
            if key is not None:
                now = time.monotonic()
                self.log["received"][key] = now
                self.log["fetched"].setdefault(key, now)  # by webhook, no getUpdates
            token = self.current.set(key)
            try:
                await process(update)
            finally:
                self.current.reset(token)
                if key is not None:
                    self.log["handled"][key] = time.monotonic()

        app.process_update = timed

    def _install_calls(self, bot_class: Any) -> None:
        from tg_mafia.runtime.runner import Runner

        gc.callbacks.append(self.pauses)
        answer_query = bot_class.answer_callback_query

        async def answering(bot: Any, callback_query_id: str, *args: Any, **kwargs: Any) -> Any:
            self.log["answering"][f"q{callback_query_id}"] = time.monotonic()
            return await answer_query(bot, callback_query_id, *args, **kwargs)

        bot_class.answer_callback_query = answering
        from tg_mafia.telegram import webhook_reply

        claim = webhook_reply.claim

        def claiming(method: str, params: dict[str, Any]) -> bool:
            taken = claim(method, params)
            if taken and method == "answerCallbackQuery":  # the answer in the webhook's
                self.log["answering"][f"q{params['callback_query_id']}"] = time.monotonic()
            return taken

        webhook_reply.claim = claiming
        get_updates = bot_class.get_updates
        polls = itertools.count()
        last: list[str | None] = [None]

        async def polling(bot: Any, *args: Any, **kwargs: Any) -> Any:
            called = time.monotonic()
            if last[0] is not None:
                self.log["poll_next"][last[0]] = called
                last[0] = None
            updates = await get_updates(bot, *args, **kwargs)
            if updates:
                now = time.monotonic()
                for update in updates:
                    key = update_key(update)
                    if key is not None:
                        self.log["fetched"][key] = now
                number = str(next(polls))
                self.log["poll_called"][number] = called
                self.log["poll_returned"][number] = time.monotonic()
                last[0] = number
            return updates

        bot_class.get_updates = polling
        stamps = self
        sync_act, async_act = Runner._act, Runner.act

        def _act(runner: Runner, *args: Any) -> Any:
            outcome = sync_act(runner, *args)
            if outcome.error is None and outcome.record is not None:
                # the move's transaction has ended (on SQLite its batch commits after)
                stamps.committed[outcome.record.id, outcome.record.version] = time.monotonic()
            return outcome

        async def act(runner: Runner, game_id: int, action: Any, **kwargs: Any) -> Any:
            outcome = await async_act(runner, game_id, action, **kwargs)
            if outcome.error is None and outcome.record is not None:
                done = stamps.committed.pop((outcome.record.id, outcome.record.version), None)
                key = stamps.current.get()
                if key is not None and done is not None:
                    stamps.log["written"][key] = done
                    stamps.log["enqueued"][key] = outcome.calls
            return outcome

        Runner._act = _act  # type: ignore[method-assign]
        Runner.act = act  # type: ignore[method-assign]

    def timer(
        self, name: str, due: float, fire: Callable[[], Awaitable[None]]
    ) -> Callable[[], Awaitable[None]]:
        """`fire`, stamped as "t<game>:<n>": when it was due and when it fired, and, by
        the act it makes, its write (a timer the game had left writes nothing)."""
        key = f"t{name.removeprefix('game-')}:{next(self._timers)}"

        async def fired() -> None:
            self.log["timer_due"][key] = due
            self.log["timer_fired"][key] = time.monotonic()
            token = self.current.set(key)
            try:
                await fire()
            finally:
                self.current.reset(token)

        return fired

    def take(self) -> dict[str, dict[str, float]]:
        taken, self.log = self.log, {kind: {} for kind in STAMP_KINDS}
        return {**taken, "gc_pauses": self.pauses.take()}


# The mechanisms `without:` leaves out, each for its simple path.
WITHOUT = ("aiohttp", "group-commit")


def leave_out_group_commit() -> None:
    """SQLite's database thread without group commit: one plain worker thread, each
    call's transactions committed by themselves."""
    from concurrent.futures import ThreadPoolExecutor

    from tg_mafia.runtime.db import thread as dbthread

    def plain(db: Any) -> ThreadPoolExecutor:
        return ThreadPoolExecutor(1, thread_name_prefix="tg-mafia-db")

    dbthread.GroupCommitter = plain  # type: ignore[assignment,misc]


def lift_budgets() -> None:
    """The outbox's budgets out of reach: for an unmeasured set-up only."""
    from tg_mafia.runtime.outbox import budgets

    for name in ("GROUP_BUDGET", "PRIVATE_BUDGET", "BOT_BUDGET"):
        budget = getattr(budgets, name)
        setattr(budgets, name, budgets.Budget(10**6, budget.window, 2 * 10**6))


async def serve(
    base_url: str,
    token: str,
    database_url: str,
    timer_speed: float,
    unlimited: bool,
    webhook: bool,
    without: frozenset[str] = frozenset(),
) -> None:
    from telegram import Update
    from telegram.ext import ApplicationBuilder
    from tornado.httpserver import HTTPServer
    from tornado.web import Application as WebApplication
    from tornado.web import RequestHandler

    from tg_mafia.bootstrap import BotOptions, bootstrap_fleet, scrape_metrics, start_service
    from tg_mafia.ops import heap
    from tg_mafia.ops.budget import TokenBudget
    from tg_mafia.ops.metrics import BotMetrics
    from tg_mafia.runtime.timers.scheduler import JobQueueScheduler
    from tg_mafia.storage import open_database
    from tg_mafia.telegram.transport import calls_request, updates_request

    imported = time.monotonic()
    if "group-commit" in without:
        leave_out_group_commit()
    db = open_database(database_url)
    tokens = token.split(",")
    metrics = [
        BotMetrics("bench", bot=each.split(":")[0], process=index == 0)
        for index, each in enumerate(tokens)
    ]

    def requests_of(counted: BotMetrics) -> tuple[Any, Any]:
        if "aiohttp" in without:  # PTB's default requests, as ApplicationBuilder makes them
            from telegram.request import HTTPXRequest

            from tg_mafia.telegram.metered import MeteredRequest

            return (
                MeteredRequest(HTTPXRequest(connection_pool_size=256), counted.api_call),
                MeteredRequest(HTTPXRequest(), counted.api_call),
            )
        return calls_request(counted.api_call), updates_request(counted.api_call)

    builders: list[Any] = []
    for each, counted in zip(tokens, metrics, strict=True):
        calls, updates = requests_of(counted)
        builders.append(
            ApplicationBuilder()
            .token(each)
            .base_url(base_url)
            .request(calls)
            .get_updates_request(updates)
        )
    if unlimited:
        lift_budgets()
    budget = TokenBudget(calls_per_second=float("inf")) if unlimited else TokenBudget()
    options = BotOptions(lobby_seconds=10**6, rate_limiter=not unlimited, budget=budget)
    apps = bootstrap_fleet(builders, db, options, metrics)
    app = apps[0]
    stamps = Stamps()
    stamps.install(apps)

    class Log(RequestHandler):
        def get(self) -> None:
            self.set_header("Content-Type", "application/json")
            self.finish(json.dumps(stamps.take()))

    class Metrics(RequestHandler):
        async def get(self) -> None:
            self.finish(await scrape_metrics(app))

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    sock.setblocking(False)
    HTTPServer(WebApplication([(r"/log", Log), (r"/metrics", Metrics)])).add_sockets([sock])
    for each in apps:
        await each.initialize()
    for each in apps:
        assert each.job_queue is not None
        timers = FasterTimers(JobQueueScheduler(each.job_queue), timer_speed, stamps)
        await start_service(each, timers)
    service = time.monotonic()
    if webhook:
        await listen(apps)
    else:
        for each in apps:
            assert each.updater is not None
            await each.updater.start_polling(allowed_updates=Update.ALL_TYPES)
    for each in apps:
        await each.start()
    heap.settle()  # as `tg-mafia run` does once its bots run
    polling = time.monotonic()
    ready = {
        "ready": True,
        "pid": os.getpid(),
        "control_port": sock.getsockname()[1],
        "timings": {
            "began": IMPORTS_BEGAN,
            "imported": imported,
            "service": service,
            "polling": polling,
        },
    }
    print(json.dumps(ready), flush=True)
    await asyncio.Event().wait()  # until killed


async def listen(apps: list[Any]) -> None:
    """One webhook server on a free loopback port, a path and a secret per bot, and
    each bot's webhook set as `tg-mafia run` sets it."""
    import secrets

    from tg_mafia.config import Address
    from tg_mafia.telegram.webhook import WebServer, hook_rule, set_webhook

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    hooks = [(app, f"/hook/{app.bot.id}", secrets.token_urlsafe(24)) for app in apps]
    rules = [hook_rule(path, app.bot, app.process_update, secret) for app, path, secret in hooks]
    WebServer(Address("127.0.0.1", port), rules).start()
    for app, path, secret in hooks:
        await set_webhook(app.bot, f"http://127.0.0.1:{port}{path}", secret)


if __name__ == "__main__":
    import logging

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    flags = set(sys.argv[5:])
    asyncio.run(
        serve(
            sys.argv[1],
            sys.argv[2],
            sys.argv[3],
            float(sys.argv[4]),
            unlimited="unlimited" in flags,
            webhook="webhook" in flags,
            without=frozenset(f.split(":", 1)[1] for f in flags if f.startswith("without:")),
        )
    )
