"""Words for the per-group settings: languages by their own names, option
labels and values. Shared by the /settings menu and the /rules summary."""

from __future__ import annotations

from engine import find_variant
from engine.options import OptionSpec, OptionValue
from tg_mafia.i18n import LANGUAGES, Translator
from tg_mafia.render.texts.timefmt import duration

# Each language by its own name: not translated on purpose.
LANGUAGE_NAMES = {
    "fr": "Français",
    "ru": "Русский",
    "ro": "Română",
    "vi": "Tiếng Việt",
    "en": "English",
}
MENU_LANGUAGES = tuple(code for code in LANGUAGE_NAMES if code in LANGUAGES)


def language_name(code: str) -> str:
    return LANGUAGE_NAMES.get(code, code)


def option_label(t: Translator, name: str, variant: str) -> str:
    """An option's name; sport calls its warnings fouls."""
    if name == "warnings_limit" and find_variant(variant).has_fouls:
        return t.gettext("Fouls limit")
    labels = {
        "host": t.gettext("Host"),
        "reveal_roles": t.gettext("Roles shown on death"),
        "night_seconds": t.gettext("Night"),
        "day_seconds": t.gettext("Day"),
        "ballot_seconds": t.gettext("Ballot"),
        "intro_seconds": t.gettext("Introduction"),
        "speech_seconds": t.gettext("Speech"),
        "last_word_seconds": t.gettext("Last word"),
        "vote_count_seconds": t.gettext("Hand-raise count"),
        "thanks_rule": t.gettext("Thanks word"),
        "maniac": t.gettext("Maniac"),
        "warnings_limit": t.gettext("Warnings limit"),
        # TRANSLATORS: a setting: idle turns in a row that put a player out.
        "idle_limit": t.gettext("Idle turns limit"),
        # TRANSLATORS: a setting: how long a human host's pause may last.
        "pause_limit": t.gettext("Host's pause"),
        # TRANSLATORS: a setting: how long a human host has to confirm the winner.
        "confirm_seconds": t.gettext("Host's confirmation"),
    }
    return labels.get(name, name)


def option_value(t: Translator, spec: OptionSpec, value: OptionValue) -> str:
    """A value as a player reads it: on/off, a length of time, the host's kind."""
    if isinstance(value, bool):
        return t.gettext("on") if value else t.gettext("off")
    if spec.name == "host":
        return t.gettext("a person") if value == "human" else t.gettext("the bot")
    if isinstance(value, int) and spec.name.endswith(("_seconds", "pause_limit")):
        return duration(t, value, short=True)
    if spec.name in ("warnings_limit", "idle_limit") and value == 0:
        return t.gettext("no limit")
    return str(value)


def option_line(t: Translator, spec: OptionSpec, value: OptionValue, variant: str) -> str:
    """`Night: 60 sec`, punctuated as the language does."""
    return t.gettext("{option}: {value}").format(
        option=option_label(t, spec.name, variant), value=option_value(t, spec, value)
    )


def option_range(t: Translator, spec: OptionSpec) -> str:
    if isinstance(spec.default, bool):
        return t.gettext("on or off")
    if isinstance(spec.default, int):
        # The plain number: "no limit to 5" would not read.
        low = str(spec.minimum) if spec.name in ("warnings_limit", "idle_limit") else None
        return t.gettext("{low} to {high}").format(
            low=low or option_value(t, spec, spec.minimum),
            high=option_value(t, spec, spec.maximum),
        )
    return t.join((option_value(t, spec, choice) for choice in spec.choices), style="or")


def autostart_line(t: Translator, on: bool) -> str:
    """The group's own setting, beside the variant's options."""
    return t.gettext("{option}: {value}").format(
        # TRANSLATORS: a setting: the lobby starts by itself once every seat is taken.
        option=t.gettext("Start when full"),
        value=t.gettext("on") if on else t.gettext("off"),
    )
