"""Colours and role marks shared by every picture.

A dark theme (it reads well in Telegram's light and dark modes alike). Role
marks are symbols of the shipped font, not emoji: DejaVu has no colour emoji,
and a phone's emoji font is not there when the picture is drawn."""

from __future__ import annotations

from engine import Role, Side
from tg_mafia.render.pictures.canvas import Colour

BACKGROUND: Colour = (20, 23, 31)
CARD: Colour = (35, 40, 54)
CARD_OUT: Colour = (27, 30, 40)  # the card of a player who is out
FELT: Colour = (24, 66, 52)
FELT_EDGE: Colour = (52, 110, 86)
TEXT: Colour = (238, 240, 245)
MUTED: Colour = (150, 157, 173)
GOLD: Colour = (242, 193, 78)
SILVER: Colour = (192, 199, 210)
BRONZE: Colour = (205, 134, 84)

SIDE_COLOURS: dict[Side, Colour] = {
    Side.TOWN: (84, 160, 255),
    Side.MAFIA: (232, 72, 85),
    Side.MANIAC: (178, 108, 222),
}
DRAW_COLOUR: Colour = (200, 200, 200)

FATE_COLOURS: dict[str, Colour] = {
    "survived": (111, 207, 127),
    "killed": (255, 107, 107),
    "eliminated": (242, 165, 65),
    "left": MUTED,
    "warnings": (240, 208, 80),
    "fouls": (240, 208, 80),  # sport's warnings
    "departed": MUTED,
    "idle": MUTED,
}

ROLE_MARKS: dict[Role, str] = {
    Role.CITIZEN: "☺",
    Role.MAFIA: "♠",
    Role.GODFATHER: "♛",
    Role.DON: "♛",
    Role.DETECTIVE: "★",
    Role.SHERIFF: "★",
    Role.POLICE: "★",
    Role.DOCTOR: "✚",
    Role.ESCORT: "♥",
    Role.MANIAC: "⚔",
}


def side_colour(side: Side | None) -> Colour:
    return SIDE_COLOURS.get(side, DRAW_COLOUR) if side is not None else DRAW_COLOUR


def dimmed(colour: Colour, amount: float = 0.45) -> Colour:
    """`colour` mixed with the background: for what is over (a player out)."""
    r, g, b = colour
    br, bg, bb = BACKGROUND
    return (
        round(r + (br - r) * amount),
        round(g + (bg - g) * amount),
        round(b + (bb - b) * amount),
    )
