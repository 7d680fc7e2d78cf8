"""The tests' virtual clock (tg_mafia/sandbox/virtual_time.py): it jumps over idle
waits, and still moves when callbacks are due, as a real clock would."""

from __future__ import annotations

import asyncio

from tg_mafia.sandbox.virtual_time import VirtualTimeLoop, run


def test_an_idle_wait_costs_no_real_time() -> None:
    async def main() -> float:
        loop = asyncio.get_running_loop()
        start = loop.time()
        await asyncio.sleep(3600)
        return loop.time() - start

    assert run(main()) >= 3600


def test_a_timer_set_for_now_again_and_again_comes_to_an_end() -> None:
    # aiolimiter re-arms its waker at `last_check + needed / rate`, which a float's
    # rounding can make exactly "now": on a clock that never moves, that spins.
    async def main() -> int:
        loop = asyncio.get_running_loop()
        assert isinstance(loop, VirtualTimeLoop)
        first = loop.time()
        done: asyncio.Future[int] = loop.create_future()
        rounds = 0

        def tick() -> None:
            nonlocal rounds
            rounds += 1
            if loop.time() == first:
                loop.call_at(first, tick)
            else:
                done.set_result(rounds)

        loop.call_at(first, tick)
        return await asyncio.wait_for(done, 1.0)

    assert run(main()) < 10
