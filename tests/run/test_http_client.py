"""The HTTP client's hidden cost: httpcore asks which async library runs at
every connection event, and answers by importing sniffio. Without sniffio
each ask is a failed import that searches sys.path (it showed in the profile
of benchmarks/load.py)."""

from __future__ import annotations

import asyncio
import importlib.util
import sys

from httpcore._synchronization import current_async_library


def test_sniffio_is_installed() -> None:
    assert importlib.util.find_spec("sniffio") is not None, "pyproject.toml must depend on sniffio"


def test_the_event_loop_is_named_without_searching_the_path() -> None:
    async def name() -> str:
        return current_async_library()

    searches: list[str] = []

    class Spy:
        def find_spec(self, name: str, *args: object) -> None:
            searches.append(name)

    sys.meta_path.insert(0, Spy())  # type: ignore[arg-type]
    try:
        assert asyncio.run(name()) == "asyncio"
    finally:
        sys.meta_path.pop(0)
    assert searches == [], f"an import searched the path on every call: {searches}"
