"""`tg-mafia backup FILE` and `tg-mafia restore FILE`: the database named by DATABASE_URL
(or --database-url), copied while the bot runs, and put back while it is stopped.

Exit codes: 0 done; 1 the backup or restore failed (one line on stderr, passwords masked);
2 a bad setting or argument."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from tg_mafia.commands.arguments import examples
from tg_mafia.config import DEFAULT_DATABASE_URL, ENV_VARS


def register(subparsers: Any) -> None:
    backup = subparsers.add_parser(
        "backup",
        help="back up the database while the bot runs",
        description="Write a consistent copy of the database to FILE while the bot runs: "
        "a SQLite file (SQLite's online backup), or a pg_dump archive (PostgreSQL; needs "
        "postgresql-client). FILE is replaced only once the copy is complete.",
        epilog=examples(
            "tg-mafia backup night.backup",
            "DATABASE_URL=postgresql+psycopg://mafia:secret@db:5432/mafia "
            "tg-mafia backup night.dump",
        ),
    )
    database_flag(backup)
    backup.add_argument("file", type=Path, help="where to write the backup (replaced)")
    backup.set_defaults(func=run_backup)
    restore = subparsers.add_parser(
        "restore",
        help="restore a backup into the database (stop the bot first)",
        description="Replace what the database holds with a backup made by `tg-mafia "
        "backup`. Stop the bot first; the next start migrates an older backup and resumes the "
        "games that were unfinished when it was taken. A database that is not empty is "
        "replaced only with --force.",
        epilog=examples(
            "tg-mafia restore night.backup              # into an empty database",
            "tg-mafia restore --force night.backup      # replacing what it holds",
        ),
    )
    database_flag(restore)
    restore.add_argument(
        "--force", action="store_true", help="replace a database that is not empty"
    )
    restore.add_argument("file", type=Path, help="the backup to restore")
    restore.set_defaults(func=run_restore)


def database_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--database-url",
        help=f"SQLAlchemy URL (env DATABASE_URL; default {DEFAULT_DATABASE_URL})",
    )


def database_url(args: argparse.Namespace) -> str:
    given = args.database_url or os.environ.get(ENV_VARS["database_url"], "")
    return given.strip() or DEFAULT_DATABASE_URL


def run_backup(args: argparse.Namespace) -> int:
    from tg_mafia.ops.backup import backup_database
    from tg_mafia.storage import mask_url

    url = database_url(args)
    return _report(
        "backup",
        lambda: f"backed up {mask_url(url)} ({backup_database(url, args.file)}) to {args.file}",
    )


def run_restore(args: argparse.Namespace) -> int:
    from tg_mafia.ops.backup import restore_database
    from tg_mafia.storage import mask_url

    url = database_url(args)

    def restore() -> str:
        contents = restore_database(url, args.file, force=args.force)
        redrawn = _redraw(url)
        return (
            f"restored {args.file} into {mask_url(url)} ({contents}); the screens of "
            f"{redrawn} running games are drawn again at the bot's next start"
        )

    return _report("restore", restore)


def _redraw(url: str) -> int:
    """What the backup's games show in Telegram is older than what Telegram shows now:
    their screens are drawn again (tg_mafia/runtime/restored.py). Opening the database
    migrates an older backup, as the bot's start would."""
    from tg_mafia.runtime.restored import redraw_running_games
    from tg_mafia.storage import open_database

    with open_database(url) as db:
        return redraw_running_games(db)


def _report(command: str, work: Any) -> int:
    from tg_mafia.ops.backup import BackupError
    from tg_mafia.storage import DatabaseConfigError

    try:
        print(work())
    except DatabaseConfigError as error:
        print(f"tg-mafia {command}: {error}", file=sys.stderr)
        return 2
    except (BackupError, OSError) as error:
        print(f"tg-mafia {command}: {error}", file=sys.stderr)
        return 1
    return 0
