"""The lobby's commands: /newgame opens one, /host takes the host's chair, /cancel ends
the lobby or the game, and /start in private (the lobby's Join link lands there)."""

from __future__ import annotations

from telegram import Update

from tg_mafia.i18n import Translator, resolve_language
from tg_mafia.render.lobby import parse_join
from tg_mafia.runtime.lobby import OtherBot
from tg_mafia.telegram.context import Context
from tg_mafia.telegram.handlers.common import (
    display_name,
    group_translator,
    is_admin,
    left_to_another_bot,
    reply,
    service_of,
    tell_other_bot,
    topic_of,
    user_translator,
)


async def on_newgame(update: Update, context: Context) -> None:
    chat, user, message = update.effective_chat, update.effective_user, update.effective_message
    if chat is None or user is None or message is None:
        return
    if message.sender_chat is not None:
        t = await group_translator(context, chat.id)
        text = t.gettext("Anonymous administrators cannot play: post as yourself to open a lobby.")
        await reply(context, update, text)
        return
    service = service_of(context)
    if await left_to_another_bot(context, update):
        return
    if service.draining.active:
        await reply(context, update, restarting(await group_translator(context, chat.id)))
        return
    error = await service.lobbies.open(
        chat.id,
        topic_of(message),
        chat.title or "",
        user.id,
        display_name(user),
        forum=bool(chat.is_forum),
    )
    if isinstance(error, OtherBot):  # another bot opened it a moment before
        await tell_other_bot(context, update, error.bot_id)
    elif error:
        await reply(context, update, error)


async def on_host(update: Update, context: Context) -> None:
    chat, user, message = update.effective_chat, update.effective_user, update.effective_message
    if chat is None or user is None or message is None or message.sender_chat is not None:
        return
    if await left_to_another_bot(context, update):
        return
    service = service_of(context)
    topic = topic_of(message)
    if not await service.can_write_to(user.id):
        # The host's roles, night moves and confirm button come in private:
        # a host the bot cannot write to would leave the game stuck at the end.
        t = await group_translator(context, chat.id)
        link = f"https://t.me/{context.bot.username}"
        text = t.gettext(
            "To host, open a private chat with me first ({link}), press Start, "
            "then send /host again."
        ).format(link=link)
        await reply(context, update, text)
        return
    admin = await is_admin(context, chat, update)
    answer = await service.lobbies.set_host(chat.id, topic, user.id, display_name(user), admin)
    await reply(context, update, answer)


async def on_cancel(update: Update, context: Context) -> None:
    chat = update.effective_chat
    if chat is None or await left_to_another_bot(context, update):
        return
    if not await is_admin(context, chat, update):
        t = await group_translator(context, chat.id)
        await reply(context, update, t.gettext("Only an administrator may cancel the game."))
        return
    await reply(
        context,
        update,
        await service_of(context).cancel(chat.id, topic_of(update.effective_message)),
    )


async def on_start(update: Update, context: Context) -> None:
    """/start in private: a deep link into a lobby, or a greeting. Either
    way the user can be reached again."""
    user = update.effective_user
    if user is None:
        return
    service = service_of(context)
    service.reachable(user.id)
    payload = context.args[0] if context.args else ""
    t = user_translator(user)
    if payload.startswith("join_"):
        target = parse_join(payload)
        if target is None:
            await reply(context, update, t.gettext("This invitation link is broken."))
            return
        chat_id, topic = target
        language = resolve_language(user.language_code)
        answer = await service.lobbies.join(chat_id, topic, user.id, display_name(user), language)
        await reply(context, update, answer)
        return
    await reply(
        context,
        update,
        t.gettext(
            "🎭 I host Mafia in groups. Add me to a group as an administrator, then send /newgame "
            "there. Players join with the lobby's Join button, which brings them here."
        ),
    )


def restarting(t: Translator) -> str:
    """While the bot drains for a deploy, no game opens or starts."""
    return t.gettext(
        "The bot restarts soon for an update: no new game can start now. "
        "Try again in a few minutes."
    )
