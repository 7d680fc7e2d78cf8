"""Lists of names read as each language lists them (CLDR's patterns through
the translator), and the settings menu quotes the group's title as each
language quotes it."""

from __future__ import annotations

import pytest

from tg_mafia.i18n import LANGUAGES, translator
from tg_mafia.render import settings_menu, texts
from tg_mafia.render.texts.table import Table

JOINED = {
    "en": "1 · Ann, 2 · Ben, and 3 · Cat",
    "fr": "1 · Ann, 2 · Ben et 3 · Cat",
    "ru": "1 · Ann, 2 · Ben и 3 · Cat",
    "ro": "1 · Ann, 2 · Ben și 3 · Cat",
    "vi": "1 · Ann, 2 · Ben và 3 · Cat",
}
TABLE = Table(("1", "2", "3"), {"1": "Ann", "2": "Ben", "3": "Cat"})


def test_every_catalogue_language_has_its_list_pattern() -> None:
    assert set(JOINED) == set(LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_tie_names_its_players_joined_the_language_s_way(language: str) -> None:
    t = translator(language)
    text = texts.vote_result(t, TABLE, "revote", (), None, ("1", "2", "3"))
    assert JOINED[language] in text
    assert TABLE.labels((), t) == "—"


@pytest.mark.parametrize("language", LANGUAGES)
def test_alternatives_are_joined_with_or(language: str) -> None:
    joined = translator(language).join(["A", "B", "C"], style="or")
    word = {"en": ", or ", "fr": " ou ", "ru": " или ", "ro": " sau ", "vi": " hoặc "}[language]
    assert word in joined


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_settings_head_quotes_the_title_within_its_own_sentence(language: str) -> None:
    t = translator(language)
    saved = settings_menu.menu_head(t, "Friday club", saved=True)
    menu = settings_menu.menu_head(t, "Friday club", saved=False)
    for head in (saved, menu):
        assert "Friday club" in head
        assert " · «" not in head
    assert settings_menu.menu_head(t, "", saved=True) == t.gettext("✅ Settings saved.")
