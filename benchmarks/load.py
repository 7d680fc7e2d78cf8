"""Load: many concurrent games in one bot process on the sandbox.

GAMES groups each open a lobby, fill it and start; then the games are played
in rounds: in each round every running game gets one move from its simulated
players (a button press, or a timer fired by hand, as tests/bot/autoplay.py
does), and the round ends when the bot has handled and sent everything.
Handling time is measured inside the bot, around `Application.process_update`
(one update, from the handler's start to its end: engine, database write,
queueing the messages). Peak memory is the process's peak RSS (the sandbox
and the simulated players live in the same process, so it is an upper
bound). The sandbox's bot-wide limit (30 messages a second, Telegram's cap
per token) is lifted: it would only measure Telegram, not the bot.

The bot's own /metrics are read as an operator's Prometheus would: after each
round's moves are made (before the round settles) and at the end; the summary
gives the highest outbox backlog and oldest-call age seen, the Bot API calls by
result, the updates the histogram counted, and how long a scrape took.

    .venv/bin/python benchmarks/load.py [--games 1000] [--players 7] [--speed 200]
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import GameState  # noqa: E402
from engine.simulation import random_action  # noqa: E402
from tests.bot.autoplay import AutoPlayers  # noqa: E402
from tests.bot.harness import BOT_RIGHTS, Harness  # noqa: E402
from tg_mafia.bot.app import (  # noqa: E402
    BotOptions,
    build_application,
    scrape_metrics,
    start_service,
    stop_service,
)
from tg_mafia.bot.metered import MeteredRequest  # noqa: E402
from tg_mafia.bot.timers import ManualScheduler  # noqa: E402
from tg_mafia.metrics import BotMetrics  # noqa: E402
from tg_mafia.sandbox import Limits, Sandbox  # noqa: E402
from tg_mafia.storage import GameStatus, open_database  # noqa: E402


class MetricsReader:
    """Reads the bot's /metrics text as Prometheus would, and keeps the peaks."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.scrapes: list[float] = []
        self.peak: dict[str, float] = {}
        self.last: list[tuple[str, dict[str, str], float]] = []

    async def read(self) -> None:
        from prometheus_client.parser import text_string_to_metric_families

        began = time.perf_counter()
        text = (await scrape_metrics(self.app)).decode()
        self.scrapes.append(time.perf_counter() - began)
        self.last = [
            (s.name, dict(s.labels), s.value)
            for family in text_string_to_metric_families(text)
            for s in family.samples
        ]
        for name in (
            "tg_mafia_outbox_calls",
            "tg_mafia_outbox_oldest_seconds",
            "tg_mafia_updates_waiting",
            "tg_mafia_timers_pending",
        ):
            self.peak[name] = max(self.peak.get(name, 0.0), self.total(name))

    def total(self, name: str, **labels: str) -> float:
        return sum(v for n, given, v in self.last if n == name and labels.items() <= given.items())

    def summary(self) -> dict[str, Any]:
        calls: dict[str, int] = {}
        refused: dict[str, int] = {}
        for name, labels, value in self.last:
            if name == "tg_mafia_api_calls_total" and labels["method"] != "getUpdates":
                calls[labels["result"]] = calls.get(labels["result"], 0) + int(value)
                if labels["result"] == "4xx":
                    refused[labels["method"]] = int(value)
        return {
            "scrapes": len(self.scrapes),
            "scrape_ms_max": max(self.scrapes) * 1000,
            "scrape_ms_median": statistics.median(self.scrapes) * 1000,
            "outbox_peak": int(self.peak["tg_mafia_outbox_calls"]),
            "oldest_peak_s": self.peak["tg_mafia_outbox_oldest_seconds"],
            "waiting_peak": int(self.peak["tg_mafia_updates_waiting"]),
            "timers_peak": int(self.peak["tg_mafia_timers_pending"]),
            "api_calls": calls,
            "api_4xx": refused,
            "updates_metric": int(self.total("tg_mafia_update_seconds_count")),
            "update_errors": int(self.total("tg_mafia_update_errors_total")),
            "db_errors": int(self.total("tg_mafia_database_errors_total")),
        }


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(games: int, players: int, speed: float, variant: str) -> dict[str, Any]:
    sb = Sandbox(speed=speed, limits=Limits(global_messages=10**9))
    timings: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        db = open_database(f"sqlite:///{Path(tmp) / 'bot.db'}")
        metrics = BotMetrics("load")
        builder = (
            sb.application_builder()
            .request(MeteredRequest(sb.request(), metrics.api_call))
            .get_updates_request(MeteredRequest(sb.request(), metrics.api_call))
        )
        app = build_application(builder, db, BotOptions(speed=speed, lobby_seconds=10**6), metrics)
        reader = MetricsReader(app)
        process = app.process_update

        async def timed(update: object) -> None:
            began = time.perf_counter()
            try:
                await process(update)
            finally:
                timings.append(time.perf_counter() - began)

        app.process_update = timed  # type: ignore[method-assign]
        scheduler = ManualScheduler()
        async with app:
            await start_service(app, scheduler)
            assert app.updater is not None
            await app.updater.start_polling(poll_interval=0)
            await app.start()
            tables: list[tuple[Harness, AutoPlayers, int]] = []
            began = time.perf_counter()
            for index in range(games):
                users = sb.add_users(players)
                admin = sb.add_user("Admin")
                group = sb.add_group(
                    f"g{index}", members=[*users, admin], owner=admin, bot_rights=BOT_RIGHTS
                )
                db.save_settings(group.id, variant=variant, language="en")
                h = Harness(sb, app, db, group, users, admin)
                admin.command(group, "newgame", mention=True)
                tables.append((h, AutoPlayers(h, scheduler, index), 0))
            await tables[0][0].settle(timeout=600)
            for h, _, _ in tables:
                for user in h.users:
                    user.open_deep_link(sb.deep_link(f"join_{h.group.id}"))
            await tables[0][0].settle(timeout=600)
            for h, _, _ in tables:
                h.admin.press(h.group, "Start")
            await tables[0][0].settle(timeout=600)
            setup = time.perf_counter() - began
            rounds, moves = 0, 0
            live = [(h, p, (db.active_game(h.group.id) or _missing()).id) for h, p, _ in tables]
            rng = random.Random(1)
            while live:
                rounds += 1
                still = []
                for h, p, game_id in live:
                    record = db.get_game(game_id)
                    assert record is not None
                    if record.status is not GameStatus.RUNNING:
                        continue
                    state = GameState.from_dict(record.state or {})
                    await p.perform(record, state, random_action(state, rng, 0.0))
                    moves += 1
                    still.append((h, p, game_id))
                live = still
                await reader.read()  # mid-round: the moves are in, their sends under way
                await tables[0][0].settle(timeout=600)
            wall = time.perf_counter() - began
            await reader.read()
            await app.updater.stop()
            await app.stop()
            await stop_service(app)
        db.close()
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "games": games,
        "players": players,
        "updates": len(timings),
        "moves": moves,
        "rounds": rounds,
        "median_ms": statistics.median(timings) * 1000,
        "p99_ms": percentile(timings, 0.99) * 1000,
        "max_ms": max(timings) * 1000,
        "peak_rss_mb": peak_kb / 1024,
        "setup_s": setup,
        "wall_s": wall,
        "count_429": sb.log.count_429(),
        **reader.summary(),
    }


def _missing() -> Any:
    raise AssertionError("a game did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--speed", type=float, default=200.0)
    parser.add_argument("--variant", default="classic")
    args = parser.parse_args()
    result = asyncio.run(run(args.games, args.players, args.speed, args.variant))
    print(f"# {platform.machine()}, Python {platform.python_version()}")
    for key, value in result.items():
        print(f"{key:>15}: {value:.1f}" if isinstance(value, float) else f"{key:>15}: {value}")


if __name__ == "__main__":
    main()
