"""From a DATABASE_URL to a migrated database: URL checks, engine set-up, Alembic at start."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import URL, Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from tg_mafia.redaction import Redactor, mask_url_passwords
from tg_mafia.storage.errors import DatabaseConfigError
from tg_mafia.storage.repository import Database

DEFAULT_DATABASE_URL: Final = "sqlite:///tg_mafia.db"
MIGRATIONS_DIR: Final = Path(__file__).resolve().parent / "migrations"
SUPPORTED_BACKENDS: Final = ("sqlite", "postgresql")
EXAMPLES: Final = "sqlite:///tg_mafia.db or postgresql+psycopg://user:password@host:5432/db"
# Fail fast when PostgreSQL is down instead of hanging the bot's start.
CONNECT_TIMEOUT_SECONDS: Final = 10
# Any constant will do: it only has to be the same for every tg-mafia process.
MIGRATION_LOCK_KEY: Final = 0x7467_6D61_6669_61  # "tgmafia"


def mask_url(url: str | URL) -> str:
    """The URL with its password replaced by ***, also when the URL does not parse."""
    if isinstance(url, URL):
        return url.render_as_string(hide_password=True)
    return mask_url_passwords(url)


def parse_database_url(url: str, name: str = "DATABASE_URL") -> URL:
    """Parse and check a database URL (`name`: how the user set it, for the messages); bare
    postgres:// URLs get the psycopg (3) driver."""
    try:
        parsed = make_url(url.strip())
    except (ArgumentError, ValueError) as error:
        raise DatabaseConfigError(
            f"{name} is malformed: {mask_url(url)!r}; expected e.g. {EXAMPLES}"
        ) from error
    if parsed.host is not None and "@" in parsed.host:
        # SQLAlchemy ends the password at its first "@" and takes the rest for the host.
        raise DatabaseConfigError(
            f"{name} has an '@' in its password or user name: write each as %40 "
            "(the password p@ss as p%40ss)"
        )
    backend = parsed.get_backend_name()
    if backend == "postgres":  # Heroku-style alias that SQLAlchemy no longer accepts
        backend = "postgresql"
        parsed = parsed.set(drivername=backend + parsed.drivername[len("postgres") :])
    if backend not in SUPPORTED_BACKENDS:
        raise DatabaseConfigError(
            f"unsupported database {backend!r} in {mask_url(parsed)}; use {EXAMPLES}"
        )
    if backend == "postgresql" and "+" not in parsed.drivername:
        # SQLAlchemy's default PostgreSQL driver is psycopg2, which tg-mafia does not ship.
        parsed = parsed.set(drivername="postgresql+psycopg")
    if backend == "sqlite" and parsed.database is None:
        parsed = parsed.set(database=":memory:")
    return parsed


def create_database_engine(url: str, name: str = "DATABASE_URL") -> Engine:
    """An engine for `url`, with the connection settings tg-mafia relies on; no I/O yet."""
    parsed = parse_database_url(url, name)
    connect_args: dict[str, Any] = {}
    if parsed.get_backend_name() == "postgresql" and "connect_timeout" not in parsed.query:
        connect_args["connect_timeout"] = CONNECT_TIMEOUT_SECONDS
    try:
        engine = create_engine(parsed, connect_args=connect_args, pool_pre_ping=True)
    except NoSuchModuleError as error:
        raise DatabaseConfigError(
            f"unknown database driver {parsed.drivername!r} in {mask_url(parsed)}; use {EXAMPLES}"
        ) from error
    except ImportError as error:
        raise DatabaseConfigError(
            f"the driver for {parsed.drivername!r} is not installed ({error.name}); "
            "for PostgreSQL: pip install 'tg-mafia[postgres]'"
        ) from error
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        # WAL: readers never block the writer. synchronous=FULL (set, since some builds
        # default WAL to NORMAL) so a committed action survives a power cut too.
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        # What is deleted is overwritten with zeros, not left in free pages: a
        # name or user id erased (retention, /forget) is gone from the file too.
        cursor.execute("PRAGMA secure_delete=ON")
    finally:
        cursor.close()


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration built in code, so the installed package needs no alembic.ini."""
    config = Config()
    # ConfigParser interpolates '%': escape it in the path.
    config.set_main_option("script_location", str(MIGRATIONS_DIR).replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise RuntimeError(f"no Alembic revision found in {MIGRATIONS_DIR}")
    return head


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the schema to `revision`, in one transaction where the database allows it."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Replicas starting together: one migrates, the others wait, then find nothing to do.
            connection.execute(
                text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY}
            )
        command.upgrade(alembic_config(connection), revision)


def open_database(url: str | None = None, name: str = "DATABASE_URL") -> Database:
    """Connect to `url` (default: a SQLite file in the working directory) and migrate it.

    Raises DatabaseConfigError, with one printable line, when that fails; `name` is how the
    user set the URL (DATABASE_URL or --database-url), for the messages.
    """
    url = url or DEFAULT_DATABASE_URL
    engine = create_database_engine(url, name)
    where = mask_url(engine.url)
    try:
        migrate(engine)
    except DBAPIError as error:
        engine.dispose()
        verb = "open" if engine.dialect.name == "sqlite" else "reach"
        message = f"cannot {verb} the database at {where}: {describe_db_error(error)}"
        # The driver's reason might quote the password.
        raise DatabaseConfigError(Redactor([engine.url.password or ""])(message)) from error
    except CommandError as error:
        engine.dispose()
        raise DatabaseConfigError(
            f"cannot migrate the database at {where}: {error} (was it made by a newer tg-mafia?)"
        ) from error
    return Database(engine)


def describe_db_error(error: DBAPIError) -> str:
    """The driver's reason, without the prefixes psycopg and PostgreSQL wrap around it."""
    lines = str(error.orig).strip().splitlines()
    reason = lines[0] if lines else type(error.orig).__name__
    reason = re.sub(r"^connection failed: ", "", reason)
    reason = re.sub(r'connection to server (at|on) "[^"]*"[^:]*? failed: ', "", reason)
    reason = re.sub(r"^(FATAL|ERROR):\s+", "", reason).strip()
    if len(reason) > 1 and reason[0].isupper() and not reason[1].isupper():
        reason = reason[0].lower() + reason[1:]
    return reason
