"""Deadlines as each reader's own time: Telegram's `date_time` entity
(`<tg-time>` in HTML), which every app shows in its user's time zone and
language. The text inside is what an app too old for the entity shows."""

from __future__ import annotations

import time
from typing import Final

ABSOLUTE: Final = "T"  # hours, minutes and seconds
RELATIVE: Final = "r"  # "in 45 seconds"


def deadline_html(unix: float, style: str = ABSOLUTE) -> str:
    moment = round(unix)
    fallback = time.strftime("%H:%M:%S UTC", time.gmtime(moment))
    return f'<tg-time unix="{moment}" format="{style}">{fallback}</tg-time>'
