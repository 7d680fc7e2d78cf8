"""Forum supergroups: topics, the General topic, closed topics and the rights to manage
them, on both transports."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from telegram import Bot, ChatPermissions
from telegram.error import BadRequest

from tg_mafia.sandbox import GENERAL_TOPIC_ID, Sandbox, SimulationError, SimUser
from tg_mafia.sandbox.world.state import Chat

from .conftest import BOT_RIGHTS, TRANSPORTS, connected

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

TOPIC_RIGHTS = {**BOT_RIGHTS, "can_manage_topics": True}


@dataclass
class Forum:
    sb: Sandbox
    bot: Bot
    chat: Chat
    users: list[SimUser]  # users[3] owns the forum

    @property
    def owner(self) -> SimUser:
        return self.users[3]


@pytest.fixture(params=TRANSPORTS)
async def forum(request: pytest.FixtureRequest) -> AsyncIterator[Forum]:
    sb = Sandbox()
    users = sb.add_users(4)
    chat = sb.add_group("Town", members=users, owner=users[3], bot_rights=BOT_RIGHTS, forum=True)
    async with connected(sb, request.param) as bot:
        yield Forum(sb, bot, chat, users)


async def test_topics_and_general(forum: Forum) -> None:
    sb, chat, user = forum.sb, forum.chat, forum.users[0]
    assert (await forum.bot.get_chat(chat.id)).is_forum is True
    night = sb.create_topic(chat, "Night", by=forum.owner)
    said = user.send(chat, "in the topic", topic=night)
    user.send(chat, "in General")
    user.send(chat, "General, named", topic=GENERAL_TOPIC_ID)
    user.send(chat, "a reply lands in the topic", reply_to=said.message_id)
    created, in_topic, general, named, reply = [u.message for u in await forum.bot.get_updates()]
    assert created and in_topic and general and named and reply
    assert created.forum_topic_created is not None
    assert created.forum_topic_created.name == "Night"
    assert created.message_thread_id == created.message_id == night
    assert (in_topic.message_thread_id, in_topic.is_topic_message) == (night, True)
    # messages in a topic reply implicitly to the message that opened it
    assert in_topic.reply_to_message and in_topic.reply_to_message.message_id == night
    for message in (general, named):
        assert message.message_thread_id is None and not message.is_topic_message
    assert reply.message_thread_id == night and reply.reply_to_message
    assert reply.reply_to_message.message_id == said.message_id

    sent = await forum.bot.send_message(chat.id, "bot in the topic", message_thread_id=night)
    assert sent.message_thread_id == night and sent.is_topic_message
    document = await forum.bot.send_document(
        chat.id, b"minutes", filename="night.txt", message_thread_id=night
    )
    assert document.message_thread_id == night and document.is_topic_message
    texts = [m.body for m in user.view(chat, topic=night)]
    assert texts == [None, "in the topic", "a reply lands in the topic", "bot in the topic", None]
    assert [m.body for m in user.view(chat, topic=GENERAL_TOPIC_ID)] == [
        "in General",
        "General, named",
    ]


async def test_the_bot_manages_topics(forum: Forum) -> None:
    sb, bot, chat = forum.sb, forum.bot, forum.chat
    sb.set_bot_rights(chat, TOPIC_RIGHTS)
    topic = await bot.create_forum_topic(chat.id, "Day")
    assert topic.name == "Day" and topic.icon_color == 7322096
    assert await bot.edit_forum_topic(chat.id, topic.message_thread_id, name="Day 1")
    assert chat.topics[topic.message_thread_id].name == "Day 1"
    with pytest.raises(BadRequest, match=r"(?i)TOPIC_NOT_MODIFIED"):
        await bot.edit_forum_topic(chat.id, topic.message_thread_id, name="Day 1")

    assert await bot.close_forum_topic(chat.id, topic.message_thread_id)
    with pytest.raises(SimulationError, match="closed"):
        forum.users[0].send(chat, "let me in", topic=topic.message_thread_id)
    forum.owner.send(chat, "the owner may", topic=topic.message_thread_id)
    await bot.send_message(chat.id, "so may the bot", message_thread_id=topic.message_thread_id)
    with pytest.raises(BadRequest, match=r"(?i)TOPIC_NOT_MODIFIED"):
        await bot.close_forum_topic(chat.id, topic.message_thread_id)
    assert await bot.reopen_forum_topic(chat.id, topic.message_thread_id)
    forum.users[0].send(chat, "open again", topic=topic.message_thread_id)

    assert await bot.close_general_forum_topic(chat.id)
    with pytest.raises(SimulationError, match="closed"):
        forum.users[0].send(chat, "General is shut")
    assert await bot.reopen_general_forum_topic(chat.id)
    forum.users[0].send(chat, "General is open")
    services = [m.service for m in forum.users[0].view(chat) if m.service]
    assert services == [
        "created topic Day",
        "edited the topic",
        "closed the topic",
        "reopened the topic",
        "closed the topic",
        "reopened the topic",
    ]
    # the bot is not sent the service messages of its own acts
    updates = await bot.get_updates()
    assert not [u for u in updates if u.message and u.message.from_user
                and u.message.from_user.id == sb.bot_user.id]  # fmt: skip


async def test_topic_rights(forum: Forum) -> None:
    sb, bot, chat = forum.sb, forum.bot, forum.chat
    with pytest.raises(BadRequest, match=r"(?i)not enough rights to create a topic"):
        await bot.create_forum_topic(chat.id, "Mine")
    theirs = sb.create_topic(chat, "Theirs", by=forum.owner)
    with pytest.raises(BadRequest, match=r"(?i)not enough rights to edit the topic"):
        await bot.edit_forum_topic(chat.id, theirs, name="Ours")
    with pytest.raises(BadRequest, match=r"(?i)not enough rights to close or open the topic"):
        await bot.close_forum_topic(chat.id, theirs)
    with pytest.raises(BadRequest, match=r"(?i)not enough rights to close or open the topic"):
        await bot.close_general_forum_topic(chat.id)
    sb.close_topic(chat, theirs, by=forum.owner)
    with pytest.raises(BadRequest, match=r"(?i)TOPIC_CLOSED"):
        await bot.send_message(chat.id, "closed to me", message_thread_id=theirs)
    with pytest.raises(SimulationError, match="may not create topics"):
        sb.create_topic(chat, "Users' own", by=forum.users[0])

    # members may open topics when the chat allows it, and manage the ones they opened
    permissions = ChatPermissions(can_send_messages=True, can_manage_topics=True)
    await bot.set_chat_permissions(chat.id, permissions, use_independent_chat_permissions=True)
    mine = await bot.create_forum_topic(chat.id, "Mine")
    assert await bot.close_forum_topic(chat.id, mine.message_thread_id)
    await bot.send_message(chat.id, "my own closed topic", message_thread_id=mine.message_thread_id)
    users_topic = sb.create_topic(chat, "Users' own", by=forum.users[0])
    sb.close_topic(chat, users_topic, by=forum.users[0])
    forum.users[0].send(chat, "the creator may", topic=users_topic)
    with pytest.raises(SimulationError, match="closed"):
        forum.users[1].send(chat, "others may not", topic=users_topic)


async def test_threads_that_do_not_exist(forum: Forum) -> None:
    bot, chat = forum.bot, forum.chat
    for thread in (999, GENERAL_TOPIC_ID):  # General is reached without a thread id
        with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
            await bot.send_message(chat.id, "where?", message_thread_id=thread)
    with pytest.raises(BadRequest, match=r"(?i)TOPIC_ID_INVALID"):
        await bot.close_forum_topic(chat.id, 999)
    with pytest.raises(SimulationError, match="no topic"):
        forum.users[0].send(chat, "where?", topic=999)
    plain = forum.sb.add_group("Plain", members=forum.users, bot_rights=TOPIC_RIGHTS)
    with pytest.raises(BadRequest, match=r"(?i)the chat is not a forum"):
        await bot.create_forum_topic(plain.id, "Nope")
    sent = await bot.send_message(plain.id, "thread ignored", message_thread_id=999)
    assert sent.message_thread_id is None
    with pytest.raises(SimulationError, match="no topics"):
        forum.users[0].send(plain, "x", topic=5)


async def test_reply_threads_in_a_plain_supergroup(forum: Forum) -> None:
    plain = forum.sb.add_group("Plain", members=forum.users, bot_rights=BOT_RIGHTS)
    root = forum.users[0].send(plain, "root")
    first = forum.users[1].send(plain, "reply", reply_to=root.message_id)
    forum.users[2].send(plain, "reply to the reply", reply_to=first.message_id)
    updates = await forum.bot.get_updates()
    threads = [(u.message.message_thread_id, u.message.is_topic_message) for u in updates
               if u.message]  # fmt: skip
    assert threads == [(None, None), (root.message_id, None), (root.message_id, None)]


async def test_a_pin_leaves_its_service_message_in_the_topic_of_the_message(forum: Forum) -> None:
    forum.sb.set_bot_rights(forum.chat, {**TOPIC_RIGHTS, "can_pin_messages": True})
    topic = forum.sb.create_topic(forum.chat, "Table", by=forum.owner)
    sent = await forum.bot.send_message(forum.chat.id, "lobby", message_thread_id=topic)
    await forum.bot.pin_chat_message(forum.chat.id, sent.message_id)
    service = [m for m in forum.chat.messages.values() if m.pinned_message_id == sent.message_id]
    assert len(service) == 1 and service[0].thread_id == topic


async def test_an_admin_closes_and_reopens_the_topic_of_the_bot(forum: Forum) -> None:
    """Telegram sends forum_topic_closed / forum_topic_reopened as service messages (the
    bot gets every service message); while closed, a bot without can_manage_topics that
    did not create the topic is refused TOPIC_CLOSED; with the right it may reopen it."""
    sb, bot, chat = forum.sb, forum.bot, forum.chat
    table = sb.create_topic(chat, "Table", by=forum.owner)
    sb.close_topic(chat, table, by=forum.owner)
    with pytest.raises(BadRequest, match=r"(?i)TOPIC_CLOSED"):
        await bot.send_message(chat.id, "day 2", message_thread_id=table)
    sb.reopen_topic(chat, table, by=forum.owner)
    created, closed, reopened = [u.message for u in await bot.get_updates()]
    assert created and closed and reopened
    assert closed.forum_topic_closed is not None and closed.message_thread_id == table
    assert reopened.forum_topic_reopened is not None and reopened.message_thread_id == table
    await bot.send_message(chat.id, "day 2", message_thread_id=table)
    sb.close_topic(chat, table, by=forum.owner)
    sb.set_bot_rights(chat, TOPIC_RIGHTS)
    await bot.send_message(chat.id, "I may post here", message_thread_id=table)
    assert await bot.reopen_forum_topic(chat.id, table)
    assert not chat.topics[table].closed


async def test_a_deleted_topic_goes_with_its_messages(forum: Forum) -> None:
    """deleteForumTopic: "delete a forum topic along with all its messages"; Telegram
    tells the bot nothing, and then answers a post into it "message thread not found"."""
    sb, bot, chat = forum.sb, forum.bot, forum.chat
    table = sb.create_topic(chat, "Table", by=forum.owner)
    said = await bot.send_message(chat.id, "Players (0)", message_thread_id=table)
    forum.users[0].send(chat, "me too", topic=table)
    await bot.get_updates()
    confirmed = (await bot.get_updates())[-1].update_id
    sb.delete_topic(chat, table, by=forum.owner)
    assert await bot.get_updates(offset=confirmed + 1) == ()
    assert forum.users[0].view(chat, topic=table) == []
    with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
        await bot.send_message(chat.id, "Day 1", message_thread_id=table)
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("Players (1)", chat_id=chat.id, message_id=said.message_id)
    with pytest.raises(BadRequest, match=r"(?i)TOPIC_ID_INVALID"):
        await bot.close_forum_topic(chat.id, table)
    with pytest.raises(SimulationError, match="no topic"):
        forum.users[0].send(chat, "hello?", topic=table)
    with pytest.raises(SimulationError, match="may not delete topics"):
        sb.delete_topic(chat, sb.create_topic(chat, "Theirs", by=forum.owner), by=forum.users[0])
    # the bot deletes a topic only with can_delete_messages
    mine = sb.create_topic(chat, "Mine", by=forum.owner)
    sb.set_bot_rights(chat, {"can_manage_topics": True})
    with pytest.raises(BadRequest, match=r"(?i)not enough rights to delete the topic"):
        await bot.delete_forum_topic(chat.id, mine)
    sb.set_bot_rights(chat, TOPIC_RIGHTS)
    assert await bot.delete_forum_topic(chat.id, mine)
    assert mine not in chat.topics
