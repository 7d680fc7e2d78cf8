"""GET /healthz and the `healthcheck` probe, on a health server with a stand-in probe."""

from __future__ import annotations

import asyncio
import socket

import pytest

from tests.loopback import loopback_client
from tg_mafia.commands import healthcheck
from tg_mafia.config import Address
from tg_mafia.ops.health import HealthServer, NotReadyError


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


async def check(*argv: str) -> int:
    return await asyncio.to_thread(healthcheck.main, list(argv))


async def test_healthy_then_not_ready_then_broken(capsys: pytest.CaptureFixture[str]) -> None:
    state: list[BaseException | int] = [3]

    async def probe() -> int:
        value = state[0]
        if isinstance(value, BaseException):
            raise value
        return value

    server = HealthServer(Address("127.0.0.1", free_port()), probe)
    await server.start()
    url = f"http://127.0.0.1:{server.port}/healthz"
    try:
        assert await check("--url", url) == 0
        assert "healthy: 3 unfinished games" in capsys.readouterr().out
        state[0] = NotReadyError("starting or stopping")
        assert await check("--url", url) == 1
        assert '503 {"ok": false, "error": "starting or stopping"}' in capsys.readouterr().out
        state[0] = RuntimeError("database password=hunter2")  # the reason stays in the log
        assert await check("--url", url) == 1
        assert "RuntimeError" in (out := capsys.readouterr().out) and "hunter2" not in out
    finally:
        await server.stop()
    assert await check("--url", url, "--timeout", "2") == 1  # nobody listening


async def test_the_url_comes_from_health_listen(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def probe() -> int:
        return 0

    server = HealthServer(Address("127.0.0.1", free_port()), probe)
    await server.start()
    try:
        monkeypatch.setenv("HEALTH_LISTEN", f"0.0.0.0:{server.port}")  # as in the container
        assert await check() == 0
    finally:
        await server.stop()
    monkeypatch.delenv("HEALTH_LISTEN")
    assert await check() == 2
    assert "HEALTH_LISTEN is not set" in capsys.readouterr().err


def test_default_url() -> None:
    assert healthcheck.default_url({"HEALTH_LISTEN": "8081"}) == "http://127.0.0.1:8081/healthz"
    assert healthcheck.default_url({"HEALTH_LISTEN": "[::]:9"}) == "http://127.0.0.1:9/healthz"
    assert healthcheck.default_url({"HEALTH_LISTEN": "[::1]:9"}) == "http://[::1]:9/healthz"


async def test_metrics_and_the_drain_on_the_health_listener() -> None:
    draining = [False]

    async def probe() -> int:
        return 2

    async def scrape() -> bytes:
        return b"# HELP x y\n# TYPE x gauge\nx 1.0\n"

    server = HealthServer(Address("127.0.0.1", free_port()), probe, scrape, lambda: draining[0])
    await server.start()
    base = f"http://127.0.0.1:{server.port}"
    try:
        async with loopback_client() as client:
            response = await client.get(f"{base}/metrics")
            assert response.status_code == 200 and response.text.endswith("x 1.0\n")
            assert response.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
            assert (await client.get(f"{base}/healthz")).json() == {"ok": True, "games": 2}
            draining[0] = True
            body = (await client.get(f"{base}/healthz")).json()
            assert body == {"ok": True, "games": 2, "draining": True}
    finally:
        await server.stop()


async def test_no_metrics_without_a_scrape() -> None:
    async def probe() -> int:
        return 0

    server = HealthServer(Address("127.0.0.1", free_port()), probe)
    await server.start()
    try:
        async with loopback_client() as client:
            response = await client.get(f"http://127.0.0.1:{server.port}/metrics")
            assert response.status_code == 404
    finally:
        await server.stop()
