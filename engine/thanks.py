"""The thanks word (moscow's "rule with a star"): a floor holder's message
that contains it ends the floor at once, whatever the context."""

from __future__ import annotations

import re
import unicodedata
from types import MappingProxyType

THANKS_WORDS = MappingProxyType(
    {
        "ru": ("спасибо",),
        "fr": ("merci",),
        "ro": ("mulțumesc", "mulţumesc", "multumesc", "mersi"),
        "vi": ("cảm ơn", "cám ơn", "cam on"),
        "en": ("thank you", "thanks"),
    }
)


def _normal(text: str) -> str:
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).casefold())


def _compile(words: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = []
    for word in words:
        parts = _normal(word).split()
        alternatives.append(r"\s+".join(re.escape(part) for part in parts))
    # Whole words: no word character may touch either end.
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)")


_PATTERNS = MappingProxyType({lang: _compile(words) for lang, words in THANKS_WORDS.items()})


def says_thanks(text: str, language: str) -> bool:
    pattern = _PATTERNS.get(language, _PATTERNS["en"])
    return pattern.search(_normal(text)) is not None
