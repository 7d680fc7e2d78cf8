"""/stats: in a group, its games, wins by side and its leaderboard (the
skill rating, docs/ratings.md); in private, the player's own record by role
and their place in each group they played in."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from engine import Role, Side
from tg_mafia.i18n import Translator
from tg_mafia.ratings import Record
from tg_mafia.records import ChatStats, PlayerStats
from tg_mafia.render import texts
from tg_mafia.render.standings import Standings
from tg_mafia.render.texts.names import listed_name

TOP = 10  # players on the group's leaderboard
GROUPS = 3  # groups on a player's own card


def wins_of(t: Translator, wins: int, games: int) -> str:
    return t.gettext("{wins}/{n} won").format(wins=wins, n=games)


def percent(t: Translator, record: Record) -> str:
    return t.gettext("{percent}%").format(percent=round(100 * record.win_rate))


def score_note(t: Translator) -> str:
    return t.gettext(
        "Score: a skill rating. A win with the side that usually loses counts for more."
    )


def chat_text(t: Translator, stats: ChatStats, ranked: Standings) -> str:
    if not stats.games_played:
        return t.gettext("📊 No game has been played to the end here yet. Start one: /newgame")
    lines = [
        t.ngettext(
            "📊 <b>{n} game</b> played here.",
            "📊 <b>{n} games</b> played here.",
            stats.games_played,
        ).format(n=stats.games_played)
    ]
    titles = {
        Side.TOWN: t.pgettext("stats heading", "Town"),
        Side.MAFIA: t.pgettext("stats heading", "Mafia"),
        Side.MANIAC: t.pgettext("stats heading", "Maniac"),
    }
    for side, title in titles.items():
        won = stats.wins_by_side.get(side.value, 0)
        if won or side is not Side.MANIAC:
            lines.append(
                t.ngettext("{side}: {n} win", "{side}: {n} wins", won).format(side=title, n=won)
            )
    draws = stats.wins_by_side.get(Side.DRAW.value, 0)
    if draws:
        lines.append(t.ngettext("Draws: {n}", "Draws: {n}", draws).format(n=draws))
    top = ranked.board.top(TOP)
    if top:
        lines.append(f"<b>{escape(t.gettext('Leaderboard'))}</b>")
        for rank, player in enumerate(top, 1):
            name = escape(listed_name(ranked.names, player.user_id, t))
            record = player.record
            lines.append(
                t.gettext("{rank}. {name} — {score} · {record} ({percent})").format(
                    rank=rank,
                    name=name,
                    score=player.score,
                    record=wins_of(t, record.wins, record.games),
                    percent=percent(t, record),
                )
            )
        lines.append(score_note(t))
    return "\n".join(lines)


def player_text(
    t: Translator,
    stats: PlayerStats,
    user_id: int,
    groups: Sequence[tuple[str, Standings]],
) -> str:
    """The player's record by role, then their place in each group
    (`groups`: the group's title and standings, the latest first)."""
    if not stats.games:
        return t.gettext("📊 You have not finished a game yet. Join one in a group!")
    lines = [
        t.gettext("📊 <b>Your record</b>: {record}.").format(
            record=wins_of(t, stats.wins, stats.games)
        )
    ]
    for role in Role:
        by_role = stats.by_role.get(role.value)
        if by_role is not None and by_role.games:
            lines.append(
                t.gettext("{role}: {record}").format(
                    role=texts.role_label(t, role), record=wins_of(t, by_role.wins, by_role.games)
                )
            )
    for title, ranked in groups:
        player = ranked.board.player(user_id)
        if player is None:
            continue
        lines.append(
            t.gettext("«{title}»: score {score}, rank {rank} of {n}, {record} ({percent})").format(
                title=escape(title),
                score=player.score,
                rank=ranked.board.rank(user_id),
                n=len(ranked.board.players),
                record=wins_of(t, player.record.wins, player.record.games),
                percent=percent(t, player.record),
            )
        )
    if groups:
        lines.append(score_note(t))
    return "\n".join(lines)
