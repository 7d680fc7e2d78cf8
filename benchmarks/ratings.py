"""Ratings benchmark: a group's whole leaderboard recomputed from its history.

`--games` seeded games (default 1,000) of `--players` players (default 10:
three mafiosi, seven of the town) drawn from a group of `--members` members
(default 40), computed `--repeats` times by `tg_mafia.ratings.leaderboard`;
the median run by the process's CPU time (one core) and by the wall clock.
The games are made before the clock starts. The fingerprint is a hash of
every player's mu and sigma: the same games give the same numbers.

    .venv/bin/python benchmarks/ratings.py
    .venv/bin/python benchmarks/ratings.py --games 5000 --players 15
    .venv/bin/python benchmarks/ratings.py --json benchmarks/results/ratings.json
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import machine, results  # noqa: E402
from engine import Role, Side  # noqa: E402
from tg_mafia.ratings import FinishedGame, PlayerResult, leaderboard  # noqa: E402


def history(games: int, players: int, members: int, seed: int) -> list[FinishedGame]:
    rng = random.Random(seed)
    mafia = max(1, players * 3 // 10)
    deck = [Role.GODFATHER, *[Role.MAFIA] * (mafia - 1), Role.DETECTIVE, Role.DOCTOR]
    deck += [Role.CITIZEN] * (players - len(deck))
    found = []
    for number in range(games):
        users = rng.sample(range(1, members + 1), players)
        winner = Side.MAFIA if rng.random() < 0.6 else Side.TOWN
        found.append(
            FinishedGame(
                number,
                "classic",
                tuple(
                    PlayerResult(u, r, r.side, r.side is winner)
                    for u, r in zip(users, deck, strict=True)
                ),
            )
        )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--members", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    results.add_argument(parser)
    args = parser.parse_args()
    run = results.Run.begin("ratings")
    games = history(args.games, args.players, args.members, args.seed)
    cpu, wall = [], []
    for _ in range(args.repeats):
        started_cpu, started_wall = time.process_time(), time.perf_counter()
        board = leaderboard(games)
        cpu.append(time.process_time() - started_cpu)
        wall.append(time.perf_counter() - started_wall)
    digest = hashlib.sha256(
        repr([(p.user_id, p.skill.mu, p.skill.sigma) for p in board.players]).encode()
    ).hexdigest()[:16]
    print(machine.describe())
    print(
        f"{args.games} games of {args.players} players ({args.members} members): "
        f"median {statistics.median(cpu) * 1000:.0f} ms CPU, "
        f"{statistics.median(wall) * 1000:.0f} ms wall, "
        f"{statistics.median(cpu) / args.games * 1e6:.0f} µs a game; fingerprint {digest}"
    )
    row = {
        "games": args.games,
        "players": args.players,
        "members": args.members,
        "repeats": args.repeats,
        "cpu_ms": statistics.median(cpu) * 1000,
        "wall_ms": statistics.median(wall) * 1000,
        "us_per_game": statistics.median(cpu) / args.games * 1e6,
        "fingerprint": digest,
    }
    run.write(args.json, [row])


if __name__ == "__main__":
    main()
