"""`tg-mafia simulate`: many games of random legal play, and each side's
win rate (docs/balance.md is written from it)."""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from typing import Any

from tqdm import tqdm

from engine import SetupError, Side
from engine.replay import GameSetup
from engine.simulation import play_random_game
from tg_mafia.commands.table_args import add_option_argument, check_table, parse_options


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("simulate", help="play random games and print win rates")
    parser.add_argument("--variant", required=True, help="classic, moscow, party or club")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    add_option_argument(parser)
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        options = parse_options(args.option)
        check_table(args.variant, args.players, options)
    except (SetupError, ValueError) as error:
        print(f"tg-mafia simulate: {error}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("tg-mafia simulate: --games must be at least 1", file=sys.stderr)
        return 2
    players = tuple(f"p{seat}" for seat in range(1, args.players + 1))
    wins: Counter[Side] = Counter()
    days = 0
    for game in tqdm(
        range(args.games),
        disable=args.no_progress,
        unit="game",
        desc=f"{args.variant} {args.players}",
    ):
        seed = args.seed + game
        setup = GameSetup(args.variant, players, options, seed=seed)
        record = play_random_game(setup, random.Random(seed))
        assert record.winner is not None
        wins[record.winner] += 1
        days += record.days
    print(
        f"{args.variant}, {args.players} players, {args.games} games (seeds {args.seed}"
        f"..{args.seed + args.games - 1})"
    )
    for side in Side:
        if side is Side.MANIAC and not wins[side] and args.variant != "moscow":
            continue
        print(f"  {side.value:7} {100 * wins[side] / args.games:5.1f}%")
    print(f"  mean days {days / args.games:.2f}")
    return 0
