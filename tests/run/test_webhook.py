"""The webhook listener against what reaches a public port: no secret, huge bodies, slow
bodies, bodies that are not updates (tg_mafia/telegram/webhook.py)."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from telegram import Bot, Update

from tg_mafia.config import Address
from tg_mafia.telegram.webhook import BODY_TIMEOUT, MAX_BODY, SECRET_HEADER, WebhookListener

SECRET = "shared-secret_1"
PATH = "/tg/hook"
UPDATE = {
    "update_id": 7,
    "message": {"message_id": 1, "date": 0, "chat": {"id": 5, "type": "private"}, "text": "hi"},
}


@dataclass
class Hook:
    port: int
    queue: asyncio.Queue[object]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
async def hook() -> AsyncIterator[Hook]:
    queue: asyncio.Queue[object] = asyncio.Queue()
    port = free_port()
    bot = Bot("123456:" + "A" * 35)  # never called: it only builds the Update objects
    listener = WebhookListener(Address("127.0.0.1", port), PATH, bot, queue.put, SECRET)
    listener.start()
    yield Hook(port, queue)
    await listener.stop()


def head(length: int | None, secret: str | None = SECRET, path: str = PATH) -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: bot", "Content-Type: application/json"]
    lines.append("Connection: close")  # the answer ends where the connection does
    lines.append(
        f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked"
    )
    if secret is not None:
        lines.append(f"{SECRET_HEADER}: {secret}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def exchange(hook: Hook, *parts: bytes) -> bytes:
    """Sends the parts, then reads until the server closes (30 s at most)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", hook.port)
    try:
        for part in parts:
            writer.write(part)
            await writer.drain()
        return await asyncio.wait_for(reader.read(), 30)
    finally:
        writer.close()


def status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer else 0


async def test_a_good_update_is_queued(hook: Hook) -> None:
    body = json.dumps(UPDATE).encode()
    answer = await exchange(hook, head(len(body)) + body)
    assert status(answer) == 200
    update = hook.queue.get_nowait()
    assert isinstance(update, Update) and update.update_id == 7


@pytest.mark.parametrize("secret", [None, "wrong", SECRET + "x"])
async def test_without_the_secret_nothing_is_read(hook: Hook, secret: str | None) -> None:
    # 99 MB announced, none sent: the answer comes from the headers alone.
    answer = await exchange(hook, head(99 * 1024 * 1024, secret))
    assert status(answer) == 403
    assert hook.queue.empty()


async def test_a_body_announced_over_the_limit_is_refused_before_it_is_read(hook: Hook) -> None:
    answer = await exchange(hook, head(MAX_BODY + 1))
    assert status(answer) == 400
    assert hook.queue.empty()


async def test_a_chunked_body_growing_past_the_limit_closes_the_connection(hook: Hook) -> None:
    chunk = b"x" * 65536
    framed = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    reader, writer = await asyncio.open_connection("127.0.0.1", hook.port)
    writer.write(head(None))
    sent = 0
    with pytest.raises((ConnectionError, OSError)):
        while sent < 4 * MAX_BODY:  # the server hangs up long before
            writer.write(framed)
            await writer.drain()
            sent += len(chunk)
            if reader.at_eof():
                raise ConnectionResetError
            await asyncio.sleep(0)
    writer.close()
    assert sent <= 2 * MAX_BODY
    assert hook.queue.empty()


async def test_a_body_that_trickles_in_is_dropped_at_the_timeout(hook: Hook) -> None:
    loop = asyncio.get_running_loop()
    began = loop.time()
    answer = await exchange(hook, head(1000) + b'{"update_id": 1')  # then nothing
    assert answer == b"" or status(answer) >= 400
    assert BODY_TIMEOUT - 0.01 <= loop.time() - began < BODY_TIMEOUT + 4
    assert hook.queue.empty()


@pytest.mark.parametrize(
    "body", [b"{not json", b"[1, 2]", b'"text"', b'{"message": {"text": "no id"}}']
)
async def test_a_body_that_is_not_an_update_is_400(hook: Hook, body: bytes) -> None:
    answer = await exchange(hook, head(len(body)) + body)
    assert status(answer) == 400
    assert hook.queue.empty()


async def test_another_path_is_404(hook: Hook) -> None:
    body = json.dumps(UPDATE).encode()
    assert status(await exchange(hook, head(len(body), path="/other") + body)) == 404
