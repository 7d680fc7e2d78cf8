"""What every picture must satisfy, checked from its drawn texts and its PNG."""

from __future__ import annotations

import functools
import itertools
from io import BytesIO

from fontTools.ttLib import TTFont
from PIL import Image

from tg_mafia.render.pictures.canvas import Box, Picture
from tg_mafia.render.pictures.fonts import EMOJI, TEXT_FACES, graphemes

# Telegram's sendPhoto: at most 10 MB, width + height at most 10000, ratio at most 20.
MAX_BYTES = 10 * 1024 * 1024


@functools.cache
def cmaps() -> tuple[frozenset[int], ...]:
    """What each shipped text font draws in both its weights."""
    return tuple(
        frozenset(TTFont(str(regular)).getBestCmap()) & frozenset(TTFont(str(bold)).getBestCmap())
        for regular, bold in TEXT_FACES
    )


@functools.cache
def emoji_cmap() -> frozenset[int]:
    return frozenset(TTFont(str(EMOJI)).getBestCmap())


def decoded(picture: Picture) -> Image.Image:
    image = Image.open(BytesIO(picture.png))
    image.load()
    assert image.format == "PNG"
    assert image.size == (picture.width, picture.height)
    return image


def sendable(picture: Picture) -> None:
    assert len(picture.png) <= MAX_BYTES
    assert picture.width + picture.height <= 10000
    assert max(picture.width, picture.height) / min(picture.width, picture.height) <= 20


def no_tofu(picture: Picture) -> None:
    """Every grapheme drawn has its glyphs in one shipped text font (both
    weights), or in the emoji font (without its variation selector)."""
    for item in picture.texts:
        for cluster in graphemes(item.text):
            bare = cluster.replace("\ufe0f", "")
            found = any(all(ord(c) in cmap for c in cluster) for cmap in cmaps())
            found = found or all(ord(c) in emoji_cmap() for c in bare)
            assert found, f"{item.text!r} has no glyph for {cluster!r}"


def inside(box: Box, outer: Box) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


def all_inside(picture: Picture) -> None:
    frame = (0, 0, picture.width, picture.height)
    for item in picture.texts:
        assert inside(item.box, frame), item


def union(boxes: list[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def groups_apart(picture: Picture) -> None:
    """The texts of different seats (or rows) never overlap."""
    groups: dict[int, list[Box]] = {}
    for item in picture.texts:
        if item.group is not None:
            groups.setdefault(item.group, []).append(item.box)
    for (a, boxes_a), (b, boxes_b) in itertools.combinations(groups.items(), 2):
        for box_a, box_b in itertools.product(boxes_a, boxes_b):
            assert not overlap(box_a, box_b), f"texts of {a} and {b} overlap"


def sound(picture: Picture) -> Image.Image:
    """Every check that holds for any picture."""
    image = decoded(picture)
    sendable(picture)
    no_tofu(picture)
    all_inside(picture)
    groups_apart(picture)
    return image


def shown_as(drawn: str, text: str) -> bool:
    """`drawn` is `text` whole, or a prefix of it cut with an ellipsis."""
    return drawn == text or (drawn.endswith("…") and text.startswith(drawn[:-1].rstrip()))
