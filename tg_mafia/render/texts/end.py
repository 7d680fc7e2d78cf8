"""The end's words: the winner, the end screen with every role, an abandoned game,
each player's own result and the host's confirmation."""

from __future__ import annotations

from html import escape

from engine import Role, Side
from engine.vocab import EndReason
from tg_mafia.i18n import Translator
from tg_mafia.render.texts.roles import role_label, role_name, side_name
from tg_mafia.render.texts.table import Table


def winner_line(t: Translator, side: Side) -> str:
    return {
        Side.TOWN: t.gettext("🏙 <b>The town wins!</b>"),
        Side.MAFIA: t.gettext("🔫 <b>The mafia wins!</b>"),
        Side.MANIAC: t.gettext("🔪 <b>The maniac wins!</b>"),
        Side.DRAW: t.gettext("🤝 <b>A draw: nobody wins.</b>"),
    }[side]


def end_screen(
    t: Translator,
    table: Table,
    side: Side | None,
    roles: tuple[tuple[str, Role], ...],
    dead: set[str],
    notes: tuple[str, ...] = (),
    reason: EndReason = EndReason.DECIDED,
) -> str:
    """The winner (None: the game ended unscored, for `reason`: abandoned or
    suspended), every role by side, and `notes` (sport's best move) before the
    goodbye."""
    groups: dict[Side, list[str]] = {Side.MAFIA: [], Side.TOWN: [], Side.MANIAC: []}
    for player, role in roles:
        mark = " ☠" if player in dead else ""
        groups[role.side].append(f"{table.label(player)} {role_label(t, role)}{mark}")
    titles = {
        Side.MAFIA: t.gettext("Mafia:"),
        Side.TOWN: t.gettext("Town:"),
        Side.MANIAC: t.gettext("Maniac:"),
    }
    if side is not None:
        lines = [winner_line(t, side)]
    else:
        lines = [suspended_line(t) if reason is EndReason.SUSPENDED else abandoned_line(t)]
    for group in (Side.MAFIA, Side.TOWN, Side.MANIAC):
        if groups[group]:
            lines.append(f"<b>{titles[group]}</b> " + t.join(groups[group]))
    lines.extend(notes)
    lines.append(t.gettext("Well played."))
    return "\n".join(lines)


def abandoned_line(t: Translator) -> str:
    return t.gettext(
        "🕸 <b>Nobody played for a whole day and night: the game is abandoned.</b> "
        "Nobody wins, and it does not count in the statistics."
    )


def suspended_line(t: Translator) -> str:
    """The game ended at the limit of its pause: its topic stayed closed."""
    return t.gettext(
        "🔒 <b>The game's topic stayed closed too long: the game is over.</b> "
        "Nobody wins, and it does not count in the statistics."
    )


def idle_reminder(t: Translator, title: str, left: int) -> str:
    """In private, after one of the player's own turns passed with no move."""
    return t.ngettext(
        "💤 Your turn in «{title}» passed with no move from you. "
        "{n} more such turn in a row and you are out of the game.",
        "💤 Your turn in «{title}» passed with no move from you. "
        "{n} more such turns in a row and you are out of the game.",
        left,
    ).format(title=escape(title), n=left)


def own_result(t: Translator, won: bool, side: Side, role: Role) -> str:
    """A whole sentence per side: inflected languages cannot drop a side's
    name into one template."""
    if side is Side.DRAW:
        return t.gettext("🤝 The game is a draw: nobody won ({role}).").format(
            role=role_name(t, role)
        )
    if won:
        text = {
            Side.TOWN: t.gettext("🏆 The town won, and so did you ({role})."),
            Side.MAFIA: t.gettext("🏆 The mafia won, and so did you ({role})."),
            Side.MANIAC: t.gettext("🏆 You won: you are the last one standing."),
        }[side]
    else:
        text = {
            Side.TOWN: t.gettext("The town won; you lost this time ({role})."),
            Side.MAFIA: t.gettext("The mafia won; you lost this time ({role})."),
            Side.MANIAC: t.gettext("The maniac won; you lost this time ({role})."),
        }[side]
    return text.format(role=role_name(t, role))


def confirm_request(t: Translator, side: Side) -> str:
    if side is Side.DRAW:
        return t.gettext("🏁 By the rules, the game is a draw. Confirm the end of the game?")
    return t.gettext("🏁 By the rules, {side} has won. Confirm the end of the game?").format(
        side=side_name(t, side)
    )
