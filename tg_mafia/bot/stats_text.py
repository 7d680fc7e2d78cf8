"""/stats: in a group, its games, wins by side and best players; in
private, the player's own record by role."""

from __future__ import annotations

from html import escape

from engine import Role, Side
from tg_mafia.bot import texts
from tg_mafia.i18n import Translator
from tg_mafia.storage import ChatStats, PlayerStats

TOP = 5


def wins_of(t: Translator, wins: int, games: int) -> str:
    return t.gettext("{wins}/{n} won").format(wins=wins, n=games)


def chat_text(t: Translator, stats: ChatStats) -> str:
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
    if stats.top_players:
        lines.append(t.gettext("<b>The most successful players</b>"))
        for rank, player in enumerate(stats.top_players[:TOP], 1):
            name = escape(player.name or str(player.user_id))
            lines.append(
                f"{rank}. {name} — {wins_of(t, player.wins, player.games)}"
                + " ("
                + t.gettext("{percent}%").format(percent=round(100 * player.win_rate))
                + ")"
            )
    return "\n".join(lines)


def player_text(t: Translator, stats: PlayerStats) -> str:
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
    return "\n".join(lines)
