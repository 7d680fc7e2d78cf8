"""Where the seats go around the table: rows of cards at the top and the
bottom, columns at the sides, as large as the picture allows."""

from __future__ import annotations

from dataclasses import dataclass

from tg_mafia.render.pictures.canvas import Box

SIZE = 1280  # square: Telegram shows it whole, and 1280 is what it keeps of a photo
MARGIN = 24
HEADER = 150
AREA: Box = (MARGIN, HEADER, SIZE - MARGIN, SIZE - MARGIN)  # where the cards go
CARD_W, CARD_H = 300, 150  # a card at scale 1
MAX_SCALE = 1.25  # small tables get larger cards, easier to read on a phone
GAP = 14  # at least this between two cards


@dataclass(frozen=True)
class Layout:
    cards: tuple[Box, ...]  # in seat order, clockwise from the top left
    scale: float  # against CARD_W × CARD_H: text scales with it
    felt: Box


@dataclass(frozen=True)
class Split:
    """How many cards go along each edge of the table, clockwise from the top."""

    top: int
    right: int
    bottom: int
    left: int

    def scale(self) -> float:
        """The largest card scale (up to MAX_SCALE) at which every edge holds its cards."""
        left, top, right, bottom = AREA
        width, height = right - left, bottom - top
        # A row of k cards: k widths and k - 1 gaps; a column sits between the
        # rows: m heights, m + 1 gaps, and the two rows' heights.
        fits = [MAX_SCALE]
        for row in (self.top, self.bottom):
            if row:
                fits.append((width - (row - 1) * GAP) / row / CARD_W)
        column = max(self.left, self.right)
        rows = (self.top > 0) + (self.bottom > 0)
        fits.append((height - (column + 1) * GAP) / (column + rows) / CARD_H)
        return min(fits)

    def unevenness(self) -> float:
        """How unevenly the free space is shared among the cards: the room
        each card has to itself along its edge, largest less smallest (an
        empty edge counts as all room). Small is round."""
        scale = self.scale()
        w, h = CARD_W * scale, CARD_H * scale
        left, top, right, bottom = AREA
        rows = (self.top > 0) + (self.bottom > 0)
        column = bottom - top - rows * (h + GAP)
        room = [
            (right - left - count * w) / count if count else right - left
            for count in (self.top, self.bottom)
        ] + [(column - count * h) / count if count else column for count in (self.left, self.right)]
        return max(room) - min(room)


def splits(count: int) -> list[Split]:
    found = []
    for top in range(1, count + 1):
        for bottom in (top, top - 1):
            sides = count - top - bottom
            if bottom >= 0 and sides >= 0:
                found.append(Split(top, (sides + 1) // 2, bottom, sides // 2))
    return found


def layout(count: int) -> Layout:
    """Cards around the table: rows at the top and bottom, columns at the
    sides; the split that allows the largest cards and, among those, shares
    the free space most evenly, so that the table looks round."""
    best = max(splits(count), key=lambda s: (round(s.scale(), 2), -s.unevenness()))
    scale = best.scale()
    w, h = CARD_W * scale, CARD_H * scale
    left, top, right, bottom = AREA
    cards: list[Box] = []

    def card(x: float, y: float) -> None:
        cards.append((x - w / 2, y - h / 2, x + w / 2, y + h / 2))

    def spread(count: int, start: float, end: float) -> list[float]:
        """Centres of `count` cards spread evenly between `start` and `end`."""
        return [start + (end - start) * (k + 0.5) / count for k in range(count)]

    column_top = top + (h + GAP if best.top else 0)
    column_bottom = bottom - (h + GAP if best.bottom else 0)
    for x in spread(best.top, left, right):
        card(x, top + h / 2)
    for y in spread(best.right, column_top, column_bottom):
        card(right - w / 2, y)
    for x in reversed(spread(best.bottom, left, right)):
        card(x, bottom - h / 2)
    for y in reversed(spread(best.left, column_top, column_bottom)):
        card(left + w / 2, y)
    felt = (left + w + 2 * GAP, column_top + GAP, right - w - 2 * GAP, column_bottom - GAP)
    return Layout(tuple(cards), scale, felt)
