"""Between games: /nextgame (be told in private when the next lobby opens
here), /extend (the lobby waits longer) and /protocol (the last finished
game's protocol)."""

from __future__ import annotations

from telegram import Update

from tg_mafia.runtime import archive
from tg_mafia.runtime.lobby import EXTEND_RANGE, EXTEND_SECONDS
from tg_mafia.telegram.context import Context
from tg_mafia.telegram.handlers.common import (
    group_translator,
    is_admin,
    left_to_another_bot,
    reply,
    service_of,
    topic_of,
)


async def on_nextgame(update: Update, context: Context) -> None:
    chat, user, message = update.effective_chat, update.effective_user, update.effective_message
    if chat is None or user is None or message is None or message.sender_chat is not None:
        return
    service = service_of(context)
    t = await group_translator(context, chat.id)
    topic = topic_of(message)
    if not await service.can_write_to(user.id):
        link = f"https://t.me/{context.bot.username}"
        text = t.gettext(
            "I tell you in private: open a private chat with me first ({link}), press Start, "
            "then send /nextgame again."
        ).format(link=link)
        await reply(context, update, text)
        return

    if await service.queries.toggle_next_game(chat.id, topic, user.id):
        text = t.gettext(
            "🔔 I will tell you in private whenever a new game opens here. "
            "Send /nextgame again to stop."
        )
    else:
        text = t.gettext("🔕 I will no longer tell you when a game opens here.")
    await reply(context, update, text)


async def on_extend(update: Update, context: Context) -> None:
    chat, user, message = update.effective_chat, update.effective_user, update.effective_message
    if chat is None or user is None or message is None:
        return
    if await left_to_another_bot(context, update):
        return
    t = await group_translator(context, chat.id)
    low, high = EXTEND_RANGE
    seconds = EXTEND_SECONDS
    if context.args:
        given = context.args[0]
        if not given.isdigit() or not low <= int(given) <= high:
            text = t.gettext("/extend takes a number of seconds from {low} to {high}.")
            await reply(context, update, text.format(low=low, high=high))
            return
        seconds = int(given)
    admin = await is_admin(context, chat, update)
    service = service_of(context)
    answer = await service.lobbies.extend(chat.id, topic_of(message), user.id, admin, seconds)
    await reply(context, update, answer)


async def on_protocol(update: Update, context: Context) -> None:
    chat = update.effective_chat
    if chat is None:
        return
    service = service_of(context)
    refused = await service.adb.run(
        archive.protocol_of_chat, chat.id, topic_of(update.effective_message), service.clock.now()
    )
    if refused:
        await reply(context, update, refused)
    else:
        service.sender.wake()
