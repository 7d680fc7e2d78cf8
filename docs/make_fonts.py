"""Writes the Noto fonts the pictures fall back on (tg_mafia/render/pictures/fonts/)
from Debian's packages, made small enough to ship in the wheel:

- NotoSansThai-Regular.ttf, NotoSansThai-Bold.ttf: copied unchanged
  (fonts-noto-core);
- NotoSansCJKsc-Bold-Common.otf: Noto Sans CJK SC Bold (fonts-noto-cjk)
  subset to the characters names are written with: the Han characters of
  GB 2312 (simplified Chinese), JIS X 0208 (Japanese) and Big5's frequent
  level (traditional Chinese), the 2,350 Hangul syllables of KS X 1001
  (Korean), kana, Bopomofo, Hangul jamo, CJK punctuation and full-width
  forms. One weight only: the pictures draw names bold, and a regular text
  borrows it;
- NotoColorEmoji-48.ttf: Noto Color Emoji (fonts-noto-color-emoji) with its
  109-pixel bitmaps scaled to 48 pixels (a name is drawn at 36 at most) in
  64 colours each: 4.7 MB instead of 11.

All are under the SIL Open Font License 1.1 (LICENSE-Noto). Run as root:

    apt-get install fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji
    .venv/bin/python docs/make_fonts.py

or give `--root` a folder where the three .deb files were unpacked
(`dpkg-deb -x PACKAGE.deb FOLDER`).
"""

from __future__ import annotations

import argparse
import io
import shutil
from collections.abc import Iterable
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont
from PIL import Image

OUT = Path(__file__).resolve().parent.parent / "tg_mafia" / "render" / "pictures" / "fonts"
NOTO = Path("usr/share/fonts/truetype/noto")
NOTO_CJK = Path("usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc")
CJK_SC = 2  # the collection's order: JP, KR, SC, TC, HK, then the Mono faces
EMOJI_PPEM, EMOJI_COLOURS = 48, 64


def decoded(codec: str, rows: Iterable[int], cells: Iterable[int]) -> set[int]:
    """The characters of a double-byte encoding's rows (lead bytes)."""
    found = set()
    cells = list(cells)
    for row in rows:
        for cell in cells:
            try:
                text = bytes([row, cell]).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(text) == 1:
                found.add(ord(text))
    return found


def common_cjk() -> set[int]:
    high = range(0xA1, 0xFF)
    han = decoded("gb2312", range(0xB0, 0xF8), high)  # GB 2312 levels 1 and 2: 6,763
    han |= decoded("euc_jp", range(0xB0, 0xF5), high)  # JIS X 0208 levels 1 and 2: 6,355
    big5_cells = [*range(0x40, 0x7F), *high]
    han |= decoded("big5", range(0xA4, 0xC7), big5_cells)  # Big5 level 1: 5,401
    han = {c for c in han if 0x3400 <= c <= 0x9FFF or 0xF900 <= c <= 0xFAFF}
    hangul = decoded("euc_kr", range(0xB0, 0xC9), high)  # KS X 1001: 2,350 syllables
    blocks = [
        (0x3000, 0x303F),  # CJK symbols and punctuation
        (0x3040, 0x30FF),  # hiragana, katakana
        (0x3100, 0x312F),  # Bopomofo
        (0x3130, 0x318F),  # Hangul compatibility jamo
        (0x31F0, 0x31FF),  # katakana phonetic extensions
        (0xFF00, 0xFFEF),  # half-width and full-width forms
    ]
    return han | hangul | {c for low, high_ in blocks for c in range(low, high_ + 1)}


def make_cjk(root: Path) -> None:
    font = TTCollection(str(root / NOTO_CJK)).fonts[CJK_SC]
    options = subset.Options()
    options.layout_features = ["*"]  # vertical forms, locl… kept: harmless and small
    options.name_IDs = ["*"]
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=common_cjk())
    subsetter.subset(font)
    font.save(str(OUT / "NotoSansCJKsc-Bold-Common.otf"))


def make_emoji(root: Path) -> None:
    """The colour bitmaps scaled from 109 pixels to EMOJI_PPEM, with their
    metrics; the outline-free font keeps its cmap and ligatures (GSUB)."""
    font = TTFont(str(root / NOTO / "NotoColorEmoji.ttf"))
    (strike,) = font["CBLC"].strikes
    size = strike.bitmapSizeTable
    k = EMOJI_PPEM / size.ppemX
    for glyph in font["CBDT"].strikeData[0].values():
        m = glyph.metrics
        width, height = max(1, round(m.width * k)), max(1, round(m.height * k))
        image = Image.open(io.BytesIO(glyph.imageData)).convert("RGBA")
        image = image.resize((width, height), Image.Resampling.LANCZOS)
        image = image.quantize(EMOJI_COLOURS, method=Image.Quantize.FASTOCTREE)
        buffer = io.BytesIO()
        image.save(buffer, "PNG", optimize=True)
        glyph.imageData = buffer.getvalue()
        m.width, m.height = width, height
        m.BearingX, m.BearingY = round(m.BearingX * k), round(m.BearingY * k)
        m.Advance = round(m.Advance * k)
    size.ppemX = size.ppemY = EMOJI_PPEM
    for line in (size.hori, size.vert):
        line.ascender, line.descender = round(line.ascender * k), round(line.descender * k)
        line.widthMax = round(line.widthMax * k)
    font.save(str(OUT / f"NotoColorEmoji-{EMOJI_PPEM}.ttf"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("/"), help="where the packages are")
    root = parser.parse_args().root
    for weight in ("Regular", "Bold"):
        name = f"NotoSansThai-{weight}.ttf"
        shutil.copyfile(root / NOTO / name, OUT / name)
    make_cjk(root)
    make_emoji(root)


if __name__ == "__main__":
    main()
