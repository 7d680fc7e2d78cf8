"""Translations: every word a user sees goes through a `Translator` for the
chat's language (gettext catalogues in `locales/`, English source strings).

The `.po` files are the only form kept: `Catalogues` compiles them in memory
when it is created, so there is no `.mo` to forget to rebuild. The bot makes
one `Catalogues` at start and passes it around; `translator(language)` is the
shortcut through a default instance, loaded once per process.
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Iterable
from io import BytesIO
from pathlib import Path
from typing import Literal

from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGUAGES = ("en", "fr", "ru", "ro", "vi")
DEFAULT_LANGUAGE = "en"
DOMAIN = "tg_mafia"


def N_(message: str) -> str:
    """Mark a string for extraction without translating it (module-level
    constants, translated later with `Translator.gettext`)."""
    return message


def resolve_language(code: str | None) -> str:
    """The supported language for a code such as Telegram's `language_code`
    ("ru", "fr-CA", "pt-br"), or the default one."""
    base = (code or "").replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else DEFAULT_LANGUAGE


def locales_dir() -> Path:
    """Where the catalogues are: inside the package when installed from a
    wheel (the build copies them there), beside it in a checkout."""
    packaged = Path(__file__).with_name("locales")
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "locales"


def po_path(directory: Path, language: str) -> Path:
    return directory / language / "LC_MESSAGES" / f"{DOMAIN}.po"


class Translator:
    """gettext, ngettext and their contextual forms for one language."""

    def __init__(self, language: str, translations: gettext.NullTranslations) -> None:
        self.language = language
        self._translations = translations

    def gettext(self, message: str) -> str:
        return self._translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._translations.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """For homonyms: the same English word meaning two things."""
        return self._translations.pgettext(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self._translations.npgettext(context, singular, plural, n)

    def join(self, items: Iterable[str], style: Literal["standard", "or"] = "standard") -> str:
        """Items as the language lists them: "A, B et C", "A, B и C"
        (CLDR's list patterns; style "or" for alternatives). Empty: ""."""
        listed = list(items)
        return format_list(listed, style=style, locale=self.language) if listed else ""


def compile_po(path: Path, language: str) -> gettext.GNUTranslations:
    """One `.po` compiled in memory; fuzzy entries are left out, so an unsure
    translation shows the English source rather than a wrong sentence."""
    with path.open("rb") as file:
        catalog = read_po(file, locale=language, domain=DOMAIN)
    buffer = BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


class Catalogues:
    """Every language's translator, compiled once from `directory`.

    A language without a `.po` file gets the English source strings, and an
    unknown language gets the default language's translator.
    """

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory if directory is not None else locales_dir()
        self._translators = {
            language: Translator(language, self._load(language)) for language in LANGUAGES
        }

    def _load(self, language: str) -> gettext.NullTranslations:
        path = po_path(self.directory, language)
        if not path.is_file():
            return gettext.NullTranslations()
        return compile_po(path, language)

    def translator(self, language: str | None) -> Translator:
        return self._translators[resolve_language(language)]


@functools.cache
def default_catalogues() -> Catalogues:
    return Catalogues()


def translator(language: str | None) -> Translator:
    return default_catalogues().translator(language)
