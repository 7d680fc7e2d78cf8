"""The bot's Bot API calls spread over several small HTTP connection pools.

httpcore looks at every connection of its pool when a request starts and when one ends:
has its keep-alive expired, is the idle socket readable (a dictionary of socket details
built, a getpeername and a poll, each time), and it counts the idle ones once per
connection, so the scan is quadratic. One pool of 256 for everything kept about a hundred
connections open under load (64 updates handled at once, 32 outbox workers), and that
scan took a fifth of the bot's CPU at 1,000 games (docs/benchmarks.md). Several small
pools do the same calls with a fraction of it. Each call goes to the pool with the fewest
calls in flight, the first on a tie, so at a low load the calls stay on the first pools'
warm connections."""

from __future__ import annotations

from collections.abc import Sequence

import httpx
from telegram._utils.types import ODVInput
from telegram.request import BaseRequest, HTTPXRequest, RequestData

from tg_mafia.bot.metered import MeteredRequest, Record

SHARDS = 8
CONNECTIONS_PER_SHARD = 32  # 256 in all, PTB's default for one pool


class ShardedRequest(BaseRequest):
    def __init__(self, shards: Sequence[BaseRequest]) -> None:
        if not shards:
            raise ValueError("a sharded request needs at least one shard")
        self.shards = list(shards)
        self.in_flight = [0] * len(self.shards)

    @property
    def read_timeout(self) -> float | None:
        return self.shards[0].read_timeout

    async def initialize(self) -> None:
        for shard in self.shards:
            await shard.initialize()

    async def shutdown(self) -> None:
        for shard in self.shards:
            await shard.shutdown()

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
        index = self.in_flight.index(min(self.in_flight))
        self.in_flight[index] += 1
        try:
            return await self.shards[index].do_request(
                url,
                method,
                request_data,
                read_timeout=read_timeout,
                write_timeout=write_timeout,
                connect_timeout=connect_timeout,
                pool_timeout=pool_timeout,
            )
        finally:
            self.in_flight[index] -= 1


def calls_request(record: Record) -> BaseRequest:
    """The request object of every call but getUpdates, each call counted by `record`."""
    # One TLS context for all the pools: httpx builds one per client by default, reading
    # the CA bundle each time (24 ms a pool), and the bot starts again at every restart.
    tls = httpx.create_ssl_context()
    shards = [
        HTTPXRequest(connection_pool_size=CONNECTIONS_PER_SHARD, httpx_kwargs={"verify": tls})
        for _ in range(SHARDS)
    ]
    return MeteredRequest(ShardedRequest(shards), record)


def updates_request(record: Record) -> BaseRequest:
    """getUpdates' own: PTB's default of one connection, the long poll's."""
    return MeteredRequest(HTTPXRequest(), record)
