"""/settings: the group's language, variant and options, for its
administrators only, in one inline menu edited in place (settings_menu.py
holds the menu itself)."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType

from tg_mafia.i18n import translator
from tg_mafia.render import texts
from tg_mafia.render.calls import Edit, Send
from tg_mafia.render.settings_menu import (
    Refused,
    apply_press,
    load,
    main_markup,
    menu_markup,
    menu_text,
)
from tg_mafia.render.texts import Answer
from tg_mafia.runtime.gate import CheckedPress
from tg_mafia.telegram.context import Context
from tg_mafia.telegram.handlers.common import (
    answer_query,
    is_admin,
    is_member_admin,
    reply,
    service_of,
    user_translator,
)


async def on_settings(update: Update, context: Context) -> None:
    chat, message = update.effective_chat, update.effective_message
    if chat is None or message is None:
        return
    service = service_of(context)
    if chat.type == ChatType.PRIVATE:
        t = user_translator(update.effective_user)
        text = t.gettext(
            "⚙️ Send /settings in your group: its administrators choose the language, "
            "the variant and the options there."
        )
        await reply(context, update, text)
        return
    current = load(await service.queries.settings(chat.id))
    t = translator(current.language)
    if not await is_admin(context, chat, update):
        await reply(
            context, update, t.gettext("Only the group's administrators may change its settings.")
        )
        return
    busy = await service.queries.active_game(chat.id) is not None
    text = menu_text(t, chat.title or "", current, busy, "main")
    op = Send(text, keyboard=main_markup(t, current))
    await service.show_plain(chat.id, op)


async def on_press(press: CheckedPress, context: Context) -> None:
    """A press on a settings menu, checked by the gate: the menu of the chat it is in."""
    query, button = press.query, press.button
    message = query.message
    chat = message.chat if message is not None else None
    if chat is None or message is None or chat.type == ChatType.PRIVATE:
        await answer_query(query, texts.popup(translator("en"), Answer.STALE))
        return
    service = service_of(context)
    before = load(await service.queries.settings(chat.id))
    t = translator(before.language)
    if not await is_member_admin(context, chat.id, query.from_user.id):
        await answer_query(
            query, t.gettext("Only the group's administrators may change its settings.")
        )
        return
    try:
        after, screen = apply_press(t, before, list(button.args))
    except Refused as refusal:
        await answer_query(query, str(refusal))
        return
    if after != before:
        await service.queries.save_settings(
            chat.id,
            language=after.language,
            variant=after.variant,
            options=after.options,
            title=chat.title,
            autostart=after.autostart,
        )
    busy = await service.queries.active_game(chat.id) is not None
    shown = translator(after.language)
    text = menu_text(shown, chat.title or "", after, busy, screen)
    op = Edit(text, keyboard=menu_markup(shown, after, screen), message_id=message.message_id)
    await service.show_plain(chat.id, op)
    await answer_query(query, shown.gettext("Saved.") if after != before else "")
