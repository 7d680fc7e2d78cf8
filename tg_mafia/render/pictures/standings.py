"""A group's leaderboard and one player's card, as pictures."""

from __future__ import annotations

from collections.abc import Mapping

from engine import Role
from tg_mafia.i18n import Translator
from tg_mafia.ratings import Leaderboard, PlayerRating, Record
from tg_mafia.render.pictures import style
from tg_mafia.render.pictures.canvas import Canvas, Colour, Picture
from tg_mafia.render.pictures.fonts import clean
from tg_mafia.render.texts import role_name
from tg_mafia.render.texts.names import listed_name, person_name

WIDTH = 1280
MARGIN = 40
TOP = 10
ROW_H = 96
MEDALS: tuple[Colour, ...] = (style.GOLD, style.SILVER, style.BRONZE)
PLAIN_TOKEN: Colour = (64, 71, 90)
BAR: Colour = (52, 58, 75)


def percent(t: Translator, record: Record) -> str:
    return t.gettext("{percent}%").format(percent=round(100 * record.win_rate))


def header(canvas: Canvas, heading: str, subtitle: str) -> None:
    width = WIDTH - 2 * MARGIN
    canvas.text(
        (MARGIN, 34), heading, 52, style.TEXT, max_width=width, kind="title", bold=True, min_size=34
    )
    canvas.text(
        (MARGIN, 108), subtitle, 28, style.MUTED, max_width=width, kind="subtitle", min_size=22
    )


def render_leaderboard(
    board: Leaderboard,
    names: Mapping[int, str],
    title: str,
    t: Translator,
    top: int = TOP,
    min_games: int = 1,
) -> Picture:
    """The best `top` players of a group (rank, name, score, games, win
    rate); `names` by user id (a missing one shows the id, a blank one
    "(no name)"), `title` the group's name."""
    rows = board.top(top, min_games)
    height = 230 + max(1, len(rows)) * ROW_H + 90
    canvas = Canvas(WIDTH, height, style.BACKGROUND)
    # TRANSLATORS: the heading of the picture of a group's best players.
    header(canvas, t.gettext("Leaderboard"), title)
    # Right edges of the number columns, and where the name column starts.
    score_x, games_x, rate_x, name_x = 860, 1040, WIDTH - MARGIN - 16, 150
    head_y = 196
    for x, label, anchor in (
        (name_x, t.gettext("Player"), "lm"),
        # TRANSLATORS: a column of the leaderboard: the skill rating, a number like 1450.
        (score_x, t.gettext("Score"), "rm"),
        (games_x, t.gettext("Games"), "rm"),
        (rate_x, t.gettext("Win rate"), "rm"),
    ):
        canvas.text(
            (x, head_y),
            label,
            24,
            style.MUTED,
            max_width=160 if anchor == "rm" else 500,
            kind="column",
            anchor=anchor,
            min_size=18,
        )
    if not rows:
        canvas.text(
            (WIDTH / 2, 230 + ROW_H / 2),
            t.gettext("No finished games yet."),
            32,
            style.MUTED,
            max_width=WIDTH - 2 * MARGIN,
            kind="empty",
            anchor="mm",
        )
    for rank, player in enumerate(rows, 1):
        top_y = 230 + (rank - 1) * ROW_H
        middle = top_y + ROW_H / 2 - 4
        canvas.draw.rounded_rectangle(
            (MARGIN, top_y, WIDTH - MARGIN, top_y + ROW_H - 8), radius=16, fill=style.CARD
        )
        token = MEDALS[rank - 1] if rank <= len(MEDALS) else PLAIN_TOKEN
        canvas.draw.ellipse((MARGIN + 24, middle - 28, MARGIN + 80, middle + 28), fill=token)
        canvas.text(
            (MARGIN + 52, middle),
            str(rank),
            28,
            style.BACKGROUND if rank <= len(MEDALS) else style.TEXT,
            max_width=56,
            kind="rank",
            group=rank,
            bold=True,
            anchor="mm",
        )
        name = listed_name(names, player.user_id, t)
        if not clean(name):  # in a script no shipped font has
            name = person_name("", t)
        canvas.text(
            (name_x, middle),
            name,
            34,
            style.TEXT,
            max_width=score_x - 170 - name_x,
            kind="name",
            group=rank,
            bold=True,
            anchor="lm",
        )
        canvas.text(
            (score_x, middle),
            str(player.score),
            38,
            style.GOLD,
            max_width=170,
            kind="score",
            group=rank,
            bold=True,
            anchor="rm",
        )
        canvas.text(
            (games_x, middle),
            str(player.record.games),
            32,
            style.TEXT,
            max_width=150,
            kind="games",
            group=rank,
            anchor="rm",
        )
        canvas.text(
            (rate_x, middle),
            percent(t, player.record),
            32,
            style.TEXT,
            max_width=150,
            kind="win_rate",
            group=rank,
            anchor="rm",
        )
    canvas.text(
        (MARGIN, height - 50),
        # TRANSLATORS: a footnote under the leaderboard; "the side" is the town, the mafia…
        t.gettext("Score: a skill rating. A win with the side that usually loses counts for more."),
        22,
        style.MUTED,
        max_width=WIDTH - 2 * MARGIN,
        kind="note",
        anchor="lm",
        min_size=16,
    )
    return canvas.picture()


def render_player_card(
    player: PlayerRating,
    name: str,
    title: str,
    rank: int | None,
    ranked: int,
    t: Translator,
) -> Picture:
    """One player's score, games, wins and wins by role; `rank` among
    `ranked` players of the group `title` (None: not ranked)."""
    roles = [(role, player.by_role[role]) for role in Role if role in player.by_role]
    height = 470 + len(roles) * 80 + 40
    canvas = Canvas(WIDTH, height, style.BACKGROUND)
    # TRANSLATORS: on a player's card: their place on the group's leaderboard.
    place = t.gettext("Rank: {rank}/{n}").format(rank=rank, n=ranked) if rank else ""
    shown = person_name(name, t) if clean(name) else person_name("", t)
    header(canvas, shown, f"{title} · {place}" if place else title)
    tiles = (
        (t.gettext("Score"), str(player.score), style.GOLD, "score"),
        (t.gettext("Games"), str(player.record.games), style.TEXT, "games"),
        (
            t.gettext("Wins"),
            f"{player.record.wins} · {percent(t, player.record)}",
            style.TEXT,
            "wins",
        ),
    )
    tile_w = (WIDTH - 2 * MARGIN - 2 * 24) / 3
    for index, (label, value, colour, kind) in enumerate(tiles):
        left = MARGIN + index * (tile_w + 24)
        canvas.draw.rounded_rectangle((left, 170, left + tile_w, 330), radius=20, fill=style.CARD)
        canvas.text(
            (left + 28, 200),
            label,
            26,
            style.MUTED,
            max_width=tile_w - 56,
            kind="label",
            min_size=18,
        )
        canvas.text(
            (left + 28, 246),
            value,
            56,
            colour,
            max_width=tile_w - 56,
            kind=kind,
            bold=True,
            min_size=32,
        )
    canvas.text(
        (MARGIN, 380),
        t.gettext("By role"),
        32,
        style.TEXT,
        max_width=WIDTH - 2 * MARGIN,
        kind="heading",
        bold=True,
    )
    bar_left, bar_right = 520, WIDTH - MARGIN - 260
    for index, (role, record) in enumerate(roles, 1):
        middle = 470 + (index - 1) * 80
        colour = style.side_colour(role.side)
        canvas.draw.ellipse((MARGIN, middle - 22, MARGIN + 44, middle + 22), fill=colour)
        canvas.text(
            (MARGIN + 22, middle),
            style.ROLE_MARKS[role],
            26,
            style.TEXT,
            max_width=44,
            kind="mark",
            group=index,
            anchor="mm",
        )
        canvas.text(
            (MARGIN + 64, middle),
            role_name(t, role),
            30,
            colour,
            max_width=bar_left - MARGIN - 84,
            kind="role",
            group=index,
            anchor="lm",
            min_size=22,
        )
        canvas.draw.rounded_rectangle(
            (bar_left, middle - 12, bar_right, middle + 12), radius=12, fill=BAR
        )
        filled = bar_left + (bar_right - bar_left) * record.win_rate
        if record.wins:
            canvas.draw.rounded_rectangle(
                (bar_left, middle - 12, max(filled, bar_left + 24), middle + 12),
                radius=12,
                fill=colour,
            )
        canvas.text(
            (WIDTH - MARGIN - 120, middle),
            f"{record.wins}/{record.games}",
            28,
            style.TEXT,
            max_width=130,
            kind="record",
            group=index,
            anchor="rm",
        )
        canvas.text(
            (WIDTH - MARGIN, middle),
            percent(t, record),
            28,
            style.MUTED,
            max_width=110,
            kind="win_rate",
            group=index,
            anchor="rm",
        )
    return canvas.picture()
