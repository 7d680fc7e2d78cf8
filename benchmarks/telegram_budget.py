"""The Telegram budget of whole games, measured on the sandbox.

Runs GAMES games per variant with simulated players (tests/bot/autoplay.py:
they press the buttons the bot shows, choices from the engine's seeded
random policy, timers fired by hand), CONCURRENT at a time in one bot, on a
sandbox clock running SPEED times faster than real time. Reports, per
variant: the peak number of charged calls (sends, edits, pins) to one group
in any 60 s of sandbox time, the median of the per-game peaks, calls per
game per player (group and private separately), and 429 answers.

    .venv/bin/python benchmarks/telegram_budget.py [--games 100] [--speed 200]
        [--concurrent 10] [--variant classic] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import machine, results  # noqa: E402
from tests.bot.autoplay import AutoPlayers  # noqa: E402
from tests.bot.harness import BOT_RIGHTS, Harness  # noqa: E402
from tg_mafia.bootstrap import BotOptions, bootstrap, start_service, stop_service  # noqa: E402
from tg_mafia.playtest.scheduler import ManualScheduler  # noqa: E402
from tg_mafia.sandbox import Sandbox  # noqa: E402
from tg_mafia.sandbox.limits import CHARGED_METHODS  # noqa: E402
from tg_mafia.storage import GameStatus, open_database  # noqa: E402

SIZES = {"classic": 10, "moscow": 10, "party": 10, "club": 10}


class TableHarness(Harness):
    """A harness that settles one table only: with several games at once, the
    whole bot is never idle (some group waits out its budget)."""

    async def settle(self, timeout: float = 300.0) -> None:
        mine = {u.id for u in [*self.users, self.admin]}

        def sent_by_me(update: dict[str, Any]) -> bool:
            body = next((v for v in update.values() if isinstance(v, dict)), {})
            return body.get("from", {}).get("id") in mine

        for _ in range(2):
            await self.sb.wait_for(
                lambda: not any(sent_by_me(u) for u in self.sb.updates.pending), timeout=timeout
            )
            await asyncio.wait_for(self.app.update_queue.join(), timeout)
            boxes = self.service.outboxes.boxes
            for chat in [self.group.id, *mine]:
                if chat in boxes:
                    await asyncio.wait_for(boxes[chat].drain(), timeout)
            await asyncio.sleep(0)


async def one_game(base: Harness, variant: str, size: int, seed: int) -> dict[str, Any]:
    sb, scheduler = base.sb, base.service.scheduler
    users = sb.add_users(size)
    admin = sb.add_user("Admin")
    group = sb.add_group(
        f"{variant} {seed}", members=[*users, admin], owner=admin, bot_rights=BOT_RIGHTS
    )
    h = TableHarness(sb, base.app, base.db, group, users, admin)
    h.db.save_settings(group.id, variant=variant, language="en")
    game_id = await h.open_and_fill()
    await h.press_start()
    assert isinstance(scheduler, ManualScheduler)
    record = await AutoPlayers(h, scheduler, seed).play(game_id)
    assert record.status is GameStatus.ENDED
    return {"group": group.id, "players": [u.id for u in users], "size": size}


async def run_variant(variant: str, games: int, speed: float, concurrent: int) -> dict[str, Any]:
    sb = Sandbox(speed=speed)
    with tempfile.TemporaryDirectory() as tmp:
        db = open_database(f"sqlite:///{Path(tmp) / 'bot.db'}")
        app = bootstrap(sb.application_builder(), db, BotOptions(speed=speed, lobby_seconds=10**6))
        scheduler = ManualScheduler()
        async with app:
            await start_service(app, scheduler)
            assert app.updater is not None
            await app.updater.start_polling(poll_interval=0)
            await app.start()
            base = Harness(sb, app, db, sb.add_group("base", members=[]), [], sb.add_user("x"))
            began = time.perf_counter()
            done: list[dict[str, Any]] = []
            seeds = iter(range(games))

            async def worker() -> None:
                for seed in seeds:
                    done.append(await one_game(base, variant, SIZES[variant], seed))

            await asyncio.gather(*(worker() for _ in range(concurrent)))
            await base.settle()
            wall = time.perf_counter() - began
            await app.updater.stop()
            await app.stop()
            await stop_service(app)
        db.close()
    log = sb.log
    peaks = [log.peak_in_window(g["group"]) for g in done]
    group_calls, private_calls = [], []
    for g in done:
        group_calls.append(
            len([r for r in log.calls(chat_id=g["group"], ok=True) if r.method in CHARGED_METHODS])
            / g["size"]
        )
        private = sum(
            len([r for r in log.calls(chat_id=p, ok=True) if r.method in CHARGED_METHODS])
            for p in g["players"]
        )
        private_calls.append(private / g["size"])
    return {
        "variant": variant,
        "games": len(done),
        "players": SIZES[variant],
        "peak_60s_max": max(peaks),
        "peak_60s_median": statistics.median(peaks),
        "group_calls_per_game_per_player": statistics.mean(group_calls),
        "private_calls_per_game_per_player": statistics.mean(private_calls),
        "count_429": log.count_429(),
        "wall_s": wall,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--speed", type=float, default=200.0)
    parser.add_argument("--concurrent", type=int, default=10)
    parser.add_argument("--variant", choices=sorted(SIZES), action="append")
    results.add_argument(parser)
    args = parser.parse_args()
    run = results.Run.begin("telegram_budget")
    print(machine.describe())
    print(
        "variant  games  players  peak/60s max  peak/60s median  "
        "group calls/game/player  private calls/game/player  429s  wall s"
    )
    rows = []
    for variant in args.variant or list(SIZES):
        r = asyncio.run(run_variant(variant, args.games, args.speed, args.concurrent))
        rows.append(r)
        print(
            f"{r['variant']:<8} {r['games']:>5}  {r['players']:>7}  {r['peak_60s_max']:>12}  "
            f"{r['peak_60s_median']:>15}  {r['group_calls_per_game_per_player']:>23.2f}  "
            f"{r['private_calls_per_game_per_player']:>25.2f}  {r['count_429']:>4}  "
            f"{r['wall_s']:>6.0f}",
            flush=True,
        )
    run.write(args.json, rows)


if __name__ == "__main__":
    main()
