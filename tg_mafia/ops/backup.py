"""Backups of the bot's database while it runs, and their restore (docs/operations.md).

- SQLite: the online backup API copies the database as one consistent snapshot while the
  bot goes on writing (WAL mode: the bot's writes are not blocked); the copy is a plain
  SQLite file, checked (`PRAGMA quick_check`) before it replaces the file named.
- PostgreSQL: `pg_dump --format=custom` (one consistent snapshot, writers not blocked) of
  the whole database; `pg_restore --clean --if-exists --single-transaction` puts it back.
  Both come with Debian's postgresql-client, of the server's major version or newer.

A restore replaces what the database holds: stop the bot first. A database that holds
tables already is replaced only when asked (`force`). A backup of an older revision is
migrated by the bot's next start; one of a newer revision than this code knows is refused.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import sqlalchemy as sa
from alembic.script import ScriptDirectory
from sqlalchemy import URL

from tg_mafia.redaction import Redactor
from tg_mafia.storage.database import alembic_config, mask_url, parse_database_url
from tg_mafia.storage.errors import StorageError

SQLITE_MAGIC: Final = b"SQLite format 3\x00"
PG_DUMP_MAGIC: Final = b"PGDMP"
ACTIVE: Final = "('lobby', 'running')"
CLIENT_HINT: Final = (
    "install Debian's postgresql-client (apt-get install postgresql-client), of the "
    "server's major version or newer"
)


class BackupError(StorageError):
    """A backup or restore could not be made; the message is one printable line."""


@dataclass(frozen=True)
class Contents:
    """What a database (or a backup of one) holds."""

    revision: str | None  # None: no tg-mafia schema
    games: int
    unfinished: int

    def __str__(self) -> str:
        if self.revision is None:
            return "no tg-mafia schema"
        return f"revision {self.revision}, {self.games} games, {self.unfinished} unfinished"


# ----- backup ------------------------------------------------------------------------------


def backup_database(url: str, path: Path) -> Contents:
    """Writes a backup of the database at `url` to `path` (replaced only once complete)."""
    parsed = parse_database_url(url)
    _check_writable(path)
    partial = path.with_name(path.name + ".partial")
    try:
        if parsed.get_backend_name() == "sqlite":
            _sqlite_backup(_sqlite_file(parsed), partial)
            contents = _sqlite_contents(partial)
        else:
            _run(["pg_dump", "--format=custom", f"--file={partial}"], parsed)
            contents = _contents(parsed)
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)
    return contents


def _check_writable(path: Path) -> None:
    """Refuses, in words, a name the backup could not be written to."""
    if path.is_dir():
        raise BackupError(f"{path} is a folder: name the backup's file, e.g. {path}/night.backup")
    if not path.parent.is_dir():
        raise BackupError(f"cannot write {path}: there is no folder {path.parent}")
    if not os.access(path.parent, os.W_OK):
        raise BackupError(f"cannot write {path}: the folder {path.parent} is not writable")


def _sqlite_file(parsed: URL) -> Path:
    name = parsed.database or ":memory:"
    if name == ":memory:" or name.startswith("file:"):
        raise BackupError(f"{mask_url(parsed)} is not a database file")
    return Path(name)


def _sqlite_backup(source: Path, target: Path) -> None:
    if not source.is_file():
        raise BackupError(f"no database at {source}")
    target.unlink(missing_ok=True)
    _copy_sqlite(source, target)
    _check_sqlite(target)


def _copy_sqlite(source: Path, target: Path) -> None:
    """SQLite's online backup API, in one step: a single consistent snapshot."""
    try:
        with (
            closing(sqlite3.connect(source, timeout=30)) as src,
            closing(sqlite3.connect(target, timeout=30)) as dst,
        ):
            src.backup(dst)
    except sqlite3.Error as error:
        raise BackupError(f"cannot copy {source} to {target}: {error}") from error


# ----- restore -----------------------------------------------------------------------------


def restore_database(url: str, path: Path, *, force: bool = False) -> Contents:
    """Replaces what the database at `url` holds with the backup at `path`; returns what
    it holds now. Refuses a target that holds tables unless `force`."""
    parsed = parse_database_url(url)
    if not path.is_file():
        raise BackupError(f"no backup at {path}")
    head = path.read_bytes()[:16]
    sqlite = parsed.get_backend_name() == "sqlite"
    expected, kind = (SQLITE_MAGIC, "SQLite") if sqlite else (PG_DUMP_MAGIC, "pg_dump")
    if not head.startswith(expected):
        raise BackupError(
            f"{path} is not a {kind} backup, which {mask_url(parsed)} needs "
            "(a backup restores into the same kind of database it was taken from)"
        )
    if sqlite:
        _check_sqlite(path)
        _check_revision(_sqlite_contents(path).revision, path)
    else:
        _run(["pg_restore", "--list", str(path)], None)  # a readable archive
    current = _contents(parsed)
    if current.revision is not None and not force:
        raise BackupError(
            f"{mask_url(parsed)} is not empty ({current}): a restore replaces what it holds. "
            "Stop the bot, then run again with --force"
        )
    if sqlite:
        _copy_sqlite(path, _sqlite_file(parsed))
    else:
        _run(
            [
                "pg_restore",
                "--clean",
                "--if-exists",
                "--no-owner",
                "--no-privileges",
                "--single-transaction",
                "--exit-on-error",
                str(path),
            ],
            parsed,
        )
    restored = _contents(parsed)
    if not sqlite:
        _check_revision(restored.revision, path)
    return restored


def _check_revision(revision: str | None, path: Path) -> None:
    if revision is None:
        raise BackupError(f"{path} holds no tg-mafia database")
    scripts = ScriptDirectory.from_config(alembic_config())
    known = {script.revision for script in scripts.walk_revisions()}
    if revision not in known:
        raise BackupError(
            f"{path} is at revision {revision}, which this tg-mafia does not know: "
            "restore it with the release that made it, or a newer one"
        )


# ----- what a database holds -----------------------------------------------------------------


def _contents(parsed: URL) -> Contents:
    engine = sa.create_engine(parsed, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as connection:
            return _read_contents(connection)
    except sa.exc.DBAPIError as error:
        message = str(error.orig).strip().splitlines()[0] if error.orig else str(error)
        raise BackupError(
            f"cannot read {mask_url(parsed)}: {Redactor([parsed.password or ''])(message)}"
        ) from error
    finally:
        engine.dispose()


def _sqlite_contents(path: Path) -> Contents:
    return _contents(URL.create("sqlite", database=str(path)))


def _read_contents(connection: sa.Connection) -> Contents:
    tables = set(sa.inspect(connection).get_table_names())
    if "alembic_version" not in tables:
        return Contents(None, 0, 0) if not tables else Contents("unknown", 0, 0)
    revision = connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    games = unfinished = 0
    if "game" in tables:
        games = connection.execute(sa.text("SELECT count(*) FROM game")).scalar_one()
        unfinished = connection.execute(
            sa.text(f"SELECT count(*) FROM game WHERE status IN {ACTIVE}")
        ).scalar_one()
    return Contents(str(revision) if revision else "unknown", int(games), int(unfinished))


def _check_sqlite(path: Path) -> None:
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            verdict = db.execute("PRAGMA quick_check").fetchone()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is not a readable SQLite database: {error}") from error
    if not verdict or verdict[0] != "ok":
        raise BackupError(f"{path} is damaged: {verdict[0] if verdict else 'no answer'}")


# ----- PostgreSQL's tools ---------------------------------------------------------------------


def _run(argv: list[str], parsed: URL | None) -> None:
    """Runs pg_dump or pg_restore against `parsed` (its password in the environment, never on
    the command line); a failure becomes one line."""
    program = shutil.which(argv[0])
    if program is None:
        raise BackupError(f"{argv[0]} not found: {CLIENT_HINT}")
    env = dict(os.environ)
    if parsed is not None:
        argv = [*argv, f"--dbname={libpq_conninfo(parsed)}"]
        if parsed.password:
            env["PGPASSWORD"] = parsed.password
    done = subprocess.run(
        [program, *argv[1:]], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
        reason = lines[0] if lines else f"exit code {done.returncode}"
        secret = parsed.password if parsed is not None and parsed.password else ""
        raise BackupError(f"{argv[0]} failed: {Redactor([secret])(reason)}")


def libpq_conninfo(parsed: URL) -> str:
    """A libpq connection string for the SQLAlchemy URL, without its password."""
    values: dict[str, str] = {}
    if parsed.host:
        values["host"] = parsed.host
    if parsed.port:
        values["port"] = str(parsed.port)
    if parsed.username:
        values["user"] = parsed.username
    if parsed.database:
        values["dbname"] = parsed.database
    for key, value in parsed.query.items():
        values[key] = value if isinstance(value, str) else value[-1]
    return " ".join(f"{key}={_quote(value)}" for key, value in values.items())


def _quote(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace("'", "\\'")
    return f"'{escaped}'"
