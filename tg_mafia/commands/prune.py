"""`tg-mafia prune`: what the running bot does every day, by hand — the games
finished more than RETENTION_DAYS (or --days) days ago lose what they keep
of their players: action logs, names, user ids, seats, message records; the
results stay for /stats under pseudonyms (docs/privacy.md). `--dry-run`
counts what would go and changes nothing.

Exit codes: 0 done; 1 the database failed (one line, password masked); 2 a bad
setting or argument."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tg_mafia.commands.arguments import examples
from tg_mafia.commands.backup import database_flag, database_url
from tg_mafia.config import ENV_VARS, ConfigError, parse_retention_days

if TYPE_CHECKING:
    from tg_mafia.storage import Database


def register(subparsers: Any) -> None:
    prune = subparsers.add_parser(
        "prune",
        help="anonymise the games finished long ago",
        description="Take out of the games that ended or were cancelled more than DAYS days "
        "ago what they keep of their players: the action log (the record behind /protocol), "
        "names, user ids, seats and message records; and forget the pseudonyms of the users "
        "who finished no game since. Results and ratings stay. The running bot does this "
        "every day by itself (docs/privacy.md).",
        epilog=examples("tg-mafia prune", "tg-mafia prune --days 30", "tg-mafia prune --dry-run"),
    )
    database_flag(prune)
    prune.add_argument(
        "--days",
        help="keep this many days (env RETENTION_DAYS; default 90; 0 prunes nothing)",
    )
    prune.add_argument(
        "--dry-run",
        action="store_true",
        help="print what would be deleted or anonymised, and change nothing",
    )
    prune.set_defaults(func=run_prune)


def run_prune(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from tg_mafia.runtime.timers.retention import cutoff, describe
    from tg_mafia.storage import DatabaseConfigError, mask_url, open_database

    name = "--days" if args.days is not None else ENV_VARS["retention_days"]
    try:
        days = parse_retention_days(name, args.days or os.environ.get(name))
    except ConfigError as error:
        print(f"tg-mafia prune: {error}", file=sys.stderr)
        return 2
    if not days:
        print("retention is 0 days (keep for ever): nothing pruned")
        return 0
    url = database_url(args)
    try:
        with _unmigrated(url) if args.dry_run else open_database(url) as db:
            pruned = db.prune(cutoff(days), dry_run=args.dry_run)
    except DatabaseConfigError as error:
        print(f"tg-mafia prune: {error}", file=sys.stderr)
        return 2
    except SQLAlchemyError as error:
        print(f"tg-mafia prune: {mask_url(url)}: {type(error).__name__}", file=sys.stderr)
        return 1
    dry = " (dry run: nothing changed; this is what would go)" if args.dry_run else ""
    print(f"retention of {days} days{dry}:")
    for line in describe(pruned):
        print(f"  {line}")
    return 0


def _unmigrated(url: str) -> Database:
    """The database as it is, for a dry run, which must not even migrate it:
    DatabaseConfigError unless its schema is this release's."""
    from tg_mafia.storage import (
        Database,
        DatabaseConfigError,
        create_database_engine,
        current_revision,
        head_revision,
        mask_url,
        parse_database_url,
    )

    parsed = parse_database_url(url)
    file = parsed.database if parsed.get_backend_name() == "sqlite" else None
    if file and file != ":memory:" and not Path(file).exists():
        raise DatabaseConfigError(f"no database at {mask_url(parsed)}")
    engine = create_database_engine(url)
    revision = current_revision(engine)
    if revision != head_revision():
        engine.dispose()
        raise DatabaseConfigError(
            f"the database at {mask_url(engine.url)} is at revision {revision or 'none'}, "
            f"not {head_revision()}: a dry run changes nothing, not even the schema; "
            "start the bot or run tg-mafia prune without --dry-run to migrate it"
        )
    return Database(engine)
