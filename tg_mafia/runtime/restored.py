"""After a restore, each running game's screens drawn again.

A backup is older than what Telegram shows: the messages the bot edited after it (a
night prompt that lost its buttons at dawn, a floor passed to the next speaker) no
longer show what the restored game waits for, and nothing would draw them again: a
player would find no button to press. So `tg-mafia restore` puts into the outbox, for
every running game, a new copy of each living message that has buttons in the restored
state, and the chat's permissions of the restored stage (closed at night, the group's
own by day); the bot sends them at its next start, after the calls the backup held.

The drawings are the presenter's own: the game's stored log is replayed from its deal
and rendered as the bot rendered it, and each living message keeps its last drawing.
The new copies carry no timer: the stage's stored deadline stands."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import assert_never

from engine import Game
from engine.actions import action_from_dict
from tg_mafia.render import presenter
from tg_mafia.render.calls import (
    Clear,
    Delete,
    Document,
    Edit,
    Message,
    Permissions,
    Photo,
    Pin,
    Priority,
    Restrict,
    Send,
    Topic,
    Unpin,
)
from tg_mafia.render.scene import Outgoing
from tg_mafia.runtime.gameview import game_view
from tg_mafia.runtime.runner import enqueue
from tg_mafia.storage import ActionRecord, Database, GameRecord, GameStatus

Key = tuple[int, str]  # a living message: its chat and its key


def redrawn(record: GameRecord, actions: Sequence[ActionRecord]) -> list[Outgoing]:
    """The calls that show the game's restored state anew: every living message with
    buttons as its last drawing left it, sent as a new message, and the last change
    of the chat's permissions. Empty when the stored log does not replay to the
    stored state (then nothing is drawn rather than something wrong)."""
    view = game_view(record)
    options = dict(record.options)
    options["host"] = "human" if record.host_user_id else "auto"
    players = tuple(str(p.user_id) for p in record.players)
    # A game set up before an option existed played without it (as its protocol does).
    stored = (record.state or {}).get("options")
    played = set(stored) if isinstance(stored, dict) else None
    game, events = Game.deal(
        record.variant, players, options, record.seed, record.language, played=played
    )
    live: dict[Key, Outgoing] = {}
    permissions: list[Outgoing] = []
    _follow(presenter.render(view, game.views, events), live, permissions)
    for entry in actions:
        before = game.views
        game, events = game.apply(action_from_dict(dict(entry.action)))
        _follow(presenter.render(view, game.views, events, before), live, permissions)
    if game != Game.stored(record.state or {}):
        return []
    return [*live.values(), *permissions[-1:]]


def _follow(calls: list[Outgoing], live: dict[Key, Outgoing], permissions: list[Outgoing]) -> None:
    """Each living message's last drawing with buttons, as a new message (a clear, a
    delete or a drawing without buttons ends it); the changes of the chat's permissions."""
    for call in calls:
        match call.op:
            case (Send(key=str(key)) | Edit(key=str(key))) as drawing:
                if drawing.keyboard:
                    live[call.chat_id, key] = _anew(call, drawing)
                else:
                    live.pop((call.chat_id, key), None)
            case Clear(key=key) | Delete(key=str(key)):
                live.pop((call.chat_id, key), None)
            case Permissions() | Topic():
                permissions.append(call)
            case Send() | Edit() | Delete() | Pin() | Unpin() | Restrict() | Photo() | Document():
                pass
            case _:
                assert_never(call.op)


def _anew(call: Outgoing, drawing: Message) -> Outgoing:
    """A drawing sent as a new message under its key, without the stage's timer."""
    protect = drawing.protect if isinstance(drawing, Send) else False
    again = Send(drawing.text, keyboard=drawing.keyboard, key=drawing.key, protect=protect)
    return dataclasses.replace(call, op=again, priority=Priority.REMINDER)


def redraw_running_games(db: Database, now: float | None = None) -> int:
    """Puts each running game's screens into the outbox; returns how many games."""
    drawn = 0
    when = time.time() if now is None else now
    for record in db.unfinished_games():
        if record.status is not GameStatus.RUNNING:
            continue  # a lobby's message always shows Join and Start
        # Its calls are its bot's (several tokens); a game of no bot, the first token's.
        mine = db.for_bot(record.bot_id) if record.bot_id is not None else db
        with mine.transaction() as tx:
            calls = redrawn(record, tx.actions(record.id))
            if calls and enqueue(tx, record, calls, when):
                drawn += 1
    return drawn
