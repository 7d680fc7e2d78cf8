"""Changes of a group and of who is in it: a member left or was removed, the bot's own
membership (blocked, removed, promoted), the group became a supergroup, a forum topic
was closed. The runtime's Membership decides what each does to a game."""

from __future__ import annotations

from telegram import Update

from tg_mafia.runtime.lobby import RIGHTS
from tg_mafia.telegram.context import Context
from tg_mafia.telegram.handlers.common import service_of

LEFT = ("left", "kicked")


async def on_member_left(update: Update, context: Context) -> None:
    """A member left or was removed: the `chat_member` update, or the service
    message (which an administrator bot gets without asking)."""
    service = service_of(context)
    change = update.chat_member
    if change is not None:
        if change.new_chat_member.status in LEFT:
            await service.membership.member_left(change.chat.id, change.new_chat_member.user.id)
        return
    message = update.effective_message
    if message is None or message.left_chat_member is None:
        return
    if message.left_chat_member.id == context.bot.id:
        await service.membership.bot_removed(message.chat.id)
    else:
        await service.membership.member_left(message.chat.id, message.left_chat_member.id)


async def on_migrated(update: Update, context: Context) -> None:
    """The group became a supergroup: its games move to the new chat id."""
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id is not None:
        old, new = message.chat.id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id is not None:
        old, new = message.migrate_from_chat_id, message.chat.id
    else:
        return
    await service_of(context).membership.migrated(old, new)


async def on_topic_closed(update: Update, context: Context) -> None:
    """An administrator closed a forum topic (perhaps a game's)."""
    message = update.effective_message
    if message is not None and message.message_thread_id:
        await service_of(context).membership.topic_closed(
            message.chat.id, message.message_thread_id
        )


async def on_topic_reopened(update: Update, context: Context) -> None:
    """Someone reopened a forum topic (perhaps a game's, suspended while it was closed)."""
    message = update.effective_message
    if message is not None and message.message_thread_id:
        await service_of(context).membership.topic_reopened(
            message.chat.id, message.message_thread_id
        )


async def on_my_chat_member(update: Update, context: Context) -> None:
    """The bot's own membership: a user blocked or unblocked it; a group
    removed, added, promoted or demoted it."""
    change = update.my_chat_member
    if change is None:
        return
    service = service_of(context)
    member = change.new_chat_member
    if member.user.id != context.bot.id and change.chat.type != "private":
        return  # about someone else: not an update Telegram sends about the bot
    if change.chat.type == "private":
        if member.status == "member":
            service.reachable(change.chat.id)  # unblocked: their waiting messages go out
        return
    if member.status in LEFT:
        await service.membership.bot_removed(change.chat.id)
        return
    rights = {r: bool(getattr(member, r, False)) for r in RIGHTS}
    if member.status == "creator":
        rights = dict.fromkeys(RIGHTS, True)
    await service.membership.rights_changed(change.chat.id, rights)
