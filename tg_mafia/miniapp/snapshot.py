"""What one viewer's page shows of a game, as JSON: built only from the
engine's views (engine/views.py): the public view for everyone, and, for a
player, their own player view. Another player's role can only be in it where
the public view shows it (a revealed role, the end)."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import GameState, player_view, public_view
from engine.views import PlayerView, PublicView
from tg_mafia.i18n import Translator, translator
from tg_mafia.miniapp import words
from tg_mafia.render import texts
from tg_mafia.render.callbacks import Button, Kind, decode
from tg_mafia.render.presses import refusal
from tg_mafia.render.texts.table import Table
from tg_mafia.runtime.clock import BotClock
from tg_mafia.runtime.gameview import state_of, table_of
from tg_mafia.runtime.service import is_move, move_of
from tg_mafia.storage import ButtonsRecord, GameRecord, GameStatus

Json = dict[str, Any]
_TAG = re.compile(r"<[^>]+>")


def plain(markup: str) -> str:
    """A text of the chat's (Telegram HTML) as the page's plain text."""
    return html.unescape(_TAG.sub("", markup))


@dataclass(frozen=True)
class Viewer:
    """Who looks: a player of the game (their id as the engine names them), or
    anyone else (a spectator: the public view only)."""

    user_id: int
    player: str | None


def viewer_of(record: GameRecord, user_id: int) -> Viewer:
    seated = record.seat_of(user_id) is not None and record.state is not None
    return Viewer(user_id, str(user_id) if seated else None)


def chats_of(record: GameRecord, viewer: Viewer) -> tuple[int, ...]:
    """The chats whose buttons a viewer may press: the game's group, and their own
    private chat with the bot (where Telegram lets nobody else press)."""
    return (record.chat_id, viewer.user_id)


def snapshot(
    record: GameRecord, viewer: Viewer, buttons: Sequence[ButtonsRecord], clock: BotClock
) -> Json:
    """The page's whole content for `viewer` at the game's `record.version`."""
    t = translator(record.language)
    table = table_of(record)
    base: Json = {
        "v": record.version,
        "game": record.id,
        "title": record.title,
        "words": words.page_words(t),
        "me": None,
        "choices": [],
    }
    if record.status is GameStatus.LOBBY or record.state is None:
        names = [{"n": i, "name": p.name, "alive": True} for i, p in enumerate(record.players, 1)]
        return {**base, "stage": words.lobby_name(t), "seats": names, "deadline": None}
    state = state_of(record)
    view = public_view(state)
    own = player_view(state, viewer.player) if viewer.player in state.roles else None
    seats = [_seat(view, table, p, viewer) for p in view.seats]
    return {
        **base,
        "stage": words.stage_name(t, view),
        "phase": view.phase.value,
        "seats": seats,
        **_timer(record, view, clock),
        "winner": plain(texts.winner_line(t, view.winner)) if view.winner else None,
        "me": _card(t, table, record, own) if own else None,
        "choices": _choices(t, table, record, state, viewer.user_id, own, buttons),
    }


def _seat(view: PublicView, table: Table, player: str, viewer: Viewer) -> Json:
    revealed = dict(view.revealed)
    tally = dict(view.live_tally) | dict(view.votes)
    return {
        "n": table.seat(player),
        "name": table.short(player),
        "alive": player in view.alive,
        "warnings": dict(view.warnings).get(player, 0),
        "speaking": player == view.speaker,
        "next": player == view.next_speaker,
        "nominee": player in view.nominees or player in view.candidates,
        "hand": player in view.hands,
        "votes": tally.get(player),
        "role": revealed[player].value if player in revealed else None,
        "me": player == viewer.player,
    }


def _timer(record: GameRecord, view: PublicView, clock: BotClock) -> Json:
    """When the stage's time runs out (the server's clock, in real seconds) and
    how many game seconds pass each real second: the page counts down by itself
    between events. Paused, the game seconds left stand still."""
    if view.paused:
        left = record.paused_left
        return {"deadline": None, "rate": 0, "paused": None if left is None else round(left)}
    if record.stage_deadline is None or view.winner is not None:
        return {"deadline": None, "rate": 0, "paused": None}
    return {"deadline": round(record.stage_deadline, 3), "rate": clock.speed, "paused": None}


def _card(t: Translator, table: Table, record: GameRecord, own: PlayerView) -> Json:
    return {
        "seat": table.seat(own.player),
        "role": texts.role_label(t, own.role),
        "about": texts.role_description(t, own.role, record.variant),
        "alive": own.alive,
        "family": [
            f"{table.button(p)} ({texts.role_name(t, r)})" if r.is_boss else table.button(p)
            for p, r in own.family
        ],
        "learned": [plain(texts.check_result(t, table, p, a)) for p, a in own.learned],
    }


def _choices(
    t: Translator,
    table: Table,
    record: GameRecord,
    state: GameState,
    viewer: int,
    own: PlayerView | None,
    buttons: Sequence[ButtonsRecord],
) -> list[Json]:
    """The moves the viewer may press now: the choices of the game's messages in
    the chats they may press in that the engine would take from them now, each
    named by its message and data (what a press from the page sends back), with a
    label and the seat it aims at."""
    if own is None:
        return []  # a spectator presses nothing
    found: list[Json] = []
    seen: set[str] = set()
    for message in buttons:
        for data in message.choices or ():
            button = decode(data)
            if button is None or button.game != record.id or data in seen:
                continue
            if not _pressable(record, state, viewer, button):
                continue
            label, seat = _label(t, table, button)
            seen.add(data)
            found.append(
                {"m": f"{message.chat_id}:{message.message_id}", "d": data, "label": label}
                | ({"seat": seat} if seat else {})
            )
    return found


def _pressable(record: GameRecord, state: GameState, viewer: int, button: Button) -> bool:
    """A move of the game's current step that the engine would take from the viewer."""
    if not is_move(button) or (button.step is not None and button.step != state.step):
        return False
    if button.kind is Kind.HOST or button.kind is Kind.HOST_WARN:
        return False  # the host's panel stays in the host's chat
    action = move_of(record, state, viewer, button)
    # Not a button of the chat the engine would take from this viewer.
    return not isinstance(action, str) and refusal(state, action) == "ok"


def _label(t: Translator, table: Table, button: Button) -> tuple[str, int | None]:
    """The choice's words (those of the chat's button, a verb before a seat) and
    the seat it aims at."""
    kind, args = button.kind, button.args
    simple = {
        Kind.PASS: "pass",
        Kind.HAND: "raise",
        Kind.LOWER: "lower",
        Kind.LEAVE: "leave_table",
        Kind.UNVOTE: "withdraw",
    }
    if kind in simple:
        return texts.button(t, simple[kind]), None
    if kind is Kind.BEST:
        return texts.button(t, "done"), None
    index = 1 if kind is Kind.NIGHT else 0
    seat = button.seat(index)
    if not seat:
        return texts.button(t, "skip" if kind is Kind.NIGHT else "clear"), None
    target = table.player_at(seat)
    name = table.button(target) if target else str(seat)
    key = {Kind.NIGHT: "night", Kind.NOMINATE: "nominate", Kind.VOTE: "vote"}.get(kind)
    key = key or {Kind.DECIDE: "decide", Kind.PLAN: "plan"}.get(kind, "vote")
    return f"{words.verb(t, key, args[0] if kind is Kind.NIGHT else '')} {name}", seat
