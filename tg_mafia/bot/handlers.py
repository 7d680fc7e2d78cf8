"""Thin PTB handlers: parse the update, hand it to the game service, answer."""

from __future__ import annotations

import logging
from typing import Any

from telegram import Chat, Update, User
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from tg_mafia.bot import buttons, rules_text, settings_menu, stats_text, texts
from tg_mafia.bot.callbacks import decode
from tg_mafia.bot.outbox import Op
from tg_mafia.bot.service import GameService
from tg_mafia.i18n import resolve_language, translator
from tg_mafia.storage import GameRecord, GameStatus

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE
ADMIN_STATUSES = (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


def service_of(context: Context) -> GameService:
    service: GameService = context.bot_data["service"]
    return service


def display_name(user: User) -> str:
    name = user.full_name.strip() or (user.username or str(user.id))
    return name[:64]


async def is_admin(context: Context, chat: Chat, update: Update) -> bool:
    message = update.effective_message
    if message is not None and message.sender_chat is not None:
        # An anonymous administrator posts as the group itself.
        return message.sender_chat.id == chat.id
    user = update.effective_user
    if user is None:
        return False
    try:
        member = await context.bot.get_chat_member(chat.id, user.id)
    except TelegramError:
        return False
    return member.status in ADMIN_STATUSES


def group_language(context: Context, chat_id: int) -> str:
    return service_of(context).db.get_settings(chat_id).language


async def reply(context: Context, update: Update, text: str) -> None:
    """An answer in the chat the update came from, through that chat's
    outbox: its messages keep their order and its rate limit."""
    chat = update.effective_chat
    if chat is not None:
        service_of(context).outboxes.put(chat.id, Op("send", text=text))


async def on_newgame(update: Update, context: Context) -> None:
    chat, user, message = update.effective_chat, update.effective_user, update.effective_message
    if chat is None or user is None or message is None:
        return
    if message.sender_chat is not None:
        t = translator(group_language(context, chat.id))
        await reply(
            context,
            update,
            t.gettext("Anonymous administrators cannot play: post as yourself to open a lobby."),
        )
        return
    error = await service_of(context).open_lobby(
        chat.id, chat.title or "", user.id, display_name(user)
    )
    if error:
        await reply(context, update, error)


async def on_host(update: Update, context: Context) -> None:
    chat, user, message = update.effective_chat, update.effective_user, update.effective_message
    if chat is None or user is None or message is None or message.sender_chat is not None:
        return
    service = service_of(context)
    record = service.db.active_game(chat.id)
    if record is not None and record.status is GameStatus.LOBBY and record.host_user_id is None:
        # The host's roles, night moves and confirm button come in private:
        # a host the bot cannot write to would leave the game stuck at the end.
        t = translator(record.language)
        try:
            await context.bot.send_message(
                user.id, t.gettext("🎛 You asked to host the game: roles and moves will come here.")
            )
        except TelegramError:
            link = f"https://t.me/{context.bot.username}"
            await reply(
                context,
                update,
                t.gettext(
                    "To host, open a private chat with me first ({link}), press Start, "
                    "then send /host again."
                ).format(link=link),
            )
            return
    await reply(context, update, await service.set_host(chat.id, user.id, display_name(user)))


async def on_cancel(update: Update, context: Context) -> None:
    chat = update.effective_chat
    if chat is None:
        return
    if not await is_admin(context, chat, update):
        t = translator(group_language(context, chat.id))
        await reply(context, update, t.gettext("Only an administrator may cancel the game."))
        return
    await reply(context, update, await service_of(context).cancel(chat.id))


async def on_start(update: Update, context: Context) -> None:
    user = update.effective_user
    if user is None:
        return
    payload = context.args[0] if context.args else ""
    if payload.startswith("join_"):
        chat_text = payload.removeprefix("join_")
        try:
            chat_id = int(chat_text)
        except ValueError:
            chat_id = 0
        if chat_id >= 0:
            language = resolve_language(user.language_code)
            await reply(
                context, update, translator(language).gettext("This invitation link is broken.")
            )
            return
        await reply(
            context, update, await service_of(context).join(chat_id, user.id, display_name(user))
        )
        return
    t = translator(resolve_language(user.language_code))
    await reply(
        context,
        update,
        t.gettext(
            "🎭 I host Mafia in groups. Add me to a group as an administrator, then send /newgame "
            "there. Players join with the lobby's Join button, which brings them here."
        ),
    )


async def on_button(update: Update, context: Context) -> None:
    query = update.callback_query
    if query is None:
        return
    service = service_of(context)
    button = decode(query.data)
    record = service.db.get_game(button.game) if button else None
    t = translator(record.language if record else "en")
    if button is None or record is None:
        await _answer(query, texts.popup(t, "stale"))
        return
    user_id = query.from_user.id
    if button.kind == "L" and button.args == ("rules",):
        text = await send_rules(context, record, user_id)
    elif button.kind == "L" and button.args == ("new",):
        # The end screen's button: a new lobby, as /newgame would open it.
        chat = update.effective_chat
        title = chat.title if chat and chat.title else ""
        error = await service.open_lobby(
            record.chat_id, title, user_id, display_name(query.from_user)
        )
        text = error or texts.popup(t, "ok")
    elif button.kind == "L" and button.args:
        chat = update.effective_chat
        admin = chat is not None and await is_admin(context, chat, update)
        text = await service.lobby_button(record, user_id, button.args[0], admin)
    else:
        text = await buttons.press(service, record, user_id, button)
    await _answer(query, text)


async def send_rules(context: Context, record: GameRecord, user_id: int) -> str:
    """The lobby's Rules button: the game's rules in the presser's private chat."""
    t = translator(record.language)
    options = rules_text.safe_options(record.variant, dict(record.options))
    text = rules_text.rules(t, record.variant, options)
    try:
        await context.bot.send_message(user_id, text, parse_mode="HTML")
    except TelegramError:
        return texts.popup(t, "start_me")
    return texts.popup(t, "see_private")


async def on_help(update: Update, context: Context) -> None:
    chat, user = update.effective_chat, update.effective_user
    if chat is None:
        return
    if chat.type == "private":
        language = resolve_language(user.language_code if user else None)
    else:
        language = group_language(context, chat.id)
    await reply(context, update, texts.help_text(translator(language)))


async def on_group_command_in_private(update: Update, context: Context) -> None:
    user = update.effective_user
    t = translator(resolve_language(user.language_code if user else None))
    await reply(
        context,
        update,
        t.gettext(
            "This command works in a group: add me to a group as an administrator and send it "
            "there."
        ),
    )


async def _answer(query: Any, text: str) -> None:
    try:
        await query.answer(text)
    except TelegramError as error:
        log.info("callback answer failed: %s", error)


async def on_group_post(update: Update, context: Context) -> None:
    message, chat = update.message, update.effective_chat
    if message is None or chat is None:
        return
    if message.sender_chat is not None or message.from_user is None:
        return  # channels and anonymous administrators are never players
    text = message.text or message.caption or ""
    await service_of(context).group_post(chat.id, message.from_user.id, message.message_id, text)


async def on_private_text(update: Update, context: Context) -> None:
    message, user = update.message, update.effective_user
    if message is None or user is None or not message.text:
        return
    answer = await service_of(context).private_text(user.id, message.text)
    if answer:
        await reply(context, update, answer)


async def on_error(update: object, context: Context) -> None:
    log.error("an update could not be handled", exc_info=context.error)


def register(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    groups = filters.ChatType.GROUPS
    private = filters.ChatType.PRIVATE
    app.add_handler(CommandHandler("newgame", on_newgame, groups))
    app.add_handler(CommandHandler("host", on_host, groups))
    app.add_handler(CommandHandler("cancel", on_cancel, groups))
    app.add_handler(CommandHandler("start", on_start, private))
    app.add_handler(CommandHandler("help", on_help))
    app.add_handler(
        CommandHandler(["newgame", "host", "cancel"], on_group_command_in_private, private)
    )
    settings_menu.register(app)
    rules_text.register(app)
    stats_text.register(app)
    app.add_handler(CallbackQueryHandler(on_button))
    app.add_handler(
        MessageHandler(
            groups & filters.UpdateType.MESSAGE & ~filters.COMMAND & ~filters.StatusUpdate.ALL,
            on_group_post,
        )
    )
    app.add_handler(MessageHandler(private & filters.TEXT & ~filters.COMMAND, on_private_text))
    app.add_error_handler(on_error)
