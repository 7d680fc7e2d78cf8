"""Engine benchmark: full games of seeded random play per second.

Each configuration plays `--games` games (seeds 0, 1, 2, ...; the same seeds
every run) in this one process, `--repeats` times; the table shows the median
run. Rates are by the process's CPU time (one thread: one core), which other
load on a shared machine disturbs less than the wall clock; the wall-clock
median is shown too. Everything a game costs is measured: the deal, the random policy
(`engine.simulation.random_action`) and `engine.apply` for every action.

The fingerprint is a hash of every game's actions, number of events and final
state (hashed after the clock stops): a change that keeps the engine's
behaviour keeps the fingerprint.

    .venv/bin/python benchmarks/engine_games.py
    .venv/bin/python benchmarks/engine_games.py --variant moscow --games 300 --repeats 5
    .venv/bin/python benchmarks/engine_games.py --json benchmarks/results/engine_games.json
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import machine, results  # noqa: E402
from engine.replay import GameSetup  # noqa: E402
from engine.simulation import play_random_game  # noqa: E402
from engine.variants import VARIANTS  # noqa: E402

HEADLINE = ("moscow", 11)
# Every variant at 11 players, then each variant's largest table.
CONFIGS = (
    ("moscow", 11),
    ("classic", 11),
    ("party", 11),
    ("club", 11),
    *((name, variant.max_players) for name, variant in VARIANTS.items()),
)


@dataclass(frozen=True)
class Run:
    seconds: float  # CPU time
    wall: float
    actions: int
    fingerprint: str


@dataclass(frozen=True)
class Result:
    variant: str
    players: int
    games: int
    runs: tuple[Run, ...]

    @property
    def median_seconds(self) -> float:
        return statistics.median(run.seconds for run in self.runs)

    @property
    def games_per_second(self) -> float:
        return self.games / self.median_seconds

    @property
    def wall_games_per_second(self) -> float:
        return self.games / statistics.median(run.wall for run in self.runs)

    @property
    def actions_per_game(self) -> float:
        return self.runs[0].actions / self.games

    @property
    def us_per_action(self) -> float:
        return 1e6 * self.median_seconds / self.runs[0].actions

    @property
    def spread(self) -> tuple[float, float]:
        rates = [self.games / run.seconds for run in self.runs]
        return min(rates), max(rates)

    def row(self) -> dict[str, Any]:
        low, high = self.spread
        return {
            "variant": self.variant,
            "players": self.players,
            "games": self.games,
            "games_per_s": self.games_per_second,
            "games_per_s_min": low,
            "games_per_s_max": high,
            "wall_games_per_s": self.wall_games_per_second,
            "actions_per_game": self.actions_per_game,
            "us_per_action": self.us_per_action,
            "fingerprint": self.runs[0].fingerprint,
        }


def run_once(variant: str, players: int, games: int) -> Run:
    seats = tuple(f"p{seat}" for seat in range(1, players + 1))
    setups = [GameSetup(variant, seats, {}, seed=seed) for seed in range(games)]
    start, start_wall = time.process_time(), time.perf_counter()
    records = [play_random_game(setup, random.Random(setup.seed)) for setup in setups]
    seconds, wall = time.process_time() - start, time.perf_counter() - start_wall
    digest = hashlib.sha256()
    for record in records:
        digest.update(repr((record.actions, record.events, record.state.to_dict())).encode())
    return Run(seconds, wall, sum(len(r.actions) for r in records), digest.hexdigest()[:12])


def measure(variant: str, players: int, games: int, repeats: int) -> Result:
    runs = tuple(run_once(variant, players, games) for _ in range(repeats))
    if len({run.fingerprint for run in runs}) != 1:
        raise SystemExit(f"{variant} {players}: the runs did not play the same games")
    return Result(variant, players, games, runs)


def table(results: Sequence[Result]) -> str:
    lines = [
        "| variant | players | games/s (CPU, median) | min–max games/s (CPU) | wall-clock games/s "
        "| actions/game | µs/action | fingerprint |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in results:
        low, high = r.spread
        lines.append(
            f"| {r.variant} | {r.players} | {r.games_per_second:,.0f} | {low:,.0f}–{high:,.0f} "
            f"| {r.wall_games_per_second:,.0f} | {r.actions_per_game:.1f} "
            f"| {r.us_per_action:.1f} | `{r.runs[0].fingerprint}` |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per run (default 300)")
    parser.add_argument("--repeats", type=int, default=5, help="runs per configuration")
    parser.add_argument(
        "--variant",
        action="append",
        choices=sorted(VARIANTS),
        help="only this variant (repeatable); default: all",
    )
    parser.add_argument(
        "--players", type=int, help="only this table size (with --variant); default: the set"
    )
    results.add_argument(parser)
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be at least 1")
    if args.players is not None:
        if not args.variant:
            parser.error("--players needs --variant")
        configs = [(v, args.players) for v in args.variant]
    else:
        configs = [c for c in dict.fromkeys(CONFIGS) if not args.variant or c[0] in args.variant]

    run = results.Run.begin("engine_games")
    print(f"Machine: {machine.name()} (one core used)")
    print(f"{args.games} games per run, median of {args.repeats} runs, seeds 0..{args.games - 1}")
    print()
    measured = []
    for variant, players in configs:
        measured.append(measure(variant, players, args.games, args.repeats))
        rate = measured[-1].games_per_second
        print(f"  {variant} {players}: {rate:,.0f} games/s", file=sys.stderr)
    print(table(measured))
    run.write(args.json, [r.row() for r in measured])
    headline = next((r for r in measured if (r.variant, r.players) == HEADLINE), None)
    if headline is not None:
        print()
        print(
            f"Headline: moscow 11 at {headline.games_per_second:,.0f} games/s on one core "
            "(bar 200, goal 1,000)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
