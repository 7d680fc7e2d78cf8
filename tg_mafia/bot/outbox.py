"""Per-chat outboxes: every call to a chat goes through one, in order.

A group may take about 20 messages a minute, edits included; a private chat
about one a second. The outbox spends that budget, merges plain
announcements that fall due together into one message, folds repeated edits
of one living message into the last, and waits out a 429 instead of
dropping the message."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from telegram import Bot, InlineKeyboardMarkup, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut

from tg_mafia.bot.clock import BotClock

log = logging.getLogger(__name__)

MAX_TEXT = 4096
CHARGED = frozenset({"send", "edit", "clear", "pin", "unpin"})
# A call that keeps failing on the network is tried again, further and
# further apart, for this long (seconds of the bot's clock) before it is given up: an
# outage of Telegram or of the server's network delays messages, it does
# not drop them.
NETWORK_PATIENCE = 900.0
NETWORK_BACKOFF_MAX = 30.0


@dataclass
class Op:
    """One call to a chat. `key` names a living message: a send stores its
    id under the key, an edit or delete finds it there."""

    method: str  # send, edit, clear (remove the buttons), delete, pin, unpin, call
    text: str | None = None
    markup: InlineKeyboardMarkup | None = None
    key: str | None = None
    message_id: int | None = None
    mergeable: bool = False
    protect: bool = False
    call: Callable[[Bot], Awaitable[Any]] | None = None  # method "call": anything else
    # Edits of a busy living message (the classic vote board) at most this
    # often, in game seconds; the edits in between fold into the last one.
    min_interval: float = 0.0
    done: asyncio.Future[bool] | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Budget:
    calls: int
    window: float  # game seconds


# Telegram allows about 20 a minute in a group; 15 leaves room for what
# the bot does not count (a restart, an administrator's own calls).
GROUP_BUDGET = Budget(15, 60.0)
PRIVATE_BUDGET = Budget(1, 1.05)


class MessageBook:
    """The living messages of one chat: key -> message id."""

    def __init__(self, ids: dict[str, int] | None = None) -> None:
        self.ids: dict[str, int] = dict(ids or {})


class Outbox:
    def __init__(
        self,
        bot: Bot,
        chat_id: int,
        budget: Budget,
        clock: BotClock,
        book: MessageBook,
        on_forbidden: Callable[[int], None] | None = None,
    ) -> None:
        self.bot = bot
        self.chat_id = chat_id
        self.budget = budget
        self.clock = clock
        self.book = book
        self.on_forbidden = on_forbidden
        self.sent_at: deque[float] = deque()
        self.peak = 0
        self._queue: deque[Op] = deque()
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None
        self._last_edit: dict[str, float] = {}
        self.blocked = False

    # ----- queueing ---------------------------------------------------------

    def put(self, op: Op) -> None:
        if op.method == "edit" and op.key is not None:
            # A newer edit of the same living message replaces a waiting one.
            for index, waiting in enumerate(self._queue):
                if waiting.method == "edit" and waiting.key == op.key:
                    self._queue[index] = op
                    self._wake.set()
                    return
        self._queue.append(op)
        self._idle.clear()
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def drain(self) -> None:
        await self._idle.wait()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    # ----- the worker ---------------------------------------------------------

    async def _run(self) -> None:
        while True:
            if not self._queue:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            op = self._queue.popleft()
            if op.method == "send" and op.mergeable:
                op = self._merge(op)
            if op.min_interval and op.key and await self._hold_edit(op):
                continue
            try:
                await self._perform(op)
            except Exception:  # a failed call must never stop the chat's outbox
                log.exception("outbox %s: %s failed", self.chat_id, op.method)
            if op.done is not None and not op.done.done():
                op.done.set_result(True)

    async def _hold_edit(self, op: Op) -> bool:
        """Waits until the living message may be edited again; True when a
        newer edit of it was queued meanwhile (this one is then dropped)."""
        assert op.key is not None
        last = self._last_edit.get(op.key)
        if last is not None:
            wait = last + self.clock.real(op.min_interval) - self.clock.now()
            if wait > 0:
                await asyncio.sleep(wait)
        self._last_edit[op.key] = self.clock.now()
        return any(w.method == "edit" and w.key == op.key for w in self._queue)

    def _merge(self, first: Op) -> Op:
        texts = [first.text or ""]
        while self._queue:
            nxt = self._queue[0]
            if not (nxt.method == "send" and nxt.mergeable and nxt.text):
                break
            if sum(len(t) + 2 for t in texts) + len(nxt.text) > MAX_TEXT:
                break
            texts.append(nxt.text)
            self._queue.popleft()
        return Op("send", text="\n\n".join(texts), mergeable=True, protect=first.protect)

    async def _wait_for_budget(self) -> None:
        window = self.clock.real(self.budget.window)
        while True:
            now = self.clock.now()
            while self.sent_at and now - self.sent_at[0] >= window:
                self.sent_at.popleft()
            if len(self.sent_at) < self.budget.calls:
                return
            await asyncio.sleep(window - (now - self.sent_at[0]) + 0.001)

    async def _perform(self, op: Op) -> None:
        if self.blocked and op.method != "call":
            return
        attempt = 0  # network failures only: a 429 is waited out however often it comes
        started = self.clock.now()
        patience = self.clock.real(NETWORK_PATIENCE)
        while attempt == 0 or self.clock.now() - started < patience:
            if op.method in CHARGED:
                await self._wait_for_budget()
            try:
                await self._call(op)
            except RetryAfter as error:
                # Flood control: wait it out and send again, never drop.
                delay = error.retry_after
                seconds = delay.total_seconds() if hasattr(delay, "total_seconds") else delay
                await asyncio.sleep(self.clock.real(float(seconds)) + 0.01)
                continue
            except BadRequest as error:
                self._bad_request(op, error)
                return
            except (TimedOut, NetworkError):
                # BadRequest is a NetworkError too: it is caught above.
                await asyncio.sleep(self.clock.real(min(0.2 * 2**attempt, NETWORK_BACKOFF_MAX)))
                attempt += 1
                continue
            except Forbidden:
                self.blocked = True
                if self.on_forbidden is not None:
                    self.on_forbidden(self.chat_id)
                return
            if op.method in CHARGED:
                self.sent_at.append(self.clock.now())
                self.peak = max(self.peak, len(self.sent_at))
            return
        log.error(
            "outbox %s: gave up on %s after %d failed attempts", self.chat_id, op.method, attempt
        )

    def _bad_request(self, op: Op, error: BadRequest) -> None:
        text = str(error).lower()
        if "not modified" in text:
            return
        if op.method in ("edit", "delete") and "not found" in text and op.key:
            self.book.ids.pop(op.key, None)
        log.warning("outbox %s: %s refused: %s", self.chat_id, op.method, error)

    async def _call(self, op: Op) -> None:
        bot, chat = self.bot, self.chat_id
        if op.method == "send":
            message: Message = await bot.send_message(
                chat,
                op.text or "",
                parse_mode=ParseMode.HTML,
                reply_markup=op.markup,
                protect_content=op.protect or None,
                disable_web_page_preview=True,
            )
            if op.key:
                self.book.ids[op.key] = message.message_id
        elif op.method == "edit":
            message_id = op.message_id or (self.book.ids.get(op.key) if op.key else None)
            if message_id is None:
                return
            await bot.edit_message_text(
                op.text or "",
                chat_id=chat,
                message_id=message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=op.markup,
                disable_web_page_preview=True,
            )
        elif op.method == "clear":
            message_id = op.message_id or (self.book.ids.pop(op.key, None) if op.key else None)
            if message_id is not None:
                await bot.edit_message_reply_markup(chat, message_id, reply_markup=None)
        elif op.method == "delete":
            message_id = op.message_id or (self.book.ids.pop(op.key, None) if op.key else None)
            if message_id is not None:
                await bot.delete_message(chat, message_id)
        elif op.method == "pin":
            message_id = op.message_id or (self.book.ids.get(op.key) if op.key else None)
            if message_id is not None:
                await bot.pin_chat_message(chat, message_id, disable_notification=True)
        elif op.method == "unpin":
            message_id = op.message_id or (self.book.ids.get(op.key) if op.key else None)
            if message_id is not None:
                await bot.unpin_chat_message(chat, message_id)
        elif op.method == "call" and op.call is not None:
            await op.call(bot)


class Outboxes:
    """One outbox per chat, created on first use."""

    def __init__(
        self, bot: Bot, clock: BotClock, on_forbidden: Callable[[int], None] | None = None
    ) -> None:
        self.bot = bot
        self.clock = clock
        self.on_forbidden = on_forbidden
        self.boxes: dict[int, Outbox] = {}
        self.books: dict[int, MessageBook] = {}

    def book(self, chat_id: int) -> MessageBook:
        return self.books.setdefault(chat_id, MessageBook())

    def get(self, chat_id: int) -> Outbox:
        box = self.boxes.get(chat_id)
        if box is None:
            budget = PRIVATE_BUDGET if chat_id > 0 else GROUP_BUDGET
            box = Outbox(
                self.bot, chat_id, budget, self.clock, self.book(chat_id), self.on_forbidden
            )
            self.boxes[chat_id] = box
        return box

    def put(self, chat_id: int, op: Op) -> None:
        self.get(chat_id).put(op)

    async def drain(self) -> None:
        for box in list(self.boxes.values()):
            await box.drain()

    async def close(self) -> None:
        for box in self.boxes.values():
            await box.close()
