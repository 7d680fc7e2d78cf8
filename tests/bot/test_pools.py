"""The sharded request: each call to the pool with the fewest calls in flight (the
first on a tie), a failed call leaves its pool's count as it was, and the pools open
and close together."""

from __future__ import annotations

import asyncio

import pytest
from telegram._utils.types import ODVInput
from telegram.request import BaseRequest, RequestData

from tg_mafia.bot.pools import SHARDS, ShardedRequest, calls_request


class Shard(BaseRequest):
    def __init__(self, name: str) -> None:
        self.name = name
        self.calls: list[str] = []
        self.gate = asyncio.Event()
        self.opened = self.closed = False

    @property
    def read_timeout(self) -> float | None:
        return 5.0

    async def initialize(self) -> None:
        self.opened = True

    async def shutdown(self) -> None:
        self.closed = True

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        self.calls.append(url)
        await self.gate.wait()
        if url.endswith("fail"):
            raise OSError("the connection broke")
        return 200, self.name.encode()


async def test_calls_go_to_the_least_busy_pool_and_the_first_on_a_tie() -> None:
    shards = [Shard("a"), Shard("b"), Shard("c")]
    request = ShardedRequest(shards)
    await request.initialize()
    assert all(shard.opened for shard in shards)

    one_by_one = []
    for _ in range(3):  # nothing in flight each time: always the first pool
        shards[0].gate.set()
        one_by_one.append(await request.do_request("u/getMe", "POST"))
    assert one_by_one == [(200, b"a")] * 3
    shards[0].gate.clear()

    held = [asyncio.ensure_future(request.do_request(f"u/{n}", "POST")) for n in range(5)]
    await asyncio.sleep(0)
    assert request.in_flight == [2, 2, 1]
    assert [len(shard.calls) for shard in shards] == [5, 2, 1]
    for shard in shards:
        shard.gate.set()
    assert sorted(await asyncio.gather(*held)) == [(200, b"a")] * 2 + [(200, b"b")] * 2 + [
        (200, b"c")
    ]
    assert request.in_flight == [0, 0, 0]

    await request.shutdown()
    assert all(shard.closed for shard in shards)


async def test_a_failed_call_gives_its_place_back() -> None:
    shards = [Shard("a"), Shard("b")]
    request = ShardedRequest(shards)
    shards[0].gate.set()
    with pytest.raises(OSError):
        await request.do_request("u/fail", "POST")
    assert request.in_flight == [0, 0]


def test_the_bot_gets_eight_small_pools() -> None:
    request = calls_request(lambda method, result: None)
    inner = request.inner  # type: ignore[attr-defined]
    assert isinstance(inner, ShardedRequest)
    assert len(inner.shards) == SHARDS
    with pytest.raises(ValueError):
        ShardedRequest([])
