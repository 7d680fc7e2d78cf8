"""What one viewer's page shows of a game, as JSON: built only from the
engine's views (engine/views.py): the public view for everyone, and, for a
player, their own player view; the game's public events (chronicle.py). Another
player's role can only be in it where the public view shows it (a revealed
role, the end).

The viewer's moves are the buttons the chat shows them now, in the group and
in their own private chat, that the bot would take from them: a player's (a
night move, Pass or Thank you, Nominate… and the list it opens, a hand, a vote,
the best move) and the human host's (the host panel, the warn list, the
confirmation of the end)."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import HOST, Views
from engine.actions import Best, HostWarn, Nominate
from engine.views import PlayerView, PublicView
from tg_mafia.i18n import Translator, translator
from tg_mafia.miniapp import words
from tg_mafia.render import texts
from tg_mafia.render.callbacks import Button, Kind, decode
from tg_mafia.render.keyboards import MARK
from tg_mafia.render.presses import is_toggle, picked
from tg_mafia.render.texts.table import Table
from tg_mafia.runtime.clock import BotClock
from tg_mafia.runtime.gameview import table_of, views_of
from tg_mafia.runtime.service import is_move, move_of
from tg_mafia.storage import ButtonsRecord, GameRecord, GameStatus

Json = dict[str, Any]
_TAG = re.compile(r"<[^>]+>")


def plain(markup: str) -> str:
    """A text of the chat's (Telegram HTML) as the page's plain text."""
    return html.unescape(_TAG.sub("", markup))


@dataclass(frozen=True)
class Viewer:
    """Who looks: a player of the game (their id as the engine names them), the
    game's human host, or anyone else (a spectator). Each sees the public view;
    a player their own view too; a player and the host their own moves."""

    user_id: int
    player: str | None
    host: bool = False

    @property
    def alike(self) -> int | None:
        """Who sees the same page: a player or the host alone; every spectator alike."""
        return self.user_id if self.player is not None or self.host else None


def viewer_of(record: GameRecord, user_id: int) -> Viewer:
    started = record.state is not None
    seated = record.seat_of(user_id) is not None and started
    hosting = record.host_user_id == user_id and started
    return Viewer(user_id, str(user_id) if seated else None, hosting)


def chats_of(record: GameRecord, viewer: Viewer) -> tuple[int, ...]:
    """The chats whose buttons a viewer may press: the game's group, and their own
    private chat with the bot (where Telegram lets nobody else press)."""
    return (record.chat_id, viewer.user_id)


def snapshot(
    record: GameRecord,
    viewer: Viewer,
    buttons: Sequence[ButtonsRecord],
    clock: BotClock,
    events: Sequence[Any] = (),
) -> Json:
    """The page's whole content for `viewer` at the game's `record.version`;
    `events`: the game's latest public events (chronicle.Entry)."""
    t = translator(record.language)
    table = table_of(record)
    base: Json = {
        "v": record.version,
        "game": record.id,
        "title": record.title,
        "words": words.page_words(t),
        "me": None,
        "host": viewer.host,
        "choices": [],
        "events": [{"n": e.n, "text": e.text} for e in events],
    }
    if record.status is GameStatus.LOBBY or record.state is None:
        names = [{"n": i, "name": p.name, "alive": True} for i, p in enumerate(record.players, 1)]
        return {**base, "stage": words.lobby_name(t), "seats": names, "deadline": None}
    views = views_of(record)
    view = views.public
    own = views.seat(viewer.player) if viewer.player in view.seats else None
    seats = [_seat(view, table, p, viewer) for p in view.seats]
    return {
        **base,
        "stage": words.stage_name(t, view),
        "phase": view.phase.value,
        "seats": seats,
        **_timer(record, view, clock),
        "winner": plain(texts.winner_line(t, view.winner)) if view.winner else None,
        "me": _card(t, table, record, own) if own else None,
        "choices": choices(t, table, record, views, viewer, buttons),
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


def choices(
    t: Translator,
    table: Table,
    record: GameRecord,
    views: Views,
    viewer: Viewer,
    buttons: Sequence[ButtonsRecord],
) -> list[Json]:
    """The moves the viewer may press now: the choices of the game's messages in
    the chats they may press in (`buttons`) that the bot would take from them
    now, each named by its message and data (what a press from the page sends
    back), with a label and the seat it aims at."""
    if viewer.player is None and not viewer.host:
        return []  # a spectator presses nothing
    found: list[Json] = []
    seen: set[str] = set()
    for message in buttons:
        chosen = _best_chosen(message, record.id, table)
        for data in message.choices or ():
            button = decode(data)
            if button is None or button.game != record.id or data in seen:
                continue
            if button.step is not None and button.step != views.public.step:
                continue  # a button of a stage gone by
            if not _may_press(record, views, viewer.user_id, button):
                continue
            label, seat = _label(t, table, views, button, chosen)
            seen.add(data)
            found.append(
                {"m": f"{message.chat_id}:{message.message_id}", "d": data, "label": label}
                | ({"seat": seat} if seat else {})
            )
    return found


def _may_press(record: GameRecord, views: Views, user_id: int, button: Button) -> bool:
    """Whether the bot would take this press from the user now: a move the
    engine takes, or a menu it would open for them (the nomination list, the
    host's warn list, a name in the best-move menu)."""
    actor = str(user_id)
    if is_move(button):
        action = move_of(record, views, user_id, button)
        return not isinstance(action, str) and views.refusal(action) is None
    if button.kind is Kind.NOMINATE_MENU:
        alive = views.public.alive
        return any(views.refusal(Nominate(actor, target)) is None for target in alive)
    if button.kind is Kind.HOST_WARN_MENU:
        hosting = record.host_user_id == user_id
        return hosting and any(isinstance(a, HostWarn) for a in views.legal(HOST))
    if is_toggle(button):
        return any(isinstance(a, Best) for a in views.legal(actor))
    return False  # the time, the lobby, a new game, the protocol: the chat's


def _best_chosen(message: ButtonsRecord, game: int, table: Table) -> tuple[str, ...]:
    """The names chosen so far in a best-move menu: those its Done names."""
    for data in message.choices or ():
        button = decode(data)
        done = button is not None and button.kind is Kind.BEST and button.args[:1] == ("d",)
        if button is not None and done and button.game == game:
            return picked(button, table) or ()
    return ()


def _label(
    t: Translator, table: Table, views: Views, button: Button, chosen: tuple[str, ...]
) -> tuple[str, int | None]:
    """The choice's words (those of the chat's button, a verb before a seat) and
    the seat it aims at."""
    kind, args = button.kind, button.args
    if kind is Kind.PASS:
        # Where a speech ends with the thanks word, the chat's button says it.
        thanks = views.public.options.get("thanks_rule")
        return texts.button(t, "thanks" if thanks else "pass"), None
    simple = {
        Kind.HAND: "raise",
        Kind.LOWER: "lower",
        Kind.LEAVE: "leave_table",
        Kind.UNVOTE: "withdraw",
        Kind.NOMINATE_MENU: "nominate",
        Kind.HOST_WARN_MENU: "warn",
    }
    if kind in simple:
        return texts.button(t, simple[kind]), None
    if kind is Kind.HOST:
        name = {"skip": "skip_speaker"}.get(args[0], args[0])
        return texts.button(t, name), None
    if kind is Kind.BEST:
        return _best_label(t, table, button, chosen)
    index = 1 if kind is Kind.NIGHT else 0
    seat = button.seat(index)
    if not seat:
        return texts.button(t, "skip" if kind is Kind.NIGHT else "clear"), None
    target = table.player_at(seat)
    name = table.button(target) if target else str(seat)
    verbs = {
        Kind.NIGHT: "night",
        Kind.NOMINATE: "nominate",
        Kind.VOTE: "vote",
        Kind.DECIDE: "decide",
        Kind.PLAN: "plan",
        Kind.HOST_WARN: "warn",
    }
    move = args[0] if kind is Kind.NIGHT else ""
    return f"{words.verb(t, verbs.get(kind, 'vote'), move)} {name}", seat


def _best_label(
    t: Translator, table: Table, button: Button, chosen: tuple[str, ...]
) -> tuple[str, int | None]:
    """Done; or a name of the best-move menu, marked when chosen already (a
    press takes it out), as the chat shows it."""
    if not is_toggle(button):
        return texts.button(t, "done"), None
    selection = picked(button, table) or ()
    toggled = sorted(set(selection) ^ set(chosen), key=table.seat)
    if len(toggled) != 1:  # not drawn as the menu draws it: named by what it selects
        return plain(table.labels(selection, t)), None
    name = toggled[0]
    return (MARK if name in chosen else "") + table.button(name), table.seat(name)
