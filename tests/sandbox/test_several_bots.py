"""One world, several bots: each its own account, updates, webhook and flood limits;
users and groups shared; a private chat per (bot, user). Each fact against Telegram's
own wording (the Bot API docs and FAQ)."""

from __future__ import annotations

import pytest
from telegram import Bot
from telegram.error import BadRequest, Forbidden, InvalidToken, RetryAfter

from tg_mafia.sandbox import HttpTransport, Limits, Sandbox, SimulationError
from tg_mafia.telegram.transport import AiohttpRequest

from .conftest import BOT_RIGHTS


def texts(sb: Sandbox, bot: object = None) -> list[str]:
    account = sb.bot_named(bot)  # type: ignore[arg-type]
    return [u["message"].get("text", "") for u in account.updates.pending if "message" in u]


async def test_each_bot_is_its_own_account() -> None:
    """getMe answers for the token's own bot; a token no bot has is 401 Unauthorized
    (PTB: InvalidToken), over HTTP as in-process."""
    sb = Sandbox()
    other = sb.create_bot("werewolf_two_bot", "Werewolf Two")
    assert other.id != sb.default_bot.id and other.token != sb.token
    assert other.token.split(":")[0] == str(other.id)  # BotFather's <bot id>:<secret>
    first, second = sb.bot(), sb.bot(other)
    await first.initialize()
    await second.initialize()
    assert (first.username, second.username) == (sb.bot_username, "werewolf_two_bot")
    assert [r.bot_id for r in sb.log.calls(method="getMe")] == [sb.default_bot.id, other.id]
    async with HttpTransport(sb) as http:
        stranger = Bot(
            f"{other.id + 1}:SANDBOX-nobody-token",
            base_url=http.base_url,
            request=AiohttpRequest(),
        )
        with pytest.raises(InvalidToken):
            await stranger.initialize()
        await stranger.shutdown()
    with pytest.raises(SimulationError, match="taken"):  # usernames are unique
        sb.create_bot("WEREWOLF_two_bot")


async def test_a_private_chat_is_per_bot_and_each_bot_must_be_started() -> None:
    """ "Bots can't initiate conversations with users. A user must either add them to a
    group or send them a message first": started with bot A only, bot B is refused
    (403); once B is started, each chat has its own messages, both known by the
    user's id."""
    sb = Sandbox()
    b = sb.create_bot("second_bot")
    (ann,) = sb.add_users(1)
    ann.start()  # the default bot only
    bot_a, bot_b = sb.bot(), sb.bot(b)
    sent = await bot_a.send_message(ann.id, "from A")
    with pytest.raises(Forbidden, match="can't initiate conversation"):
        await bot_b.send_message(ann.id, "from B")
    ann.start(bot=b)
    from_b = await bot_b.send_message(ann.id, "from B")
    assert sent.chat.id == from_b.chat.id == ann.id
    assert sent.message_id == from_b.message_id == 2  # each chat counts its own (after /start)
    assert [m.text for m in ann.view()] == ["/start", "from A"]
    assert [m.text for m in ann.view(ann.private_chat_with(b))] == ["/start", "from B"]
    assert texts(sb) == ["/start"] and texts(sb, b) == ["/start"]  # each its own /start
    ann.block(b)  # blocking one bot leaves the other alone
    with pytest.raises(Forbidden, match="blocked"):
        await bot_b.send_message(ann.id, "again")
    await bot_a.send_message(ann.id, "still")
    assert b.updates.pending[-1]["my_chat_member"]["new_chat_member"]["status"] == "kicked"


async def test_a_deep_link_opens_the_chat_with_the_bot_it_names() -> None:
    """t.me/<bot>?start=<payload>: the /start <payload> goes to that bot."""
    sb = Sandbox()
    b = sb.create_bot("second_bot")
    (ann,) = sb.add_users(1)
    ann.open_deep_link(sb.deep_link("join_1", b))
    assert texts(sb) == [] and texts(sb, b) == ["/start join_1"]
    assert ann.user.link(b.id).started and not ann.user.started


async def test_a_group_sees_the_bots_added_to_it() -> None:
    """A bot that is not in the group is refused there (403); added, it gets its own
    my_chat_member, and a bot already there as an administrator hears of it as of any
    member (chat_member, when asked for, and the service message)."""
    sb = Sandbox()
    b = sb.create_bot("second_bot")
    owner, ann = sb.add_users(2)
    group = sb.add_group("Club", members=[ann], owner=owner, bot_rights=BOT_RIGHTS)
    bot_b = sb.bot(b)
    with pytest.raises(Forbidden, match="not a member"):
        await bot_b.send_message(group.id, "hello")
    sb.default_bot.updates.set_allowed(["message", "chat_member", "my_chat_member"])
    sb.add_bot(group, bot=b, rights=BOT_RIGHTS)
    (mine,) = b.updates.pending[:1]
    assert mine["my_chat_member"]["new_chat_member"]["user"]["id"] == b.id
    kinds = [next(k for k in u if k != "update_id") for u in sb.updates.pending]
    assert kinds == ["chat_member", "message"]
    await bot_b.send_message(group.id, "hello")
    sb.remove_bot(group, bot=b)
    with pytest.raises(Forbidden, match="kicked"):
        await bot_b.send_message(group.id, "again")
    await sb.bot().send_message(group.id, "the default bot stays")


async def test_commands_reach_every_bot_that_would_get_them() -> None:
    """A bare /cmd reaches every bot in the group that reads it (an administrator, or
    privacy mode off; with privacy mode on, the last bot that posted, or every one
    when none has); /cmd@name only that bot (PTB's CommandHandler ignores the others'
    too); each bot's own messages never reach another bot."""
    sb = Sandbox()
    b = sb.create_bot("second_bot")
    owner, ann = sb.add_users(2)
    admins = sb.add_group("Admins", members=[ann], owner=owner, bots=[sb.default_bot, b],
                          bot_rights=BOT_RIGHTS)  # fmt: skip
    ann.send(admins, "/newgame")
    ann.send(admins, "/newgame@second_bot")
    assert texts(sb) == ["/newgame", "/newgame@second_bot"]  # it reads the whole group
    assert texts(sb, b) == ["/newgame", "/newgame@second_bot"]
    await sb.bot(b).send_message(admins.id, "B speaks")
    assert texts(sb) == ["/newgame", "/newgame@second_bot"]  # never another bot's post
    for bot in sb.bots.values():
        bot.updates.drop_all()
    members = sb.add_group("Members", members=[ann], owner=owner, bots=[sb.default_bot, b],
                           bot_rights=None)  # fmt: skip
    ann.send(members, "/newgame")  # no bot posted yet: both
    ann.command(members, "newgame", mention=True, bot=b)
    assert texts(sb) == ["/newgame"]
    assert texts(sb, b) == ["/newgame", "/newgame@second_bot"]
    await sb.bot().send_message(members.id, "A speaks")
    ann.send(members, "/rules")  # the default bot posted last
    assert texts(sb)[-1] == "/rules" and texts(sb, b)[-1] != "/rules"


async def test_a_press_goes_to_the_bot_whose_message_it_is_on() -> None:
    """A callback query is the bot's whose inline keyboard was pressed; another bot
    cannot answer it ("query ID is invalid")."""
    sb = Sandbox()
    b = sb.create_bot("second_bot")
    owner, ann = sb.add_users(2)
    group = sb.add_group("Club", members=[ann], owner=owner, bots=[sb.default_bot, b],
                         bot_rights=BOT_RIGHTS)  # fmt: skip
    keyboard = {"inline_keyboard": [[{"text": "Join", "callback_data": "j"}]]}
    await sb.bot(b).send_message(group.id, "B's lobby", reply_markup=keyboard)
    for bot in sb.bots.values():
        bot.updates.drop_all()
    press = ann.press(group, "Join")
    assert sb.updates.pending == [] and "callback_query" in b.updates.pending[0]
    with pytest.raises(BadRequest, match=r"(?i)query id is invalid"):
        await sb.bot().answer_callback_query(press.query_id)
    await sb.bot(b).answer_callback_query(press.query_id, "ok")
    assert press.answered


async def test_each_bot_has_its_own_flood_limits() -> None:
    """The limits are a bot's ("about 30 messages per second", "no more than 20
    messages per minute" in one group): one bot past them leaves the other untouched."""
    sb = Sandbox(limits=Limits(global_messages=3, group_messages=2))
    b = sb.create_bot("second_bot")
    owner, ann = sb.add_users(2)
    group = sb.add_group("Club", members=[ann], owner=owner, bots=[sb.default_bot, b],
                         bot_rights=BOT_RIGHTS)  # fmt: skip
    bot_a, bot_b = sb.bot(), sb.bot(b)
    await bot_a.send_message(group.id, "1")
    await bot_a.send_message(group.id, "2")
    with pytest.raises(RetryAfter):
        await bot_a.send_message(group.id, "3")
    await bot_b.send_message(group.id, "1")  # B's own budget in the same group
    await bot_b.send_message(group.id, "2")
    assert sb.log.count_429(sb.default_bot.id) == 1 and sb.log.count_429(b.id) == 0
    assert sb.log.peak_in_window(group.id, bot_id=b.id) == 2
    assert sb.log.peak_in_window(group.id) == 4


async def test_each_bot_has_its_own_webhook() -> None:
    """setWebhook is a bot's: its updates go to its URL, the other bot's do not."""
    sb = Sandbox()
    b = sb.create_bot("second_bot")
    await sb.bot(b).set_webhook("http://127.0.0.1:1/b", secret_token="s")
    assert sb.webhook is None and b.webhook is not None
    assert b.webhook.config.url == "http://127.0.0.1:1/b"
    info = await sb.bot().get_webhook_info()
    assert info.url == ""
    await sb.bot().get_updates(timeout=0)  # the default bot still polls
    await sb.close()
    assert b.webhook is None
