"""Simulation features: anonymous admins, channel posts, edits, raw updates, privacy mode,
long polling, faults, the clock, and the command line."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import urllib.request

import pytest
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut

from tg_mafia.sandbox import (
    GROUP_ANONYMOUS_BOT_ID,
    TELEGRAM_SERVICE_ID,
    Limits,
    Sandbox,
    SandboxBug,
    SimulationError,
)

from .conftest import BOT_RIGHTS, Env

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


async def test_anonymous_admin_and_channel_post(env: Env) -> None:
    sb, group = env.sb, env.group
    sb.promote(group, env.users[2], anonymous=True, can_delete_messages=True)
    env.users[2].send(group, "/newgame", anonymous=True)
    channel = sb.add_channel("News", username="news")
    sb.post_as_channel(group, channel, "from the channel")
    first, second = await env.bot.get_updates()
    assert first.message is not None and second.message is not None
    assert first.message.from_user is not None
    assert first.message.from_user.id == GROUP_ANONYMOUS_BOT_ID
    assert first.message.sender_chat is not None and first.message.sender_chat.id == group.id
    assert second.message.sender_chat is not None and second.message.sender_chat.id == channel.id
    with pytest.raises(SimulationError):
        env.users[0].send(group, "not an admin", anonymous=True)
    with pytest.raises(SimulationError, match="only in groups"):
        env.users[0].send(env.users[0].private_chat, "hidden", anonymous=True)


async def test_edited_message_and_commands(env: Env) -> None:
    said = env.users[0].command(env.group, "vote", args="3", mention=True)
    env.users[0].edit(said, "/vote 4")
    first, second = await env.bot.get_updates()
    assert first.message is not None and first.message.text == f"/vote@{env.sb.bot_username} 3"
    assert first.message.entities[0].type == "bot_command"
    assert second.edited_message is not None and second.edited_message.text == "/vote 4"


async def test_raw_update_injection(env: Env) -> None:
    env.sb.inject_update({"message": {"garbage": True}})
    status, body = await env.sb.call("getUpdates", {})
    assert status == 200 and body["result"][0]["message"] == {"garbage": True}


async def test_privacy_mode_for_a_plain_member_bot() -> None:
    sb = Sandbox()
    users = sb.add_users(2)
    group = sb.add_group("Club", members=users, bot_rights=None)
    users[0].send(group, "chatter")
    users[0].send(group, "/other@someone_else_bot")
    users[0].send(group, f"/newgame@{sb.bot_username}")
    texts = [u["message"]["text"] for u in sb.updates.pending]
    assert texts == [f"/newgame@{sb.bot_username}"]


async def test_blocking_sends_my_chat_member(env: Env) -> None:
    env.users[0].block()
    (update,) = await env.bot.get_updates()
    assert update.my_chat_member is not None
    assert update.my_chat_member.new_chat_member.status == "kicked"


async def test_long_polling_waits_and_wakes() -> None:
    sb = Sandbox(speed=10)
    user = sb.add_user("Ann")
    bot = sb.bot()
    loop = asyncio.get_running_loop()  # a virtual clock: waiting costs nothing
    async with bot:
        began = loop.time()
        assert await bot.get_updates(timeout=3) == ()  # 3 sandbox s = 0.3 s at speed 10
        assert loop.time() - began == pytest.approx(0.3, abs=0.01)
        loop.call_later(0.05, user.start)
        began = loop.time()
        updates = await bot.get_updates(timeout=50)
        assert len(updates) == 1 and loop.time() - began == pytest.approx(0.05, abs=0.01)
        assert await bot.get_updates(offset=updates[0].update_id + 1) == ()


async def test_allowed_updates_filter(env: Env) -> None:
    await env.bot.get_updates(allowed_updates=["callback_query"])
    env.users[0].send(env.group, "hello")
    assert env.sb.updates.pending == []


async def test_injected_faults(env: Env) -> None:
    env.sb.fail_next("429", method="sendMessage", retry_after=7)
    with pytest.raises(RetryAfter):
        await env.bot.send_message(env.group.id, "x")
    env.sb.fail_next("5xx", count=2)
    for _ in range(2):
        with pytest.raises(NetworkError):
            await env.bot.get_me()
    await env.bot.send_message(env.group.id, "fine again")
    assert [r.fault for r in env.sb.log.calls()][-4:] == ["429", "5xx", "5xx", None]


async def test_hang_times_out_but_the_call_happens() -> None:
    sb = Sandbox()
    group = sb.add_group("Club", bot_rights=BOT_RIGHTS)
    bot = sb.bot()
    async with bot:
        sb.fail_next("hang", method="sendMessage", hang_seconds=0.3)
        with pytest.raises(TimedOut):
            await bot.send_message(group.id, "slow", read_timeout=0.05)
        await sb.wait_for(lambda: bool(sb.log.calls("sendMessage", ok=True)), timeout=2)


async def test_fast_clock_frees_the_group_window() -> None:
    sb = Sandbox(speed=200, limits=Limits(group_messages=3))
    group = sb.add_group("Club", bot_rights=BOT_RIGHTS)
    bot = sb.bot()
    async with bot:
        for i in range(3):
            await bot.send_message(group.id, str(i))
        with pytest.raises(RetryAfter):
            await bot.send_message(group.id, "x")
        await sb.clock.sleep(61)  # 0.3 real seconds
        await bot.send_message(group.id, "again")


@pytest.mark.real_time  # a real process: its start and exit take wall-clock time
def test_cli_serves_http() -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tg_mafia.cli", "sandbox", "--port", "0", "--users", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # As a script's background job starts it: SIGINT ignored. Ctrl-C must stop it still.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        assert proc.stdout is not None
        info = json.loads(proc.stdout.readline())
        assert len(info["user_ids"]) == 3 and info["group_chat_id"] < 0
        url = f"{info['base_url']}{info['token']}/getChatAdministrators"
        data = json.dumps({"chat_id": info["group_chat_id"]}).encode()
        request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
        # Generous limits: they fire only if it is stuck, not when the machine is busy.
        with urllib.request.urlopen(request, timeout=60) as response:
            assert json.load(response)["ok"] is True
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0


async def test_get_me_lists_every_capability(env: Env) -> None:
    await env.bot.get_me()
    raw = env.sb.log.calls("getMe")[-1].result
    assert set(env.sb.schema.get_me_fields) <= set(raw)
    assert {"can_join_groups", "supports_inline_queries", "has_main_web_app"} <= set(raw)
    assert raw["can_join_groups"] is True and raw["can_read_all_group_messages"] is False
    open_bot = Sandbox(privacy_mode=False).bot()
    async with open_bot:
        assert (await open_bot.get_me()).can_read_all_group_messages is True


async def test_an_unmodelled_method_fails_the_test(env: Env) -> None:
    with pytest.raises(NetworkError, match="does not model sendDice"):
        await env.bot.send_dice(env.group.id)
    assert env.sb.bugs and "sendDice" in env.sb.bugs[0]
    assert env.sb.log.calls("sendDice")[0].error_code == 500
    with pytest.raises(SandboxBug, match="sendDice"):
        await env.sb.wait_for(lambda: False, timeout=1)
    env.sb.bugs.clear()  # seen: let the fixture close the sandbox
    # sending a file by URL would need the network the sandbox does not have
    with pytest.raises(NetworkError, match="not modelled"):
        await env.bot.send_photo(env.group.id, "https://example.org/night.png")
    with pytest.raises(SandboxBug):
        env.sb.check_bugs()
    env.sb.bugs.clear()


async def test_unmodelled_methods_answer_501_when_not_strict() -> None:
    sb = Sandbox(strict=False)
    group = sb.add_group("Club", bot_rights=BOT_RIGHTS)
    async with sb.bot() as bot:
        with pytest.raises(NetworkError, match="Not Implemented"):
            await bot.send_dice(group.id)
    assert sb.log.calls("sendDice")[0].error_code == 501 and not sb.bugs
    await sb.close()


async def test_automatic_forwards_from_a_linked_channel(env: Env) -> None:
    sb, group = env.sb, env.group
    channel = sb.add_channel("News", username="news", discussion=group)
    sb.add_bot(channel, by=env.users[4], rights={})  # the bot administers the channel
    sb.updates.drop_all()
    post, forward = sb.channel_post(channel, "Tonight at nine")
    assert forward is not None
    in_channel, in_group = await env.bot.get_updates()
    assert in_channel.channel_post is not None and in_channel.channel_post.from_user is None
    assert in_channel.channel_post.sender_chat is not None
    message = in_group.message
    assert message is not None and message.is_automatic_forward is True
    assert message.from_user is not None and message.from_user.id == TELEGRAM_SERVICE_ID
    assert message.sender_chat is not None and message.sender_chat.id == channel.id
    assert message.forward_origin is not None
    assert message.forward_origin.message_id == post.message_id  # type: ignore[attr-defined]
    assert (await env.bot.get_chat(group.id)).linked_chat_id == channel.id
    # comments under the post are replies in its thread
    comment = env.users[0].send(group, "see you there", reply_to=forward.message_id)
    assert comment.thread_id == forward.message_id


async def test_protected_content(env: Env) -> None:
    sent = await env.bot.send_message(env.group.id, "the roles", protect_content=True)
    assert sent.has_protected_content is True
    plain = await env.bot.send_message(env.group.id, "chatter")
    assert plain.has_protected_content is None
    assert [m.protected for m in env.users[0].view(env.group)] == [True, False]


async def test_a_chat_action_needs_what_a_message_needs(env: Env) -> None:
    """sendChatAction: shown to a user who started the bot; 403 as a message
    would be to one who did not, or who blocked it; a wrong action is a 400."""
    assert await env.bot.send_chat_action(env.users[0].id, "typing")
    with pytest.raises(Forbidden):
        await env.bot.send_chat_action(env.users[2].id, "typing")  # never started
    env.users[1].block()
    with pytest.raises(Forbidden):
        await env.bot.send_chat_action(env.users[1].id, "typing")
    with pytest.raises(BadRequest):
        await env.bot.send_chat_action(env.users[0].id, "dancing")
