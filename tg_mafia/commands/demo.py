"""`tg-mafia demo`: a whole game on the offline sandbox with simulated
players, printed as the group and each private chat show it at the end, or
(`--watch`) as it happens."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import SetupError
from engine.options import OptionValue
from tg_mafia.commands.table_args import add_option_argument, check_table, parse_options
from tg_mafia.i18n import LANGUAGES

if TYPE_CHECKING:
    from tg_mafia.playtest.harness import Harness
    from tg_mafia.playtest.watch import Watch


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo", help="play a whole game offline with simulated players and print it"
    )
    parser.add_argument("--variant", default="moscow", help="classic, moscow, party or club")
    parser.add_argument("--players", type=int, default=11)
    parser.add_argument("--lang", default="en", choices=LANGUAGES)
    parser.add_argument(
        "--seed", type=int, default=1, help="the game: the same seed replays the same game"
    )
    add_option_argument(parser)
    parser.add_argument(
        "--private", action="store_true", help="also print every player's private chat with the bot"
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
    demo = Demo(args.variant, args.players, args.lang, options, args.seed)
    if args.watch:
        asyncio.run(demo.play(on_lines=lambda lines: print(*lines, sep="\n", flush=True)))
    else:
        print(asyncio.run(demo.play(show_private=args.private)))
    return 0


class Demo:
    def __init__(
        self,
        variant: str,
        players: int,
        language: str,
        options: dict[str, OptionValue],
        seed: int,
        speed: float = 50.0,
    ) -> None:
        self.variant = variant
        self.players = players
        self.language = language
        self.options = options
        self.seed = seed
        self.speed = speed  # of the bot's and the sandbox's clocks

    async def play(
        self,
        show_private: bool = False,
        on_lines: Callable[[list[str]], None] | None = None,
    ) -> str:
        """The final view of the chats; with `on_lines`, the game line by line as
        it happens instead (and an empty result)."""
        # The bot and the sandbox load only when a demo runs: `tg-mafia run`
        # without a token must answer at once.
        from tg_mafia.bot.timers import ManualScheduler
        from tg_mafia.playtest.autoplay import AutoPlayers
        from tg_mafia.playtest.cast import LINES, names
        from tg_mafia.playtest.harness import running_bot
        from tg_mafia.playtest.watch import Watch, replayed_reason
        from tg_mafia.storage.repository import SEED_BITS

        # Every random choice comes from the seed: the deal, then the players' moves.
        rng = random.Random(self.seed)
        deal_seed, play_seed = rng.getrandbits(SEED_BITS), rng.getrandbits(64)
        scheduler = ManualScheduler()
        with tempfile.TemporaryDirectory() as folder:
            async with running_bot(
                Path(folder),
                self.players,
                scheduler=scheduler,
                names=names(self.language),
                language=self.language,
                lobby_seed=deal_seed,
                speed=self.speed,
            ) as h:
                h.db.save_settings(
                    h.group.id,
                    variant=self.variant,
                    language=self.language,
                    options=self.options,
                    title="Demo",
                )
                game_id = await h.open_and_fill()
                table = AutoPlayers(
                    h, scheduler, play_seed, chatter=0.02, lines=LINES[self.language]
                )
                if on_lines is None:
                    await h.press_start()
                    await table.play(game_id)
                    return self._final_view(h, show_private)
                watch = Watch(h.sb, lambda _chat, index: replayed_reason(h.db, game_id, index))
                follower = asyncio.create_task(_follow(watch, on_lines))
                try:
                    await h.press_start()
                    await table.play(game_id)
                    await h.settle()
                finally:
                    follower.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await follower
                on_lines(watch.new_lines())
                return ""

    @staticmethod
    def _final_view(h: Harness, show_private: bool) -> str:
        parts = [f"===== {h.group.title} (group) =====", h.sb.render(h.admin, h.group)]
        for user in h.users if show_private else h.users[:1]:
            parts.append(f"\n===== {user.name} (private chat with the bot) =====")
            parts.append(h.sb.render(user, user.private_chat))
        return "\n".join(parts)


async def _follow(watch: Watch, on_lines: Callable[[list[str]], None]) -> None:
    """Hands over new lines after every call the bot makes, until cancelled."""
    sb = watch.sb
    while True:
        lines = watch.new_lines()
        if lines:
            on_lines(lines)
        with contextlib.suppress(TimeoutError):
            await sb.wait_for(lambda: len(sb.log) > watch.seen_calls, timeout=1.0)
