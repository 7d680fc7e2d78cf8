"""Names in scripts DejaVu lacks, and emoji, are drawn with real glyphs:
ink where each name is, unlike the empty boxes (.notdef) or the blank the
pictures drew before the Noto fonts came."""

from __future__ import annotations

import dataclasses

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont, features

from tests.pictures import checks
from tests.pictures.test_table import seat_texts, snapshot
from tg_mafia.i18n import translator
from tg_mafia.render.pictures.canvas import Box, Canvas
from tg_mafia.render.pictures.fonts import BOLD, graphemes
from tg_mafia.render.pictures.table import render_table

SCRIPTS = {
    "chinese": "王小明",
    "japanese": "さくら",
    "korean": "김민수",
    "thai": "สมชาย ใจดี",
    "arabic": "محمد علي",
    "emoji": "🌸🎭👍🏽🇫🇷",
}
BACKGROUND, INK = (0, 0, 0), (255, 255, 255)
NOT_A_CHARACTER = "\u0378"  # unassigned: every font draws its .notdef for it


def ink(image: Image.Image, box: Box, background: tuple[int, int, int]) -> int:
    """How many pixels of `box` are far from `background`."""
    crop = image.crop(tuple(round(v) for v in box)).convert("RGB")
    plain = Image.new("RGB", crop.size, background)
    difference = ImageChops.difference(crop, plain).convert("L")
    return sum(difference.histogram()[61:])


def drawn_alone(name: str, size: int = 40) -> tuple[Image.Image, Box]:
    canvas = Canvas(900, 120, BACKGROUND)
    item = canvas.text((10, 20), name, size, INK, max_width=880, kind="name", bold=True)
    assert item is not None
    assert item.text == name  # nothing left out
    return canvas.image, item.box


def tofu(name: str, size: int = 40) -> Image.Image:
    """The name as DejaVu alone would draw it if it lacked every glyph: boxes."""
    image = Image.new("RGB", (900, 120), BACKGROUND)
    boxes = NOT_A_CHARACTER * len(graphemes(name))
    ImageDraw.Draw(image).text((10, 20), boxes, font=ImageFont.truetype(str(BOLD), size), fill=INK)
    return image


@pytest.mark.parametrize("script", SCRIPTS)
def test_a_name_is_drawn_with_glyphs_not_boxes(script: str) -> None:
    name = SCRIPTS[script]
    image, box = drawn_alone(name)
    area = (box[2] - box[0]) * (box[3] - box[1])
    inked = ink(image, box, BACKGROUND)
    assert inked > 0.05 * area, f"{script}: {inked} pixels of ink in {area}"
    boxes = tofu(name)
    # Where either has ink, they differ: these are not the .notdef boxes.
    changed = ink(ImageChops.difference(image, boxes), (0, 0, 900, 120), BACKGROUND)
    assert changed > 0.5 * inked, f"{script} looks like .notdef boxes"


def test_emoji_are_in_colour() -> None:
    image, box = drawn_alone(SCRIPTS["emoji"])
    red, green, blue = image.crop(tuple(round(v) for v in box)).convert("RGB").split()
    highest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    lowest = ImageChops.darker(ImageChops.darker(red, green), blue)
    colourful = sum(ImageChops.subtract(highest, lowest).histogram()[101:])
    assert colourful > 200  # white text on black has none


@pytest.mark.skipif(not features.check("raqm"), reason="Arabic is shaped by Raqm only")
def test_arabic_letters_are_joined() -> None:
    name = SCRIPTS["arabic"]
    image, _ = drawn_alone(name)
    basic = ImageFont.truetype(str(BOLD), 40, layout_engine=ImageFont.Layout.BASIC)
    unjoined = Image.new("RGB", image.size, BACKGROUND)
    ImageDraw.Draw(unjoined).text((10, 20), name, font=basic, fill=INK)
    assert ink(ImageChops.difference(image, unjoined), (0, 0, *image.size), BACKGROUND) > 500


def test_the_table_draws_every_script_on_its_card() -> None:
    base = snapshot("classic", 8)
    names = [*SCRIPTS.values(), "Anna", "Борис"]
    seats = tuple(
        dataclasses.replace(card, name=name) for card, name in zip(base.seats, names, strict=True)
    )
    picture = render_table(dataclasses.replace(base, seats=seats), translator("vi"))
    image = checks.sound(picture)
    for seat, name in enumerate(names, 1):
        assert seat_texts(picture, seat, "name") == [name]
        (item,) = [i for i in picture.of_kind("name") if i.group == seat]
        area = (item.box[2] - item.box[0]) * (item.box[3] - item.box[1])
        card = image.getpixel((round(item.box[0]) - 2, round(item.box[1]) + 2))
        assert isinstance(card, tuple)
        assert ink(image, item.box, card[:3]) > 0.05 * area, name
