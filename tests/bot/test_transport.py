"""The bot's calls on aiohttp keep PTB's semantics: what Telegram answers goes back
as its status and body (PTB's errors are made from them, as over httpx), a call
that gets no answer in time is TimedOut, a connection that fails is NetworkError,
and every call of the bot is counted. (Over HTTP, the sandbox's tests make every
call, files included, through this request object: tests/sandbox/conftest.py.)"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator

import pytest
from telegram import Bot
from telegram.error import BadRequest, NetworkError, TimedOut
from telegram.request import RequestData

from tg_mafia.sandbox import HttpTransport, Sandbox
from tg_mafia.telegram.metered import MeteredRequest
from tg_mafia.telegram.transport import AiohttpRequest, calls_request, updates_request


@contextlib.asynccontextmanager
async def silent_server() -> AsyncIterator[str]:
    """An HTTP server that takes the request and never answers."""
    hold = asyncio.Event()

    async def take(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1024)
        await hold.wait()
        writer.close()

    server = await asyncio.start_server(take, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}/botTOKEN/getMe"
    finally:
        hold.set()
        server.close()
        await server.wait_closed()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_the_sandbox_answers_through_it_as_telegram_would() -> None:
    sb = Sandbox()
    user = sb.add_user("Ana")
    user.start()
    http = HttpTransport(sb)
    await http.start()
    counted: list[tuple[str, str]] = []
    bot = Bot(
        sb.token,
        base_url=http.base_url,
        request=calls_request(lambda method, result: counted.append((method, result))),
    )
    try:
        await bot.initialize()
        sent = await bot.send_message(user.id, "Ă, Ș, Ț, Đ, Ё: the texts of five languages")
        assert user.view()[-1].text == sent.text
        with pytest.raises(BadRequest, match=r"(?i)chat not found"):
            await bot.send_message(123456789, "nobody")
        assert counted == [("getMe", "ok"), ("sendMessage", "ok"), ("sendMessage", "4xx")]
    finally:
        await bot.shutdown()
        await http.stop()
        await sb.close()


async def test_no_answer_in_time_is_timed_out_and_a_refused_connection_a_network_error() -> None:
    request = AiohttpRequest(read_timeout=0.2)
    await request.initialize()
    try:
        async with silent_server() as url:
            with pytest.raises(TimedOut):
                await request.do_request(url, "POST", RequestData())
        with pytest.raises(NetworkError, match="aiohttp"):
            await request.do_request(f"http://127.0.0.1:{closed_port()}/x", "POST")
    finally:
        await request.shutdown()
    with pytest.raises(RuntimeError, match="not initialized"):
        await request.do_request("http://127.0.0.1:1/x", "POST")


@contextlib.asynccontextmanager
async def recording_proxy() -> AsyncIterator[tuple[str, list[bytes]]]:
    """A plain HTTP proxy that answers every request itself, as Telegram would answer
    getMe; yields its URL and the request lines it got."""
    lines: list[bytes] = []

    async def take(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        lines.append(head.split(b"\r\n", 1)[0])
        body = b'{"ok":true,"result":true}'
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(take, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}", lines
    finally:
        server.close()
        await server.wait_closed()


async def test_a_proxy_named_in_the_environment_carries_the_calls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # As over httpx (PTB's default): HTTP(S)_PROXY is used, except for NO_PROXY's hosts.
    for name in ("http_proxy", "https_proxy", "no_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    async with recording_proxy() as (proxy, lines):
        monkeypatch.setenv("HTTP_PROXY", proxy)
        monkeypatch.setenv("NO_PROXY", "direct.invalid")
        request = AiohttpRequest(connect_timeout=0.5)
        await request.initialize()
        try:
            url = "http://api.telegram.invalid/botTOKEN/getMe"
            assert await request.do_request(url, "POST", RequestData()) == (
                200,
                b'{"ok":true,"result":true}',
            )
            assert lines == [b"POST " + url.encode() + b" HTTP/1.1"]
            with pytest.raises(NetworkError):  # not through the proxy: no such host
                await request.do_request("http://direct.invalid/botTOKEN/getMe", "POST")
            assert len(lines) == 1
        finally:
            await request.shutdown()


def test_getupdates_has_a_connection_of_its_own() -> None:
    request = updates_request(lambda method, result: None)
    assert isinstance(request, MeteredRequest)
    assert isinstance(request.inner, AiohttpRequest) and request.inner.connections == 1
