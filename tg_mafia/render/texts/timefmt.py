"""Times as each reader says them. Deadlines: Telegram's `date_time` entity
(`<tg-time>` in HTML), which every app shows in its user's time zone and
language; the text inside is what an app too old for the entity shows.
Lengths of time: in the chat's language, through Babel."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Final, Literal

from babel.dates import format_timedelta

from tg_mafia.i18n import Translator

ABSOLUTE: Final = "T"  # hours, minutes and seconds
RELATIVE: Final = "r"  # "in 45 seconds"

Unit = Literal["hour", "minute", "second"]
Style = Literal["short", "long"]  # "2 min", "2 minutes"


def deadline_html(unix: float, style: str = ABSOLUTE) -> str:
    moment = round(unix)
    fallback = time.strftime("%H:%M:%S UTC", time.gmtime(moment))
    return f'<tg-time unix="{moment}" format="{style}">{fallback}</tg-time>'


def duration(t: Translator, seconds: int, short: bool = False) -> str:
    """A length of time as the language says it: seconds below two minutes
    ("90 seconds"), minutes and hours from two minutes up ("5 minutes",
    "1 hour and 30 minutes"), never "3600 s" (CLDR's units through Babel).
    `short`: the units abbreviated, for a value in a list or on a button
    ("2 min 30 sec")."""
    style: Style = "short" if short else "long"
    if seconds < 120:
        return _unit(seconds, "second", style, t.language)
    hours, rest = divmod(seconds, 3600)
    minutes, left = divmod(rest, 60)
    units: tuple[tuple[int, int, Unit], ...] = (
        (hours, 3600, "hour"),
        (minutes, 60, "minute"),
        (left, 1, "second"),
    )
    parts = [_unit(n * size, unit, style, t.language) for n, size, unit in units if n]
    return " ".join(parts) if short else t.join(parts)


def _unit(seconds: int, unit: Unit, style: Style, language: str) -> str:
    # With a threshold no length reaches, Babel says it in the granularity's unit.
    return format_timedelta(
        timedelta(seconds=seconds), granularity=unit, threshold=1e9, format=style, locale=language
    )
