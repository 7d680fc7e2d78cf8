"""A simulated network between the bot and the sandbox, for benchmarks: every
Bot API call travels one leg to "Telegram" before it is carried out, and its
answer one leg back, whichever transport carries it (in-process or HTTP).

Each leg lasts half the round trip, give or take `jitter` of it (uniformly,
seeded). The legs are real seconds, not sandbox seconds: a sped-up sandbox
does not make the network faster. On the virtual clock of the tests the
waits cost nothing. Off unless a `Network` is given to the Sandbox."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Network:
    rtt: float = 0.05  # real seconds: a round trip, bot to Telegram and back
    jitter: float = 0.2  # each leg varies by up to this fraction of its length
    seed: int = 0

    def __post_init__(self) -> None:
        if self.rtt < 0:
            raise ValueError("the round trip cannot be negative")
        if not 0 <= self.jitter <= 1:
            raise ValueError("jitter is a fraction of the leg, between 0 and 1")


class Wire:
    """The legs of the calls, drawn from one seeded sequence."""

    def __init__(self, network: Network) -> None:
        self.network = network
        self._rng = random.Random(network.seed)

    def leg(self) -> float:
        half = self.network.rtt / 2
        return half * (1 + self.network.jitter * self._rng.uniform(-1.0, 1.0))

    async def travel(self) -> None:
        await asyncio.sleep(self.leg())
