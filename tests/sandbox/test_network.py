"""The simulated network (benchmarks): every call, on either transport, takes a
round trip, its effect landing half-way; off by default."""

from __future__ import annotations

import asyncio

import pytest

from tg_mafia.sandbox import Network, Sandbox

from .conftest import BOT_RIGHTS, TRANSPORTS, connected


def _sandbox(network: Network | None) -> Sandbox:
    sb = Sandbox(network=network)
    users = sb.add_users(2)
    users[0].start()
    sb.add_group("Club", members=users, owner=users[1], bot_rights=BOT_RIGHTS)
    return sb


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_a_call_takes_the_round_trip_and_lands_half_way(transport: str) -> None:
    sb = _sandbox(Network(rtt=0.05, jitter=0.0))
    loop = asyncio.get_running_loop()
    async with connected(sb, transport) as bot:
        user = next(u for u in sb.world.users.values() if u.first_name == "Player1")
        began, sent_at = loop.time(), sb.clock.now()
        await bot.send_message(user.id, "hello")
        took = loop.time() - began
        landed = sb.log.calls("sendMessage")[-1].time - sent_at
    assert took == pytest.approx(0.05, abs=0.002)
    assert landed == pytest.approx(0.025, abs=0.002)


async def test_without_a_network_a_call_is_instant() -> None:
    sb = _sandbox(None)
    loop = asyncio.get_running_loop()
    async with connected(sb, "inprocess") as bot:
        began = loop.time()
        await bot.get_me()
        assert loop.time() - began < 0.001


async def test_jitter_spreads_the_legs_within_bounds_and_is_seeded() -> None:
    sb = _sandbox(Network(rtt=0.05, jitter=0.2, seed=3))
    loop = asyncio.get_running_loop()
    trips = []
    async with connected(sb, "inprocess") as bot:
        for _ in range(40):
            began = loop.time()
            await bot.get_me()
            trips.append(loop.time() - began)
    assert all(0.04 - 1e-6 <= trip <= 0.06 + 1e-6 for trip in trips)
    assert max(trips) - min(trips) > 0.005  # not one fixed delay


def test_the_legs_are_seeded() -> None:
    def legs(seed: int) -> list[float]:
        wire = Sandbox(network=Network(rtt=0.05, jitter=0.2, seed=seed)).wire
        assert wire is not None
        return [wire.leg() for _ in range(5)]

    assert legs(3) == legs(3)
    assert legs(3) != legs(4)


async def test_a_long_poll_answers_one_leg_after_the_update() -> None:
    sb = _sandbox(Network(rtt=0.05, jitter=0.0))
    loop = asyncio.get_running_loop()
    async with connected(sb, "inprocess") as bot:
        sb.updates.drop_all()
        poll = asyncio.ensure_future(bot.get_updates(timeout=5))
        await asyncio.sleep(1.0)
        user = next(u for u in sb.world.users.values() if u.first_name == "Player1")
        pushed = loop.time()
        sb.user(user.id).send(user.id, "hi")
        updates = await poll
        assert [u.message.text for u in updates if u.message] == ["hi"]
        assert loop.time() - pushed == pytest.approx(0.025, abs=0.002)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        Network(rtt=-1)
    with pytest.raises(ValueError, match="fraction"):
        Network(jitter=1.5)
