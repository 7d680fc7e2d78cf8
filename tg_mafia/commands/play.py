"""`tg-mafia play`: the sandbox, the real bot on it and simulated players, with
a web page on this machine where a person plays any seat and watches the rest."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from typing import TYPE_CHECKING, Any

from tg_mafia.commands.arguments import at_least, examples, port
from tg_mafia.commands.stopping import until_stopped
from tg_mafia.commands.table_args import add_option_argument, parse_options
from tg_mafia.i18n import LANGUAGES

if TYPE_CHECKING:
    from tg_mafia.playweb.session import PlayConfig

DEFAULT_PORT = 8765


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a game in a browser against simulated players (offline)",
        description=(
            "Serve a page on 127.0.0.1 that shows the group and every player's private chat "
            "with the bot, live. Play any seat; the others autoplay. Offline: the bot runs "
            "on the sandbox in this process."
        ),
        epilog=examples(
            "tg-mafia play",
            "tg-mafia play --variant sport --players 10 --lang ru --speed 5",
            "tg-mafia play --seat 0               # watch: every seat autoplays",
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="a loopback address only")
    parser.add_argument("--port", type=port, default=DEFAULT_PORT, help="0: any free port")
    parser.add_argument("--lang", default="en", choices=LANGUAGES)
    parser.add_argument("--variant", default="moscow", help="classic, moscow, party, club or sport")
    parser.add_argument("--players", type=at_least(1), default=9, help="default 9")
    add_option_argument(parser)
    parser.add_argument(
        "--speed",
        type=float,
        default=1.0,
        help="the simulated players' turns run this many times faster (yours never do)",
    )
    parser.add_argument("--seed", type=int, default=None, help="deal the same roles every time")
    parser.add_argument(
        "--seat", type=int, default=1, help="the seat you play (0: every seat autoplays)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # The bot, the sandbox and tornado load only when a table opens.
    from tg_mafia.playweb.server import check_loopback
    from tg_mafia.playweb.session import PlayConfig

    try:
        check_loopback(args.host)
        config = PlayConfig(
            language=args.lang,
            variant=args.variant,
            players=args.players,
            options=parse_options(args.option),
            speed=args.speed,
            seed=args.seed,
            person=args.seat,
        )
        config.check()
    except ValueError as error:
        print(f"tg-mafia play: {error}", file=sys.stderr)
        return 2
    code = 0
    with contextlib.suppress(KeyboardInterrupt):
        code = asyncio.run(_serve(config, args.host, args.port))
    return code


async def _serve(config: PlayConfig, host: str, port: int) -> int:
    from tg_mafia.playweb.server import serve

    async with contextlib.AsyncExitStack() as stack:
        try:
            _, bound = await stack.enter_async_context(serve(config, host, port))
        except OSError as error:
            print(f"tg-mafia play: cannot listen on {host}:{port}: {error}", file=sys.stderr)
            return 2
        shown = f"[{host}]" if ":" in host else host
        print(f"tg-mafia play: open http://{shown}:{bound}/ (Ctrl-C stops)", flush=True)
        # Until Ctrl-C or SIGTERM: the bot stops and the scratch database goes either way.
        await until_stopped()
    return 0
