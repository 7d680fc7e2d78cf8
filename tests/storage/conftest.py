"""Every storage test runs on SQLite (a temp file) and on PostgreSQL when
TG_MAFIA_TEST_POSTGRES_URL is set; in CI (CI=true) a missing URL fails instead of skipping."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tg_mafia.storage import Database, open_database

POSTGRES_URL_VARIABLE = "TG_MAFIA_TEST_POSTGRES_URL"


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    if name == "postgresql" and not os.environ.get(POSTGRES_URL_VARIABLE):
        message = f"{POSTGRES_URL_VARIABLE} is not set: the PostgreSQL storage tests cannot run"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (CI=true: .ci/run must start PostgreSQL and export it)")
        pytest.skip(message)
    return name


@pytest.fixture
def database_url(backend: str, tmp_path: os.PathLike[str]) -> Iterator[str]:
    """An empty database: a new SQLite file, or a new PostgreSQL schema dropped afterwards."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path}/storage.db"
        return
    with postgres_schema() as url:
        yield url


@contextlib.contextmanager
def postgres_schema() -> Iterator[str]:
    """A new schema on the test server, dropped afterwards: the URL whose every
    connection sees only it."""
    base = make_url(os.environ[POSTGRES_URL_VARIABLE])
    schema = f"test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base)
    try:
        with admin.begin() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        url = base.update_query_dict({"options": f"-csearch_path={schema}"})
        yield url.render_as_string(hide_password=False)
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    finally:
        admin.dispose()


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = open_database(database_url)
    try:
        yield database
    finally:
        database.close()
