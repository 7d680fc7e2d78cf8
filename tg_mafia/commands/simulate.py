"""`tg-mafia simulate`: many games of random legal play, and each side's
win rate (docs/balance.md is written from it)."""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from typing import Any

from tqdm import tqdm

from engine import SetupError, Side, find_variant
from engine.replay import GameSetup
from engine.simulation import GameRecord, play_random_game
from engine.state import Cause
from engine.variants import TieMode
from tg_mafia.commands.arguments import at_least, examples
from tg_mafia.commands.table_args import add_option_argument, check_table, parse_options


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play random games and print win rates",
        description="Play many games of random legal moves in the rules engine alone (no "
        "Telegram) and print each side's win rate and the mean number of days; the same seed "
        "plays the same games (docs/balance.md is made with it).",
        epilog=examples(
            "tg-mafia simulate --variant moscow --players 11 --games 1000",
            "tg-mafia simulate --variant classic --players 9 --option reveal_roles=off",
        ),
    )
    parser.add_argument("--variant", required=True, help="classic, moscow, party, club or sport")
    parser.add_argument("--players", type=at_least(1), required=True, help="the table's size")
    parser.add_argument("--games", type=at_least(1), default=1000, help="default 1000")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    parser.add_argument(
        "--chatter",
        type=float,
        default=0.0,
        help="share of moves that are posts in the group, which the rules may delete and "
        "warn (default 0)",
    )
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
    if not 0.0 <= args.chatter < 1.0:
        print("tg-mafia simulate: --chatter must be at least 0 and below 1", file=sys.stderr)
        return 2
    variant = find_variant(args.variant)
    players = tuple(f"p{seat}" for seat in range(1, args.players + 1))
    wins: Counter[Side] = Counter()
    moments: Counter[str] = Counter()  # games in which each moment happened
    days = 0
    for game in tqdm(
        range(args.games),
        disable=args.no_progress,
        unit="game",
        desc=f"{args.variant} {args.players}",
    ):
        seed = args.seed + game
        setup = GameSetup(args.variant, players, options, seed=seed)
        record = play_random_game(setup, random.Random(seed), chatter=args.chatter)
        assert record.winner is not None
        wins[record.winner] += 1
        moments.update(moments_of(record))
        days += record.days
    print(
        f"{args.variant}, {args.players} players, {args.games} games (seeds {args.seed}"
        f"..{args.seed + args.games - 1})"
    )
    for side in Side:
        if side is Side.MANIAC and not wins[side] and args.variant != "moscow":
            continue
        if side is Side.DRAW and not wins[side] and not variant.calm_nights_to_draw:
            continue
        print(f"  {side.value:7} {100 * wins[side] / args.games:5.1f}%")
    print(f"  mean days {days / args.games:.2f}")
    shown = {
        "lift": variant.tie_mode is TieMode.LIFT,
        "best move": variant.has_best_move,
        "removal": variant.has_fouls,
    }
    for moment, applies in shown.items():
        if applies:
            share = 100 * moments[moment] / args.games
            print(f"  games with a {moment:9} {share:5.1f}%")
    return 0


def moments_of(record: GameRecord) -> set[str]:
    """sport's moments a game had: a lift vote, a best move, a removal on fouls."""
    state = record.state
    found = set()
    if state.vote.last_lift is not None:
        found.add("lift")
    if state.day.best_move:
        found.add("best move")
    if Cause.FOULS in state.table.dead.values():
        found.add("removal")
    return found
