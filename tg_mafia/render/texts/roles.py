"""Roles, sides and variants by name, what each role does, and the cards a player is
dealt in private; the nights as the players of each variant count them."""

from __future__ import annotations

from html import escape

from engine import Role, Side
from engine.variants import VARIANTS, ShotMode
from tg_mafia.i18n import Translator
from tg_mafia.render.texts.table import Table


def shown_night(variant: str, night: int) -> int:
    """The number players give the engine's night `night` (a variant whose
    players count from a zero night: one less)."""
    known = VARIANTS.get(variant)
    return night - 1 if known is not None and known.zero_night else night


def night_title(t: Translator, variant: str, night: int) -> str:
    """`Night 2`, or the zero night as sport players call it."""
    shown = shown_night(variant, night)
    if shown == 0:
        return t.gettext("Zero night")
    return t.gettext("Night {n}").format(n=shown)


def variant_name(t: Translator, variant: str) -> str:
    """The variant's title in the reader's language (an unknown name as it is)."""
    known = VARIANTS.get(variant)
    return t.gettext(known.title) if known is not None else variant


def role_name(t: Translator, role: Role) -> str:
    names = {
        Role.CITIZEN: t.gettext("Citizen"),
        Role.MAFIA: t.gettext("Mafioso"),
        Role.GODFATHER: t.gettext("Godfather"),
        Role.DON: t.gettext("Don"),
        Role.DETECTIVE: t.gettext("Detective"),
        Role.SHERIFF: t.gettext("Sheriff"),
        Role.POLICE: t.gettext("Police officer"),
        Role.DOCTOR: t.gettext("Doctor"),
        Role.ESCORT: t.gettext("Escort"),
        Role.MANIAC: t.gettext("Maniac"),
    }
    return names[role]


ROLE_ICONS = {
    Role.CITIZEN: "🙂",
    Role.MAFIA: "🔫",
    Role.GODFATHER: "🎩",
    Role.DON: "🎩",
    Role.DETECTIVE: "🕵️",
    Role.SHERIFF: "🕵️",
    Role.POLICE: "👮",
    Role.DOCTOR: "🩺",
    Role.ESCORT: "💋",
    Role.MANIAC: "🔪",
}


def role_label(t: Translator, role: Role) -> str:
    return f"{ROLE_ICONS[role]} {role_name(t, role)}"


def side_name(t: Translator, side: Side) -> str:
    return {
        Side.TOWN: t.gettext("the town"),
        Side.MAFIA: t.gettext("the mafia"),
        Side.MANIAC: t.gettext("the maniac"),
        Side.DRAW: t.gettext("nobody (a draw)"),
    }[side]


def role_description(t: Translator, role: Role, variant: str) -> str:
    # The first night with a move where night 1 is quiet: night 2, sport's night 1.
    first = shown_night(variant, 2)
    if role is Role.MAFIA:
        return _mafia_description(t, variant, first)
    if role is Role.DETECTIVE or role is Role.POLICE:
        return _checker_description(t, variant, first)
    if role is Role.DOCTOR:
        return _doctor_description(t, variant, first)
    if role is Role.CITIZEN:
        return t.gettext("You have no night move. By day, find the mafia and vote them out.")
    if role is Role.GODFATHER:
        return t.gettext(
            "You lead the mafia: your choice breaks a tie between the mafiosi, and the "
            "detective reads you as not mafia."
        )
    if role is Role.DON:
        return t.gettext(
            "You lead the mafia. Each night from night {n} you shoot with them and may check "
            "one player: the bot tells you whether they are the sheriff."
        ).format(n=first)
    if role is Role.SHERIFF:
        return t.gettext(
            "Each night from night {n} you may check one player: the bot tells you whether "
            "they are mafia. The Don is hunting you: keep it quiet."
        ).format(n=first)
    if role is Role.ESCORT:
        return t.gettext(
            "Each night from night {n} you may visit one player: the next day they may "
            "neither speak, nor nominate, nor vote."
        ).format(n=first)
    return t.gettext(
        "You play alone. Each night from night {n} you may kill one player. You win if you "
        "are the last one alive."
    ).format(n=first)


def _mafia_description(t: Translator, variant: str, first: int) -> str:
    if VARIANTS[variant].shot_mode is ShotMode.UNANIMOUS:
        return t.gettext(
            "Each night from night {n} the mafia shoot: the shot lands only if every "
            "living mafioso picks the same player."
        ).format(n=first)
    if VARIANTS[variant].quiet_first_night:
        return t.gettext(
            "Each night from night {n} the mafia choose a victim together. Stay hidden by day."
        ).format(n=first)
    return t.gettext("Each night the mafia choose a victim together. Stay hidden by day.")


def _checker_description(t: Translator, variant: str, first: int) -> str:
    """The detective's and the police's."""
    if VARIANTS[variant].quiet_first_night:
        return t.gettext(
            "Each night from night {n} you may check one player: the bot tells you whether "
            "they are mafia."
        ).format(n=first)
    return t.gettext(
        "Each night you may check one player: the bot tells you whether they are mafia."
    )


def _doctor_description(t: Translator, variant: str, first: int) -> str:
    if VARIANTS[variant].quiet_first_night:
        # Night 1 is quiet there: nobody is shot, so nobody is healed.
        return t.gettext(
            "Each night from night {n} you may heal one player, yourself included, but not "
            "the same player two nights in a row."
        ).format(n=first)
    return t.gettext(
        "Each night you may heal one player, yourself included, but not the same "
        "player two nights in a row."
    )


def your_role(t: Translator, role: Role, variant: str, title: str) -> str:
    return (
        t.gettext("Your role in «{title}»: <b>{role}</b>").format(
            title=escape(title), role=role_label(t, role)
        )
        + "\n"
        + role_description(t, role, variant)
    )


def family(t: Translator, table: Table, members: tuple[tuple[str, Role], ...]) -> str:
    listed = t.join(
        f"{table.label(p)} ({role_name(t, r)})" if r.is_boss else table.label(p) for p, r in members
    )
    return t.gettext("🤝 Your family: {players}.").format(players=listed)


def acquaintance(t: Translator) -> str:
    return t.gettext("The mafia meet tonight. Write here: every message goes to your family.")


def all_roles(t: Translator, table: Table, roles: tuple[tuple[str, Role], ...]) -> str:
    lines = [
        t.gettext("{player}: {role}").format(player=table.label(p), role=role_label(t, r))
        for p, r in roles
    ]
    return t.gettext("🎭 You host this game. The roles:") + "\n" + "\n".join(lines)
