"""Text made safe to draw: cleaned of what no font has, cut by grapheme, each
grapheme given to the first font that has it."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from tg_mafia.render.pictures.fonts import (
    clean,
    coverage,
    emoji_form,
    fit,
    font,
    graphemes,
    length,
    runs,
    text_slot,
)

MIXED = "Ann 王小明 สมชาย محمد 🌸"


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


def test_graphemes_no_font_has_go_whole() -> None:
    # Devanagari and Ethiopic: no shipped font has them.
    assert clean("Oleg क्ष ሀ") == "Oleg"
    assert clean("कि") == ""


def test_emoji_stay_whole_with_their_joiners() -> None:
    # A thumbs-up with a skin tone, a family joined by ZWJ, a flag, a keycap.
    text = "Oleg 👍🏽👨\u200d👩\u200d👧 🇫🇷 3\ufe0f\u20e3"
    assert clean(text) == text
    assert [emoji_form(c) for c in graphemes("👍🏽👨\u200d👩\u200d👧")] == [
        "👍🏽",
        "👨\u200d👩\u200d👧",
    ]


def test_a_symbol_is_an_emoji_only_when_asked() -> None:
    # ❤ and ☺ are text by default: DejaVu's glyph; with U+FE0F, Noto's colour emoji.
    assert emoji_form("❤") is None and text_slot("❤") == 0
    assert emoji_form("❤\ufe0f") == "❤"
    assert emoji_form("😀") == "😀"  # an emoji by default, though DejaVu has a glyph too
    assert emoji_form("😀\ufe0e") is None  # text asked for
    assert clean("❤\ufe0f Mai ☺") == "❤\ufe0f Mai ☺"


def test_each_script_goes_to_its_font() -> None:
    bold = [(run.text, Path(run.face.path).name, run.emoji) for run in runs(MIXED, 30, True)]
    assert bold == [
        ("Ann ", "DejaVuSans-Bold.ttf", False),
        ("王小明", "NotoSansCJKsc-Bold-Common.otf", False),
        (" ", "DejaVuSans-Bold.ttf", False),
        ("สมชาย", "NotoSansThai-Bold.ttf", False),
        (" محمد ", "DejaVuSans-Bold.ttf", False),
        ("🌸", "NotoColorEmoji-48.ttf", True),
    ]
    regular = [Path(run.face.path).name for run in runs(MIXED, 30)]
    assert regular[:4] == [
        "DejaVuSans.ttf",
        "NotoSansCJKsc-Bold-Common.otf",  # one weight of CJK only
        "DejaVuSans.ttf",
        "NotoSansThai-Regular.ttf",
    ]


def test_marks_past_the_second_are_left_out() -> None:
    zalgo = "Z" + "\u0301\u0302\u0303\u0304\u0305" + "a"
    assert clean(zalgo) == unicodedata.normalize("NFC", "Z\u0301\u0302a")


def test_coverage_is_what_both_dejavu_fonts_draw() -> None:
    covered = coverage()
    assert all(ord(c) in covered for c in "șțẠườЁ☾☀♛★✚♥⚔☺♠…·")
    assert 0x1F44D not in covered  # 👍


def test_fit_keeps_what_fits() -> None:
    assert fit("Anna", 24, False, 500) == "Anna"


def test_fit_cuts_between_graphemes_with_an_ellipsis() -> None:
    # e with a double acute has no precomposed form: two code points, one grapheme.
    text = "e\u030b" * 40
    shown = fit(text, 24, False, 200)
    assert shown.endswith("…")
    assert font(24).getlength(shown) <= 200
    assert text.startswith(shown[:-1])
    assert all(g == "e\u030b" for g in graphemes(shown[:-1]))


@pytest.mark.parametrize("text", ["Борис Годунов-Ильич Длиннофамильный", "Người chơi Dân thường"])
def test_fit_cuts_long_names(text: str) -> None:
    shown = fit(text, 30, True, 180)
    assert font(30, bold=True).getlength(shown) <= 180
    assert shown.endswith("…") and text.startswith(shown[:-1])


def test_fit_gives_nothing_when_not_even_the_ellipsis_fits() -> None:
    assert fit("Anna", 24, False, 3) == ""


def test_fit_measures_every_font() -> None:
    shown = fit(MIXED, 30, True, 200)
    assert shown.endswith("…") and MIXED.startswith(shown[:-1])
    assert length(shown, 30, True) <= 200 < length(MIXED, 30, True)


def test_no_break_spaces_stay() -> None:
    assert clean("74\u00a0%") == "74\u00a0%"
    assert clean("«\u202fOui\u202f»") == "«\u202fOui\u202f»"


def test_the_tofu_check_catches_a_missing_glyph() -> None:
    """The check the picture tests rely on fails for a character the fonts lack."""
    from tests.pictures import checks
    from tg_mafia.render.pictures.canvas import DrawnText, Picture

    drawn = Picture(b"", 1, 1, (DrawnText("a\u0915", (0, 0, 1, 1), "name"),))
    with pytest.raises(AssertionError, match="no glyph"):
        checks.no_tofu(drawn)
