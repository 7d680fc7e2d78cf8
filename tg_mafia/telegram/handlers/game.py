"""The game's handlers: the lobby's commands and deep link, the buttons of
a game, posts in the group, and the family's talk in private. Each parses
its update and hands it to the service."""

from __future__ import annotations

from telegram import Update

from tg_mafia.i18n import Translator, resolve_language, translator
from tg_mafia.records import GameRecord
from tg_mafia.render import texts
from tg_mafia.render.callbacks import Kind
from tg_mafia.render.texts.rules import rules, safe_options
from tg_mafia.runtime import archive
from tg_mafia.runtime.gate import CheckedPress
from tg_mafia.runtime.lobby import RIGHTS, parse_join
from tg_mafia.runtime.service import is_move
from tg_mafia.telegram.handlers.common import (
    Context,
    answer_query,
    display_name,
    group_translator,
    is_admin,
    is_member_admin,
    reply,
    service_of,
    topic_of,
    user_translator,
)

LEFT = ("left", "kicked")


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
    if service.draining.active:
        await reply(context, update, _restarting(await group_translator(context, chat.id)))
        return
    error = await service.lobbies.open(
        chat.id,
        topic_of(message),
        chat.title or "",
        user.id,
        display_name(user),
        forum=bool(chat.is_forum),
    )
    if error:
        await reply(context, update, error)


async def on_host(update: Update, context: Context) -> None:
    chat, user, message = update.effective_chat, update.effective_user, update.effective_message
    if chat is None or user is None or message is None or message.sender_chat is not None:
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
    if chat is None:
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


async def on_button(press: CheckedPress, context: Context) -> None:
    """Every game's button (the settings menu has its own), checked by the gate:
    the game is the one the pressed message serves."""
    service = service_of(context)
    button, query, user_id = press.button, press.query, press.user_id
    if press.game_id is None:
        await answer_query(query, texts.popup(user_translator(query.from_user), "stale"))
        return
    if is_move(button):
        await answer_query(query, await service.press_move(press.game_id, button, user_id))
        return
    record = await service.queries.game(press.game_id)
    if record is None:
        await answer_query(query, texts.popup(user_translator(query.from_user), "stale"))
        return
    await answer_query(query, await _not_a_move(context, press, record))


async def _not_a_move(context: Context, press: CheckedPress, record: GameRecord) -> str:
    """The popup for a press that is no move of the game."""
    service = service_of(context)
    button, user_id = press.button, press.user_id
    t = translator(record.language)
    starting = button.kind is Kind.NEW_GAME or (
        button.kind is Kind.LOBBY and button.args == ("start",)
    )
    if starting and service.draining.active:
        return _restarting(t)
    if button.kind is Kind.LOBBY and button.args == ("rules",):
        return await _rules_in_private(context, record, user_id)
    if button.kind is Kind.NEW_GAME:
        # The end screen's button: a new lobby, as /newgame would open it, by a member.
        if not await service.members.is_member(record.chat_id, user_id):
            return texts.popup(t, "members_only")
        chat = press.query.message.chat if press.query.message else None
        error = await service.lobbies.open(
            record.chat_id,
            record.topic,
            (chat.title if chat else None) or record.title,
            user_id,
            display_name(press.query.from_user),
            forum=bool(chat and chat.is_forum),
        )
        return error or texts.popup(t, "ok")
    if button.kind is Kind.PROTOCOL:
        if not await _may_read(context, record, user_id):
            return texts.popup(t, "members_only")
        return await _protocol_in_private(context, record, user_id)
    if button.kind is Kind.LOBBY and len(button.args) == 1:
        admin = await is_member_admin(context, record.chat_id, user_id)
        return await service.lobbies.press(record.id, user_id, button.args[0], admin)
    return await service.press(record, user_id, button)


async def _may_read(context: Context, record: GameRecord, user_id: int) -> bool:
    """A game's protocol is for its players, its host and the members of its group."""
    if record.seat_of(user_id) is not None or record.host_user_id == user_id:
        return True
    return await service_of(context).members.is_member(record.chat_id, user_id)


def _restarting(t: Translator) -> str:
    """While the bot drains for a deploy, no game opens or starts."""
    return t.gettext(
        "The bot restarts soon for an update: no new game can start now. "
        "Try again in a few minutes."
    )


async def _rules_in_private(context: Context, record: GameRecord, user_id: int) -> str:
    """The lobby's Rules button: the game's rules in the presser's private chat."""
    t = translator(record.language)
    service = service_of(context)
    if not await service.can_write_to(user_id):
        return texts.popup(t, "start_me")
    options = safe_options(record.variant, dict(record.options))
    await service.answer(user_id, rules(t, record.variant, options))
    return texts.popup(t, "see_private")


async def _protocol_in_private(context: Context, record: GameRecord, user_id: int) -> str:
    """The end screen's Protocol button: the game's protocol in the presser's
    private chat (the group is spared a copy per press)."""
    t = translator(record.language)
    service = service_of(context)
    if not await service.can_write_to(user_id):
        return texts.popup(t, "start_me")
    refused = await service.adb.run(
        archive.protocol_of_game, record.id, user_id, service.clock.now()
    )
    if refused:
        return refused
    service.sender.wake()
    return texts.popup(t, "see_private")


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


async def on_private_text(update: Update, context: Context) -> None:
    message, user = update.message, update.effective_user
    if message is None or user is None or not message.text:
        return
    answer = await service_of(context).private_text(user.id, message.text)
    if answer:
        await reply(context, update, answer)


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
