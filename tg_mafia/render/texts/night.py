"""The night's words: its start, each night move's question and answer, the Don's
list, the host's view of the night and the family's talk relayed."""

from __future__ import annotations

from html import escape
from typing import assert_never

from engine import Role
from engine.variants import NightMove
from tg_mafia.i18n import Translator
from tg_mafia.render.texts.roles import night_title, role_name
from tg_mafia.render.texts.table import Table


def night_started(t: Translator, variant: str, number: int, mask: str = "chat") -> str:
    """`mask`: what the masked night closes — the chat, the players' posts in
    every topic of a forum, the game's forum topic, or nothing (the bot may not:
    it only warns)."""
    # TRANSLATORS: {night} is "Night 2", or "Zero night" in sport.
    if mask == "forum":
        text = t.gettext(
            "🌙 <b>{night}.</b> The city sleeps. Until morning the players post nowhere "
            "in the group: night moves are made in private."
        )
    elif mask == "topic":
        text = t.gettext("🌙 <b>{night}.</b> The city sleeps. This topic is closed until morning.")
    elif mask == "none":
        text = t.gettext(
            "🌙 <b>{night}.</b> The city sleeps. Nobody posts until morning: night moves "
            "are made in private."
        )
    else:
        text = t.gettext("🌙 <b>{night}.</b> The city sleeps. The chat is closed until morning.")
    return text.format(night=night_title(t, variant, number))


def night_question(t: Translator, move: str, role: Role, variant: str, number: int) -> str:
    """`move`: a NightMove (its value, as the screens still pass it)."""
    match NightMove(move):
        case NightMove.KILL if role is Role.MANIAC:
            question = t.gettext("whom do you kill?")
        case NightMove.KILL:
            question = t.gettext("whom do you shoot?")
        case NightMove.CHECK if role is Role.DON:
            question = t.gettext("whom do you check for the sheriff?")
        case NightMove.CHECK:
            question = t.gettext("whom do you check?")
        case NightMove.HEAL:
            question = t.gettext("whom do you heal?")
        case NightMove.BLOCK:
            question = t.gettext("whom do you visit?")
        case unknown:
            assert_never(unknown)
    return t.gettext("🌙 {night} — {question}").format(
        night=night_title(t, variant, number), question=question
    )


def night_final(t: Translator, table: Table, target: str | None) -> str:
    """A night prompt after dawn: what was chosen, no longer to change."""
    if target is None:
        return t.gettext("You did nothing that night.")
    return t.gettext("Your choice: {player}.").format(player=table.label(target))


def night_missed(t: Translator) -> str:
    return t.gettext("The night ended before you chose.")


def night_chosen(t: Translator, table: Table, target: str | None) -> str:
    if target is None:
        return t.gettext("You chose to do nothing tonight.")
    return t.gettext("Chosen: {player} (you may change until dawn).").format(
        player=table.label(target)
    )


def mafia_pick(t: Translator, table: Table, player: str, target: str | None) -> str:
    if target is None:
        return t.gettext("{player} holds fire tonight.").format(player=table.label(player))
    return t.gettext("{player} aims at {target}.").format(
        player=table.label(player), target=table.label(target)
    )


def plan_prompt(t: Translator) -> str:
    return t.gettext(
        "📝 As the Don, you may set the family's kill list for the coming nights: tap the "
        "players in order."
    )


def plan_set(t: Translator, table: Table, targets: tuple[str, ...]) -> str:
    if not targets:
        return t.gettext("📝 The Don has set no list.")
    return t.gettext("📝 The Don's list for the coming nights: {players}.").format(
        players=table.labels(targets, t)
    )


def host_night_move(
    t: Translator, table: Table, player: str, role: Role, move: NightMove, target: str | None
) -> str:
    """The human host's copy of a night move."""
    who = table.label(player)
    if target is None:
        return t.gettext("🌙 {player} does nothing tonight ({role}).").format(
            player=who, role=role_name(t, role)
        )
    match move:
        case NightMove.KILL:
            text = t.gettext("🌙 {player} ({role}) targets {target}.")
        case NightMove.CHECK:
            text = t.gettext("🌙 {player} ({role}) checks {target}.")
        case NightMove.HEAL:
            text = t.gettext("🌙 {player} ({role}) heals {target}.")
        case NightMove.BLOCK:
            text = t.gettext("🌙 {player} ({role}) visits {target}.")
        case _:
            assert_never(move)
    return text.format(player=who, role=role_name(t, role), target=table.label(target))


def host_note(t: Translator, table: Table, player: str, note: str) -> str:
    return t.gettext("{player}: {note}").format(player=table.label(player), note=note)


def host_ballot(t: Translator, table: Table, player: str, target: str | None) -> str:
    if target is None:
        return t.gettext("🗳 {player} withdraws their vote.").format(player=table.label(player))
    return t.gettext("🗳 {player} votes for {target}.").format(
        player=table.label(player), target=table.label(target)
    )


# A family message's own characters at most: with the group's and the sender's names in
# front, the relay stays under Telegram's 4,096 (group titles are at most 128).
RELAY_LIMIT = 3500


def group_tag(title: str) -> str:
    """The game's group, first on its private messages: a player may have played
    in several, and their private chat with the bot is one for all."""
    return f"🎭 <i>{escape(title)}</i>"


def mafia_message(t: Translator, table: Table, title: str, player: str, text: str) -> str:
    line = t.gettext("{player}: {note}").format(player=table.label(player), note=escape(text))
    return f"{group_tag(title)} · {line}"
