"""/settings: the group's language, variant and options, for chat
administrators only, in one inline menu edited in place.

Callback data: the bot's one codec (callbacks.py, kind `st`), its arguments
`<verb>[:<arg>...]`, the menu's chat being the chat of the pressed message.
Verbs: `m` main menu, `l`/`v` the language and variant lists, `o:<option>`
one number's steps, `L:<code>`, `V:<variant>`, `O:<option>:<value>` set,
`D:<option>` back to the default, `A:on|off` the group's autostart (a full
lobby starts by itself; not a rule, so not one of the variant's options),
`x` done. Every value is checked by the
engine's option validation before it is stored; the running game keeps its
own copy of the settings it started with."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from html import escape
from types import MappingProxyType
from typing import Any

from engine import SetupError, find_variant, resolve_options
from engine.options import SPECS_BY_NAME, OptionSpec, OptionValue, option_specs
from engine.variants import VARIANTS
from tg_mafia.i18n import Translator
from tg_mafia.records import DEFAULT_VARIANT, ChatSettingsRecord
from tg_mafia.render import keyboards, texts
from tg_mafia.render.callbacks import Button, Kind
from tg_mafia.render.calls import ButtonData, Keyboard, callback
from tg_mafia.render.texts import Answer
from tg_mafia.render.texts.options import (
    MENU_LANGUAGES,
    autostart_line,
    language_name,
    option_label,
    option_line,
    option_range,
    option_value,
)

ROW = 2


@dataclass(frozen=True)
class Settings:
    """What the menu shows and changes: the options are those an
    administrator set; the others take the variant's default."""

    language: str
    variant: str
    options: dict[str, OptionValue] = field(default_factory=dict)
    autostart: bool = False  # a full lobby starts by itself

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


Step = tuple[Settings, str]  # the settings after a press, and the screen to show next
SCREENS = {"m": "main", "l": "language", "v": "variant", "x": "done"}


def apply_press(t: Translator, current: Settings, args: list[str]) -> Step:
    """The settings after a press, and the screen to show next. Raises
    Refused for a press that is out of date or forged."""
    verb, rest = (args[0], args[1:]) if args else ("", [])
    if verb in SCREENS and not rest:
        return current, SCREENS[verb]
    handler = PRESSES.get(verb)
    if handler is None or not rest:
        raise Refused(texts.popup(t, Answer.STALE))
    return handler(t, current, rest)


def _language(t: Translator, current: Settings, rest: list[str]) -> Step:
    if len(rest) != 1 or rest[0] not in MENU_LANGUAGES:
        raise Refused(texts.popup(t, Answer.STALE))
    return replace(current, language=rest[0]), "main"


def _variant(t: Translator, current: Settings, rest: list[str]) -> Step:
    if len(rest) != 1 or rest[0] not in VARIANTS:
        raise Refused(texts.popup(t, Answer.STALE))
    options = kept_options(rest[0], current.options)
    return replace(current, variant=rest[0], options=options), "main"


def _option_steps(t: Translator, current: Settings, rest: list[str]) -> Step:
    spec = _spec_of(t, current.variant, rest[0])
    if len(rest) != 1 or not _is_number(spec):
        raise Refused(texts.popup(t, Answer.STALE))
    return current, f"option:{spec.name}"


def _default(t: Translator, current: Settings, rest: list[str]) -> Step:
    spec = _spec_of(t, current.variant, rest[0])
    if len(rest) != 1:
        raise Refused(texts.popup(t, Answer.STALE))
    options = {k: v for k, v in current.options.items() if k != spec.name}
    return replace(current, options=options), _after_set(spec)


def _set(t: Translator, current: Settings, rest: list[str]) -> Step:
    spec = _spec_of(t, current.variant, rest[0])
    if len(rest) != 2:
        raise Refused(texts.popup(t, Answer.STALE))
    options = {**current.options, spec.name: rest[1]}
    try:
        checked = resolve_options(current.variant, options)
    except SetupError:
        raise Refused(
            t.gettext("{option}: allowed values are {range}.").format(
                option=option_label(t, spec.name, current.variant), range=option_range(t, spec)
            )
        ) from None
    options[spec.name] = checked[spec.name]
    return replace(current, options=options), _after_set(spec)


def _autostart(t: Translator, current: Settings, rest: list[str]) -> Step:
    if rest not in (["on"], ["off"]):
        raise Refused(texts.popup(t, Answer.STALE))
    return replace(current, autostart=rest == ["on"]), "main"


PRESSES: Mapping[str, Callable[[Translator, Settings, list[str]], Step]] = MappingProxyType(
    {
        "L": _language,
        "V": _variant,
        "o": _option_steps,
        "D": _default,
        "O": _set,
        "A": _autostart,
    }
)


def _spec_of(t: Translator, variant: str, name: str) -> OptionSpec:
    spec = SPECS_BY_NAME.get(name)
    if spec is None or variant not in spec.variants:
        raise Refused(
            t.gettext("The variant {variant} has no option «{option}».").format(
                variant=texts.variant_name(t, variant), option=option_label(t, name, variant)
            )
        )
    return spec


def _is_number(spec: OptionSpec) -> bool:
    return isinstance(spec.default, int) and not isinstance(spec.default, bool)


def _after_set(spec: OptionSpec) -> str:
    return f"option:{spec.name}" if _is_number(spec) else "main"


# ----- the menu: text and buttons ------------------------------------------------------


def button(label: str, *args: str) -> ButtonData:
    return callback(label, Button(Kind.SETTINGS, 0, None, args).encode())


def menu_head(t: Translator, title: str, saved: bool) -> str:
    """The menu's first line; the group's title (HTML-escaped) quoted as its
    language quotes."""
    if not title:
        return t.gettext("✅ Settings saved.") if saved else t.gettext("⚙️ <b>Settings</b>")
    if saved:
        # TRANSLATORS: {title} is the group's name; quote it as your language does.
        return t.gettext("✅ Settings of «{title}» saved.").format(title=title)
    # TRANSLATORS: {title} is the group's name; quote it as your language does.
    return t.gettext("⚙️ <b>Settings</b> of «{title}»").format(title=title)


def menu_text(t: Translator, title: str, current: Settings, busy: bool, screen: str) -> str:
    values = current.resolved()
    lines = [
        menu_head(t, escape(title), saved=screen == "done"),
        t.gettext("Language: {language}").format(language=language_name(current.language)),
        variant_line(t, current.variant),
    ]
    for spec in option_specs(current.variant):
        lines.append("· " + option_line(t, spec, values[spec.name], current.variant))
    lines.append("· " + autostart_line(t, current.autostart))
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
                option=option_label(t, spec.name, current.variant),
                value=option_value(t, spec, values[spec.name]),
                range=option_range(t, spec),
                default=option_value(t, spec, spec.default_for(current.variant)),
            )
        )
    return "\n".join(lines)


def variant_line(t: Translator, name: str) -> str:
    """`Variant: Moscow rules · 7 to 15 players`; a single table size once."""
    variant = find_variant(name)
    low, high = variant.min_players, variant.max_players
    if low == high:
        return t.ngettext(
            "Variant: {variant} · {n} player", "Variant: {variant} · {n} players", low
        ).format(variant=texts.variant_name(t, name), n=low)
    return t.gettext("Variant: {variant} · {low} to {high} players").format(
        variant=texts.variant_name(t, name), low=low, high=high
    )


def menu_markup(t: Translator, current: Settings, screen: str) -> Keyboard | None:
    back = button(t.gettext("← Back"), "m")
    if screen == "done":
        return None
    if screen == "language":
        choices = [
            button(_mark(code == current.language) + language_name(code), "L", code)
            for code in MENU_LANGUAGES
        ]
        return [*keyboards.grid(choices), [back]]
    if screen == "variant":
        choices = [
            button(_mark(name == current.variant) + texts.variant_name(t, name), "V", name)
            for name in VARIANTS
        ]
        return [*keyboards.grid(choices, 1), [back]]
    if screen.startswith("option:"):
        spec = SPECS_BY_NAME[screen.removeprefix("option:")]
        value = current.resolved()[spec.name]
        assert isinstance(value, int)
        steps = [button(_signed(v - value), "O", spec.name, str(v)) for v in _targets(spec, value)]
        default = option_value(t, spec, spec.default_for(current.variant))
        reset = button(t.gettext("Default ({value})").format(value=default), "D", spec.name)
        return [steps, [reset], [back]]
    return main_markup(t, current)


def main_markup(t: Translator, current: Settings) -> Keyboard:
    values = current.resolved()
    rows = keyboards.packed(
        [
            button("🌐 " + language_name(current.language), "l"),
            button("🎭 " + texts.variant_name(t, current.variant), "v"),
        ],
        ROW,
    )
    options = []
    for spec in option_specs(current.variant):
        value = values[spec.name]
        label = option_line(t, spec, value, current.variant)
        if isinstance(value, bool):
            options.append(button(label, "O", spec.name, "off" if value else "on"))
        elif spec.choices:
            after = spec.choices[(spec.choices.index(str(value)) + 1) % len(spec.choices)]
            options.append(button(label, "O", spec.name, after))
        else:
            options.append(button(label, "o", spec.name))
    options.append(
        button(autostart_line(t, current.autostart), "A", "off" if current.autostart else "on")
    )
    rows.extend(keyboards.packed(options, ROW))
    rows.append([button(t.gettext("✅ Done"), "x")])
    return rows


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


def load(stored: ChatSettingsRecord) -> Settings:
    """The stored settings as the menu shows them (unknown values fall back)."""
    variant = stored.variant if stored.variant in VARIANTS else DEFAULT_VARIANT
    language = stored.language if stored.language in MENU_LANGUAGES else "en"
    options = kept_options(variant, dict(stored.options))
    return Settings(language, variant, options, stored.autostart)
