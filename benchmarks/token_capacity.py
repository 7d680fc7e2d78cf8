"""What one bot token carries: games at once, per variant, from games paced as real
tables play them.

Telegram lets one token make 30 charged calls a second (sends, edits, pins), and each
group 20 a minute. How many games that allows depends on how many calls a game makes per
minute of real play, so the games here take their real time: they run on the virtual
clock (tg_mafia.sandbox.virtual_time), where every stage's timer lasts its full length and each
simulated player acts at a random moment inside the time the stage has left (20-90% of
it; the engine's seeded random policy picks the move, as in the other benchmarks); a
stage nobody ends ends by its timer. A game therefore lasts as long, and spends its calls
as a real table does, without the wait.

GAMES games per variant (at the variant's smallest and a large table, alternately) start
at random moments in the first ten minutes, all on one bot (SQLite) against the sandbox
with Telegram's limits on. From the sandbox's record of every call:
- charged calls per minute of one game (group and private chats together), on average
  and in its busiest minute;
- the token's busiest second and minute over all the games;
- games at once one token carries: 30 calls/s divided by one game's average rate, and,
  more cautiously, by the rate of a game's busiest minute.

    .venv/bin/python benchmarks/token_capacity.py [--games 20] [--variant moscow] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import results  # noqa: E402
from benchmarks.machine import describe  # noqa: E402
from engine import PublicView, find_variant  # noqa: E402
from engine.actions import Action, Timeout  # noqa: E402
from tests.replicas.driver import peak  # noqa: E402
from tg_mafia.playtest.autoplay import AutoPlayers  # noqa: E402
from tg_mafia.playtest.harness import BOT_RIGHTS, Harness, running_bot  # noqa: E402
from tg_mafia.playtest.scheduler import ManualScheduler  # noqa: E402
from tg_mafia.sandbox import Sandbox  # noqa: E402
from tg_mafia.sandbox.limits import CHARGED_METHODS  # noqa: E402
from tg_mafia.sandbox.virtual_time import VirtualTimeLoop  # noqa: E402
from tg_mafia.storage import GameRecord, GameStatus  # noqa: E402

TOKEN_CALLS_PER_SECOND = 30
LARGE = {"classic": 14, "moscow": 12, "party": 14, "club": 12}
START_SPREAD = 600.0  # seconds over which the games start


class PacedPlayers(AutoPlayers):
    """Players who take their time: a move at a random moment of what the stage has
    left, a timer when it is due."""

    async def perform(self, record: GameRecord, view: PublicView, action: Action) -> None:
        deadline = record.stage_deadline
        left = self.h.service.clock.left(deadline) if deadline is not None else 0.0
        if isinstance(action, Timeout):
            await asyncio.sleep(left)
        elif left > 0:
            await asyncio.sleep(self.rng.uniform(0.2, 0.9) * left)
        else:
            await asyncio.sleep(self.rng.uniform(2.0, 8.0))  # an untimed stage
        await super().perform(record, view, action)


async def one_game(base: Harness, variant: str, size: int, seed: int) -> dict[str, Any]:
    await asyncio.sleep(random.Random(seed).uniform(0, START_SPREAD))
    sb = base.sb
    users = sb.add_users(size)
    admin = sb.add_user("Admin")
    group = sb.add_group(
        f"{variant} {seed}", members=[*users, admin], owner=admin, bot_rights=BOT_RIGHTS
    )
    h = Harness(sb, base.app, base.db, group, users, admin)
    h.db.save_settings(group.id, variant=variant, language="en")
    game_id = await h.open_and_fill()
    await h.press_start()
    began = sb.clock.now()
    scheduler = base.service.keeper.scheduler
    assert isinstance(scheduler, ManualScheduler)
    record = await PacedPlayers(h, scheduler, seed).play(game_id)
    assert record.status is GameStatus.ENDED
    chats = {group.id, *(u.id for u in users)}
    return {"chats": chats, "began": began, "ended": sb.clock.now()}


async def run_variant(variant: str, games: int) -> dict[str, Any]:
    sb = Sandbox()
    sizes = (find_variant(variant).min_players, LARGE[variant])
    with tempfile.TemporaryDirectory() as tmp:
        # Without PTB's AIORateLimiter: on the virtual clock aiolimiter can wake itself at
        # the same instant forever (its next wake-up is closer than the float's resolution).
        # The sender's own 30/s budget and the sandbox's enforcement of Telegram's limits stay.
        async with running_bot(
            Path(tmp), 0, sb=sb, lobby_seconds=10**6, scheduler=ManualScheduler(),
            rate_limiter=False,
        ) as base:  # fmt: skip
            done = await asyncio.gather(
                *(one_game(base, variant, sizes[seed % 2], seed) for seed in range(games))
            )
            await base.settle()
    charged = [r for r in sb.log if r.ok and r.method in CHARGED_METHODS]
    per_minute, busiest, minutes, group_peaks = [], [], [], []
    for game in done:
        chats = game["chats"]
        length = (game["ended"] - game["began"]) / 60
        minutes.append(length)
        per_minute.append(sum(1 for r in charged if r.chat_id in chats) / length)
        busiest.append(peak(sb.log, 60.0, lambda chat, c=chats: chat in c))
        group = min(chats)  # the group's id is the negative one
        group_peaks.append(peak(sb.log, 60.0, lambda chat, g=group: chat == g))
    mean_rate = statistics.mean(per_minute) / 60
    busy_rate = statistics.median(busiest) / 60
    return {
        "variant": variant,
        "games": games,
        "sizes": sizes,
        "minutes": statistics.median(minutes),
        "calls_per_minute": statistics.mean(per_minute),
        "busiest_minute": statistics.median(busiest),
        "group_peak": max(group_peaks),
        "token_peak_1s": peak(sb.log, 1.0, lambda chat: True),
        "token_peak_60s": peak(sb.log, 60.0, lambda chat: True),
        "carries_mean": TOKEN_CALLS_PER_SECOND / mean_rate,
        "carries_busy": TOKEN_CALLS_PER_SECOND / busy_rate,
        "count_429": sb.log.count_429(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--variant", choices=sorted(LARGE), action="append")
    results.add_argument(parser)
    args = parser.parse_args()
    run = results.Run.begin("token_capacity")
    print(describe())
    print(
        "variant  games  players  minutes/game  calls/min/game  busiest min  "
        "group peak/60s  token peak 1s  token peak 60s  carries (mean)  carries (busy)  429s"
    )
    rows = []
    for variant in args.variant or sorted(LARGE):
        with asyncio.Runner(loop_factory=VirtualTimeLoop) as runner:
            r = runner.run(run_variant(variant, args.games))
        rows.append({**r, "sizes": list(r["sizes"])})
        print(
            f"{r['variant']:<8} {r['games']:>5}  {'/'.join(map(str, r['sizes'])):>7}  "
            f"{r['minutes']:>12.0f}  {r['calls_per_minute']:>14.1f}  "
            f"{r['busiest_minute']:>11}  {r['group_peak']:>14}  {r['token_peak_1s']:>13}  "
            f"{r['token_peak_60s']:>14}  {r['carries_mean']:>14.0f}  {r['carries_busy']:>14.0f}  "
            f"{r['count_429']:>4}",
            flush=True,
        )
    run.write(args.json, rows)


if __name__ == "__main__":
    main()
