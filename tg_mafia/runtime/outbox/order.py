"""Which chat's call takes the bot's next slot: the order of need, not of age.

The bot's 30 calls a second are one budget for every chat. A chat whose own budget
has room asks for a slot (`Turns.take`) and gets it in this order:

1. Live before inherited: a chat whose waiting calls were decided since this sender
   started goes before one whose oldest call was left by the process before it (a
   restart's or a new leader's backlog: late already, and a live game's next message
   must not wait behind it). The inherited ones still get every INHERITED_EVERY-th
   slot while any waits: the backlog drains, it never starves. Without a backlog this
   changes nothing.
2. What players wait on (`need`): a prompt or a vote (a new message with buttons to
   press, any call that starts a stage's timer: the next speaker's floor is an edit, and
   the live vote board, which the whole table watches) before an announcement, an
   announcement before a cosmetic edit (a group's list of names brought up to date, a
   keyboard taken off, a pin: the group has the news in a message of its own, and a
   newer edit of the same message replaces a waiting one, so under load they fold
   instead of queueing). A private chat has one reader, and what changes there is said
   to them: their prompt brought up to date (their choice, their partners') is a prompt,
   and their choice taken or their stage ended (a keyboard taken off) an announcement
   (as cosmetic, a doctor's choice waited over 20 s behind the rush's calls on one
   token: benchmarks/load.py). A chat counts by the most needed of its waiting calls:
   its calls go out in their order, so a prompt behind an edit makes the edit needed
   too. A claim already waiting is withdrawn when its game writes (`Turns.replan`), and
   its worker claims again by all that waits then.
3. Then the chat that has waited longest.

A chat waits for its own budget (a group's 15 calls a minute) before it asks, holding
nothing: a chat with a backlog never holds a slot another chat could use."""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Final, assert_never

from tg_mafia.records import OutboxRecord
from tg_mafia.render.calls import (
    Clear,
    Delete,
    Document,
    Edit,
    Keyboard,
    Op,
    Permissions,
    Photo,
    Pin,
    Priority,
    Restrict,
    Send,
    Topic,
    Unpin,
    keyboard_of,
    makes_a_message,
    timer_of,
)
from tg_mafia.render.calls_json import readable

INHERITED_EVERY: Final = 3  # a third of the slots, at least, for an inherited backlog


class Need(IntEnum):
    PROMPT = 0  # buttons to press, or a stage's timer: players wait on it
    ANNOUNCEMENT = 1  # something said: a result, a night falling, an answer
    COSMETIC = 2  # a change to what is shown already


def need(op: Op, priority: int = Priority.GAME, chat: int = 0) -> Need:
    """What players wait on in one call into `chat` (> 0: a private chat)."""
    if priority == Priority.REMINDER:
        return Need.COSMETIC  # said again after a restart: they saw it once
    game = priority == Priority.GAME
    private = game and chat > 0  # one reader: what changes there is said to them
    if (game and _prompts(op)) or (private and _pressable(keyboard_of(op))):
        return Need.PROMPT  # in private: their buttons as their choice left them
    if _says(op) or priority == Priority.ANSWER or private:
        return Need.ANNOUNCEMENT  # in private: their choice taken, their stage ended
    return Need.COSMETIC


def _prompts(op: Op) -> bool:
    """A stage begins (its timer), the live vote board (held to one edit in N s), or a
    new message with buttons to press."""
    if timer_of(op) is not None or (isinstance(op, Edit) and op.every):
        return True
    return makes_a_message(op) and _pressable(keyboard_of(op))


def _says(op: Op) -> bool:
    """Something said or done that players notice: a message, a deletion, the night's
    closing or the morning's opening."""
    match op:
        case Send() | Photo() | Document() | Delete() | Permissions() | Topic() | Restrict():
            return True
        case Edit() | Clear() | Pin() | Unpin():
            return False
        case _:
            assert_never(op)


def _pressable(keyboard: Keyboard | None) -> bool:
    """Buttons that make a press (a link's open a page)."""
    return any("data" in button for row in keyboard or () for button in row)


@dataclass(frozen=True)
class Turn:
    """A chat's claim on the bot's next slot."""

    need: Need
    since: float  # the bot's clock: when its oldest waiting call was decided

    def key(self, began: float) -> tuple[bool, int, float]:
        """Its rank among the claims of a sender that began at `began` (lowest first)."""
        return self.since < began, int(self.need), self.since


def turn_of(entries: Iterable[OutboxRecord]) -> Turn:
    """The claim of a chat whose waiting calls are `entries`, in their order: the most
    needed of them all (a prompt deep behind a group's edits, left by a busy minute,
    must not leave the whole table waiting on the edits' rank)."""
    waiting = list(entries)
    if not waiting:
        return Turn(Need.COSMETIC, 0.0)
    most = Need.COSMETIC  # a call it cannot read is dropped (sender.py)
    for entry in waiting:
        op = readable(entry.op)
        if op is not None:
            most = min(most, need(op, entry.priority, entry.chat_id))
            if most is Need.PROMPT:
                break  # none ranks higher
    return Turn(most, min(entry.created_at for entry in waiting))


class Replan(Exception):
    """A chat's claim was withdrawn: calls it did not count arrived behind it (the
    next speaker's floor behind a cosmetic edit); its worker plans and claims anew."""


@dataclass(eq=False)
class _Waiting:
    turn: Turn
    chat: int | None
    granted: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


# benchmarks/load.py, real model: a stage timer to its next message p99 0.59 s vs 66.5 s in the
# outbox's order; restart.py --games 300: live games' next message p99 0.92 s vs 29 s
class Turns:
    """The bot's budget handed out one slot at a time, to the best claim waiting.
    `room()`: seconds until the budget takes one more call; `spend()`: counts one
    (a slot is spent as it is handed out, before its call leaves); `give_back()`
    returns one whose call will not be made."""

    def __init__(
        self,
        room: Callable[[], float],
        spend: Callable[[], None],
        give_back: Callable[[], None],
    ) -> None:
        self.began = -math.inf  # when its sender began: calls decided before are inherited
        self._room = room
        self._spend = spend
        self._give_back = give_back
        self._waiting: list[_Waiting] = []
        self._task: asyncio.Task[None] | None = None
        self.handed = 0  # slots handed out (for the tests and /metrics)

    def begin(self, now: float) -> None:
        """Its sender starts (the bot's clock): what waits already was left to it."""
        self.began = now

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    async def take(self, turn: Turn, chat: int | None = None) -> None:
        """Until the bot's budget has a slot for this claim (of `chat`), the best one
        waiting; Replan if the chat's claim is withdrawn meanwhile (`replan`)."""
        if not self._waiting and self._room() <= 0:
            self._spend()  # nobody ahead: at once
            self.handed += 1
            return
        waiting = _Waiting(turn, chat)
        self._waiting.append(waiting)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._hand_out())
        try:
            await waiting.granted
        except asyncio.CancelledError:
            if waiting in self._waiting:
                self._waiting.remove(waiting)
            elif waiting.granted.done() and not waiting.granted.cancelled():
                self._give_back()  # handed out as its taker was stopped
            raise

    def replan(self, chat: int) -> None:
        """The chat has new calls: a claim of it that may rank too low is withdrawn, for
        its worker to claim again by every call now waiting. Under load a cosmetic
        claim waits for minutes; the prompt written behind it must not wait with it."""
        for waiting in [w for w in self._waiting if w.chat == chat]:
            if waiting.turn.need is not Need.PROMPT:  # none ranks higher
                self._waiting.remove(waiting)
                waiting.granted.set_exception(Replan())

    async def _hand_out(self) -> None:
        while self._waiting:
            wait = self._room()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            began, waiting = self.began, self._waiting
            if self.handed % INHERITED_EVERY == INHERITED_EVERY - 1:  # the backlog's share
                waiting = [w for w in waiting if w.turn.since < began] or waiting
            best = min(waiting, key=lambda w: w.turn.key(began))
            self._waiting.remove(best)
            self._spend()
            self.handed += 1
            best.granted.set_result(None)
            await asyncio.sleep(0)  # its taker goes before the next look

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for waiting in self._waiting:
            waiting.granted.cancel()
        self._waiting.clear()
