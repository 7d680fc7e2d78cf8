"""Names that cannot mislead: a name that shows nothing is called by its
seat ("Player 5"), and a name that starts with a number is quoted, so no
name reads as another seat (tg_mafia/render/texts/names.py)."""

from __future__ import annotations

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

from tg_mafia.i18n import LANGUAGES, translator
from tg_mafia.render import keyboards, texts
from tg_mafia.render.texts.names import (
    clean_name,
    is_blank,
    listed_name,
    person_name,
    placeholder,
    seat_name,
)
from tg_mafia.render.texts.table import Table

BLANK = [
    "\u3164",  # Hangul filler
    "\u115f\u1160",  # Hangul choseong and jungseong fillers
    "\uffa0",  # half-width Hangul filler
    "\u2800",  # Braille blank
    "\u200b\u200c\u200d\u2060\ufeff",  # zero-width characters only
    "\u0301\u0308",  # combining marks with no letter
    " \u00a0\u2003\u3000",  # spaces of every kind
    "\ufe0f\ufe0e\U000e0100",  # variation selectors only
    "\u202e\u2066\u2069",  # direction controls only
    "\u3164 \u2800\u200b",  # a mix
    "",
]
PLAYER = {
    "en": "Player 2",
    "fr": "Joueur 2",
    "ru": "Игрок 2",
    "ro": "Jucătorul 2",
    "vi": "Người chơi 2",
}
SEATS = ("101", "102", "103", "104", "105")


@pytest.mark.parametrize("name", BLANK)
def test_a_blank_name_is_blank_and_cleaned_to_nothing(name: str) -> None:
    assert is_blank(name)
    assert clean_name(name) == ""


@pytest.mark.parametrize("name", ["Olga", "ㅤOlgaㅤ", "\u2800Li", "👩\u200d👩\u200d👧", "é", "ア"])
def test_a_name_with_something_to_see_is_not_blank(name: str) -> None:
    assert not is_blank(name)
    assert clean_name(name) and not is_blank(clean_name(name))


def test_fillers_around_a_name_are_spaces() -> None:
    assert clean_name("\u3164Olga\u3164\u3164Petrova\u2800") == "Olga Petrova"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", BLANK)
def test_a_blank_name_shows_as_player_n_in_labels_and_buttons(language: str, name: str) -> None:
    t = translator(language)
    table = Table(SEATS, {"101": "Ann", "102": name, "103": "Cat"}, t)
    assert table.short("102") == PLAYER[language]
    assert table.label("102") == f"2 · {PLAYER[language]}"
    assert table.button("102") == f"2 · {PLAYER[language]}"
    assert f">2 · {PLAYER[language]}</a>" in table.mention("102")
    buttons = keyboards.players(table, SEATS[:3], lambda p: f"x:{p}")
    assert [b["text"] for row in buttons for b in row] == [
        "1 · Ann",
        f"2 · {PLAYER[language]}",
        "3 · Cat",
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lobby_calls_a_blank_name_by_its_seat(language: str) -> None:
    t = translator(language)
    names = ["Ann", "\u3164", "\u200b\u0301", "Cat"]
    text = texts.lobby(t, "classic", 4, 10, names, "Ann", None, "\u3164")
    assert f"1 · Ann  2 · {PLAYER[language]}  3 · {PLAYER[language][:-1]}3  4 · Cat" in text
    assert person_name("\u3164", t) in text and "\u3164" not in text  # the blank host


# ----- a name that starts with a number -----------------------------------------------

QUOTED = {
    "en": ("“", "”"),
    "fr": ("«\u00a0", "\u00a0»"),
    "ru": ("«", "»"),
    "ro": ("„", "”"),
    "vi": ("“", "”"),
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    "name", ["3 · Olga", "3 Olga", "3Olga", "Player 3", "#3", "３ Olga", "③ Olga", "3️⃣ Olga"]
)
def test_a_name_starting_with_a_number_is_quoted(language: str, name: str) -> None:
    t = translator(language)
    table = Table(SEATS, dict.fromkeys(SEATS, "Ann") | {"105": name}, t)
    opening, closing = QUOTED[language]
    assert table.button("105") == f"5 · {opening}{name}{closing}"


def test_a_name_like_another_seat_s_placeholder_is_quoted() -> None:
    table = Table(SEATS, {"101": "\u3164", "105": "Player 1"}, translator("en"))
    assert table.button("101") == "1 · Player 1"
    assert table.button("105") == "5 · “Player 1”"


@pytest.mark.parametrize("name", ["Alex2000", "P3", "Ann①", "Olga"])
def test_digits_inside_a_word_are_no_seat_number(name: str) -> None:
    table = Table(SEATS, {"101": name}, translator("en"))
    assert table.button("101") == f"1 · {name}"


def test_a_name_cannot_forge_the_end_of_its_quotes() -> None:
    t = translator("fr")
    table = Table(SEATS, dict.fromkeys(SEATS, "Cat") | {"101": "Ann» 2 · «Ben"}, t)
    assert table.label("101") == "1 · «\u00a0Ann 2 · Ben\u00a0»"
    assert seat_name("Ann” 2 · “Ben", 1, translator("en")).text == "Ann 2 · Ben"


def test_a_cut_name_is_quoted_whole() -> None:
    shown = str(seat_name("3 Olga Alexandrovna Petrova", 5, translator("ru")))
    assert shown == "«3 Olga Alexandr…»"


DOTS = "·•∙⋅・･‧⸱ꞏ᛫․"
ALPHABET = st.sampled_from(
    list("Ol a,.-#()'\"«»“”„‹›") + list(DOTS) + list("0123456789３③٣Ⅲ") + ["\u3164", "\u200b"]
)


@pytest.mark.parametrize("language", LANGUAGES)
@given(name=st.text(ALPHABET, max_size=20), seat=st.integers(min_value=1, max_value=20))
def test_no_label_shows_a_seat_number_but_its_own(language: str, name: str, seat: int) -> None:
    """Unquoted, a name has no word that starts with a digit and no
    separator (or it is the seat's own "Player N"); quoted, it has no mark
    that would close its quotes."""
    t = translator(language)
    shown = seat_name(name, seat, t)
    if shown.frame == "{name}" and shown.text == placeholder(t, seat):
        assert is_blank(name)
    elif shown.frame == "{name}":
        assert not regex.search(r"(?<![\p{L}\p{M}\p{N}])\p{N}", shown.text), shown
        assert not any(dot in shown.text for dot in DOTS), shown
    else:
        assert not any(mark in shown.text for mark in '«»“”„‹›"'), shown


def test_a_leaderboard_calls_a_blank_name_no_name() -> None:
    t = translator("vi")
    assert listed_name({1: "\u3164", 2: "Ann"}, 1, t) == "(không tên)"
    assert listed_name({1: "\u3164", 2: "Ann"}, 2, t) == "Ann"
    assert listed_name({}, 7, t) == "7"  # not known: the id, as before
