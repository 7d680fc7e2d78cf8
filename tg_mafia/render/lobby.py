"""The lobby as the group sees it: its pinned message's text and buttons, drawn from
the stored lobby, the deep link its Join button carries, and the warnings a lobby may
open with or answer (the bot's missing rights, a player already at another table)."""

from __future__ import annotations

from html import escape

from engine import find_variant
from tg_mafia.i18n import Translator, translator
from tg_mafia.records import GameRecord
from tg_mafia.render import keyboards, texts
from tg_mafia.render.callbacks import Button, Kind
from tg_mafia.render.calls import Keyboard, callback, link
from tg_mafia.render.texts.names import is_blank
from tg_mafia.render.texts.timefmt import deadline_html


def join_payload(chat_id: int, topic: int) -> str:
    return f"join_{chat_id}_{topic}" if topic else f"join_{chat_id}"


def parse_join(payload: str) -> tuple[int, int] | None:
    """The chat (and topic) a `join_…` deep link names; None if malformed."""
    parts = payload.removeprefix("join_").split("_")
    if not payload.startswith("join_") or not 1 <= len(parts) <= 2:
        return None
    try:
        chat_id, topic = int(parts[0]), int(parts[1]) if len(parts) == 2 else 0
    except ValueError:
        return None
    if not -(10**16) < chat_id < 0 or not 0 <= topic < 2**31:
        return None
    return chat_id, topic


def lobby_text(record: GameRecord) -> str:
    """The lobby's message: its variant, seats, players, opener, host and deadline."""
    t = translator(record.language)
    variant = find_variant(record.variant)
    opener = next(
        (p.name for p in record.players if p.user_id == record.opened_by), record.opener_name
    )
    until = deadline_html(record.stage_deadline) if record.stage_deadline else None
    return texts.lobby(
        t,
        record.variant,
        variant.min_players,
        variant.max_players,
        [p.name for p in record.players],
        t.gettext("the opener") if is_blank(opener) else opener,
        until,
        record.host_name if record.host_user_id else None,
    )


def lobby_keyboard(record: GameRecord, bot_username: str) -> Keyboard:
    """Join (a deep link into the bot's private chat), Leave, Start, Cancel and Rules."""
    t = translator(record.language)
    url = f"https://t.me/{bot_username}?start="
    url += join_payload(record.chat_id, record.topic)

    def lobby_button(verb: str) -> dict[str, str]:
        data = Button(Kind.LOBBY, record.id, None, (verb,)).encode()
        return callback(texts.button(t, verb), data)

    return keyboards.rows(
        [link(texts.button(t, "join"), url)],
        [lobby_button("leave"), lobby_button("start"), lobby_button("cancel")],
        [lobby_button("rules")],
    )


def missing_rights_warning(t: Translator, missing: list[str], *, forum: bool) -> str:
    if not forum:
        return t.gettext(
            "⚠️ I am not an administrator with the rights to delete messages, restrict "
            "members and pin messages. The game runs, but I cannot close the chat at "
            "night or remove posts out of turn: I will only warn."
        )
    # A forum: which rights, and what each one's absence leaves open.
    names = {
        "can_delete_messages": t.gettext("delete messages"),
        "can_pin_messages": t.gettext("pin messages"),
        "can_restrict_members": t.gettext("ban users"),
        "can_manage_topics": t.gettext("manage topics"),
    }
    lost = {
        "can_delete_messages": t.gettext("I cannot remove posts out of turn, only warn."),
        "can_pin_messages": t.gettext("I cannot pin the game."),
        "can_restrict_members": t.gettext(
            "At night the players can still post in the other topics: I can only warn."
        ),
        "can_manage_topics": t.gettext("I cannot close this topic at night."),
    }
    head = t.gettext("⚠️ To run the game fully in this forum I lack the rights: {rights}.")
    rights = t.join(names[r] for r in missing)
    return "\n".join([head.format(rights=rights), *(lost[r] for r in missing)])


def blind_warning(t: Translator) -> str:
    return t.gettext(
        "⚠️ I am not an administrator here, and with my privacy mode on Telegram does not "
        "show me the group's messages: I cannot see who speaks out of turn, so the floor "
        "will not be enforced. To fix it, make me an administrator of the group (with the "
        "rights to delete messages, restrict members and pin messages)."
    )


def already_at_a_table(t: Translator, game: GameRecord | None) -> str:
    if game is not None and game.title:
        return t.gettext("You are already at a table (in «{title}»): one game at a time.").format(
            title=escape(game.title)
        )
    return t.gettext("You are already at a table: one game at a time.")
