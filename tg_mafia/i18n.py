"""Translations: every word a user sees goes through a `Translator` for the
chat's language (gettext catalogues in `locales/`, English source strings)."""

from __future__ import annotations

import gettext

LANGUAGES = ("en", "fr", "ru", "ro", "vi")
DEFAULT_LANGUAGE = "en"


class Translator:
    """gettext and ngettext for one language."""

    def __init__(self, language: str, translations: gettext.NullTranslations) -> None:
        self.language = language
        self._translations = translations

    def gettext(self, message: str) -> str:
        return self._translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._translations.ngettext(singular, plural, n)


def translator(language: str) -> Translator:
    return Translator(language, gettext.NullTranslations())
