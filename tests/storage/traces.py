"""Where a user still shows in a database: every value of every table (JSON
columns read whole), and, for SQLite, the file's own bytes (its write-ahead
log too), so a deleted row left in a free page counts as well."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import sqlalchemy as sa


def forms(user_id: int, names: Iterable[str]) -> list[str]:
    """How the user may be written in text: their id, their names as such and
    as JSON writes them (non-ASCII escaped)."""
    found = [str(user_id)]
    for name in names:
        found += [name, json.dumps(name)[1:-1]]
    return list(dict.fromkeys(found))


def table_traces(engine: sa.Engine, user_id: int, names: Iterable[str]) -> list[str]:
    """`table.column = value` for each value that is the user's id, or a text
    holding their id (as a whole number) or one of their names."""
    pattern = _pattern(forms(user_id, names))
    found = []
    with engine.connect() as connection:
        for table in sa.inspect(engine).get_table_names():
            if table == "alembic_version":
                continue
            for row in connection.execute(sa.text(f'SELECT * FROM "{table}"')).mappings():
                for column, value in row.items():
                    if _holds(value, user_id, pattern):
                        found.append(f"{table}.{column} = {value!r}")
    return found


def file_traces(path: Path, user_id: int, names: Iterable[str]) -> list[str]:
    """Where the SQLite file (and its -wal) holds the user: their id as text
    or as SQLite stores an integer, their names in UTF-8 or JSON-escaped."""
    text = _pattern(forms(user_id, names))
    binary = re.escape(_sqlite_integer(user_id))
    found = []
    for part in (path, path.with_name(path.name + "-wal")):
        if not part.exists():
            continue
        data = part.read_bytes()
        for match in re.finditer(text.pattern.encode(), data):
            found.append(f"{part.name}@{match.start()}: {match.group()!r}")
        for match in re.finditer(binary, data):
            found.append(f"{part.name}@{match.start()}: the id as an integer")
    return found


def _pattern(texts: list[str]) -> re.Pattern[str]:
    # An id counts only as a whole number: 100000003 is not in 1000000031.
    return re.compile("|".join(rf"(?<![0-9]){re.escape(t)}(?![0-9])" for t in texts))


def _holds(value: Any, user_id: int, pattern: re.Pattern[str]) -> bool:
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, int):
        return value == user_id
    if isinstance(value, (dict, list)):
        value = json.dumps(value)
    return isinstance(value, str) and pattern.search(value) is not None


def _sqlite_integer(value: int) -> bytes:
    """An integer as a SQLite record stores it: big-endian, in the fewest of
    1, 2, 3, 4, 6 or 8 bytes."""
    for size in (1, 2, 3, 4, 6, 8):
        if -(2 ** (8 * size - 1)) <= value < 2 ** (8 * size - 1):
            return value.to_bytes(size, "big", signed=True)
    raise ValueError(value)


def sqlite_file(url: str) -> Path | None:
    parsed = sa.make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return None
    return Path(parsed.database)
