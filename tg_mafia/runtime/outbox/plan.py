"""The sender's planning: which call the pending entries of a chat make next. An edit
that a later edit of the same message supersedes is not made; plain announcements that
fall due together go as one message."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tg_mafia.records import OutboxRecord
from tg_mafia.render.calls import Method, Op
from tg_mafia.runtime.outbox.methods import ShownButtons

MAX_TEXT = 4096


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
    first): superseded edits are skipped, plain announcements merged."""
    first = entries[0]
    op = Op.from_json(first.op)
    topic = int(first.op.get("topic", 0))
    unit = Unit(op, first.chat_id, first.game_id, topic, [first.id])
    if op.method is Method.EDIT and op.key is not None and _superseded(op.key, entries[1:]):
        unit.skip = True
        return unit
    if op.method is Method.SEND and op.mergeable and op.text:
        _merge(unit, entries[1:])
    return unit


def _superseded(key: str, later: Iterable[OutboxRecord]) -> bool:
    """A later edit of the same message, or its deletion, makes this edit
    useless, unless the message is sent or cleared in between."""
    for entry in later:
        if entry.op.get("key") != key:
            continue
        return entry.op.get("m") in (Method.EDIT.value, Method.DELETE.value)
    return False


def _merge(unit: Unit, later: list[OutboxRecord]) -> None:
    texts = [unit.op.text or ""]
    size = len(texts[0])
    for entry in later:
        op = entry.op
        plain = op.get("m") == Method.SEND.value and op.get("mergeable") and op.get("text")
        if not plain or bool(op.get("protect")) != unit.op.protect:
            break
        if size + 2 + len(op["text"]) > MAX_TEXT:
            break
        texts.append(op["text"])
        size += 2 + len(op["text"])
        unit.entries.append(entry.id)
    unit.op.text = "\n\n".join(texts)
