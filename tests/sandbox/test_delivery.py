"""What Telegram delivers to the bot and how: privacy mode, other bots, two pollers at
once, and a webhook that keeps failing. Each against the docs' wording."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from telegram.error import Conflict

from tg_mafia.sandbox import Sandbox

from .conftest import BOT_RIGHTS


def delivered(sb: Sandbox) -> list[str]:
    return [u["message"].get("text", "") for u in sb.updates.pending if "message" in u]


async def test_privacy_mode_sends_only_what_is_meant_for_the_bot() -> None:
    """Bot features, privacy mode: the bot gets "commands explicitly meant for them",
    "general commands ... if the bot was the last bot to send a message to the group",
    "replies to any messages ... meant for this bot", "all service messages"."""
    sb = Sandbox()
    owner, ann = sb.add_users(2)
    other_bot = sb.add_user("Helper", username="helper_bot", is_bot=True)
    group = sb.add_group("Club", members=[ann, other_bot], owner=owner, bot_rights=None)
    ann.send(group, "chatter")
    ann.send(group, "/join")  # a bare command: no other bot has posted
    ann.send(group, "/join@helper_bot")
    ann.send(group, f"/join@{sb.bot_username}")
    other_bot.send(group, "I am another bot")
    ann.send(group, "/join")  # the last bot to post is the other one now
    assert delivered(sb) == ["/join", f"/join@{sb.bot_username}"]
    sb.updates.drop_all()
    sb.leave(group, ann)  # a service message
    (left,) = sb.updates.pending
    assert left["message"]["left_chat_member"]["id"] == ann.id
    sb.set_bot_rights(group, BOT_RIGHTS)  # an administrator bot gets everything (but bots)
    sb.updates.drop_all()
    owner.send(group, "chatter")
    other_bot.send(group, "still unseen")
    assert delivered(sb) == ["chatter"]


async def test_the_bot_never_sees_other_bots_unless_bot_to_bot_mode() -> None:
    """FAQ: "bots will not be able to see messages from other bots regardless of mode";
    Bot-to-Bot Communication: with the mode on, a bot gets another bot's message that
    "contains a command mention addressed to it" or "is a direct reply to one of its
    messages", and all of them when it "is an admin" with privacy mode disabled."""
    for privacy in (True, False):
        sb = Sandbox(privacy_mode=privacy)
        other = sb.add_user("Helper", username="helper_bot", is_bot=True)
        group = sb.add_group("Club", members=[other], bot_rights=BOT_RIGHTS)
        other.send(group, "hello")
        other.send(group, f"/join@{sb.bot_username}")
        assert delivered(sb) == []
    sb = Sandbox(bot_to_bot=True)
    other = sb.add_user("Helper", username="helper_bot", is_bot=True)
    group = sb.add_group("Club", members=[other], bot_rights=BOT_RIGHTS)
    mine = sb.post(group, sb.bot_user.id, "Players (0)")
    other.send(group, "hello")
    other.send(group, "/join")
    other.send(group, f"/join@{sb.bot_username}")
    other.send(group, "a reply", reply_to=mine.message_id)
    assert delivered(sb) == [f"/join@{sb.bot_username}", "a reply"]
    sb.updates.drop_all()
    sb.privacy_mode = False
    other.send(group, "hello")
    assert delivered(sb) == ["hello"]


async def test_a_second_poller_is_refused_409() -> None:
    """Two getUpdates at once (two instances of the bot): the one waiting is ended with
    409 "Conflict: terminated by other getUpdates request; make sure that only one bot
    instance is running"."""
    sb = Sandbox()
    first, second = sb.bot(), sb.bot()
    async with first, second:
        waiting = asyncio.ensure_future(first.get_updates(timeout=30))
        await asyncio.sleep(0.05)
        polling = asyncio.ensure_future(second.get_updates(timeout=1))
        with pytest.raises(Conflict, match="terminated by other getUpdates request"):
            await waiting
        assert await polling == ()
        record = sb.log.calls("getUpdates", ok=False)[0]
        assert record.error_code == 409
        # one poller alone, one request after the other: never a conflict
        assert await first.get_updates(timeout=0) == ()
        assert await first.get_updates(timeout=0) == ()


async def test_a_failing_webhook_is_tried_again_later_each_time() -> None:
    """Bot API, setWebhook: "In case of an unsuccessful request ..., we will repeat the
    request and give up after a reasonable amount of attempts": the sandbox waits twice
    as long after each failure of the same update, up to a cap."""
    sb = Sandbox()
    loop = asyncio.get_running_loop()
    attempts: list[float] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        attempts.append(loop.time())
        status = b"200 OK" if len(attempts) >= 5 else b"502 Bad Gateway"
        writer.write(b"HTTP/1.1 " + status + b"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    await sb.start_webhook(f"http://127.0.0.1:{port}/hook", None)
    assert sb.webhook is not None
    sb.webhook.retry_cap = 1.0
    sb.add_user("Ann").start("x")
    await sb.wait_for(lambda: not sb.updates.pending, timeout=30)
    gaps = [round(b - a, 1) for a, b in itertools.pairwise(attempts)]
    assert gaps == [0.2, 0.4, 0.8, 1.0]
    assert [d.status for d in sb.webhook.deliveries] == [502, 502, 502, 502, 200]
    await sb.stop_webhook()
    server.close()
