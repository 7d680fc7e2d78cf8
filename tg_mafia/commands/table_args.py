"""The table a command plays at: variant, player count and `--option NAME=VALUE`,
checked as the engine checks a game's setup (shared by simulate, demo and play)."""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from engine import find_variant, resolve_options
from engine.options import OptionValue


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a variant option, e.g. --option maniac=off (repeatable)",
    )


def parse_options(texts: Iterable[str]) -> dict[str, str]:
    """NAME=VALUE pairs; ValueError names the first malformed one."""
    options = {}
    for text in texts:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"option {text!r} is not NAME=VALUE")
        options[name.strip()] = value.strip()
    return options


def check_table(variant: str, players: int, options: dict[str, str]) -> dict[str, OptionValue]:
    """The variant's resolved options; SetupError says what the engine refuses
    (an unknown variant or option, a value out of range, a wrong player count)."""
    resolved = resolve_options(variant, options)
    find_variant(variant).deck(players, resolved)
    return resolved
