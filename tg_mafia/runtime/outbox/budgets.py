"""The sender's budgets: how many calls a group, a private chat and the bot as a whole
may take in a window of the bot's clock (within Telegram's own limits), the window
that counts the calls of one budget, those on their way included, and the sender's
windows together (`Windows`)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from tg_mafia.runtime.clock import BotClock

LANDING = 0.01  # real seconds between looks at a budget full of calls in flight
IDLE = 120.0  # seconds (bot's clock) after its last call a chat's window is forgotten


@dataclass(frozen=True)
class Budget:
    calls: int
    window: float  # seconds of the bot's clock
    limit: int  # Telegram's, over the same window
    # Of `calls`, those a cosmetic call leaves free: a lobby's list of names brought up
    # to date join by join must not spend the minute the game's start then needs
    # (benchmarks/load.py, real model: the slowest next messages were all a table's
    # first speeches, waiting for the group's minute its lobby had spent).
    reserve: int = 0

    def inherited(self) -> int:
        """The calls a sender taking over from another process counts as made at its
        start: the other may have spent a whole budget just before, and the two
        together must stay within Telegram's limit."""
        return max(0, 2 * self.calls - self.limit)


GROUP_BUDGET = Budget(15, 60.0, 20, reserve=5)
PRIVATE_BUDGET = Budget(1, 1.05, 1)
BOT_BUDGET = Budget(30, 1.0, 30)


def budget_of(chat_id: int) -> Budget:
    return PRIVATE_BUDGET if chat_id > 0 else GROUP_BUDGET


@dataclass
class Window:
    """The calls of one budget: those on their way (`flying`) and those that
    landed within the window. A call counts from the moment it leaves: over a
    real network many calls are in flight at once, and Telegram counts each
    when it arrives, which may be any moment until its answer comes back."""

    stamps: deque[float] = field(default_factory=deque)  # when each answer came
    flying: int = 0

    def wait(self, budget: Budget, clock: BotClock, *, cosmetic: bool = False) -> float:
        """Seconds (real) until one more call fits; a `cosmetic` one leaves the
        budget's reserve free."""
        width = clock.real(budget.window)
        now = clock.now()
        while self.stamps and now - self.stamps[0] >= width:
            self.stamps.popleft()
        allowed = budget.calls - (budget.reserve if cosmetic else 0)
        over = len(self.stamps) + self.flying - allowed  # to age out first, less one
        if over < 0:
            return 0.0
        if over >= len(self.stamps):
            return LANDING  # the calls on their way fill it: until one lands
        return width - (now - self.stamps[over]) + 0.001


class Windows:
    """The sender's windows: one per chat that sent lately, and the bot's."""

    def __init__(self, clock: BotClock) -> None:
        self.clock = clock
        self.chats: dict[int, Window] = {}
        self.bot = Window()
        self.started: float | None = None  # when it took over from another process

    def take_over(self) -> None:
        """Another process may have sent a moment ago: each budget's first window
        starts with what it may have used (`Budget.inherited`)."""
        self.started = self.clock.now()
        self.chats.clear()
        self.bot = self._fresh(BOT_BUDGET)

    def _fresh(self, budget: Budget) -> Window:
        if self.started is None:
            return Window()
        return Window(deque([self.started] * budget.inherited()))

    def of(self, chat_id: int) -> Window:
        window = self.chats.get(chat_id)
        if window is None:
            window = self.chats[chat_id] = self._fresh(budget_of(chat_id))
        return window

    def room(self, chat_id: int, *, cosmetic: bool = False) -> float:
        """Seconds (real) until the chat's budget takes one more call."""
        return self.of(chat_id).wait(budget_of(chat_id), self.clock, cosmetic=cosmetic)

    def bot_room(self) -> float:
        return self.bot.wait(BOT_BUDGET, self.clock)

    def bot_spend(self) -> None:
        self.bot.flying += 1

    def bot_give_back(self) -> None:
        self.bot.flying = max(0, self.bot.flying - 1)

    def landed(self, window: Window) -> int:
        """A call counted in a chat's `window` came back (answered or not): it counts
        from now on, against the chat's budget and the bot's. The calls the window holds."""
        now = self.clock.now()
        for spent in (window, self.bot):
            spent.flying -= 1
            spent.stamps.append(now)
        return len(window.stamps)

    def forget_idle(self) -> None:
        """Drops the windows of chats that sent nothing for a while."""
        now = self.clock.now()
        for chat_id, window in list(self.chats.items()):
            if window.flying:
                continue
            if not window.stamps or now - window.stamps[-1] > self.clock.real(IDLE):
                del self.chats[chat_id]
