"""What the bot tells on request: /rules, /stats, /help, and what a group
command means when it is sent in private."""

from __future__ import annotations

import asyncio

from telegram import Update
from telegram.constants import ChatType

from engine.variants import VARIANTS
from tg_mafia.i18n import translator
from tg_mafia.render import texts
from tg_mafia.render.calls import Photo
from tg_mafia.render.drawings import leaderboard_picture, player_picture
from tg_mafia.render.standings import standings
from tg_mafia.render.texts.rules import rules, safe_options
from tg_mafia.render.texts.stats import GROUPS, TOP, chat_text, player_text
from tg_mafia.telegram.context import Context
from tg_mafia.telegram.handlers.common import (
    group_translator,
    reply,
    send,
    service_of,
    topic_of,
    user_translator,
)


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
                variants=t.join(VARIANTS, style="or")
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
    game = await service.queries.active_game(chat.id, topic_of(update.effective_message))
    if game is not None:
        variant, language, given = game.variant, game.language, dict(game.options)
    else:
        settings = await service.queries.settings(chat.id)
        variant, language, given = settings.variant, settings.language, dict(settings.options)
    options = safe_options(variant, given)
    if game is not None:
        options["host"] = "human" if game.host_user_id else "auto"
    await reply(context, update, rules(translator(language), variant, options))


async def on_stats(update: Update, context: Context) -> None:
    """The group's leaderboard, as text and a picture; in private, the
    player's own record and a card for each of their latest groups."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None:
        return
    service = service_of(context)
    if chat.type == ChatType.PRIVATE:
        if user is not None:
            await _own_stats(context, update, user.id)
        return
    settings = await service.queries.settings(chat.id)
    t = translator(settings.language)
    stats = await service.queries.chat_stats(chat.id)
    history = await service.queries.results_history(chat.id)
    ranked = await asyncio.to_thread(standings, history)
    await reply(context, update, chat_text(t, stats, ranked))
    top = ranked.board.top(TOP)
    if top:
        title = chat.title or settings.title or ""
        picture = leaderboard_picture(top, ranked.names, title, settings.language)
        await send(context, update, Photo(picture))


async def _own_stats(context: Context, update: Update, user_id: int) -> None:
    service = service_of(context)
    t = user_translator(update.effective_user)
    stats = await service.queries.player_stats(user_id)
    groups = []
    for chat_id, title in await service.queries.player_chats(user_id, GROUPS):
        history = await service.queries.results_history(chat_id)
        groups.append((title, await asyncio.to_thread(standings, history)))
    await reply(context, update, player_text(t, stats, user_id, groups))
    for title, ranked in groups:
        player = ranked.board.player(user_id)
        if player is None:
            continue
        name = ranked.names.get(user_id) or str(user_id)
        picture = player_picture(
            player, name, title, ranked.board.rank(user_id), len(ranked.board.players), t.language
        )
        await send(context, update, Photo(picture))


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
