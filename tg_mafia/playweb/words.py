"""The play page's own words, in the table's language (the bot's words come
with its messages). Every one goes through the gettext catalogues with the
context "play page" (written out in each call: the extraction reads only
literals); the page gets them with each table (`page_words`)."""

from __future__ import annotations

from tg_mafia.i18n import Translator
from tg_mafia.render.texts import variant_name
from tg_mafia.render.texts.options import language_name


class Refused(ValueError):
    """What the page asked for cannot be done; the message is for the person,
    in the table's language."""


def page_words(t: Translator) -> dict[str, str]:
    """What the page writes itself, by the key its script and HTML use."""
    return {
        "connecting": t.pgettext("play page", "Connecting…"),
        "reconnecting": t.pgettext("play page", "Connection lost, reconnecting…"),
        "opening": t.pgettext("play page", "Opening a new table…"),
        "table": t.pgettext("play page", "Table…"),
        "language": t.pgettext("play page", "Language"),
        "variant": t.pgettext("play page", "Variant"),
        "players": t.pgettext("play page", "Players"),
        "speed": t.pgettext("play page", "Speed of the simulated players"),
        "seat": t.pgettext("play page", "Your seat (0: watch)"),
        "options": t.pgettext("play page", "Options, one NAME=VALUE a line"),
        "submit": t.pgettext("play page", "Open a new table"),
        "chats": t.pgettext("play page", "Chats"),
        # TRANSLATORS: the group column's list of who acts there: "as Ann".
        "as": t.pgettext("play page", "as"),
        # TRANSLATORS: a checkbox: the seat plays itself.
        "autoplay": t.pgettext("play page", "autoplay"),
        "message": t.pgettext("play page", "Message"),
        "send": t.pgettext("play page", "Send"),
        # TRANSLATORS: the tab that shows the group chat.
        "group": t.pgettext("play page", "Group"),
        "pinned": t.pgettext("play page", "📌 pinned"),
        "edited": t.pgettext("play page", "edited"),
        "ok": t.pgettext("play page", "OK"),
        "picture": t.pgettext("play page", "Picture"),
        # TRANSLATORS: the browser's own message when it cannot reach the page's server.
        "unreachable": t.pgettext("play page", "The page's server does not answer."),
    }


def status_word(t: Translator, status: str) -> str:
    words = {
        "lobby": t.pgettext("play page", "Lobby open"),
        "playing": t.pgettext("play page", "Game on"),
        "no game": t.pgettext("play page", "No game"),
    }
    return words[status]


def headline(t: Translator, status: str, variant: str, players: int, speed: float) -> str:
    """The bar's line: "Game on · Moscow rules · 9 players · English · ×5"."""
    parts = [
        status_word(t, status),
        variant_name(t, variant),
        t.npgettext("play page", "{n} player", "{n} players", players).format(n=players),
        language_name(t.language),
    ]
    if speed != 1:
        # TRANSLATORS: how much faster the simulated players' timers run; yours run at real time.
        parts.append(
            t.pgettext("play page", "simulated players ×{speed}").format(speed=f"{speed:g}")
        )
    return " · ".join(parts)


def joined(t: Translator, names: list[str]) -> str:
    text = t.npgettext(
        "play page", "{names} joined the group", "{names} joined the group", len(names)
    )
    return text.format(names=t.join(names))


def left(t: Translator, name: str) -> str:
    return t.pgettext("play page", "{name} left the group").format(name=name)


def pinned(t: Translator, who: str, quoted: str | None) -> str:
    if quoted is None:
        return t.pgettext("play page", "{name} pinned a message").format(name=who)
    return t.pgettext("play page", "{name} pinned «{text}»").format(name=who, text=quoted)
