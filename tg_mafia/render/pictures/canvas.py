"""A picture being drawn, which remembers every text it drew and where.

The list of drawn texts lets tests (and anyone) check what a picture says
without reading its pixels back."""

from __future__ import annotations

from dataclasses import dataclass
from io import BytesIO

from PIL import Image, ImageDraw

from tg_mafia.render.pictures.fonts import Box as Box  # the pictures' modules take it from here
from tg_mafia.render.pictures.fonts import clean, draw_line, fit, length

Colour = tuple[int, int, int]


@dataclass(frozen=True)
class DrawnText:
    text: str
    box: Box
    kind: str  # what it shows: "title", "name", "role", "fate", "score"…
    group: int | None = None  # the seat (table) or rank (leaderboard) it belongs to


@dataclass(frozen=True)
class Picture:
    png: bytes
    width: int
    height: int
    texts: tuple[DrawnText, ...]

    def of_kind(self, kind: str) -> tuple[DrawnText, ...]:
        return tuple(item for item in self.texts if item.kind == kind)


class Canvas:
    def __init__(self, width: int, height: int, background: Colour) -> None:
        self.width, self.height = width, height
        self.image = Image.new("RGB", (width, height), background)
        self.draw = ImageDraw.Draw(self.image)
        self._texts: list[DrawnText] = []

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: Colour,
        *,
        max_width: float,
        kind: str,
        group: int | None = None,
        bold: bool = False,
        anchor: str = "la",
        min_size: int | None = None,
        frame: str = "{name}",
    ) -> DrawnText | None:
        """Draws `text` cleaned and cut to `max_width` (first made smaller,
        down to `min_size`, if that makes it fit whole), inside `frame` (a
        name's quotation marks: "{name}" for none); None if nothing of it
        could be drawn (a name in a script no shipped font has, say)."""
        wanted = clean(text)
        if not wanted:
            return None
        before, after = frame.split("{name}")  # the catalogues' marks: DejaVu has them
        size = next(
            (
                smaller
                for smaller in range(size, (min_size or size) - 1, -1)
                if length(before + wanted + after, smaller, bold) <= max_width
            ),
            min_size or size,
        )
        room = max_width - length(before + after, size, bold)
        shown = fit(wanted, size, bold, room)
        if not shown:
            return None
        shown = before + shown + after
        box = draw_line(self.image, xy, shown, size, bold, fill, anchor)
        item = DrawnText(shown, box, kind, group)
        self._texts.append(item)
        return item

    def picture(self) -> Picture:
        buffer = BytesIO()
        # zlib's default level, not optimize=True: much faster for a slightly bigger file,
        # and the bot renders a table at every game's end.
        self.image.save(buffer, "PNG")
        return Picture(buffer.getvalue(), self.width, self.height, tuple(self._texts))
