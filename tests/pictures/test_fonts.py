"""Text made safe to draw: cleaned of what the font lacks, cut by grapheme."""

from __future__ import annotations

import unicodedata

import pytest

from tg_mafia.pictures.fonts import clean, coverage, fit, font, graphemes


def test_every_language_of_the_bot_is_kept_whole() -> None:
    for text in (
        "Người chơi Dân thường",
        "Ștefan Țepeș, Țară",
        "François, Hélène, Œdipe",
        "Мирный житель, Ёжик",
        "שרה כהן",
    ):
        assert clean(text) == text


def test_decomposed_vietnamese_is_composed() -> None:
    decomposed = unicodedata.normalize("NFD", "Người chơi")
    assert decomposed != "Người chơi"
    assert clean(decomposed) == "Người chơi"


def test_invisible_and_control_characters_go() -> None:
    assert clean("Le\u200bna\u200d\u2060\ufeff\u202e Z") == "Lena Z"
    assert clean("  Anna\t\n\u2028 Petrova  ") == "Anna Petrova"
    assert clean("A\x00\x1bB") == "AB"


def test_graphemes_the_font_lacks_go_whole() -> None:
    # A thumbs-up with a skin tone, a family joined by ZWJ, a flag: none is in DejaVu.
    assert clean("Oleg 👍🏽👨\u200d👩\u200d👧 🇫🇷") == "Oleg"
    assert clean("🦄🐙") == ""
    # A heart with its emoji variation selector keeps the heart the font has.
    assert clean("❤️ Mai") == "❤ Mai"


def test_marks_past_the_second_are_left_out() -> None:
    zalgo = "Z" + "\u0301\u0302\u0303\u0304\u0305" + "a"
    assert clean(zalgo) == unicodedata.normalize("NFC", "Z\u0301\u0302a")


def test_coverage_is_what_both_fonts_draw() -> None:
    covered = coverage()
    assert all(ord(c) in covered for c in "șțẠườЁ☾☀♛★✚♥⚔☺♠…·")
    assert 0x1F44D not in covered  # 👍


def test_fit_keeps_what_fits() -> None:
    face = font(24)
    assert fit("Anna", face, 500) == "Anna"


def test_fit_cuts_between_graphemes_with_an_ellipsis() -> None:
    face = font(24)
    # e with a double acute has no precomposed form: two code points, one grapheme.
    text = "e\u030b" * 40
    shown = fit(text, face, 200)
    assert shown.endswith("…")
    assert face.getlength(shown) <= 200
    assert text.startswith(shown[:-1])
    assert all(g == "e\u030b" for g in graphemes(shown[:-1]))


@pytest.mark.parametrize("text", ["Борис Годунов-Ильич Длиннофамильный", "Người chơi Dân thường"])
def test_fit_cuts_long_names(text: str) -> None:
    face = font(30, bold=True)
    shown = fit(text, face, 180)
    assert face.getlength(shown) <= 180
    assert shown.endswith("…") and text.startswith(shown[:-1])


def test_fit_gives_nothing_when_not_even_the_ellipsis_fits() -> None:
    assert fit("Anna", font(24), 3) == ""


def test_no_break_spaces_stay() -> None:
    assert clean("74\u00a0%") == "74\u00a0%"
    assert clean("«\u202fOui\u202f»") == "«\u202fOui\u202f»"


def test_the_tofu_check_catches_a_missing_glyph() -> None:
    """The check the picture tests rely on fails for a character the fonts lack."""
    from tests.pictures import checks
    from tg_mafia.pictures.canvas import DrawnText, Picture

    drawn = Picture(b"", 1, 1, (DrawnText("a🦄", (0, 0, 1, 1), "name"),))
    with pytest.raises(AssertionError, match="no glyph"):
        checks.no_tofu(drawn)
