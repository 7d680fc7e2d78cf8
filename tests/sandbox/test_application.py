"""A PTB Application receiving updates from the sandbox by polling and by webhook."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from typing import Any

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

from tg_mafia.sandbox import SECRET_HEADER, HttpTransport, Network, Sandbox, post_json
from tg_mafia.sandbox.transport import webhook

from .conftest import BOT_RIGHTS


def build(app: Application) -> None:  # type: ignore[type-arg]
    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.message is not None
        await update.message.reply_text(f"joined {' '.join(context.args or [])}")

    async def newgame(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Join", callback_data="join")]])
        await update.effective_chat.send_message("New game", reply_markup=keyboard)

    async def button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.callback_query is not None
        await update.callback_query.answer(f"you pressed {update.callback_query.data}")

    app.add_handler(CommandHandler("start", start))
    app.add_handler(CommandHandler("newgame", newgame))
    app.add_handler(CallbackQueryHandler(button))


async def play(sb: Sandbox) -> None:
    """A player opens the deep link, another presses the button the bot posted."""
    group = next(c for c in sb.world.chats.values() if c.type == "supergroup")
    users = [sb.user(uid) for uid in sorted(group.members) if uid != sb.bot_user.id]
    users[0].open_deep_link(sb.deep_link(f"join_{abs(group.id)}"))
    users[0].command(group, "newgame", mention=True)
    await sb.wait_for(lambda: f"joined join_{abs(group.id)}" in users[0].texts())
    await sb.wait_for(lambda: any(m.buttons == [["Join"]] for m in users[1].view(group)))
    press = users[1].press(group, "Join")
    await sb.wait_for(lambda: press.answered)
    assert press.answer["text"] == "you pressed join"


async def read_update(reader: asyncio.StreamReader) -> dict[str, Any]:
    """The update a webhook delivery carries, read off a raw connection."""
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1]) for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length")
    )  # fmt: skip
    update: dict[str, Any] = json.loads(await reader.readexactly(length))
    return update


def make_sandbox() -> Sandbox:
    sb = Sandbox(speed=20)
    sb.add_group("Club", members=sb.add_users(3), bot_rights=BOT_RIGHTS)
    return sb


async def test_polling_in_process() -> None:
    sb = make_sandbox()
    app = sb.application_builder().build()
    build(app)
    async with app:
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=10)
        await app.start()
        await play(sb)
        await app.updater.stop()
        await app.stop()
    assert sb.log.calls("getUpdates")
    assert not sb.log.unknown_parameters()


async def test_polling_over_http() -> None:
    sb = make_sandbox()
    async with HttpTransport(sb) as http:
        app = Application.builder().token(sb.token).base_url(http.base_url).build()
        build(app)
        async with app:
            assert app.updater is not None
            await app.updater.start_polling(poll_interval=0, timeout=10)
            await app.start()
            await play(sb)
            await app.updater.stop()
            await app.stop()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


async def test_webhook_delivery_and_secret() -> None:
    sb = make_sandbox()
    port = free_port()
    url = f"http://127.0.0.1:{port}/hook"
    app = sb.application_builder().build()
    build(app)
    async with app:
        assert app.updater is not None
        await app.updater.start_webhook(
            listen="127.0.0.1", port=port, url_path="hook", webhook_url=url, secret_token="s3cret"
        )
        await app.start()
        assert sb.webhook is not None and sb.webhook.config.secret_token == "s3cret"
        await play(sb)
        assert all(d.status == 200 for d in sb.webhook.deliveries)
        # getUpdates is refused while a webhook is set
        status, body = await sb.call("getUpdates", {})
        assert status == 409 and not body["ok"]
        fake = {"update_id": 999, "message": {"message_id": 1, "date": 0, "chat": {"id": 1}}}
        assert (await post_json(url, fake, {SECRET_HEADER: "wrong"}))[0] == 403
        assert (await post_json(url, fake))[0] == 403
        await app.updater.stop()
        await app.stop()


async def test_a_webhook_stops_even_when_its_cancellation_is_swallowed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Python 3.11's asyncio.wait_for returns the result of a read that completes as the
    # cancellation arrives, swallowing it: a new setWebhook then waited for the old
    # delivery loop forever (the replicas test saw a replica's start time out).
    entered = asyncio.Event()

    async def swallowing_post(*args: object, **kwargs: object) -> tuple[int, dict[str, str], bytes]:
        entered.set()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(3600)
        return 200, {}, b""

    monkeypatch.setattr(webhook, "post", swallowing_post)
    sb = make_sandbox()
    await sb.start_webhook("http://127.0.0.1:9/hook", None)
    sb.add_user("Ann").start("x")
    await asyncio.wait_for(entered.wait(), 5)
    loop = asyncio.get_running_loop()
    began = loop.time()
    await asyncio.wait_for(sb.stop_webhook(), 5)  # its own timeout would end the wait, silently
    assert loop.time() - began < 1
    assert sb.webhook is None


async def test_webhook_deliveries_run_together_across_chats_and_in_order_within_one() -> None:
    # As Telegram's max_connections: a bot that answers a delivery once the update is
    # handled still gets other chats' updates meanwhile.
    sb = make_sandbox()
    held: list[tuple[int, asyncio.Event]] = []  # (update's chat, its release)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        update = await read_update(reader)
        release = asyncio.Event()
        held.append((update["message"]["chat"]["id"], release))
        await release.wait()
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    ann, bob = sb.add_user("Ann"), sb.add_user("Bob")
    await sb.start_webhook(f"http://127.0.0.1:{port}/hook", None)
    ann.start("one")
    ann.start("two")
    bob.start("three")
    await sb.wait_for(lambda: len(held) == 2)
    assert sorted(chat for chat, _ in held) == sorted([ann.id, bob.id])  # one of each chat
    held[0][1].set()
    held[1][1].set()
    await sb.wait_for(lambda: len(held) == 3)
    assert held[2][0] == ann.id  # Ann's second, once her first was taken
    held[2][1].set()
    await sb.wait_for(lambda: not sb.updates.pending)
    await sb.stop_webhook()
    server.close()


async def test_a_webhook_closed_without_an_answer_is_a_failed_delivery_tried_again() -> None:
    # As Telegram: a bot that closes the connection without answering (stopping, say)
    # has not taken the update; the delivery fails and is made again.
    sb = make_sandbox()
    answered: list[bool] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        if answered:  # the second delivery is taken
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            await writer.drain()
        answered.append(bool(answered))
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    await sb.start_webhook(f"http://127.0.0.1:{port}/hook", None)
    assert sb.webhook is not None
    sb.webhook.retry_delay = 0.01
    sb.add_user("Ann").start("x")
    await sb.wait_for(lambda: not sb.updates.pending)
    first, second = sb.webhook.deliveries
    assert first.status is None and first.error and "no HTTP answer" in first.error
    assert (second.status, second.error) == (200, None)
    await sb.stop_webhook()
    server.close()


async def test_a_webhook_delivery_travels_the_simulated_network_both_ways() -> None:
    # As Telegram a round trip away: the update reaches the bot one leg after it was
    # queued, and stays Telegram's (its chat's next one held back) until the answer's
    # leg has come back.
    sb = Sandbox(network=Network(rtt=0.2, jitter=0.0))
    loop = asyncio.get_running_loop()
    arrived: list[float] = []
    answered: list[float] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        arrived.append(loop.time())
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        await writer.drain()
        answered.append(loop.time())
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    await sb.start_webhook(f"http://127.0.0.1:{port}/hook", None)
    queued = loop.time()
    sb.add_user("Ann").start("x")
    await sb.wait_for(lambda: bool(answered))
    assert arrived[0] - queued >= 0.1
    assert sb.updates.pending  # the answer is still on its way
    await sb.wait_for(lambda: not sb.updates.pending)
    assert loop.time() - answered[0] >= 0.1
    await sb.stop_webhook()
    server.close()


async def test_a_call_named_in_a_webhook_answer_is_carried_out() -> None:
    # As Telegram: an answer of type application/json with a `method` is a Bot API call,
    # made on receipt (its result goes nowhere); any other answer is only an answer.
    sb = make_sandbox()
    group = next(c for c in sb.world.chats.values() if c.type == "supergroup")
    ann = sb.user(next(uid for uid in sorted(group.members) if uid != sb.bot_user.id))
    keyboard = {"inline_keyboard": [[{"text": "Go", "callback_data": "go"}]]}
    status, _ = await sb.call(
        "sendMessage", {"chat_id": group.id, "text": "Ready?", "reply_markup": keyboard}
    )
    assert status == 200
    answers = [
        (b"application/json", b'{"method": "answerCallbackQuery", "text": "done", '),
        (b"text/plain", b'{"method": "answerCallbackQuery", "text": "not JSON by its type"}'),
        (b"application/json", b'{"text": "no method"}'),
    ]

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        update = await read_update(reader)
        kind, body = answers.pop(0)
        if kind == b"application/json" and body.endswith(b", "):
            query_id = update["callback_query"]["id"]
            body += f'"callback_query_id": "{query_id}"}}'.encode()
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: " + kind
            + f"\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body
        )  # fmt: skip
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    await sb.start_webhook(f"http://127.0.0.1:{port}/hook", None)
    assert sb.webhook is not None
    first = ann.press(group, "Go")
    await sb.wait_for(lambda: first.answered)
    assert first.answer["text"] == "done"
    second, third = ann.press(group, "Go"), ann.press(group, "Go")
    await sb.wait_for(lambda: not sb.updates.pending)
    assert not second.answered and not third.answered
    assert [d.reply for d in sb.webhook.deliveries] == ["answerCallbackQuery", None, None]
    await sb.stop_webhook()
    server.close()
