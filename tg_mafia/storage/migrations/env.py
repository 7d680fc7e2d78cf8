"""Alembic environment. `database.migrate` runs it with an open connection in
`config.attributes["connection"]`, so the engine's settings (SQLite pragmas) apply;
with only `sqlalchemy.url` set (e.g. for `alembic revision --autogenerate`) it connects itself.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine
from sqlmodel import SQLModel

from tg_mafia.storage import models  # noqa: F401  (registers the tables in the metadata)


def run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=SQLModel.metadata,
        # SQLite cannot ALTER most things: Alembic rebuilds the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    if context.is_offline_mode():
        raise SystemExit("tg-mafia migrations run online only")
    connection = context.config.attributes.get("connection")
    if connection is not None:
        run(connection)
        return
    url = context.config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("set sqlalchemy.url or pass a connection")
    engine = create_engine(url)
    try:
        with engine.begin() as own_connection:
            run(own_connection)
    finally:
        engine.dispose()


main()
