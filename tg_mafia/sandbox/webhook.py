"""Webhook delivery: POST each pending update, in order, to the bot's URL."""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from .clock import SandboxClock
from .updates import UpdateQueue

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


async def post_json(
    url: str, payload: Any, headers: dict[str, str] | None = None, timeout: float = 10.0
) -> tuple[int, bytes]:
    """A minimal HTTP/1.1 POST over asyncio streams (loopback webhooks need nothing more)."""
    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        raise ValueError(f"the sandbox delivers webhooks over plain http only, not {url!r}")
    body = json.dumps(payload).encode()
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    lines = [
        f"POST {path} HTTP/1.1",
        f"Host: {parts.netloc}",
        "Content-Type: application/json",
        f"Content-Length: {len(body)}",
        "Connection: close",
        *(f"{k}: {v}" for k, v in (headers or {}).items()),
    ]
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(parts.hostname, parts.port or 80), timeout
    )
    try:
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await writer.drain()
        raw = await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.close()
    head, _, content = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, content


@dataclass
class WebhookConfig:
    url: str
    secret_token: str | None = None


@dataclass
class Delivery:
    update_id: int
    status: int | None
    error: str | None


@dataclass
class WebhookDeliverer:
    config: WebhookConfig
    queue: UpdateQueue
    clock: SandboxClock
    retry_delay: float = 0.2  # real seconds between failed attempts
    deliveries: list[Delivery] = field(default_factory=list)
    last_error_date: int | None = None
    last_error_message: str | None = None
    _task: asyncio.Task[None] | None = None
    _stopping: bool = False

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            # The flag too: Python 3.11's wait_for swallows a cancellation that comes as the
            # awaited read completes, and the loop would go on delivering (and this wait hang).
            self._stopping = True
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        headers = {}
        if self.config.secret_token:
            headers[SECRET_HEADER] = self.config.secret_token
        while not self._stopping:
            if not await self.queue.wait(1.0):
                continue
            update = self.queue.peek(1)[0]
            update_id = int(update.get("update_id", 0))
            try:
                status, _ = await post_json(self.config.url, update, headers)
                error = (
                    None if 200 <= status < 300 else f"Wrong response from the webhook: {status}"
                )
            except (OSError, ValueError, TimeoutError) as exc:
                status, error = None, f"Connection failed: {exc!r}"
            self.deliveries.append(Delivery(update_id, status, error))
            if error is None:
                self.queue.confirm(update_id + 1)
            else:
                # Telegram keeps the update and tries again later
                self.last_error_date = self.clock.date()
                self.last_error_message = error
                await asyncio.sleep(self.retry_delay)
