"""The sender: takes the calls the games decided from the outbox and makes
them, in order per chat, within Telegram's limits, after a crash too.

- One worker per chat with pending calls; a chat's calls go strictly in the
  order they were written. A chat waits for its own budget holding nothing, then
  asks for one of the bot's slots, handed out in order of need (order.py): no
  chat waits behind another chat's backlog.
- Budgets (budgets.py): a group takes about 20 calls a minute, edits included
  (15 are spent here, room for what the bot does not count; 5 of them left to
  what players wait on when a chat has only cosmetic calls waiting); a private
  chat one a second; the bot 30 a second in all. A 429 is waited out, never
  dropped.
- Folding (plan.py): an edit that a later edit of the same message supersedes
  is not made; a game's announcements that fall due together in one chat go as
  one message (merging.py).
- Only calls that change something: an edit to what the message shows, a clear
  of a message without buttons, permissions or a topic as the bot last set
  them are settled without a call (shown.py).
- A stage's timer starts when its message is sent: the deadline in the text
  is filled in then, and the game's stored deadline moved to it.
- A call is deleted from the outbox once Telegram took it, in one
  transaction with the message id it produced: a crash between the two
  repeats the call (counted by the crash test), it never loses it.
- A user who blocked the bot: their chat waits (nothing is dropped) until
  they can be reached again."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, assert_never

from telegram import Bot
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter

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
    Restrict,
    Send,
    Timer,
    Topic,
    Unpin,
    key_of,
    keyboard_of,
    text_of,
    timer_of,
)
from tg_mafia.render.texts.timefmt import RELATIVE, deadline_html
from tg_mafia.runtime.clock import BotClock
from tg_mafia.runtime.db import lanes
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.runtime.outbox.budgets import IDLE, Windows
from tg_mafia.runtime.outbox.methods import Call, Delivery, choices, make
from tg_mafia.runtime.outbox.order import Need, Replan, Turn, Turns, turn_of
from tg_mafia.runtime.outbox.plan import Unit, plan
from tg_mafia.runtime.outbox.shown import Shown
from tg_mafia.storage import Database, OutboxRecord
from tg_mafia.waiting import wait_set

log = logging.getLogger(__name__)

# A call failing on the network is tried again, ever further apart, this long (seconds).
NETWORK_PATIENCE = 900.0
NETWORK_BACKOFF_MAX = 30.0
# Chats served at once: each waits for its own budget, then for a slot of the bot's
# (order.py), so a chat with a backlog holds nothing another could use.
WORKERS = 4096
POLL = 1.0  # seconds between looks at the outbox when nothing woke the sender
# A look at the outbox scans it whole in the database thread, which every move waits
# for: the next look comes no sooner than this many times its cost later, so looking
# takes at most a tenth of that thread (woken by every move that wrote calls, it took
# much more: benchmarks/load.py). That delays a new chat's first call a little; a chat
# being served takes its next calls without a look.
LOOK_SPACING = 9.0


class Sender:
    def __init__(
        self,
        bot: Bot,
        db: AsyncDb,
        clock: BotClock,
        on_deadline: Callable[[int, str, float], None] | None = None,
        on_unreachable: Callable[[int], None] | None = None,
        on_migrated: Callable[[int, int], None] | None = None,
    ) -> None:
        self.bot = bot
        self.db = db
        self.clock = clock
        self.on_deadline = on_deadline  # (game, timer token, deadline): a stage's timer moved
        self.on_unreachable = on_unreachable  # (user): blocked the bot
        self.on_migrated = on_migrated  # (old chat, new chat): became a supergroup
        # (chat, topic): a call into a forum topic found it deleted
        self.on_topic_gone: Callable[[int, int], None] | None = None
        self.parked: set[int] = set()
        # (game): a message of the game now shows other buttons, or its timer moved.
        self.on_settled: Callable[[int], None] | None = None
        self.peak: dict[int, int] = {}  # the most calls any window of a group held
        self.windows = Windows(clock)
        self._held: dict[int, asyncio.Event] = {}  # per served chat: its game wrote
        self._last_edit: dict[tuple[int, str], float] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.turns = Turns(
            self.windows.bot_room, self.windows.bot_spend, self.windows.bot_give_back
        )
        self.calls = 0
        self.shown = Shown()  # what the bot's calls put in front of each chat

    def _settled(self, delivered: Delivery) -> None:
        if self.on_settled is None:
            return
        games = {delivered.deadline[0]} if delivered.deadline is not None else set()
        if delivered.buttons is not None and delivered.buttons.game is not None:
            games.add(delivered.buttons.game)
        for game in games:
            self.on_settled(game)

    # ----- life -------------------------------------------------------------------------

    def start(self, *, taking_over: bool = False) -> None:
        """`taking_over`: another process may have sent a moment ago (replicas: the
        leader before this one); its spending is unknown here, so each budget's
        first window starts with what it may have used (`Budget.inherited`), and what
        the chats show is unknown too (its edits may have changed any message)."""
        if taking_over:
            self.shown = Shown()
            self.windows.take_over()
        if self._task is None:
            self.turns.begin(self.clock.now())  # what waits now was left by another
            self._task = asyncio.get_running_loop().create_task(self._run(), name="sender")

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._workers.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._task = None
        self._workers.clear()
        await self.turns.stop()

    def wake(self, chat_id: int | None = None) -> None:
        """New calls (for `chat_id`, when one chat's): its claim on the bot's slots
        counts them (order.py), and a call held for its budget looks again (`_hold`)."""
        if chat_id is not None:
            self.turns.replan(chat_id)
            held = self._held.get(chat_id)
            if held is not None:
                held.set()
        self._wake.set()

    def unpark(self, chat_id: int) -> None:
        """The user can be reached again: their chat's waiting calls go out."""
        if chat_id in self.parked:
            self.parked.discard(chat_id)
            self.wake()

    async def drain(self) -> None:
        """Until every call that can be made is made (parked chats wait); at
        once when the sender is not running."""
        while self._task is not None:
            chats = await self.db.run(_pending_chats)
            if not any(c not in self.parked for c, *_ in chats) and not self._workers:
                return
            self._idle.clear()
            self.wake()
            await self._idle.wait()

    # ----- the loop ------------------------------------------------------------------------

    async def _run(self) -> None:
        lanes.in_background()  # a person's update goes first in the database (db/lanes.py)
        rounds = 0
        while True:
            rounds += 1
            if rounds % 100 == 0:
                self.forget_idle()
            self._wake.clear()
            try:
                # The chats to serve first, enough to fill the workers past those
                # already served and those waiting for their user.
                first = WORKERS + len(self._workers) + len(self.parked)
                chats, cost = await self.db.run(_timed_pending_chats, first)
            except Exception:
                log.exception("sender: cannot read the outbox")
                chats, cost = [], 0.0
            for chat_id, *_ in chats:  # best priority first, then oldest
                if chat_id in self.parked or chat_id in self._workers:
                    continue
                if len(self._workers) >= WORKERS:
                    break
                task = asyncio.get_running_loop().create_task(self._serve(chat_id))
                self._workers[chat_id] = task
            if not self._workers:
                self._idle.set()
            await asyncio.sleep(cost * LOOK_SPACING)
            await wait_set(self._wake, self.clock.real(POLL))

    async def _serve(self, chat_id: int) -> None:
        try:
            while chat_id not in self.parked:
                # Set by a write from here on (`wake`): the entries below may miss it.
                self._held[chat_id] = asyncio.Event()
                entries = await self.db.run(_pending, chat_id)
                if not entries:
                    return
                unit = plan(entries)
                if not unit.skip:
                    unit.skip = not await self._due(unit)
                unchanged = None
                if not unit.skip:
                    unchanged = self.shown.unchanged(
                        unit.op, unit.chat_id, unit.game_id, unit.topic
                    )
                delivered: Delivery | None
                if unchanged is not None:
                    delivered = unchanged
                    delivered.entries = unit.entries
                elif not unit.skip:
                    delivered = await self._deliver(unit, turn_of(entries))
                    if delivered is None:
                        continue  # waited (its budget, a 429) or parked: plan again
                else:
                    delivered = Delivery(unit.entries)
                delivered.ahead = unit.ahead
                self.shown.settled(delivered)
                await self.db.run(_settle, delivered, self.clock.now())
                if delivered.deadline is not None and self.on_deadline is not None:
                    self.on_deadline(*delivered.deadline)
                self._settled(delivered)
        except asyncio.CancelledError:
            raise
        except Exception:
            # A call that breaks the sender itself is dropped, or it would
            # block its chat for ever.
            log.exception("sender: chat %s failed; its next call is dropped", chat_id)
            with contextlib.suppress(Exception):
                entries = await self.db.run(_pending, chat_id)
                if entries:
                    await self.db.run(_settle, Delivery([entries[0].id]), self.clock.now())
        finally:
            self._workers.pop(chat_id, None)
            self._held.pop(chat_id, None)
            self.wake()
            if not self._workers:
                self._idle.set()

    # ----- one call ----------------------------------------------------------------------------

    async def _deliver(self, unit: Unit, turn: Turn | None = None) -> Delivery | None:
        """Makes the unit's call; None when it must be planned again (after a wait
        for its chat's budget, holding nothing meanwhile, or a 429's, or a chat now
        parked); a Delivery otherwise, also for a call Telegram refused for good (it
        is settled, not retried)."""
        if (room := self._room(unit, turn)) > 0:
            await self._hold(unit.chat_id, room)
            return None
        op, timer = unit.op, timer_of(unit.op)
        started = self.clock.now()
        attempt = 0
        while True:
            if isinstance(op, Edit) and op.every:
                await self._hold_edit(unit, op.every)
            try:
                async with self._budget_spent(unit.chat_id, charged(op), turn):
                    deadline = None  # the stage starts as its message leaves
                    if timer is not None:
                        deadline = self._timer_clock(timer).deadline(float(timer.seconds))
                    delivery = await self._call(unit, deadline)
            except RetryAfter as error:
                await asyncio.sleep(self.clock.real(_seconds(error.retry_after)) + 0.01)
                return None
            except Replan:
                return None  # calls arrived behind it: planned and claimed anew
            except ChatMigrated as error:
                # The group became a supergroup: its calls move to the new id and
                # go out from there (membership.py); this worker has none left.
                if self.on_migrated is not None:
                    self.on_migrated(unit.chat_id, error.new_chat_id)
                await asyncio.sleep(self.clock.real(1.0))
                return None
            except BadRequest as error:
                return self._refused(unit, error)
            except Forbidden as error:
                return self._forbidden(unit, error)
            except NetworkError as error:  # BadRequest is one too: caught above
                waited = self.clock.now() - started
                if waited > self.clock.real(NETWORK_PATIENCE):
                    log.error("chat %s: gave up on %s: %s", unit.chat_id, op.method, error)
                    return Delivery(unit.entries, deadline=self._timer(unit))
                await asyncio.sleep(self.clock.real(min(0.2 * 2**attempt, NETWORK_BACKOFF_MAX)))
                attempt += 1
                continue
            return delivery

    def _refused(self, unit: Unit, error: BadRequest) -> Delivery:
        text = str(error).lower()
        op = unit.op
        if "thread not found" in text and unit.topic and self.on_topic_gone is not None:
            self.on_topic_gone(unit.chat_id, unit.topic)  # the topic was deleted
        living = None
        gone = "not found" in text
        # A clear made again after a crash (Telegram took it, the process died before
        # writing it down): the buttons are off already, and the message is no longer
        # living; left living, the next floor's delete would take it down.
        cleared = "not modified" in text and isinstance(op, Clear)
        key = key_of(op)
        if (gone or cleared) and key is not None and unit.game_id is not None:
            living = (unit.game_id, unit.chat_id, key, None)
        if living is None and "not modified" not in text:
            log.warning("chat %s: %s refused: %s", unit.chat_id, op.method, error)
        # An edit Telegram calls "not modified" left the message showing its buttons.
        kept = unit.buttons if "not modified" in text and isinstance(op, Edit) else None
        return Delivery(unit.entries, living=living, deadline=self._timer(unit), buttons=kept)

    def _timer(self, unit: Unit) -> tuple[int, str, float] | None:
        """A stage's timer whose message could not go out starts now: the
        game must not wait for a message that will never come."""
        timer = timer_of(unit.op)
        if timer is None or unit.game_id is None:
            return None
        deadline = self._timer_clock(timer).deadline(float(timer.seconds))
        return unit.game_id, timer.token, deadline

    def _timer_clock(self, timer: Timer) -> BotClock:
        """The clock a stage's timer runs on (the play page's person's are slower)."""
        return self.clock.at(self.clock.speed if timer.speed is None else timer.speed)

    def _forbidden(self, unit: Unit, error: Forbidden) -> Delivery | None:
        if unit.chat_id > 0:
            # A player who blocked the bot: their calls wait until they come back.
            self.parked.add(unit.chat_id)
            if self.on_unreachable is not None:
                self.on_unreachable(unit.chat_id)
            return None
        log.warning("chat %s: the bot may not write here: %s", unit.chat_id, error)
        return Delivery(unit.entries, deadline=self._timer(unit))

    async def _call(self, unit: Unit, deadline: float | None) -> Delivery:
        op = unit.op
        text = text_of(op)
        # A deadline to fill in: the stage's, starting now; "—" if the call
        # carries no timer (a renderer's mistake must not show the marker).
        if DEADLINE in text:
            text = text.replace(DEADLINE, deadline_html(deadline) if deadline else "—")
        if RELATIVE_DEADLINE in text:
            relative = deadline_html(deadline, RELATIVE) if deadline else "—"
            text = text.replace(RELATIVE_DEADLINE, relative)
        call = Call(
            self.bot,
            op,
            unit.chat_id,
            unit.game_id,
            unit.topic or None,
            text,
            await self._living_id(unit),
            Delivery(unit.entries),
            self.clock.now(),
        )
        timer = timer_of(op)
        if timer is not None and deadline is not None and unit.game_id is not None:
            call.delivery.deadline = (unit.game_id, timer.token, deadline)
        await self._buttons_ahead(unit, call)
        try:
            await make(call)
        except BadRequest:
            unit.buttons = call.delivery.buttons
            raise
        except NetworkError:
            self.shown.doubt(call)  # no answer: it may still be carried out, later
            raise
        self.shown.record(call)
        return call.delivery

    async def _buttons_ahead(self, unit: Unit, call: Call) -> None:
        """A message's buttons are written down before its call goes out: a press can
        come as soon as Telegram shows the message, to any replica, and after a crash
        the copy that went out still takes its presses (gate.py)."""
        op, target = unit.op, call.target
        shown = choices(keyboard_of(op))  # a message's: sent, or edited
        if not shown:
            return
        now = self.clock.now()
        if not isinstance(op, Edit) or target is None:  # an edit of none is a send
            await self.db.run(_expect, unit.chat_id, unit.entries[0], unit.game_id, shown, now)
            unit.ahead = True
        elif not self.shown.offers(unit.chat_id, target, shown):
            await self.db.run(_widen, unit.chat_id, target, shown)

    async def _living_id(self, unit: Unit) -> int | None:
        key = key_of(unit.op)
        if unit.game_id is None or key is None:
            return None
        return await self.db.run(_living_id, unit.game_id, unit.chat_id, key)

    async def _due(self, unit: Unit) -> bool:
        """A spare call (the countdown's edit) goes out only at once, in
        time, and for the stage it was drawn for; otherwise it is dropped.
        Any other call is due."""
        spare = unit.op.spare if isinstance(unit.op, Edit) else None
        if spare is None:
            return True
        if self.clock.now() > spare.by:
            return False
        if self.windows.room(unit.chat_id, cosmetic=True) > 0:
            return False  # the budget is for the game's own calls
        if self.windows.bot_room() > 0 or self.turns.waiting or unit.game_id is None:
            return False
        return bool(await self.db.run(_timer_token, unit.game_id) == spare.token)

    # ----- budgets --------------------------------------------------------------------------

    def _room(self, unit: Unit, turn: Turn | None) -> float:
        """Seconds until the unit's chat has room for its call (0: now, or no charge);
        a chat with only cosmetic calls waiting leaves its budget's reserve free."""
        if not charged(unit.op):
            return 0.0
        cosmetic = turn is not None and turn.need is Need.COSMETIC
        return self.windows.room(unit.chat_id, cosmetic=cosmetic)

    async def _hold(self, chat_id: int, seconds: float) -> None:
        """Waits `seconds` for the chat's budget, or less if the chat's game wrote
        since its worker read its calls (`wake`): a call that waits behind a
        cosmetic one may use the reserve the cosmetic one was held for."""
        written = self._held.get(chat_id)
        if written is None:
            await asyncio.sleep(seconds)
        else:
            await wait_set(written, seconds)

    @contextlib.asynccontextmanager
    async def _budget_spent(
        self, chat_id: int, charged: bool, turn: Turn | None = None
    ) -> AsyncIterator[None]:
        """For a `charged` call: waits until the chat's budget has room, then for a
        slot of the bot's, handed out by need (`turn`: order.py); counts the call
        against both while it flies and for a window after it landed (a refused call
        too: it may have counted at Telegram's end)."""
        if not charged:
            yield
            return
        window = self.windows.of(chat_id)
        while (wait := self.windows.room(chat_id)) > 0:
            await asyncio.sleep(wait)
        await self.turns.take(turn or Turn(Need.ANNOUNCEMENT, self.clock.now()), chat_id)
        window.flying += 1
        try:
            yield
        finally:
            held = self.windows.landed(window)
            self.calls += 1
            if chat_id < 0:
                self.peak[chat_id] = max(self.peak.get(chat_id, 0), held)

    async def _hold_edit(self, unit: Unit, every: float) -> None:
        """A busy living message (the live vote board) changes at most every
        `every` seconds; the edits queued meanwhile fold into the last."""
        key = (unit.chat_id, key_of(unit.op) or "")
        last = self._last_edit.get(key)
        if last is not None:
            wait = last + self.clock.real(every) - self.clock.now()
            if wait > 0:
                await asyncio.sleep(wait)
        self._last_edit[key] = self.clock.now()

    def forget_idle(self) -> None:
        """Drops the windows of chats that sent nothing for a while."""
        self.windows.forget_idle()
        now = self.clock.now()
        self._last_edit = {
            k: v for k, v in self._last_edit.items() if now - v < self.clock.real(IDLE)
        }


def charged(op: Op) -> bool:
    """Whether the call counts against its chat's budget: a message sent or changed
    (a deletion, the night's permissions and a topic's opening are not counted)."""
    match op:
        case Send() | Edit() | Clear() | Pin() | Unpin() | Photo() | Document():
            return True
        case Delete() | Permissions() | Topic() | Restrict():
            return False
        case _:
            assert_never(op)


def _seconds(value: Any) -> float:
    return float(value.total_seconds() if hasattr(value, "total_seconds") else value)


# ----- the database side (run in the worker thread) ----------------------------------------


def _pending_chats(db: Database, first: int | None = None) -> list[tuple[int, int, int, float]]:
    with db.transaction() as tx:
        return tx.pending_chats(first)


def _timed_pending_chats(
    db: Database, first: int
) -> tuple[list[tuple[int, int, int, float]], float]:
    """The `first` chats to serve, and what the look cost (seconds of this thread)."""
    began = time.perf_counter()
    chats = _pending_chats(db, first)
    return chats, time.perf_counter() - began


def _pending(db: Database, chat_id: int) -> list[OutboxRecord]:
    with db.transaction() as tx:
        return tx.pending(chat_id)


def _timer_token(db: Database, game_id: int) -> str | None:
    with db.transaction() as tx:
        record = tx.game(game_id)
        return record.timer_token if record is not None else None


def _living_id(db: Database, game_id: int, chat_id: int, key: str) -> int | None:
    with db.transaction() as tx:
        return tx.living_id(game_id, chat_id, key)


def _expect(
    db: Database, chat: int, entry: int, game: int | None, shown: tuple[str, ...], now: float
) -> None:
    with db.transaction() as tx:
        tx.expect_buttons(chat, entry, game, shown, now)


def _widen(db: Database, chat: int, message_id: int, shown: tuple[str, ...]) -> None:
    with db.transaction() as tx:
        tx.widen_buttons(chat, message_id, shown)


def _settle(db: Database, delivery: Delivery, now: float) -> None:
    with db.transaction() as tx:
        tx.done(delivery.entries)
        if delivery.living is not None:
            game, chat, key, message_id = delivery.living
            if message_id is None:
                tx.drop_living(game, chat, key)
            else:
                tx.set_living(game, chat, key, message_id)
        if delivery.deadline is not None:
            game, token, when = delivery.deadline
            if not tx.move_deadline(game, token, when):
                delivery.deadline = None  # the game moved on meanwhile
        if delivery.forget_permissions is not None:
            tx.clear_saved_permissions(delivery.forget_permissions)
        buttons = delivery.buttons
        if buttons is None and delivery.ahead:  # no message came of it: nothing to press
            tx.drop_unsent_buttons(delivery.entries)
        if buttons is not None:
            if buttons.choices is None:
                tx.drop_buttons(buttons.chat, buttons.message_id)
            else:
                tx.set_buttons(
                    buttons.chat,
                    buttons.message_id,
                    buttons.game,
                    buttons.choices,
                    now,
                    buttons.entry,
                )
