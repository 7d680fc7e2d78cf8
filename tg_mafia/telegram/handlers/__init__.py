"""Every handler of the bot, registered in one place."""

from __future__ import annotations

from typing import Any

from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from tg_mafia.render.callbacks import Kind
from tg_mafia.telegram.handlers import between, game, info, operator, privacy, settings
from tg_mafia.telegram.handlers.common import Context, gated, log, through_gate


async def on_error(update: object, context: Context) -> None:
    log.error("an update could not be handled", exc_info=context.error)
    context.bot_data["metrics"].update_errors.inc()


def register(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    groups = filters.ChatType.GROUPS
    private = filters.ChatType.PRIVATE
    # First (group -1), every command in a group is also a post: a player's
    # command out of turn is deleted and warned like any post. The command
    # itself is still answered by its own handler below.
    app.add_handler(MessageHandler(groups & filters.COMMAND, game.on_group_post), group=-1)
    app.add_handler(CommandHandler("newgame", gated(game.on_newgame), groups))
    app.add_handler(CommandHandler("host", gated(game.on_host), groups))
    app.add_handler(CommandHandler("cancel", gated(game.on_cancel), groups))
    app.add_handler(CommandHandler("nextgame", gated(between.on_nextgame), groups))
    app.add_handler(CommandHandler("extend", gated(between.on_extend), groups))
    app.add_handler(CommandHandler("protocol", gated(between.on_protocol), groups))
    app.add_handler(CommandHandler("start", gated(game.on_start), private))
    app.add_handler(CommandHandler("help", gated(info.on_help)))
    app.add_handler(CommandHandler("rules", gated(info.on_rules)))
    app.add_handler(CommandHandler("stats", gated(info.on_stats)))
    app.add_handler(CommandHandler("settings", gated(settings.on_settings)))
    app.add_handler(CommandHandler("forget", gated(privacy.on_forget)))
    operator.register(app, app.bot_data["options"].owner_id)
    app.add_handler(
        CommandHandler(
            ["newgame", "host", "cancel", "nextgame", "extend", "protocol"],
            gated(info.on_group_command_in_private),
            private,
        )
    )
    # Every press passes the gate first (runtime/gate.py): its handler gets it checked.
    app.add_handler(
        CallbackQueryHandler(through_gate(settings.on_press), pattern=rf"^{Kind.SETTINGS.value}:")
    )
    app.add_handler(CallbackQueryHandler(through_gate(game.on_button)))
    app.add_handler(ChatMemberHandler(game.on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(ChatMemberHandler(game.on_member_left, ChatMemberHandler.CHAT_MEMBER))
    app.add_handler(MessageHandler(filters.StatusUpdate.LEFT_CHAT_MEMBER, game.on_member_left))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, game.on_migrated))
    app.add_handler(MessageHandler(filters.StatusUpdate.FORUM_TOPIC_CLOSED, game.on_topic_closed))
    app.add_handler(
        MessageHandler(filters.StatusUpdate.FORUM_TOPIC_REOPENED, game.on_topic_reopened)
    )
    app.add_handler(
        MessageHandler(
            groups
            & (filters.UpdateType.MESSAGE | filters.UpdateType.EDITED_MESSAGE)
            & ~filters.COMMAND
            & ~filters.StatusUpdate.ALL,
            game.on_group_post,
        )
    )
    app.add_handler(MessageHandler(private & filters.TEXT & ~filters.COMMAND, game.on_private_text))
    app.add_error_handler(on_error)
