"""The high-availability set-up of deploy/compose.yaml (profile "ha"): two replicas
behind Caddy (deploy/Caddyfile). Without a Docker engine: the compose structure, the
Caddyfile validated by Debian's caddy, and that very Caddyfile run on the loopback
in front of two small webhook servers: the updates go to both, and one being down
loses none. Without caddy the Caddy tests are skipped, except with CI=true."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import socket
import subprocess
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import yaml

from tests.deploy.test_deploy import DEPLOY, image_env
from tg_mafia.sandbox import SECRET_HEADER, post_json

CADDYFILE = DEPLOY / "Caddyfile"


def compose() -> dict[str, object]:
    loaded: dict[str, object] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return loaded


def services() -> dict[str, dict[str, object]]:
    found: dict[str, dict[str, object]] = compose()["services"]  # type: ignore[assignment]
    return found


def upstreams() -> list[str]:
    (line,) = [line for line in CADDYFILE.read_text().splitlines() if "reverse_proxy" in line]
    return line.split()[1:-1]


def caddy() -> str:
    found = shutil.which("caddy")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("caddy is not installed (CI=true: .ci/run installs Debian's caddy)")
        pytest.skip("caddy is not installed (apt-get install caddy)")
    return found


def test_the_single_process_set_up_is_untouched_by_the_ha_profile() -> None:
    found = services()
    assert "profiles" not in found["bot"] and "profiles" not in found["db"]
    assert found["bot-b"]["profiles"] == ["ha"] and found["proxy"]["profiles"] == ["ha"]


def test_the_second_replica_is_the_same_bot_under_its_own_name() -> None:
    bot, second = services()["bot"], services()["bot-b"]
    for key in ("image", "env_file", "depends_on", "restart", "stop_grace_period"):
        assert second[key] == bot[key], key
    assert "ports" not in second  # only the proxy reaches it
    assert second["environment"] == {**bot["environment"], "REPLICA_ID": "bot-b"}


def test_the_proxy_forwards_to_both_replicas_on_their_webhook_port() -> None:
    proxy = services()["proxy"]
    assert proxy["image"] == "caddy:2.6"  # the version these tests run (Debian 12's)
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]  # type: ignore[operator]
    assert set(proxy["depends_on"]) == {"bot", "bot-b"}  # type: ignore[arg-type]
    port = image_env()["WEBHOOK_LISTEN"].rsplit(":", 1)[1]
    assert upstreams() == [f"bot:{port}", f"bot-b:{port}"]
    # Telegram reaches the proxy by HTTPS; only the host name is handed to it.
    assert set(proxy["ports"]) == {"80:80", "443:443"}  # type: ignore[arg-type]
    assert proxy["environment"] == {"WEBHOOK_HOST": "${WEBHOOK_HOST:-localhost}"}


def test_caddy_validates_the_caddyfile(tmp_path: Path) -> None:
    env = {**os.environ, "WEBHOOK_HOST": "bot.example.org", "XDG_DATA_HOME": str(tmp_path)}
    env["XDG_CONFIG_HOME"] = str(tmp_path)
    done = subprocess.run(
        [caddy(), "validate", "--adapter", "caddyfile", "--config", str(CADDYFILE)],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Valid configuration" in done.stdout + done.stderr


class Replica:
    """A stand-in for a replica's webhook: counts the updates it is given."""

    def __init__(self, name: str, seen: Counter[str]) -> None:
        self.name = name
        self.seen = seen
        self.server: asyncio.Server | None = None
        self.port = 0

    async def start(self, port: int = 0) -> None:
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        assert self.server is not None
        self.server.close()
        await self.server.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = (await reader.readuntil(b"\r\n\r\n")).decode()
        length = int(re.search(r"(?i)content-length: (\d+)", head).group(1))  # type: ignore[union-attr]
        await reader.readexactly(length)
        assert f"{SECRET_HEADER.lower()}: s3cret" in head.lower()  # passed on untouched
        self.seen[self.name] += 1
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        await writer.drain()
        writer.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.asynccontextmanager
async def running_caddy(tmp_path: Path, ports: list[int]) -> AsyncIterator[str]:
    """deploy/Caddyfile on the loopback: plain http on a free port instead of WEBHOOK_HOST,
    the replicas' names replaced by the stand-ins' addresses, no admin endpoint."""
    listen = free_port()
    text = CADDYFILE.read_text().replace("{$WEBHOOK_HOST:localhost}", f"http://127.0.0.1:{listen}")
    for name, port in zip(upstreams(), ports, strict=True):
        text = text.replace(name, f"127.0.0.1:{port}")
    config = tmp_path / "Caddyfile"
    config.write_text("{\n\tadmin off\n}\n" + text)
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
    proc = await asyncio.create_subprocess_exec(
        caddy(), "run", "--adapter", "caddyfile", "--config", str(config),
        env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    try:
        for _ in range(200):
            with contextlib.suppress(OSError):
                _, writer = await asyncio.open_connection("127.0.0.1", listen)
                writer.close()
                break
            await asyncio.sleep(0.05)
        yield f"http://127.0.0.1:{listen}/hook"
    finally:
        proc.terminate()
        await proc.wait()


@pytest.mark.real_time
async def test_the_caddyfile_spreads_updates_and_skips_a_replica_that_is_down(
    tmp_path: Path,
) -> None:
    seen: Counter[str] = Counter()
    a, b = Replica("a", seen), Replica("b", seen)
    await a.start()
    await b.start()
    async with running_caddy(tmp_path, [a.port, b.port]) as url:
        update = {"update_id": 1, "message": {"message_id": 1, "date": 0, "chat": {"id": 1}}}
        for _ in range(6):
            assert (await post_json(url, update, {SECRET_HEADER: "s3cret"}))[0] == 200
        assert seen["a"] >= 1 and seen["b"] >= 1 and sum(seen.values()) == 6
        await b.stop()  # a replica dies: every update still reaches the other one
        for _ in range(6):
            assert (await post_json(url, update, {SECRET_HEADER: "s3cret"}))[0] == 200
        assert sum(seen.values()) == 12
    await a.stop()
