"""`tg-mafia demo`: a whole game on the offline sandbox with simulated
players, printed as the group and each private chat show it."""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

from engine import SetupError, find_variant, resolve_options
from tg_mafia.i18n import LANGUAGES

NAMES = {
    "ru": "Анна Борис Вика Глеб Дима Елена Жора Зоя Игорь Катя Лёша Маша Нина Олег Петя "
    "Рита Саша Таня Уля Фёдор",
    "ro": "Ana Bogdan Cristi Dana Elena Florin Gabi Horia Ioana Julia Lucian Maria Nicu Oana "
    "Petru Raluca Sorin Tudor Vlad Zoe",
    "fr": "Amélie Bastien Chloé David Élodie Fabien Gaëlle Hugo Inès Julien Karine Léo Manon "
    "Nicolas Océane Pierre Quentin Romane Sacha Théo",
    "vi": "An Bảo Chi Dũng Giang Hà Hùng Khánh Lan Minh Nga Phúc Quân Sơn Trang Tú Uyên Việt "
    "Xuân Yến",
    "en": "Ann Ben Cat Dan Eve Fay Gus Hal Ivy Jon Kim Lee Max Ned Ona Pat Quinn Rae Sam Tom",
}
LINES = {
    "ru": ("Я мирный житель, честно.", "Подозреваю соседа слева.", "Спасибо."),
    "ro": ("Sunt un cetățean cinstit.", "Îl suspectez pe vecinul meu.", "Mulțumesc."),
    "fr": ("Je suis un simple citoyen.", "Je soupçonne mon voisin.", "Merci."),
    "vi": ("Tôi là công dân lương thiện.", "Tôi nghi người bên trái.", "Cảm ơn."),
    "en": ("I am a simple citizen.", "I suspect my neighbour.", "Thank you."),
}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo", help="play a whole game offline with simulated players and print it"
    )
    parser.add_argument("--variant", default="moscow", help="classic, moscow, party or club")
    parser.add_argument("--players", type=int, default=11)
    parser.add_argument("--lang", default="en", choices=LANGUAGES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--private", action="store_true", help="also print every player's private chat with the bot"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        find_variant(args.variant).deck(args.players, resolve_options(args.variant, {}))
    except SetupError as error:
        print(f"tg-mafia demo: {error}", file=sys.stderr)
        return 2
    print(asyncio.run(play(args.variant, args.players, args.lang, args.seed, args.private)))
    return 0


async def play(variant: str, players: int, language: str, seed: int, show_private: bool) -> str:
    # The bot and the sandbox load only when a demo runs: `tg-mafia run`
    # without a token must answer at once.
    from tg_mafia.bot.timers import ManualScheduler
    from tg_mafia.playtest.autoplay import AutoPlayers
    from tg_mafia.playtest.harness import running_bot

    scheduler = ManualScheduler()
    names = NAMES[language].split()
    with tempfile.TemporaryDirectory() as folder:
        async with running_bot(
            Path(folder), players, scheduler=scheduler, names=names, language=language
        ) as h:
            h.db.save_settings(h.group.id, variant=variant, language=language, title="Demo")
            game_id = await h.open_and_fill()
            await h.press_start()
            table = AutoPlayers(h, scheduler, seed, chatter=0.02, lines=LINES[language])
            await table.play(game_id)
            parts = [f"===== {h.group.title} (group) =====", h.sb.render(h.admin, h.group)]
            if show_private:
                for user in h.users:
                    parts.append(f"\n===== {user.name} (private chat with the bot) =====")
                    parts.append(h.sb.render(user, user.private_chat))
            else:
                user = h.users[0]
                parts.append(f"\n===== {user.name} (private chat with the bot) =====")
                parts.append(h.sb.render(user, user.private_chat))
            return "\n".join(parts)
