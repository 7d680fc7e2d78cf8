"""The sender's planning: which call the pending entries of a chat make next. An edit
that a later edit of the same message supersedes is not made; a game's announcements
that fall due together go as one message (merging.py)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tg_mafia.records import OutboxRecord
from tg_mafia.render.calls import Delete, Edit, Op
from tg_mafia.render.calls_json import from_json, key_in, readable, topic_of
from tg_mafia.runtime.outbox import merging
from tg_mafia.runtime.outbox.methods import ShownButtons

MAX_TEXT = merging.MAX_TEXT


@dataclass
class Unit:
    """One call to make, and the outbox entries it settles."""

    op: Op
    chat_id: int
    game_id: int | None
    topic: int
    entries: list[int]
    skip: bool = False  # superseded: settle the entries, make no call
    buttons: ShownButtons | None = None  # what a refused call would have left shown
    ahead: bool = False  # a message's buttons written down before its call


def plan(entries: list[OutboxRecord]) -> Unit:
    """The next call for a chat whose pending entries are `entries` (oldest
    first): superseded edits are skipped, plain announcements merged. A first
    entry that is no call this version makes raises (the sender drops it)."""
    first = entries[0]
    op = from_json(first.op)
    unit = Unit(op, first.chat_id, first.game_id, topic_of(first.op), [first.id])
    if isinstance(op, Edit) and op.key is not None and _superseded(op.key, entries[1:]):
        unit.skip = True
        return unit
    if merging.starts_a_merge(op, first):
        unit.op, unit.entries = merging.merge(op, first, entries[1:])
    return unit


def _superseded(key: str, later: Iterable[OutboxRecord]) -> bool:
    """A later edit of the same message, or its deletion, makes this edit
    useless, unless the message is sent or cleared in between."""
    for entry in later:
        if key_in(entry.op) == key:
            return isinstance(readable(entry.op), Edit | Delete)
    return False
