"""Messages: every post in a group (an edit, a command or a piece of media too) is
judged by the game of its topic, and a mafioso's private message at night goes to the
family."""

from __future__ import annotations

from telegram import Update

from tg_mafia.telegram.context import Context
from tg_mafia.telegram.handlers.common import reply, service_of, topic_of


async def on_group_post(update: Update, context: Context) -> None:
    """A post, an edit, a command or a piece of media in a group: the game of
    its topic judges it as a post (a command out of turn is a post out of
    turn; an album is one post)."""
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None:
        return
    service = service_of(context)
    if message.sender_chat is not None or message.from_user is None:
        # A channel or an anonymous administrator: never a player, nobody to warn.
        await service.foreign_post(chat.id, topic_of(message), message.message_id)
        return
    text = message.text or message.caption or ""
    await service.group_post(
        chat.id,
        topic_of(message),
        message.from_user.id,
        message.message_id,
        text,
        album=message.media_group_id,
        forum=bool(chat.is_forum),
    )


async def on_private_text(update: Update, context: Context) -> None:
    message, user = update.message, update.effective_user
    if message is None or user is None or not message.text:
        return
    answer = await service_of(context).private_text(user.id, message.text)
    if answer:
        await reply(context, update, answer)
