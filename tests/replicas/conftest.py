"""The replicas share one PostgreSQL database: a new one on the server named by
TG_MAFIA_TEST_POSTGRES_URL (as the storage tests use), dropped afterwards. Without
it the tests are skipped, and fail in CI (CI=true)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.storage.conftest import POSTGRES_URL_VARIABLE
from tg_mafia.playtest.harness import scratch_database


@pytest.fixture
def postgres_url(tmp_path: Path) -> Iterator[str]:
    server = os.environ.get(POSTGRES_URL_VARIABLE)
    if not server:
        message = f"{POSTGRES_URL_VARIABLE} is not set: the replicas need PostgreSQL"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (CI=true: .ci/run must start PostgreSQL and export it)")
        pytest.skip(message)
    with scratch_database(tmp_path, server) as url:
        yield url
