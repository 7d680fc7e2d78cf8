"""The lobby's words: its pinned message while it fills, and why it closed."""

from __future__ import annotations

from html import escape

from tg_mafia.i18n import Translator
from tg_mafia.render.texts.names import person_name, seat_name
from tg_mafia.render.texts.roles import variant_name


def lobby(
    t: Translator,
    variant: str,
    low: int,
    high: int,
    names: list[str],
    opener: str,
    until: str | None,
    host: str | None,
) -> str:
    if low == high:
        head = t.ngettext(
            "🎭 <b>Mafia</b> — {variant} · {n} player",
            "🎭 <b>Mafia</b> — {variant} · {n} players",
            low,
        ).format(variant=variant_name(t, variant), n=low)
    else:
        head = t.gettext("🎭 <b>Mafia</b> — {variant} · {low} to {high} players").format(
            variant=variant_name(t, variant), low=low, high=high
        )
    lines = [
        head,
        t.ngettext("Players ({n}):", "Players ({n}):", len(names)).format(n=len(names)),
    ]
    seats = (f"{i} · {escape(str(seat_name(n, i, t)))}" for i, n in enumerate(names, 1))
    lines.append("  ".join(seats) or "—")
    if host is not None:
        lines.append(t.gettext("Host: {name}").format(name=escape(person_name(host, t))))
    missing = max(0, low - len(names))
    if missing:
        lines.append(
            t.ngettext("{n} more player needed.", "{n} more players needed.", missing).format(
                n=missing
            )
        )
    if until:
        lines.append(
            t.gettext("Starts when {name} presses Start, or at {time}.").format(
                name=escape(opener), time=until
            )
        )
    else:
        lines.append(t.gettext("Starts when {name} presses Start.").format(name=escape(opener)))
    lines.append(t.gettext("Press Join: the bot opens a private chat to deal your role."))
    return "\n".join(lines)


def lobby_closed(t: Translator, reason: str) -> str:
    if reason == "started":
        return t.gettext("🎭 The game has started.")
    if reason == "no_host":
        return t.gettext(
            "🎭 The lobby closed: this group plays with a human host, and nobody sent /host."
        )
    if reason == "too_few":
        return t.gettext("🎭 The lobby closed: not enough players joined.")
    return t.gettext("🎭 The lobby was cancelled.")
