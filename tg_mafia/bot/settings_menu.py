"""/settings: the group's language, variant and options, for chat
administrators only, in one inline menu edited in place.

Callback data: `S:<verb>[:<arg>...]` (≤ 64 bytes), the menu's chat being
the chat of the pressed message. Verbs: `m` main menu, `l`/`v` the language
and variant lists, `o:<option>` one number's steps, `L:<code>`, `V:<variant>`,
`O:<option>:<value>` set, `D:<option>` back to the default, `x` done. Every
value is checked by the engine's option validation before it is stored; the
running game keeps its own copy of the settings it started with."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from html import escape
from typing import Any

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

from engine import SetupError, find_variant, resolve_options
from engine.options import SPECS_BY_NAME, OptionSpec, OptionValue, option_specs
from engine.variants import VARIANTS
from tg_mafia.bot import keyboards, texts
from tg_mafia.bot.option_texts import (
    MENU_LANGUAGES,
    language_name,
    option_label,
    option_line,
    option_range,
    option_value,
)
from tg_mafia.bot.outbox import Op
from tg_mafia.bot.service import GameService
from tg_mafia.i18n import Translator, resolve_language, translator

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE
PREFIX = "S"
ADMIN_STATUSES = (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)
ROW = 2


@dataclass(frozen=True)
class Settings:
    """What the menu shows and changes: the options are those an
    administrator set; the others take the variant's default."""

    language: str
    variant: str
    options: dict[str, OptionValue] = field(default_factory=dict)

    def resolved(self) -> dict[str, OptionValue]:
        return resolve_options(self.variant, self.options)


class Refused(Exception):
    """A press the menu does not take: the popup to show; nothing changes."""


# ----- the logic: a press on the current settings ---------------------------------


def kept_options(variant: str, options: dict[str, Any]) -> dict[str, OptionValue]:
    """The stored options the variant has, each valid; the others are dropped."""
    kept: dict[str, OptionValue] = {}
    for name, raw in options.items():
        spec = SPECS_BY_NAME.get(name)
        if spec is None or variant not in spec.variants:
            continue
        try:
            kept[name] = spec.parse(raw)
        except SetupError:
            continue
    return kept


def apply_press(t: Translator, current: Settings, args: list[str]) -> tuple[Settings, str]:
    """The settings after a press, and the screen to show next. Raises
    Refused for a press that is out of date or forged."""
    verb, rest = (args[0], args[1:]) if args else ("", [])
    if verb in ("m", "l", "v", "x") and not rest:
        return current, {"m": "main", "l": "language", "v": "variant", "x": "done"}[verb]
    if verb == "L" and len(rest) == 1:
        if rest[0] not in MENU_LANGUAGES:
            raise Refused(texts.popup(t, "stale"))
        return replace(current, language=rest[0]), "main"
    if verb == "V" and len(rest) == 1:
        if rest[0] not in VARIANTS:
            raise Refused(texts.popup(t, "stale"))
        return replace(current, variant=rest[0], options=kept_options(rest[0], current.options)), (
            "main"
        )
    if verb in ("o", "O", "D") and rest:
        spec = _spec_of(t, current.variant, rest[0])
        if verb == "o" and len(rest) == 1 and _is_number(spec):
            return current, f"option:{spec.name}"
        if verb == "D" and len(rest) == 1:
            options = {k: v for k, v in current.options.items() if k != spec.name}
            return replace(current, options=options), _after_set(spec)
        if verb == "O" and len(rest) == 2:
            options = {**current.options, spec.name: rest[1]}
            try:
                checked = resolve_options(current.variant, options)
            except SetupError:
                raise Refused(
                    t.gettext("{option}: allowed values are {range}.").format(
                        option=option_label(t, spec.name), range=option_range(t, spec)
                    )
                ) from None
            options[spec.name] = checked[spec.name]
            return replace(current, options=options), _after_set(spec)
    raise Refused(texts.popup(t, "stale"))


def _spec_of(t: Translator, variant: str, name: str) -> OptionSpec:
    spec = SPECS_BY_NAME.get(name)
    if spec is None or variant not in spec.variants:
        raise Refused(
            t.gettext("The variant {variant} has no option «{option}».").format(
                variant=texts.variant_name(t, variant), option=option_label(t, name)
            )
        )
    return spec


def _is_number(spec: OptionSpec) -> bool:
    return isinstance(spec.default, int) and not isinstance(spec.default, bool)


def _after_set(spec: OptionSpec) -> str:
    return f"option:{spec.name}" if _is_number(spec) else "main"


# ----- the menu: text and buttons ------------------------------------------------------


def button(label: str, *args: str) -> InlineKeyboardButton:
    data = ":".join((PREFIX, *args))
    assert len(data.encode()) <= 64, data
    return InlineKeyboardButton(label, callback_data=data)


def menu_text(t: Translator, title: str, current: Settings, busy: bool, screen: str) -> str:
    variant = find_variant(current.variant)
    values = current.resolved()
    head = t.gettext("✅ Settings saved.") if screen == "done" else t.gettext("⚙️ <b>Settings</b>")
    if title:
        head += f" · «{escape(title)}»"
    lines = [
        head,
        t.gettext("Language: {language}").format(language=language_name(current.language)),
        t.gettext("Variant: {variant} ({low} to {high} players)").format(
            variant=texts.variant_name(t, current.variant),
            low=variant.min_players,
            high=variant.max_players,
        ),
    ]
    for spec in option_specs(current.variant):
        lines.append("· " + option_line(t, spec, values[spec.name]))
    if busy:
        lines.append(
            t.gettext("⏳ A game is open or running here: changes apply from the next game.")
        )
    if screen == "language":
        lines.append(t.gettext("Choose the group's language:"))
    elif screen == "variant":
        lines.append(t.gettext("Choose the variant. Options the new variant also has are kept."))
    elif screen.startswith("option:"):
        spec = SPECS_BY_NAME[screen.removeprefix("option:")]
        lines.append(
            t.gettext("<b>{option}</b>: {value} ({range}; default {default}).").format(
                option=option_label(t, spec.name),
                value=option_value(t, spec, values[spec.name]),
                range=option_range(t, spec),
                default=option_value(t, spec, spec.default_for(current.variant)),
            )
        )
    return "\n".join(lines)


def menu_markup(t: Translator, current: Settings, screen: str) -> InlineKeyboardMarkup | None:
    back = button(t.gettext("« Back"), "m")
    if screen == "done":
        return None
    if screen == "language":
        choices = [
            button(_mark(code == current.language) + language_name(code), "L", code)
            for code in MENU_LANGUAGES
        ]
        return InlineKeyboardMarkup([*keyboards.grid(choices), [back]])
    if screen == "variant":
        choices = [
            button(_mark(name == current.variant) + texts.variant_name(t, name), "V", name)
            for name in VARIANTS
        ]
        return InlineKeyboardMarkup([*keyboards.grid(choices, 1), [back]])
    if screen.startswith("option:"):
        spec = SPECS_BY_NAME[screen.removeprefix("option:")]
        value = current.resolved()[spec.name]
        assert isinstance(value, int)
        steps = [button(_signed(v - value), "O", spec.name, str(v)) for v in _targets(spec, value)]
        default = option_value(t, spec, spec.default_for(current.variant))
        reset = button(t.gettext("Default ({value})").format(value=default), "D", spec.name)
        return InlineKeyboardMarkup([steps, [reset], [back]])
    return main_markup(t, current)


def main_markup(t: Translator, current: Settings) -> InlineKeyboardMarkup:
    values = current.resolved()
    rows = [
        [
            button("🌐 " + language_name(current.language), "l"),
            button("🎭 " + texts.variant_name(t, current.variant), "v"),
        ]
    ]
    options = []
    for spec in option_specs(current.variant):
        value = values[spec.name]
        label = option_line(t, spec, value)
        if isinstance(value, bool):
            options.append(button(label, "O", spec.name, "off" if value else "on"))
        elif spec.choices:
            after = spec.choices[(spec.choices.index(str(value)) + 1) % len(spec.choices)]
            options.append(button(label, "O", spec.name, after))
        else:
            options.append(button(label, "o", spec.name))
    rows.extend(keyboards.grid(options, ROW))
    rows.append([button(t.gettext("✅ Done"), "x")])
    return InlineKeyboardMarkup(rows)


def _targets(spec: OptionSpec, value: int) -> list[int]:
    width = spec.maximum - spec.minimum
    small, big = (1, 5) if width <= 30 else (5, 30) if width <= 300 else (30, 120)
    found: list[int] = []
    for delta in (-big, -small, small, big):
        target = min(spec.maximum, max(spec.minimum, value + delta))
        if target != value and target not in found:
            found.append(target)
    return found


def _signed(delta: int) -> str:
    return f"+{delta}" if delta > 0 else f"−{-delta}"


def _mark(chosen: bool) -> str:
    return "• " if chosen else ""


# ----- Telegram ---------------------------------------------------------------------------


def service_of(context: Context) -> GameService:
    service: GameService = context.bot_data["service"]
    return service


def load(service: GameService, chat_id: int) -> Settings:
    stored = service.db.get_settings(chat_id)
    variant = stored.variant if stored.variant in VARIANTS else "classic"
    language = stored.language if stored.language in MENU_LANGUAGES else "en"
    return Settings(language, variant, kept_options(variant, dict(stored.options)))


async def is_member_admin(context: Context, chat_id: int, user_id: int) -> bool:
    try:
        member = await context.bot.get_chat_member(chat_id, user_id)
    except TelegramError:
        return False
    return member.status in ADMIN_STATUSES


async def on_settings(update: Update, context: Context) -> None:
    chat, message = update.effective_chat, update.effective_message
    if chat is None or message is None:
        return
    service = service_of(context)
    if chat.type == ChatType.PRIVATE:
        user = update.effective_user
        t = translator(resolve_language(user.language_code if user else None))
        text = t.gettext(
            "⚙️ Send /settings in your group: its administrators choose the language, "
            "the variant and the options there."
        )
        service.outboxes.put(chat.id, Op("send", text=text))
        return
    current = load(service, chat.id)
    t = translator(current.language)
    if message.sender_chat is not None:
        # An anonymous administrator posts as the group itself; a channel does not count.
        admin = message.sender_chat.id == chat.id
    else:
        user = update.effective_user
        admin = user is not None and await is_member_admin(context, chat.id, user.id)
    if not admin:
        text = t.gettext("Only the group's administrators may change its settings.")
        service.outboxes.put(chat.id, Op("send", text=text))
        return
    busy = service.db.active_game(chat.id) is not None
    text = menu_text(t, chat.title or "", current, busy, "main")
    service.outboxes.put(chat.id, Op("send", text=text, markup=main_markup(t, current)))


async def on_press(update: Update, context: Context) -> None:
    query, chat = update.callback_query, update.effective_chat
    if query is None:
        return
    message = query.message
    if chat is None or message is None or chat.type == ChatType.PRIVATE:
        await _answer(query, texts.popup(translator("en"), "stale"))
        return
    service = service_of(context)
    t = translator(load(service, chat.id).language)
    if not await is_member_admin(context, chat.id, query.from_user.id):
        await _answer(query, t.gettext("Only the group's administrators may change its settings."))
        return
    args = (query.data or "").split(":")[1:]
    async with service.lock(chat.id):
        before = load(service, chat.id)
        try:
            after, screen = apply_press(t, before, args)
        except Refused as refusal:
            await _answer(query, str(refusal))
            return
        if after != before:
            service.db.save_settings(
                chat.id,
                language=after.language,
                variant=after.variant,
                options=dict(after.options),
                title=chat.title,
            )
        busy = service.db.active_game(chat.id) is not None
    shown = translator(after.language)
    _show(service, chat, message.message_id, shown, after, busy, screen)
    await _answer(query, shown.gettext("Saved.") if after != before else "")


def _show(
    service: GameService,
    chat: Chat,
    message_id: int,
    t: Translator,
    current: Settings,
    busy: bool,
    screen: str,
) -> None:
    text = menu_text(t, chat.title or "", current, busy, screen)
    markup = menu_markup(t, current, screen)
    key = f"settings:{message_id}"
    service.outboxes.put(
        chat.id, Op("edit", text=text, markup=markup, key=key, message_id=message_id)
    )


async def _answer(query: Any, text: str) -> None:
    try:
        await query.answer(text or None)
    except TelegramError as error:
        log.info("callback answer failed: %s", error)


def register(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    app.add_handler(CommandHandler("settings", on_settings))
    app.add_handler(CallbackQueryHandler(on_press, pattern=rf"^{PREFIX}:"))
