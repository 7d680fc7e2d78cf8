"""Webhook delivery: POST each pending update, in order, to the bot's URL."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from tg_mafia.sandbox.clock import SandboxClock
from tg_mafia.sandbox.transport.network import Wire
from tg_mafia.sandbox.transport.updates import UpdateQueue

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


async def post_json(
    url: str, payload: Any, headers: dict[str, str] | None = None, timeout: float = 10.0
) -> tuple[int, bytes]:
    """A minimal HTTP/1.1 POST over asyncio streams (loopback webhooks need nothing more)."""
    status, _, content = await post(url, payload, headers, timeout)
    return status, content


async def post(
    url: str, payload: Any, headers: dict[str, str] | None = None, timeout: float = 10.0
) -> tuple[int, dict[str, str], bytes]:
    """As post_json, with the answer's headers (names in lower case)."""
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
    first, *answer_lines = head.split(b"\r\n")
    status_line = first.split(b" ", 2)
    if len(status_line) < 2 or not status_line[1].isdigit():
        # closed without an answer (the bot stopping, say): a failed delivery, retried
        raise ValueError(f"no HTTP answer from {url!r}")
    answer_headers = {}
    for line in answer_lines:
        name, _, value = line.decode("latin-1").partition(":")
        answer_headers[name.strip().lower()] = value.strip()
    return int(status_line[1]), answer_headers, content


def reply_call(headers: dict[str, str], content: bytes) -> tuple[str, dict[str, Any]] | None:
    """The Bot API call a webhook's answer names, as Telegram reads it: a JSON object
    with a `method` (the form-encoded kinds Telegram also reads are not modelled: a bot
    that sends one gets nothing carried out here)."""
    if not headers.get("content-type", "").startswith("application/json") or not content:
        return None
    try:
        body = json.loads(content)
    except ValueError:
        return None
    if not isinstance(body, dict) or not isinstance(body.get("method"), str):
        return None
    params = {k: v for k, v in body.items() if k != "method"}
    return body["method"], params


@dataclass
class WebhookConfig:
    url: str
    secret_token: str | None = None
    max_connections: int = 40  # deliveries open at once, as setWebhook's parameter


@dataclass
class Delivery:
    update_id: int
    status: int | None
    error: str | None
    reply: str | None = None  # the method its answer named, carried out


# Carries out a call a webhook's answer named: (method, parameters) -> (status, body).
CarryOut = Callable[[str, dict[str, Any]], Awaitable[tuple[int, dict[str, Any]]]]


def chat_of(update: dict[str, Any]) -> object:
    """The chat an update is about (its sender's, for a press without a message)."""
    body = next((v for k, v in update.items() if k != "update_id" and isinstance(v, dict)), {})
    for holder in (body, body.get("message") or {}):
        chat = holder.get("chat")
        if isinstance(chat, dict) and "id" in chat:
            return chat["id"]
    sender = body.get("from")
    return sender.get("id") if isinstance(sender, dict) else None


@dataclass
class WebhookDeliverer:
    """Telegram holds up to `max_connections` deliveries open at once: here, the updates
    of different chats go out together, and each chat's one at a time, in order (an
    update whose delivery failed holds back its chat's later ones until it is taken).
    With a simulated network (`wire`), the update travels one leg to the bot and its
    answer one leg back before Telegram counts it taken. A call the answer names is
    carried out as it arrives (`carry_out`); as Telegram, its result goes nowhere."""

    config: WebhookConfig
    queue: UpdateQueue
    clock: SandboxClock
    wire: Wire | None = None
    carry_out: CarryOut | None = None
    # Telegram tries a failed update again "after a reasonable amount" of time, backing
    # off: here the wait doubles with each failure of the same update, from
    # `retry_delay` up to `retry_cap` (real seconds).
    retry_delay: float = 0.2
    retry_cap: float = 60.0
    deliveries: list[Delivery] = field(default_factory=list)
    last_error_date: int | None = None
    last_error_message: str | None = None
    _task: asyncio.Task[None] | None = None
    _stopping: bool = False
    _open: dict[int, asyncio.Task[None]] = field(default_factory=dict)  # by update id
    _finished: asyncio.Event = field(default_factory=asyncio.Event)
    _failures: dict[int, int] = field(default_factory=dict)  # by update id

    def backoff(self, update_id: int) -> float:
        """The wait before the next attempt at an update that just failed once more."""
        failures = self._failures.get(update_id, 0) + 1
        self._failures[update_id] = failures
        return min(self.retry_delay * 2.0 ** (failures - 1), self.retry_cap)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            # The flag too: Python 3.11's wait_for swallows a cancellation that comes as the
            # awaited read completes, and the loop would go on delivering (and this wait hang).
            self._stopping = True
            tasks = [self._task, *self._open.values()]
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            self._task = None

    async def _run(self) -> None:
        headers = {}
        if self.config.secret_token:
            headers[SECRET_HEADER] = self.config.secret_token
        while not self._stopping:
            newest = self._dispatch(headers)
            # Until a delivery ends or a new update comes.
            self._finished.clear()
            waits = {
                asyncio.ensure_future(self._finished.wait()),
                asyncio.ensure_future(self.queue.wait_after(newest, 1.0)),
            }
            try:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for wait in waits:
                    wait.cancel()

    def _dispatch(self, headers: dict[str, str]) -> int:
        """Starts the deliveries that may start now; returns the newest update id seen."""
        held: set[object] = set()
        newest = 0
        for update in self.queue.peek(len(self.queue.pending)):
            update_id = int(update.get("update_id", 0))
            newest = max(newest, update_id)
            chat = chat_of(update)
            if chat in held:
                continue
            held.add(chat)  # this chat's later updates wait for this one
            if update_id in self._open or len(self._open) >= self.config.max_connections:
                continue
            task = asyncio.get_running_loop().create_task(self._deliver(update, headers))
            self._open[update_id] = task
        return newest

    async def _deliver(self, update: dict[str, Any], headers: dict[str, str]) -> None:
        update_id = int(update.get("update_id", 0))
        try:
            try:
                if self.wire is not None:
                    await self.wire.travel()
                status, answer_headers, content = await post(self.config.url, update, headers)
                error = (
                    None if 200 <= status < 300 else f"Wrong response from the webhook: {status}"
                )
            except (OSError, ValueError, TimeoutError) as exc:
                status, answer_headers, content = None, {}, b""
                error = f"Connection failed: {exc!r}"
            if self.wire is not None:
                await self.wire.travel()  # the answer (or the failure) on its way back
            call = reply_call(answer_headers, content) if error is None else None
            if call is not None and self.carry_out is not None:
                await self.carry_out(*call)
            self.deliveries.append(Delivery(update_id, status, error, call[0] if call else None))
            if error is None:
                self.queue.remove(update_id)
                self._failures.pop(update_id, None)
            else:
                # Telegram keeps the update and tries again later, later each time
                self.last_error_date = self.clock.date()
                self.last_error_message = error
                await asyncio.sleep(self.backoff(update_id))
        finally:
            self._open.pop(update_id, None)
            self._finished.set()
