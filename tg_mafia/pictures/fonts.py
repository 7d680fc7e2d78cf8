"""The shipped fonts, and text made safe to draw with them.

DejaVu Sans covers Latin (French and Romanian diacritics included), Cyrillic
and Vietnamese, but has no colour emoji: a name is cleaned of what the font
cannot draw, a whole grapheme at a time (an emoji with its skin tone and
joiners goes as one), so no tofu box is ever drawn, and cut to a width at a
grapheme boundary, so no letter loses its accent.
"""

from __future__ import annotations

import functools
import unicodedata
from pathlib import Path

import regex
from fontTools.ttLib import TTFont
from PIL import ImageFont, features

FONTS_DIR = Path(__file__).with_name("fonts")
REGULAR = FONTS_DIR / "DejaVuSans.ttf"
BOLD = FONTS_DIR / "DejaVuSans-Bold.ttf"
ELLIPSIS = "…"
# Enough for any name; a longer text is cut before it is measured.
MAX_GRAPHEMES = 120
# Vietnamese needs two marks on a letter at most; more is "Zalgo" text,
# whose marks would climb out of their line: they are left out.
MAX_MARKS = 2
GRAPHEME = regex.compile(r"\X")
NO_BREAK_SPACES = ("\u00a0", "\u202f")
SPACES = regex.compile(r" {2,}")


@functools.cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    # Raqm (HarfBuzz, FriBiDi) shapes right-to-left and joined scripts; without
    # it Pillow's basic layout still draws every covered glyph.
    engine = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size, layout_engine=engine)


@functools.cache
def coverage() -> frozenset[int]:
    """The code points both fonts draw."""
    maps = [TTFont(str(path), lazy=True).getBestCmap() for path in (REGULAR, BOLD)]
    return frozenset(maps[0]) & frozenset(maps[1])


def graphemes(text: str) -> list[str]:
    """User-perceived characters (Unicode extended grapheme clusters)."""
    return list(GRAPHEME.findall(text))


def _drawable(cluster: str, covered: frozenset[int]) -> str:
    """The cluster as it can be drawn: without invisible format characters
    (zero-width spaces and joiners, direction overrides, variation
    selectors) and marks past the second; "" if the font lacks any of the rest."""
    if cluster.isspace():
        # No-break spaces stay (French writes "74 %" with one); others become " ".
        return cluster if cluster in NO_BREAK_SPACES and ord(cluster) in covered else " "
    kept = ""
    marks = 0
    for c in cluster:
        if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") or 0xFE00 <= ord(c) <= 0xFE0F:
            continue
        if unicodedata.combining(c):
            marks += 1
            if marks > MAX_MARKS:
                continue
        kept += c
    kept = unicodedata.normalize("NFC", kept)
    if any(ord(c) not in covered for c in kept):
        return ""
    return kept


def clean(text: str) -> str:
    """`text` as the fonts can draw it on one line: NFC (Vietnamese letters
    as single glyphs), no control or format characters, no grapheme the font
    lacks, runs of spaces made one. May be empty."""
    covered = coverage()
    # Marks are counted apart from their letters (NFD), then letters and marks
    # are joined again (NFC) where the font has the letter whole, as Vietnamese.
    normal = unicodedata.normalize("NFD", text)
    kept = "".join(_drawable(cluster, covered) for cluster in graphemes(normal)[:MAX_GRAPHEMES])
    return SPACES.sub(" ", kept).strip()


def fit(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """`text` cut at a grapheme boundary, with an ellipsis, to be at most
    `width` pixels wide; "" if not even the ellipsis fits."""
    if face.getlength(text) <= width:
        return text
    clusters = graphemes(text)
    # The longest prefix that fits with its ellipsis, by bisection.
    low, high = 0, len(clusters)
    while low < high:
        middle = (low + high + 1) // 2
        if face.getlength("".join(clusters[:middle]).rstrip() + ELLIPSIS) <= width:
            low = middle
        else:
            high = middle - 1
    if low == 0 and face.getlength(ELLIPSIS) > width:
        return ""
    return "".join(clusters[:low]).rstrip() + ELLIPSIS
