"""A bad DATABASE_URL is one clear line, quickly, and never shows the password."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tg_mafia.storage import DatabaseConfigError, mask_url, open_database, parse_database_url


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("not a url", "malformed"),
        ("postgresql://u:secret@host:port/db", "malformed"),
        ("mysql://u:secret@localhost/db", "unsupported database 'mysql'"),
        ("postgresql+nosuchdriver://u:secret@localhost/db", "unknown database driver"),
        (
            "postgresql+psycopg://u:secret@127.0.0.1:1/x",
            "cannot reach the database at postgresql+psycopg://u:***@127.0.0.1:1/x: "
            "connection refused",
        ),
        ("postgres://u:secret@127.0.0.1:1/x", "cannot reach the database"),
        ("postgresql://u:sec@secret@127.0.0.1:1/x", "has an '@' in its password"),
        ("postgresql://u:sec@secret@127.0.0.1:port/x", "malformed"),
    ],
)
def test_bad_url_is_one_clear_line(url: str, expected: str) -> None:
    started = time.monotonic()
    with pytest.raises(DatabaseConfigError) as caught:
        open_database(url)
    message = str(caught.value)
    assert expected in message
    assert "secret" not in message
    assert "\n" not in message
    assert time.monotonic() - started < 5


def test_unopenable_sqlite_file(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/missing-dir/x.db"
    with pytest.raises(DatabaseConfigError, match="cannot open the database at sqlite"):
        open_database(url)


def test_postgres_urls_get_the_psycopg_driver() -> None:
    assert parse_database_url("postgres://u@h/d").drivername == "postgresql+psycopg"
    assert parse_database_url("postgresql://u@h/d").drivername == "postgresql+psycopg"
    assert parse_database_url("sqlite://").database == ":memory:"


def test_the_message_names_how_the_url_was_set() -> None:
    with pytest.raises(DatabaseConfigError, match=r"^--database-url is malformed"):
        open_database("not a url", "--database-url")


def test_a_short_password_is_not_replaced_all_over_the_message() -> None:
    with pytest.raises(DatabaseConfigError) as caught:
        open_database("postgresql+psycopg://u:p@127.0.0.1:1/x")
    assert str(caught.value) == (
        "cannot reach the database at postgresql+psycopg://u:***@127.0.0.1:1/x: connection refused"
    )


def test_mask_url() -> None:
    assert mask_url("postgresql://me:p4ss@h/d") == "postgresql://me:***@h/d"
    assert mask_url("postgresql://me:p@ss@h:x/d") == "postgresql://me:***@h:x/d"
    assert mask_url(parse_database_url("postgresql://me:p4ss@h/d")) == (
        "postgresql+psycopg://me:***@h/d"
    )


def test_sqlite_pragmas(tmp_path: Path) -> None:
    with open_database(f"sqlite:///{tmp_path}/p.db") as db, db.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
