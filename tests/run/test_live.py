"""`tg-mafia run` as a real process against the HTTP sandbox: polling, webhook, health, stop."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.loopback import loopback_client
from tg_mafia.cli import main
from tg_mafia.config import ENV_VARS
from tg_mafia.sandbox import SECRET_HEADER, HttpTransport, Sandbox, SimUser, post_json
from tg_mafia.sandbox.world.state import Chat

# A bot in another process: the wall clock, not the virtual one.
pytestmark = pytest.mark.real_time

BOT_RIGHTS = {"can_delete_messages": True, "can_restrict_members": True, "can_pin_messages": True}
GREETING = "I host Mafia in groups"
FAKE_UPDATE = {
    "update_id": 999,
    "message": {"message_id": 1, "date": 0, "chat": {"id": 1, "type": "private"}},
}


# Seconds a real bot process may take to start, answer or stop: a limit that only a
# stuck process reaches, not one slowed by a busy machine.
PATIENCE = 60.0


@dataclass
class World:
    sb: Sandbox
    http: HttpTransport
    group: Chat
    users: list[SimUser]


@pytest.fixture
async def world() -> AsyncIterator[World]:
    sb = Sandbox()
    users = sb.add_users(3)
    group = sb.add_group("Club", members=users, owner=users[0], bot_rights=BOT_RIGHTS)
    async with HttpTransport(sb) as http:
        yield World(sb, http, group, users)
    await sb.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Bot:
    proc: asyncio.subprocess.Process
    log: Path

    def output(self) -> str:
        return self.log.read_text()

    async def stop(self) -> int:
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(self.proc.wait(), PATIENCE)
        except TimeoutError:
            self.proc.kill()
            raise AssertionError(f"the bot did not stop:\n{self.output()[-3000:]}") from None


async def launch(world: World, tmp_path: Path, *args: str, token: str | None = None) -> Bot:
    env = {k: v for k, v in os.environ.items() if k not in ENV_VARS.values()}
    env |= {
        "TELEGRAM_BOT_TOKEN": token or world.sb.token,
        "TELEGRAM_BASE_URL": world.http.base_url,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'bot.db'}",
        "LOG_LEVEL": "DEBUG",  # the most talkative: the token must still not show
    }
    log = tmp_path / "bot.log"
    with log.open("wb") as out:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tg_mafia.cli", "run", *args,
            env=env, cwd=tmp_path, stdout=out, stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
    return Bot(proc, log)


async def health(port: int) -> tuple[int, dict[str, object]]:
    async with loopback_client() as client:
        response = await client.get(f"http://127.0.0.1:{port}/healthz", timeout=PATIENCE)
        return response.status_code, response.json()


async def metrics(port: int) -> list[tuple[str, dict[str, str], float]]:
    """GET /metrics, read with prometheus_client's own parser."""
    async with loopback_client() as client:
        response = await client.get(f"http://127.0.0.1:{port}/metrics", timeout=PATIENCE)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    return [
        (sample.name, dict(sample.labels), sample.value)
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    ]


async def until_healthy(bot: Bot, port: int, timeout: float = PATIENCE) -> dict[str, object]:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        if bot.proc.returncode is not None:
            raise AssertionError(f"the bot exited {bot.proc.returncode}:\n{bot.output()}")
        try:
            status, body = await health(port)
            if status == 200:
                return body
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.1)
    raise AssertionError(f"the bot never became healthy:\n{bot.output()}")


async def answers_start(world: World, user: SimUser) -> None:
    user.start()
    await world.sb.wait_for(lambda: any(GREETING in t for t in user.texts()), timeout=PATIENCE)


async def test_long_polling(world: World, tmp_path: Path) -> None:
    port = free_port()
    bot = await launch(world, tmp_path, "--health-listen", str(port))
    try:
        assert await until_healthy(bot, port) == {"ok": True, "games": 0}
        await answers_start(world, world.users[1])
        assert world.sb.log.calls("getUpdates")
        samples = await metrics(port)
        (replica,) = {labels["replica"] for _, labels, _ in samples}
        assert replica.endswith(f"-{bot.proc.pid}")  # the default: <hostname>-<pid>
        sent = [v for n, labels, v in samples if n == "tg_mafia_api_calls_total"
                and labels["method"] == "sendMessage" and labels["result"] == "ok"]  # fmt: skip
        assert sent == [1.0]  # the greeting
    finally:
        assert await bot.stop() == 0, bot.output()
    output = bot.output()
    assert "by long polling" in output
    assert "long-lived objects kept out of the garbage collector's walks" in output
    assert world.sb.token not in output and "SANDBOX-" not in output


async def test_webhook_with_secret_and_health(world: World, tmp_path: Path) -> None:
    hook_port, health_port = free_port(), free_port()
    url = f"http://127.0.0.1:{hook_port}/tg/hook"
    bot = await launch(
        world, tmp_path, "--webhook-url", url, "--listen", f"127.0.0.1:{hook_port}",
        "--health-listen", f"127.0.0.1:{health_port}", "--log-format", "json",
    )  # fmt: skip
    try:
        assert await until_healthy(bot, health_port) == {"ok": True, "games": 0}
        webhook = world.sb.webhook
        assert webhook is not None and webhook.config.url == url
        assert webhook.config.max_connections == 100  # each open one is an update handled
        secret = webhook.config.secret_token
        assert secret is not None and len(secret) >= 32  # generated: none was given

        await answers_start(world, world.users[1])
        world.users[0].command(world.group, "newgame", mention=True)
        await world.sb.wait_for(
            lambda: any(m.buttons for m in world.users[0].view(world.group)), timeout=PATIENCE
        )
        assert (await health(health_port))[1] == {"ok": True, "games": 1}
        assert all(d.status == 200 for d in webhook.deliveries)
        # A press's popup comes back in the webhook's answer, not as a call of its own.
        lobby = next(m for m in world.users[1].view(world.group) if m.buttons)
        leave = lobby.buttons[1][0]  # the Leave of someone who never joined
        press = world.users[1].press(world.group, leave, message_id=lobby.message_id)
        await world.sb.wait_for(lambda: press.answered, timeout=PATIENCE)
        assert press.answer.get("text")
        assert webhook.deliveries[-1].reply == "answerCallbackQuery"
        carried = [v for n, labels, v in await metrics(health_port)
                   if n == "tg_mafia_api_calls_total" and labels["result"] == "webhook_answer"
                   and labels["method"] == "answerCallbackQuery"]  # fmt: skip
        assert carried == [1.0]  # counted, as a call of its own would be

        assert (await post_json(url, FAKE_UPDATE, {SECRET_HEADER: "wrong"}))[0] == 403
        assert (await post_json(url, FAKE_UPDATE))[0] == 403
        assert (await post_json(url, FAKE_UPDATE, {SECRET_HEADER: secret}))[0] == 200
        # The table's Mini App on the same server: its page, and no state unsigned.
        async with loopback_client() as client:
            page = await client.get(f"http://127.0.0.1:{hook_port}/app")
            assert page.status_code == 200 and "app.js" in page.text
            state = await client.get(f"http://127.0.0.1:{hook_port}/app/state?game=1")
            assert state.status_code == 401
    finally:
        assert await bot.stop() == 0, bot.output()
    output = bot.output()
    assert world.sb.token not in output and secret not in output
    for line in output.splitlines():
        assert {"time", "level", "logger", "message"} <= json.loads(line).keys()


@pytest.fixture
def in_process(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`main` in this process, with no setting from outside and the cwd in tmp."""
    for name in ENV_VARS.values():
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


async def run_in_thread(*argv: str) -> int:
    # In a worker thread: the sandbox keeps serving on this thread's loop.
    return await asyncio.to_thread(main, ["run", *argv])


def bot_lines(err: str) -> list[str]:
    """stderr without the sandbox's own access log, which shares this process's logging."""
    return [line for line in err.splitlines() if " tornado.access: " not in line]


async def test_start_up_rides_out_two_502s(world: World, tmp_path: Path) -> None:
    # Telegram briefly unwell at the start: getMe answers 502 twice, then the bot is up.
    world.sb.fail_next("5xx", count=2, method="getMe", status=502)
    port = free_port()
    bot = await launch(world, tmp_path, "--health-listen", str(port))
    try:
        assert await until_healthy(bot, port) == {"ok": True, "games": 0}
        await answers_start(world, world.users[1])
    finally:
        assert await bot.stop() == 0, bot.output()
    get_me = world.sb.log.calls("getMe")
    assert [r.error_code for r in get_me[:3]] == [502, 502, None]
    retried = [line for line in bot.output().splitlines() if "failed (attempt" in line]
    assert len(retried) == 2, bot.output()
    assert "getMe" in retried[0] and "attempt 1 of 6" in retried[0] and "trying again" in retried[0]
    assert world.sb.token not in bot.output()


@pytest.mark.usefixtures("in_process")
async def test_a_token_telegram_rejects(
    world: World, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    token = "7000000001:" + "W" * 35
    # The sandbox's address without /bot: the bot adds it.
    base_url = world.http.base_url.removesuffix("/bot")
    sessions: list[aiohttp.ClientSession] = []
    open_session = aiohttp.ClientSession

    def kept(*args: Any, **kwargs: Any) -> aiohttp.ClientSession:
        sessions.append(open_session(*args, **kwargs))
        return sessions[-1]

    monkeypatch.setattr(aiohttp, "ClientSession", kept)
    assert await run_in_thread("--token", token, "--base-url", base_url) == 2
    # PTB closes an uninitialised bot's connections for nobody: the bot closes them.
    assert sessions and all(session.closed for session in sessions)
    out, err = capsys.readouterr()
    assert bot_lines(err) == [
        "tg-mafia run: Telegram rejected the bot token: check --token (BotFather's /token)"
    ]
    assert "WWWW" not in out + err


@pytest.mark.usefixtures("in_process")
async def test_a_webhook_telegram_refuses(
    world: World, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Through a local Bot API server http passes the local check; the server refuses it.
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", world.sb.token)
    monkeypatch.setenv("TELEGRAM_BASE_URL", world.http.base_url)
    hook = ["--webhook-url", "http://example.org/x", "--listen", f"127.0.0.1:{free_port()}"]
    assert await run_in_thread(*hook) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert bot_lines(err) == [
        "tg-mafia run: Telegram refused the webhook http://example.org/x: "
        "Bad webhook: an https url must be provided for webhook"
    ]
    assert world.sb.webhook is None


@pytest.mark.usefixtures("in_process")
async def test_polling_is_refused_while_a_webhook_is_set(
    world: World, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Replicas in webhook mode run on this webhook: polling would delete it and take
    # their updates.
    await world.sb.start_webhook("http://127.0.0.1:9/replicas", "shared-secret")
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", world.sb.token)
    monkeypatch.setenv("TELEGRAM_BASE_URL", world.http.base_url)
    assert await run_in_thread() == 2
    _, err = capsys.readouterr()
    (line,) = bot_lines(err)
    assert line.startswith("tg-mafia run: a webhook is set (http://127.0.0.1:9/replicas)")
    assert "--take-over" in line
    assert world.sb.webhook is not None  # untouched
    assert not world.sb.log.calls("deleteWebhook")


async def test_take_over_deletes_the_webhook_and_polls(world: World, tmp_path: Path) -> None:
    await world.sb.start_webhook("http://127.0.0.1:9/replicas", "shared-secret")
    bot = await launch(world, tmp_path, "--take-over")
    try:
        await answers_start(world, world.users[1])
        assert world.sb.webhook is None
    finally:
        assert await bot.stop() == 0, bot.output()


@pytest.mark.usefixtures("in_process")
async def test_a_second_process_on_one_sqlite_file_is_refused(
    world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = await launch(world, tmp_path)
    try:
        await answers_start(world, world.users[1])
        argv = ["--token", world.sb.token, "--base-url", world.http.base_url]
        argv += ["--database-url", f"sqlite:///{tmp_path / 'bot.db'}"]
        assert await run_in_thread(*argv) == 2
        _, err = capsys.readouterr()
        assert bot_lines(err) == [
            f"tg-mafia run: another tg-mafia process (pid {first.proc.pid}) uses the database "
            f"{tmp_path / 'bot.db'}: SQLite takes one process; for several, use PostgreSQL "
            "(DATABASE_URL)"
        ]
        await answers_start(world, world.users[2])  # the first one still serves
    finally:
        assert await first.stop() == 0, first.output()


async def test_a_webhook_update_is_acknowledged_only_once_handled(
    world: World, tmp_path: Path
) -> None:
    # PTB's own server answered Telegram at once: a replica killed before handling the
    # update lost it for good (Telegram does not send an acknowledged update again).
    hook_port = free_port()
    url = f"http://127.0.0.1:{hook_port}/hook"
    bot = await launch(world, tmp_path, "--webhook-url", url, "--listen", f"127.0.0.1:{hook_port}")
    try:
        await answers_start(world, world.users[1])
        webhook = world.sb.webhook
        assert webhook is not None
        # The greeting is sent while /start is handled, and /start acknowledged after.
        await world.sb.wait_for(lambda: not world.sb.updates.pending, timeout=PATIENCE)
        # /newgame reads the bot's rights in the group while it is handled: that call hangs.
        world.sb.fail_next("hang", method="getChatMember", hang_seconds=2.0)
        world.users[0].command(world.group, "newgame", mention=True)
        (pending,) = world.sb.updates.pending
        await asyncio.sleep(1.0)
        assert world.sb.updates.pending == [pending]  # still Telegram's: not acknowledged
        await world.sb.wait_for(lambda: not world.sb.updates.pending, timeout=PATIENCE)
        assert webhook.deliveries[-1].update_id == pending["update_id"]
        assert webhook.deliveries[-1].status == 200
    finally:
        assert await bot.stop() == 0, bot.output()
