"""`tg-mafia demo`: a whole game on the offline sandbox with simulated
players, printed as the group and each private chat show it at the end, or
(`--watch`) as it happens."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine import SetupError
from tg_mafia.commands.arguments import at_least, examples
from tg_mafia.commands.table_args import add_option_argument, check_table, parse_options
from tg_mafia.i18n import LANGUAGES
from tg_mafia.sandbox import virtual_time


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="play a whole game offline with simulated players and print it",
        description="Play a whole game with simulated players on the offline Telegram sandbox, "
        "the real bot hosting it, and print the group as it looks at the end (or, with "
        "--watch, every post, press, message, edit and deletion as it happens). Nothing "
        "reaches Telegram; the same seed replays the same game.",
        epilog=examples(
            "tg-mafia demo --variant moscow --players 11 --lang ru",
            "tg-mafia demo --variant club --players 9 --lang fr --watch",
            "tg-mafia demo --variant sport --players 10 --private --seed 74",
        ),
    )
    parser.add_argument("--variant", default="moscow", help="classic, moscow, party, club or sport")
    parser.add_argument("--players", type=at_least(1), default=11, help="default 11")
    parser.add_argument("--lang", default="en", choices=LANGUAGES)
    parser.add_argument(
        "--seed", type=int, default=1, help="the game: the same seed replays the same game"
    )
    add_option_argument(parser)
    parser.add_argument(
        "--private", action="store_true", help="also print every player's private chat with the bot"
    )
    parser.add_argument("--forum", action="store_true", help="play in a topic of a forum group")
    parser.add_argument(
        "--protocol",
        type=Path,
        metavar="FILE",
        help="also write the game's protocol (the JSON file /protocol sends) to FILE",
    )
    parser.add_argument(
        "--watch",
        action="store_true",
        help="print every post, press, message, edit and deletion as it happens, instead",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        options = check_table(args.variant, args.players, parse_options(args.option))
    except (SetupError, ValueError) as error:
        print(f"tg-mafia demo: {error}", file=sys.stderr)
        return 2
    # The bot and the sandbox load only when a demo runs: `tg-mafia run`
    # without a token must answer at once.
    from tg_mafia.playtest.demo import Demo

    demo = Demo(args.variant, args.players, args.lang, options, args.seed, forum=args.forum)
    # On a virtual clock: every timer and rate limit as in a real group, and the
    # whole game in a moment, the same at every run of a seed.
    if args.watch:
        virtual_time.run(demo.play(on_lines=lambda lines: print(*lines, sep="\n", flush=True)))
    else:
        print(virtual_time.run(demo.play(show_private=args.private)))
    if args.protocol is not None:
        return write_protocol(args.protocol, demo.protocol)
    return 0


def write_protocol(path: Path, document: dict[str, Any] | None) -> int:
    from tg_mafia.render.protocol import protocol_file

    if document is None:
        print("tg-mafia demo: the game was abandoned: it has no protocol", file=sys.stderr)
        return 1
    try:
        path.write_text(protocol_file(document), encoding="utf-8")
    except OSError as error:
        print(f"tg-mafia demo: cannot write {path}: {error}", file=sys.stderr)
        return 1
    return 0
