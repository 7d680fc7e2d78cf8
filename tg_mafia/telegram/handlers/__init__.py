"""Every handler of the bot, registered in one place, and the command menu Telegram
shows for them. One module per kind of update: the commands (lobby, between, info,
settings, privacy, operator), the button presses (presses, and settings' menu), the
posts (posts) and the changes of a group and its members (members)."""

from __future__ import annotations

import logging

from telegram import BotCommand
from telegram.error import TelegramError
from telegram.ext import (
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from tg_mafia.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, translator
from tg_mafia.render.callbacks import Kind
from tg_mafia.telegram.context import App, Context
from tg_mafia.telegram.handlers import (
    between,
    info,
    lobby,
    members,
    operator,
    posts,
    presses,
    privacy,
    settings,
)
from tg_mafia.telegram.handlers.common import gated, through_gate

log = logging.getLogger(__name__)

COMMANDS = (
    ("newgame", N_("Open a lobby for a new game")),
    ("nextgame", N_("Tell me in private when the next game opens here")),
    ("extend", N_("Give the open lobby more time")),
    ("host", N_("Host the open lobby yourself (you do not play)")),
    ("cancel", N_("Cancel the game (administrators)")),
    ("settings", N_("Language, variant and options (administrators)")),
    ("rules", N_("The rules of the group's variant")),
    ("stats", N_("The leaderboard; in private, your own card")),
    ("protocol", N_("The protocol of the last game")),
    ("help", N_("What I do and how")),
)


async def on_error(update: object, context: Context) -> None:
    log.error("an update could not be handled", exc_info=context.error)
    context.bot_data.metrics.update_errors.inc()


def register(app: App) -> None:
    groups = filters.ChatType.GROUPS
    private = filters.ChatType.PRIVATE
    # First (group -1), every command in a group is also a post: a player's
    # command out of turn is deleted and warned like any post. The command
    # itself is still answered by its own handler below.
    app.add_handler(MessageHandler(groups & filters.COMMAND, posts.on_group_post), group=-1)
    app.add_handler(CommandHandler("newgame", gated(lobby.on_newgame), groups))
    app.add_handler(CommandHandler("host", gated(lobby.on_host), groups))
    app.add_handler(CommandHandler("cancel", gated(lobby.on_cancel), groups))
    app.add_handler(CommandHandler("nextgame", gated(between.on_nextgame), groups))
    app.add_handler(CommandHandler("extend", gated(between.on_extend), groups))
    app.add_handler(CommandHandler("protocol", gated(between.on_protocol), groups))
    app.add_handler(CommandHandler("start", gated(lobby.on_start), private))
    app.add_handler(CommandHandler("help", gated(info.on_help)))
    app.add_handler(CommandHandler("rules", gated(info.on_rules)))
    app.add_handler(CommandHandler("stats", gated(info.on_stats)))
    app.add_handler(CommandHandler("settings", gated(settings.on_settings)))
    app.add_handler(CommandHandler("forget", gated(privacy.on_forget)))
    operator.register(app, app.bot_data.options.owner_id)
    app.add_handler(
        CommandHandler(
            ["newgame", "host", "cancel", "nextgame", "extend", "protocol"],
            gated(info.on_group_command_in_private),
            private,
        )
    )
    _register_presses(app)
    app.add_handler(ChatMemberHandler(members.on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(ChatMemberHandler(members.on_member_left, ChatMemberHandler.CHAT_MEMBER))
    app.add_handler(MessageHandler(filters.StatusUpdate.LEFT_CHAT_MEMBER, members.on_member_left))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, members.on_migrated))
    app.add_handler(
        MessageHandler(filters.StatusUpdate.FORUM_TOPIC_CLOSED, members.on_topic_closed)
    )
    app.add_handler(
        MessageHandler(filters.StatusUpdate.FORUM_TOPIC_REOPENED, members.on_topic_reopened)
    )
    app.add_handler(
        MessageHandler(
            groups
            & (filters.UpdateType.MESSAGE | filters.UpdateType.EDITED_MESSAGE)
            & ~filters.COMMAND
            & ~filters.StatusUpdate.ALL,
            posts.on_group_post,
        )
    )
    app.add_handler(
        MessageHandler(private & filters.TEXT & ~filters.COMMAND, posts.on_private_text)
    )
    app.add_error_handler(on_error)


def _register_presses(app: App) -> None:
    """One handler per kind of button, picked by the kind's code at the head of the
    callback data; every one behind the press gate (common.through_gate). A press of
    no known kind still meets the gate, which refuses it (and counts it)."""
    kinds = {**presses.PRESSES, Kind.SETTINGS: settings.on_press}
    assert set(kinds) == set(Kind), f"no handler for {set(Kind) - set(kinds)}"
    for kind, handler in kinds.items():
        app.add_handler(CallbackQueryHandler(through_gate(handler), pattern=rf"^{kind.value}:"))
    app.add_handler(CallbackQueryHandler(through_gate(presses.on_unmatched)))


async def set_commands(app: App) -> None:
    """The command menu in each language (Telegram picks it by the user's
    app language; English is the default)."""
    for language in LANGUAGES:
        t = translator(language)
        commands = [BotCommand(name, t.gettext(text)) for name, text in COMMANDS]
        try:
            await app.bot.set_my_commands(
                commands, language_code=None if language == DEFAULT_LANGUAGE else language
            )
        except TelegramError as error:
            log.warning("could not set the %s command list: %s", language, error)
