"""The sender's budgets: how many calls a group, a private chat and the bot as a whole
may take in a window of the bot's clock (within Telegram's own limits), and the window
that counts the calls of one budget, those on their way included."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from tg_mafia.runtime.clock import BotClock

LANDING = 0.01  # real seconds between looks at a budget full of calls in flight


@dataclass(frozen=True)
class Budget:
    calls: int
    window: float  # seconds of the bot's clock
    limit: int  # Telegram's, over the same window

    def inherited(self) -> int:
        """The calls a sender taking over from another process counts as made at its
        start: the other may have spent a whole budget just before, and the two
        together must stay within Telegram's limit."""
        return max(0, 2 * self.calls - self.limit)


GROUP_BUDGET = Budget(15, 60.0, 20)
PRIVATE_BUDGET = Budget(1, 1.05, 1)
BOT_BUDGET = Budget(30, 1.0, 30)


@dataclass
class Window:
    """The calls of one budget: those on their way (`flying`) and those that
    landed within the window. A call counts from the moment it leaves: over a
    real network many calls are in flight at once, and Telegram counts each
    when it arrives, which may be any moment until its answer comes back."""

    stamps: deque[float] = field(default_factory=deque)  # when each answer came
    flying: int = 0

    def wait(self, budget: Budget, clock: BotClock) -> float:
        """Seconds (real) until one more call fits."""
        width = clock.real(budget.window)
        now = clock.now()
        while self.stamps and now - self.stamps[0] >= width:
            self.stamps.popleft()
        if len(self.stamps) + self.flying < budget.calls:
            return 0.0
        if not self.stamps:
            return LANDING  # every slot is a call on its way: until one lands
        return width - (now - self.stamps[0]) + 0.001
