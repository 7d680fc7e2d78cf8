"""`tg-mafia replay FILE.json`: play a game again from its protocol (the
JSON file /protocol sends) through the rules engine, and say whether it
comes to the same end, or the first action whose result differs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tg_mafia.commands.arguments import examples
from tg_mafia.render.protocol.replay import (
    UNREADABLE,
    DocumentError,
    read_document,
    replay_document,
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="play a game again from its protocol (JSON) and check it comes to the same end",
        description="Exit 0: the same end; 1: the replay diverges (the line says where); "
        "2: the file cannot be replayed (missing, not a protocol, or version 1).",
        epilog=examples("tg-mafia replay protocol-42.json"),
    )
    parser.add_argument("file", type=Path, help="a protocol file, as /protocol sends it")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        document = read_document(args.file)
    except DocumentError as error:
        print(f"tg-mafia replay: {args.file}: {error}", file=sys.stderr)
        return UNREADABLE
    replay = replay_document(document)
    if replay.code == UNREADABLE:
        print(f"tg-mafia replay: {args.file}: {replay.line}", file=sys.stderr)
    else:
        print(f"{args.file}: {replay.line}")
    return replay.code
