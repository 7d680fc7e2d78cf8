"""The `tg-mafia` command: one sub-command per module in `tg_mafia.commands`."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from tg_mafia.commands.arguments import Parser, examples

# Each module here defines `register(subparsers)`, which adds its sub-command
# and sets `func` (taking the parsed arguments, returning an exit code).
COMMAND_MODULES = (
    "scenario",
    "replay",
    "simulate",
    "sandbox",
    "run",
    "demo",
    "play",
    "i18n",
    "healthcheck",
    "backup",
    "prune",
)


DESCRIPTION = (
    "A Telegram group bot that hosts the party game Mafia. `tg-mafia run` runs the bot; "
    "the other commands play a game offline, check rules and translations, and look after "
    "the database. `tg-mafia COMMAND --help` says what each does, with examples."
)
EXAMPLES = examples(
    "tg-mafia run                          # without a token: how to get one",
    "TELEGRAM_BOT_TOKEN='123456789:AAF...' tg-mafia run",
    "tg-mafia demo --variant moscow --players 11 --lang ru",
    "tg-mafia play                         # a game in your browser, offline",
    "tg-mafia backup night.backup",
)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="tg-mafia", description=DESCRIPTION, epilog=EXAMPLES)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"tg_mafia.commands.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"tg_mafia.commands.{name}":
                raise
            continue
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
    except BrokenPipeError:
        # The reader went away (`tg-mafia demo | head`): stop quietly.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
