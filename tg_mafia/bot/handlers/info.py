"""What the bot tells on request: /rules, /stats, /help, and what a group
command means when it is sent in private."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType

from engine.variants import VARIANTS
from tg_mafia.bot import texts
from tg_mafia.bot.handlers.common import (
    Context,
    group_translator,
    reply,
    service_of,
    topic_of,
    user_translator,
)
from tg_mafia.bot.rules_text import rules, safe_options
from tg_mafia.bot.stats_text import TOP, chat_text, player_text
from tg_mafia.i18n import translator
from tg_mafia.storage import Database


async def on_rules(update: Update, context: Context) -> None:
    chat, user = update.effective_chat, update.effective_user
    if chat is None:
        return
    service = service_of(context)
    if chat.type == ChatType.PRIVATE:
        t = user_translator(user)
        name = (context.args[0].lower() if context.args else "") or "classic"
        if name not in VARIANTS:
            text = t.gettext("Unknown variant. Choose one of: {variants}.").format(
                variants=", ".join(VARIANTS)
            )
        else:
            text = (
                rules(t, name, safe_options(name, {}))
                + "\n\n"
                + t.gettext("Another variant: /rules {variants}").format(
                    variants=" | ".join(VARIANTS)
                )
            )
        await reply(context, update, text)
        return
    game = await service.adb.run(Database.active_game, chat.id, topic_of(update.effective_message))
    if game is not None:
        variant, language, given = game.variant, game.language, dict(game.options)
    else:
        settings = await service.adb.run(Database.get_settings, chat.id)
        variant, language, given = settings.variant, settings.language, dict(settings.options)
    options = safe_options(variant, given)
    if game is not None:
        options["host"] = "human" if game.host_user_id else "auto"
    await reply(context, update, rules(translator(language), variant, options))


async def on_stats(update: Update, context: Context) -> None:
    chat, user = update.effective_chat, update.effective_user
    if chat is None:
        return
    service = service_of(context)
    if chat.type == ChatType.PRIVATE:
        if user is None:
            return
        t = user_translator(user)
        text = player_text(t, await service.adb.run(Database.player_stats, user.id))
    else:
        t = await group_translator(context, chat.id)
        text = chat_text(t, await service.adb.run(Database.chat_stats, chat.id, top=TOP))
    await reply(context, update, text)


async def on_help(update: Update, context: Context) -> None:
    chat, user = update.effective_chat, update.effective_user
    if chat is None:
        return
    if chat.type == ChatType.PRIVATE:
        t = user_translator(user)
    else:
        t = await group_translator(context, chat.id)
    await reply(context, update, texts.help_text(t))


async def on_group_command_in_private(update: Update, context: Context) -> None:
    t = user_translator(update.effective_user)
    await reply(
        context,
        update,
        t.gettext(
            "This command works in a group: add me to a group as an administrator and send it "
            "there."
        ),
    )
