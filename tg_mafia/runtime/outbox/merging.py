"""Announcements that fall due together in one chat go as one message: a group's
budget is 20 messages a minute, and "X is eliminated", "Night 2 falls" and the
night's prompt, decided by one move, are one thing to read.

A chat's waiting calls of a game (the outbox, in their order; answers to commands
stay one message each) merge when the first is a plain
send (text only: no buttons, no living key, no picture) and the ones after it are sends
of text into the same chat and topic, for the same game, with the same protection and
no living key (a message edited later by its key must stay the text of that key). The
last one merged may carry buttons, the merged message then shows them; at most one
carries a stage's timer. Calls that make no message (a keyboard taken off, a deletion,
a pin, the night's permissions) may stand between them: they go after the merged
message, which changes nothing a reader sees. The merged text stays within
Telegram's 4,096 characters.

All the merged calls are settled with the one call that carries them, in one
transaction (sender._settle): a crash before it makes the merged call again, with
the same first call, whose id its buttons' record carries (runtime/gate.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Final, TypeGuard, assert_never

from tg_mafia.records import OutboxRecord
from tg_mafia.render.calls import (
    DEADLINE,
    RELATIVE_DEADLINE,
    Clear,
    Delete,
    Document,
    Edit,
    Op,
    Permissions,
    Photo,
    Pin,
    Priority,
    Restrict,
    Send,
    Topic,
    Unpin,
)
from tg_mafia.render.calls_json import readable, topic_of

MAX_TEXT: Final = 4096
# A deadline's marker grows when it is filled in (<tg-time ...>, its fallback text).
MARKER_GROWTH: Final = 60


def size(text: str) -> int:
    """A text's length as sent, counted high (its HTML tags count too)."""
    markers = text.count(DEADLINE) + text.count(RELATIVE_DEADLINE)
    return len(text) + markers * MARKER_GROWTH


def passable(op: Op) -> bool:
    """A call that makes no message: a merge may reach past it."""
    match op:
        case Clear() | Delete() | Pin() | Unpin() | Permissions() | Topic() | Restrict():
            return True
        case Send() | Edit() | Photo() | Document():
            return False
        case _:
            assert_never(op)


def starts_a_merge(op: Op, first: OutboxRecord) -> TypeGuard[Send]:
    return (
        first.priority == Priority.GAME
        and isinstance(op, Send)
        and bool(op.text)
        and not op.keyboard
        and op.key is None
    )


def _joins(first: OutboxRecord, entry: OutboxRecord, op: Send, protect: bool) -> bool:
    return (
        bool(op.text)
        and op.key is None
        and op.protect == protect
        and entry.game_id == first.game_id
        and entry.priority == Priority.GAME
        and topic_of(entry.op) == topic_of(first.op)
    )


# benchmarks/calls_per_game.py: 1-15% fewer calls a game than merging only the sends marked
# `mergeable` (party 184 vs 217)
def merge(op: Send, first: OutboxRecord, later: list[OutboxRecord]) -> tuple[Send, list[int]]:
    """`op` (the first entry's, which `starts_a_merge`) with the entries of `later`
    that join it merged in; the ids of the entries merged, the first's included."""
    merged, texts = [first.id], [op.text]
    total, timer, keyboard = size(op.text), op.timer, op.keyboard
    for entry in later:
        joining = readable(entry.op)
        if joining is not None and passable(joining):
            continue
        if not isinstance(joining, Send) or not _joins(first, entry, joining, op.protect):
            break
        if joining.timer is not None and timer is not None:
            break  # one stage's timer a message
        grown = total + 2 + size(joining.text)
        if grown > MAX_TEXT:
            break
        texts.append(joining.text)
        total = grown
        merged.append(entry.id)
        timer = joining.timer or timer
        if joining.keyboard:
            keyboard = joining.keyboard
            break  # the buttons end the message
    return replace(op, text="\n\n".join(texts), timer=timer, keyboard=keyboard), merged
