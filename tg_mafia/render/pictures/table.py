"""The end of a game as a picture: the seats around the table, each with its
number, name, revealed role and fate, and the winning side in the middle."""

from __future__ import annotations

from dataclasses import dataclass

from engine import Role, Side
from tg_mafia.i18n import Translator
from tg_mafia.render.fate import Fate
from tg_mafia.render.pictures import style
from tg_mafia.render.pictures.canvas import Box, Canvas, Picture
from tg_mafia.render.pictures.fonts import clean, font
from tg_mafia.render.pictures.layout import MARGIN, SIZE, layout
from tg_mafia.render.texts import role_name, shown_night, variant_name
from tg_mafia.render.texts.names import SeatName, placeholder, seat_name

MIN_SEATS, MAX_SEATS = 3, 20
LARGEST_TITLE, SMALLEST_TITLE = 72, 36  # the winner's title, in the middle


@dataclass(frozen=True)
class SeatCard:
    seat: int
    name: str
    role: Role
    fate: Fate = Fate.SURVIVED
    when: int | None = None  # the night (killed) or the day (the other fates)

    @property
    def side(self) -> Side:
        return self.role.side


@dataclass(frozen=True)
class TableSnapshot:
    title: str  # the game's title, as the lobby showed it
    variant: str
    seats: tuple[SeatCard, ...]  # in seat order
    winner: Side | None  # None or Side.DRAW: a draw


def check(snapshot: TableSnapshot) -> None:
    """Raises ValueError for a snapshot that cannot be drawn."""
    count = len(snapshot.seats)
    if not MIN_SEATS <= count <= MAX_SEATS:
        raise ValueError(f"a table has {MIN_SEATS} to {MAX_SEATS} seats, not {count}")
    if [card.seat for card in snapshot.seats] != list(range(1, count + 1)):
        raise ValueError("seats must be numbered 1, 2, 3… in order")
    for card in snapshot.seats:
        if (card.fate is Fate.SURVIVED) != (card.when is None):
            raise ValueError(f"seat {card.seat}: a fate other than survived needs its night or day")
        if card.when is not None and card.when < 0:
            raise ValueError(f"seat {card.seat}: night or day {card.when} is negative")


def winner_title(t: Translator, winner: Side | None) -> str:
    if winner is None or winner is Side.DRAW:
        # TRANSLATORS: the result of a game nobody won, in the middle of the picture.
        return t.gettext("A draw")
    return {
        Side.TOWN: t.gettext("The town wins"),
        Side.MAFIA: t.gettext("The mafia wins"),
        Side.MANIAC: t.gettext("The maniac wins"),
    }[winner]


def fate_text(t: Translator, fate: Fate) -> str:
    # TRANSLATORS: the fates below label a seat on the end-of-game picture, under
    # the player's name and role; the night or day is drawn beside it (☾ 2, ☀ 3).
    # Keep them short: a card is narrow. The player may be a man or a woman.
    survived = t.gettext("Survived")
    killed = t.gettext("Killed at night")
    voted_out = t.gettext("Voted out")
    left = t.gettext("Left the table")
    warnings = t.gettext("Removed for warnings")
    fouls = t.gettext("Removed for fouls")
    departed = t.gettext("Left the group")
    idle = t.gettext("Out for idleness")
    return {
        Fate.SURVIVED: survived,
        Fate.KILLED: killed,
        Fate.ELIMINATED: voted_out,
        Fate.LEFT: left,
        Fate.WARNINGS: warnings,
        Fate.FOULS: fouls,
        Fate.DEPARTED: departed,
        Fate.IDLE: idle,
    }[fate]


def when_badge(fate: Fate, when: int | None, variant: str = "") -> str:
    """☾ 2 for night 2, ☀ 3 for day 3: the same in every language. A night
    is numbered as the variant's players number it (sport: night 1 follows
    the zero night)."""
    if when is None:
        return ""
    if fate is Fate.KILLED:
        return f"☾ {shown_night(variant, when)}"
    return f"☀ {when}"


def render_table(snapshot: TableSnapshot, t: Translator) -> Picture:
    """The end of the game as a PNG, in the language of `t`."""
    check(snapshot)
    canvas = Canvas(SIZE, SIZE, style.BACKGROUND)
    width = SIZE - 2 * MARGIN
    canvas.text(
        (MARGIN, 28),
        snapshot.title,
        44,
        style.TEXT,
        max_width=width,
        kind="title",
        bold=True,
        min_size=30,
    )
    count = len(snapshot.seats)
    players = t.ngettext("{n} player", "{n} players", count).format(n=count)
    canvas.text(
        (MARGIN, 90),
        f"{variant_name(t, snapshot.variant)} · {players}",
        28,
        style.MUTED,
        max_width=width,
        kind="subtitle",
        min_size=22,
    )
    shape = layout(count)
    draw_felt(canvas, shape.felt, snapshot.winner, t)
    for card, box in zip(snapshot.seats, shape.cards, strict=True):
        draw_card(canvas, card, box, shape.scale, snapshot, t)
    return canvas.picture()


def draw_felt(canvas: Canvas, felt: Box, winner: Side | None, t: Translator) -> None:
    canvas.draw.ellipse(felt, fill=style.FELT, outline=style.FELT_EDGE, width=6)
    left, top, right, bottom = felt
    centre_x, centre_y = (left + right) / 2, (top + bottom) / 2
    # The widest line the ellipse holds at its middle, less a margin; the
    # title takes two lines when that lets it be much larger.
    width = (right - left) * 0.8
    title = winner_title(t, winner)
    one = largest_size([title], width)
    two = largest_size(balanced_lines(title), width) if " " in title else 0
    # A size of 0: the title does not fit even at the smallest size.
    if " " in title and (not one or two > one + 8):
        lines, size = balanced_lines(title), max(two, SMALLEST_TITLE)
    else:
        lines, size = [title], max(one, SMALLEST_TITLE)
    for index, line in enumerate(lines):
        offset = (index - (len(lines) - 1) / 2) * size * 1.2
        canvas.text(
            (centre_x, centre_y + offset),
            line,
            size,
            style.side_colour(winner),
            max_width=width,
            kind="winner",
            bold=True,
            anchor="mm",
            min_size=SMALLEST_TITLE - 8,
        )


def largest_size(lines: list[str], width: float) -> int:
    """The largest bold size at which every line fits `width`; 0 if none does."""
    for size in range(LARGEST_TITLE, SMALLEST_TITLE - 1, -2):
        if all(font(size, bold=True).getlength(line) <= width for line in lines):
            return size
    return 0


def balanced_lines(text: str) -> list[str]:
    """`text` in two lines, broken at the space nearest its middle."""
    spaces = [i for i, c in enumerate(text) if c == " "]
    cut = min(spaces, key=lambda i: abs(len(text) / 2 - i))
    return [text[:cut], text[cut + 1 :]]


def draw_card(
    canvas: Canvas, card: SeatCard, box: Box, scale: float, snapshot: TableSnapshot, t: Translator
) -> None:
    left, top, right, _ = box
    winner = snapshot.winner
    out = card.fate is not Fate.SURVIVED
    won = winner is not None and card.side is winner
    colour = style.side_colour(card.side)

    def px(value: float) -> int:
        return max(1, round(value * scale))

    canvas.draw.rounded_rectangle(
        box,
        radius=px(18),
        fill=style.CARD_OUT if out else style.CARD,
        outline=colour if won else style.dimmed(colour),
        width=px(6) if won else px(3),
    )
    pad = px(14)
    inner_right = right - pad
    # Row 1: the seat number in a token, then the name.
    token_r = px(21)
    token = (left + pad + token_r, top + pad + token_r)
    canvas.draw.ellipse(
        (token[0] - token_r, token[1] - token_r, token[0] + token_r, token[1] + token_r),
        fill=style.TEXT if not out else style.MUTED,
    )
    canvas.text(
        token,
        str(card.seat),
        px(22),
        style.BACKGROUND,
        max_width=2 * token_r,
        kind="seat",
        group=card.seat,
        bold=True,
        anchor="mm",
    )
    name_x = token[0] + token_r + px(12)
    # Blank, or with nothing any shipped font draws: "Player 5", as in the messages.
    name = seat_name(card.name, card.seat, t, limit=None)
    if not clean(name.text):
        name = SeatName(placeholder(t, card.seat))
    canvas.text(
        (name_x, token[1]),
        name.text,
        px(29),
        style.TEXT if not out else style.SILVER,
        max_width=inner_right - name_x,
        kind="name",
        group=card.seat,
        bold=True,
        anchor="lm",
        frame=name.frame,
    )
    # Row 2: the role's mark in the side's colour, then the role's name.
    mark_r = px(17)
    mark = (token[0], top + px(82))
    canvas.draw.ellipse(
        (mark[0] - mark_r, mark[1] - mark_r, mark[0] + mark_r, mark[1] + mark_r), fill=colour
    )
    canvas.text(
        mark,
        style.ROLE_MARKS[card.role],
        px(22),
        style.TEXT,
        max_width=2 * mark_r,
        kind="mark",
        group=card.seat,
        anchor="mm",
    )
    canvas.text(
        (name_x, mark[1]),
        role_name(t, card.role),
        px(25),
        colour,
        max_width=inner_right - name_x,
        kind="role",
        group=card.seat,
        anchor="lm",
        min_size=px(20),
    )
    # Row 3: the fate, with the night or day in a badge that is never cut.
    row = top + px(124)
    fate_colour = style.FATE_COLOURS[card.fate.value]
    badge_left = inner_right
    badge = when_badge(card.fate, card.when, snapshot.variant)
    if badge:
        drawn = canvas.text(
            (inner_right, row),
            badge,
            px(22),
            fate_colour,
            max_width=right - left,
            kind="when",
            group=card.seat,
            bold=True,
            anchor="rm",
        )
        if drawn is not None:
            badge_left = drawn.box[0] - px(10)
    canvas.text(
        (left + pad, row),
        fate_text(t, card.fate),
        px(22),
        fate_colour,
        max_width=badge_left - left - pad,
        kind="fate",
        group=card.seat,
        anchor="lm",
        min_size=px(17),
    )
