"""The shipped fonts, and text made safe to draw with them.

Each grapheme (a letter with its accents, an emoji with its skin tone and
joiners) is drawn with the first font that has all of it:

- DejaVu Sans: Latin (French, Romanian, Vietnamese), Cyrillic, Greek,
  Hebrew, Arabic, and symbols (☾ ☀ ♛ ★);
- Noto Sans Thai;
- Noto Sans CJK SC Bold, subset to the common Chinese, Japanese and Korean
  characters (docs/make_fonts.py), for both weights;
- Noto Color Emoji, in colour, for a grapheme shown as an emoji (with its
  emoji variation selector, or an emoji by default such as 😀; ☺ without
  a selector stays DejaVu's text glyph).

A grapheme no font has is left out whole, so no tofu box is ever drawn;
text is cut to a width at a grapheme boundary, so no letter loses its accent.
Arabic and Hebrew are shaped and ordered by Raqm (HarfBuzz and FriBiDi),
which Pillow's wheels bring with them; without it Pillow's basic layout
draws every glyph, Arabic unjoined and left to right.
"""

from __future__ import annotations

import functools
import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import regex
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont, features

FONTS_DIR = Path(__file__).with_name("fonts")
REGULAR = FONTS_DIR / "DejaVuSans.ttf"
BOLD = FONTS_DIR / "DejaVuSans-Bold.ttf"
THAI = FONTS_DIR / "NotoSansThai-Regular.ttf"
THAI_BOLD = FONTS_DIR / "NotoSansThai-Bold.ttf"
CJK = FONTS_DIR / "NotoSansCJKsc-Bold-Common.otf"
EMOJI = FONTS_DIR / "NotoColorEmoji-48.ttf"
EMOJI_PPEM = 48  # the only size of its bitmaps: drawn at it, then scaled
# The text fonts, first to last: (regular, bold) each.
TEXT_FACES: tuple[tuple[Path, Path], ...] = ((REGULAR, BOLD), (THAI, THAI_BOLD), (CJK, CJK))
ELLIPSIS = "…"
# Enough for any name; a longer text is cut before it is measured.
MAX_GRAPHEMES = 120
# Vietnamese needs two marks on a letter at most; more is "Zalgo" text,
# whose marks would climb out of their line: they are left out.
MAX_MARKS = 2
GRAPHEME = regex.compile(r"\X")
NO_BREAK_SPACES = ("\u00a0", "\u202f")
SPACES = regex.compile(r" {2,}")
EMOJI_STYLE, TEXT_STYLE = "\ufe0f", "\ufe0e"  # the variation selectors that ask for either
EMOJI_DEFAULT = regex.compile(r"\p{Emoji_Presentation}")
# Kept in an emoji: joiners, the keycap, tags (a subdivision's flag).
EMOJI_GLUE = regex.compile(r"[\u200d\u20e3\U000e0020-\U000e007f]")


def _engine() -> ImageFont.Layout:
    # Raqm shapes right-to-left and joined scripts, and forms emoji sequences.
    return ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC


@functools.cache
def face(path: Path, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), size, layout_engine=_engine())


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans: the first font, whose lines every other font sits on."""
    return face(BOLD if bold else REGULAR, size)


@functools.cache
def cmap(path: Path) -> frozenset[int]:
    return frozenset(TTFont(str(path), lazy=True).getBestCmap())


@functools.cache
def coverage() -> frozenset[int]:
    """The code points DejaVu draws in both weights."""
    return cmap(REGULAR) & cmap(BOLD)


@functools.cache
def slots() -> tuple[frozenset[int], ...]:
    """What each text font draws in both its weights, first to last."""
    return tuple(cmap(regular) & cmap(bold) for regular, bold in TEXT_FACES)


def graphemes(text: str) -> list[str]:
    """User-perceived characters (Unicode extended grapheme clusters)."""
    return list(GRAPHEME.findall(text))


def emoji_form(cluster: str) -> str | None:
    """The cluster as Noto Color Emoji draws it (without its variation
    selector), or None: not shown as an emoji, or not in the font."""
    asked = EMOJI_STYLE in cluster or "\u20e3" in cluster  # a keycap is an emoji
    if TEXT_STYLE in cluster or not (asked or EMOJI_DEFAULT.match(cluster)):
        return None
    bare = cluster.replace(EMOJI_STYLE, "")
    return bare if all(ord(c) in cmap(EMOJI) for c in bare) else None


def text_slot(cluster: str) -> int | None:
    """The first text font that has every character of the cluster."""
    for index, covered in enumerate(slots()):
        if all(ord(c) in covered for c in cluster):
            return index
    return None


def _drawable(cluster: str) -> str:
    """The cluster as it can be drawn: an emoji whole; otherwise without
    invisible format characters (zero-width spaces and joiners, direction
    overrides, variation selectors) and marks past the second; "" if no
    font has all of the rest."""
    if cluster.isspace():
        # No-break spaces stay (French writes "74 %" with one); others become " ".
        return cluster if cluster in NO_BREAK_SPACES and ord(cluster) in coverage() else " "
    emoji = unicodedata.normalize("NFC", cluster)
    if emoji_form(emoji) is not None:
        return emoji
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
    return kept if kept and text_slot(kept) is not None else ""


def clean(text: str) -> str:
    """`text` as the fonts can draw it on one line: NFC (Vietnamese letters
    as single glyphs), no control or format characters outside an emoji, no
    grapheme that no font has, runs of spaces made one. May be empty."""
    # Marks are counted apart from their letters (NFD), then letters and marks
    # are joined again (NFC) where the font has the letter whole, as Vietnamese.
    normal = unicodedata.normalize("NFD", text)
    kept = "".join(_drawable(cluster) for cluster in graphemes(normal)[:MAX_GRAPHEMES])
    return SPACES.sub(" ", kept).strip()


@dataclass(frozen=True)
class Run:
    """Graphemes drawn with one font: `scale` 1 for text; an emoji run is
    drawn at EMOJI_PPEM and scaled to the text's size."""

    text: str
    face: ImageFont.FreeTypeFont
    emoji: bool = False
    scale: float = 1.0

    def length(self) -> float:
        return self.face.getlength(self.text) * self.scale


EMOJI_SLOT = -1


def _slot(cluster: str) -> tuple[int, str]:
    """Which font draws the cluster (a text slot, or EMOJI_SLOT), and what it draws."""
    emoji = emoji_form(cluster)
    if emoji is not None:
        return EMOJI_SLOT, emoji
    if cluster.isspace():
        return 0, cluster  # DejaVu's: the emoji font's space is an emoji wide, the CJK one's an em
    slot = text_slot(cluster)
    if slot is None:
        raise ValueError(f"no font draws {cluster!r}: clean the text first")
    return slot, cluster


def runs(text: str, size: int, bold: bool = False) -> list[Run]:
    """`text` (cleaned) in runs of one font each, in reading order; spaces
    are DejaVu's."""
    found: list[tuple[int, str]] = []
    for cluster in graphemes(text):
        slot, drawn = _slot(cluster)
        if found and found[-1][0] == slot:
            found[-1] = (slot, found[-1][1] + drawn)
        else:
            found.append((slot, drawn))
    return [
        Run(part, face(EMOJI, EMOJI_PPEM), True, size / EMOJI_PPEM)
        if slot == EMOJI_SLOT
        else Run(part, face(TEXT_FACES[slot][int(bold)], size))
        for slot, part in found
    ]


def length(text: str, size: int, bold: bool = False) -> float:
    """How wide `text` is drawn, in pixels."""
    return sum(run.length() for run in runs(text, size, bold))


def fit(text: str, size: int, bold: bool, width: float) -> str:
    """`text` cut at a grapheme boundary, with an ellipsis, to be at most
    `width` pixels wide; "" if not even the ellipsis fits."""
    if length(text, size, bold) <= width:
        return text
    clusters = graphemes(text)
    # The longest prefix that fits with its ellipsis, by bisection.
    low, high = 0, len(clusters)
    while low < high:
        middle = (low + high + 1) // 2
        if length("".join(clusters[:middle]).rstrip() + ELLIPSIS, size, bold) <= width:
            low = middle
        else:
            high = middle - 1
    if low == 0 and length(ELLIPSIS, size, bold) > width:
        return ""
    return "".join(clusters[:low]).rstrip() + ELLIPSIS


def right_to_left(text: str) -> bool:
    """The text's first strong character is Hebrew or Arabic: its runs go
    from right to left (each run's own order is Raqm's)."""
    for c in text:
        kind = unicodedata.bidirectional(c)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False


Box = tuple[float, float, float, float]  # left, top, right, bottom, in pixels


def draw_line(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    bold: bool,
    fill: tuple[int, int, int],
    anchor: str,
) -> Box:
    """Draws cleaned `text` run by run on DejaVu's baseline; `anchor` as
    Pillow's, horizontal l, m or r and vertical a, m, s or d. The box drawn."""
    line = runs(text, size, bold)
    if right_to_left(text):
        line.reverse()
    ascent, descent = font(size, bold).getmetrics()
    total = sum(run.length() for run in line)
    x = xy[0] - {"l": 0.0, "m": total / 2, "r": total}[anchor[0]]
    baseline = xy[1] + {"a": ascent, "m": (ascent - descent) / 2, "s": 0, "d": -descent}[anchor[1]]
    draw = ImageDraw.Draw(image)
    boxes: list[Box] = []
    for run in line:
        if run.emoji:
            boxes.append(_paste_emoji(image, (x, baseline), run))
        else:
            draw.text((x, baseline), run.text, font=run.face, fill=fill, anchor="ls")
            boxes.append(draw.textbbox((x, baseline), run.text, font=run.face, anchor="ls"))
        x += run.length()
    return union(boxes)


def _paste_emoji(image: Image.Image, at: tuple[float, float], run: Run) -> Box:
    """The run's colour bitmaps, drawn at their own size and scaled to the line's."""
    ascent, descent = run.face.getmetrics()
    tile = Image.new("RGBA", (math.ceil(run.face.getlength(run.text)), ascent + descent))
    ImageDraw.Draw(tile).text(
        (0, ascent), run.text, font=run.face, anchor="ls", embedded_color=True
    )
    width, height = max(1, round(tile.width * run.scale)), max(1, round(tile.height * run.scale))
    tile = tile.resize((width, height), Image.Resampling.LANCZOS)
    left, top = round(at[0]), round(at[1] - ascent * run.scale)
    image.paste(tile, (left, top), tile)
    return (left, top, left + width, top + height)


def union(boxes: Sequence[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )
