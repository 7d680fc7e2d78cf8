"""Commands from one user, a few a minute: beyond that, a flood, ignored for
a while. Answers cost the bot's budgets (and a group's, when they go there):
one user must not be able to spend them."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

COMMANDS = 8  # a user's commands answered within WINDOW seconds
WINDOW = 60.0
MUTE = 300.0  # a user who sends more is ignored this long
TRACKED = 10_000  # users remembered at most (the oldest are forgotten first)


@dataclass
class CommandGate:
    """Per user: the times of their latest commands, and until when they are
    ignored. Held by the application (one per process), never persisted: a
    restart forgives everyone, which costs at most one more burst each."""

    commands: int = COMMANDS
    window: float = WINDOW
    mute: float = MUTE
    _recent: dict[int, deque[float]] = field(default_factory=dict)
    _muted: dict[int, float] = field(default_factory=dict)

    def allow(self, user_id: int, now: float) -> bool:
        """Whether to answer this user's command now (and count it)."""
        until = self._muted.get(user_id)
        if until is not None:
            if now < until:
                return False
            del self._muted[user_id]
        recent = self._recent.pop(user_id, None) or deque()
        while recent and recent[0] <= now - self.window:
            recent.popleft()
        if len(recent) >= self.commands:
            self._muted[user_id] = now + self.mute
            return False
        recent.append(now)
        self._recent[user_id] = recent  # re-inserted: the dict keeps the latest users last
        self._forget_oldest()
        return True

    def muted(self, user_id: int, now: float) -> bool:
        return self._muted.get(user_id, 0.0) > now

    def _forget_oldest(self) -> None:
        while len(self._recent) > TRACKED:
            del self._recent[next(iter(self._recent))]
        while len(self._muted) > TRACKED:
            del self._muted[next(iter(self._muted))]
