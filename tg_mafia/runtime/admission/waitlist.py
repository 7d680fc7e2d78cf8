"""The queue for a table. A /newgame that would push the bot token past its budget
(admission.py) opens nothing: the group gets one message and a place in the queue,
first come first served. When tables free (a game ends, a lobby closes), the leader
tells the groups at the head that fit, in their group, and pings in private those there
who asked /nextgame; the table is then held for that group for `HOLD_SECONDS`, and its
next /newgame takes it. A group that does not come back in time leaves the queue.

- While any group waits, a newcomer's /newgame joins the queue behind it even if a
  table is free for a moment: that table is the waiting group's.
- A table held for a waiting group counts as taken, as a lobby: the games open in the
  database count by what they need now (budget.py: a lobby its opening, a running game
  the rest of its calls), and a held table opens as a lobby.
- Every replica admits in the /newgame's own transaction, taking turns on PostgreSQL
  (storage/waitlist.py); only the leader tells the groups, after each game's end and
  every EVERY seconds."""

from __future__ import annotations

import logging
from collections.abc import Callable
from html import escape
from typing import Final

from tg_mafia.i18n import Translator, translator
from tg_mafia.ops import budget as admission
from tg_mafia.ops.budget import Tables, TokenBudget
from tg_mafia.render.calls import Priority, Send
from tg_mafia.render.calls_json import to_json
from tg_mafia.render.texts.timefmt import duration
from tg_mafia.runtime.clock import BotClock
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.runtime.timers.scheduler import Scheduler
from tg_mafia.storage import Database, Tx
from tg_mafia.storage import waitlist as store

log = logging.getLogger(__name__)

JOB: Final = "waitlist"
# Seconds between two looks at the queue when no game ended meanwhile: a lobby that
# starts frees most of what it was counted for (budget.py), and nothing tells of that.
EVERY: Final = 15.0
HOLD_SECONDS: Final = 600  # how long a free table waits for the group told of it


def current(tx: Tx, now: float) -> list[store.Waiting]:
    """The queue as it stands at `now`: a table held past its time goes back to
    everyone, and its group out of the queue (written only when there is one)."""
    queue = store.queue(tx)
    kept = [row for row in queue if row.held_until is None or row.held_until > now]
    if len(kept) < len(queue):
        store.drop_expired(tx, now)
    return kept


def taken(tx: Tx, queue: list[store.Waiting]) -> Tables:
    """The tables taken: the games open, and those held for a waiting group."""
    lobbies, running = store.open_games(tx)
    lobbies.update(row.variant for row in queue if row.held_until is not None)
    return Tables(lobbies, running)


def admit(
    tx: Tx,
    budget: TokenBudget,
    chat_id: int,
    topic: int,
    variant: str,
    title: str,
    now: float,
    t: Translator,
) -> str | None:
    """In /newgame's transaction, before its lobby is made: None when the game may open
    (a table held for the group is its own), else the message that puts the group in the
    queue (or says its place there again)."""
    if tx.active_game(chat_id, topic, any_bot=True) is not None:
        return None  # not admission's business: the lobby's "already open" answers
    store.take_turn(tx)
    queue = current(tx, now)
    own = next((row for row in queue if (row.chat_id, row.topic) == (chat_id, topic)), None)
    if own is not None and own.held_until is not None:
        store.leave(tx, own.id)  # its held table becomes its lobby
        return None
    ahead = [row for row in queue if row.held_until is None and (own is None or row.id < own.id)]
    if not ahead and admission.fits(budget, taken(tx, queue), variant):
        if own is not None:
            store.leave(tx, own.id)
        return None
    if own is None:
        store.join(tx, chat_id, topic, variant, title)
    return refusal(t, len(ahead) + 1)


def refusal(t: Translator, place: int) -> str:
    return t.gettext(
        "⏳ Every table I can run well is taken: one more game now would slow down all "
        "the others. This group is number {place} in the queue: I will post here when a "
        "table is free. Send /nextgame to be told in private as well."
    ).format(place=place)


def offer(db: Database, budget: TokenBudget, now: float, until: float) -> int:
    """The leader's look at the queue: the groups at its head that fit now are told a
    table is free, and it is held for them until `until`. How many were told."""
    with db.transaction() as tx:
        store.take_turn(tx)
        queue = current(tx, now)
        waiting = [row for row in queue if row.held_until is None]
        if not waiting:
            return 0
        games = taken(tx, queue)
        told = 0
        for row in waiting:  # first come first served: none skips a group that does not fit
            if not admission.fits(budget, games, row.variant):
                break
            store.hold(tx, row.id, until)
            games.add(row.variant, lobby=True)
            _tell(tx, row, now)
            told += 1
        return told


def _tell(tx: Tx, row: store.Waiting, now: float) -> None:
    """The group, and in private whoever there asked /nextgame."""
    t = translator(store.language_of(tx, row.chat_id))
    text = t.gettext(
        "🎲 A table is free for this group: send /newgame to open your game. "
        "I keep it for you for {length}."
    ).format(length=duration(t, HOLD_SECONDS))
    data = to_json(Send(text), row.topic)
    tx.enqueue(row.chat_id, data, now=now, priority=Priority.ANSWER)
    ping = t.gettext("🎲 A table is free in «{title}»: send /newgame there to open a game.")
    op = to_json(Send(ping.format(title=escape(row.title))))
    for user_id in tx.next_game_watchers(row.chat_id, row.topic):
        tx.enqueue(user_id, op, now=now, priority=Priority.ANSWER)


class Waitlist:
    """The leader's part: a look at the queue after every game's end, and every EVERY
    seconds (a lobby started, a held table that no one took frees at its time)."""

    def __init__(
        self,
        adb: AsyncDb,
        scheduler: Scheduler,
        clock: BotClock,
        budget: TokenBudget,
        paused: Callable[[], bool],
        told: Callable[[], None],
    ) -> None:
        self.adb = adb
        self.scheduler = scheduler
        self.clock = clock
        self.budget = budget
        self.paused = paused  # draining: no table is offered, no game may open
        self.told = told  # calls were written: wake the sender
        self.running = False

    def start(self) -> None:
        self.running = True
        self.scheduler.arm(JOB, 0.0, self.look)

    def stop(self) -> None:
        self.running = False
        self.scheduler.cancel(JOB)

    def game_ended(self) -> None:
        """A game ended or a lobby closed: a table may be free."""
        if self.running:
            self.scheduler.arm(JOB, 0.0, self.look)

    async def look(self) -> None:
        if not self.paused():
            now = self.clock.now()
            until = now + self.clock.real(HOLD_SECONDS)
            try:
                told = await self.adb.run(offer, self.budget, now, until)
            except Exception:
                log.exception("the look at the queue for a table failed; tried again soon")
            else:
                if told:
                    log.info("admission: %d waiting groups told a table is free", told)
                    self.told()
        if self.running:
            self.scheduler.arm(JOB, EVERY, self.look)
