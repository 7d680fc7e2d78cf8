"""Telegram's flood limits, on the sandbox clock.

A 429 names the seconds until the window frees (`retry_after`, whole, at least 1).
Only calls that succeed are charged, as a refused call sends nothing.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

from tg_mafia.sandbox.errors import ApiError, too_many_requests

# Methods that write into a chat and so spend its budget. deleteMessage, restrict,
# permissions and answerCallbackQuery are not charged (Telegram does not document them
# as limited, and the bot must be able to clean up while it is throttled).
CHARGED_METHODS = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "sendDocument",
        "editMessageText",
        "editMessageCaption",
        "editMessageReplyMarkup",
        "pinChatMessage",
        "unpinChatMessage",
    }
)


@dataclass(frozen=True)
class Limits:
    group_messages: int = 20  # per group, per sliding window
    group_window: float = 60.0
    private_rate: float = 1.0  # messages a second per private chat...
    private_burst: int = 3  # ...with a short burst tolerated
    global_messages: int = 30  # per bot, per sliding window
    global_window: float = 1.0
    callback_answer_timeout: float = 15.0
    # The longest wait before a failed webhook delivery is tried again (Telegram's own
    # grows with each failure; a test behind a balancer that skips a dead replica, as a
    # health-checking proxy does, may cap it).
    webhook_retry_cap: float = 60.0
    enabled: bool = True  # the flood limits above; the upload sizes below always apply
    photo_bytes: int = 10 * 1024 * 1024  # sendPhoto
    document_bytes: int = 50 * 1024 * 1024  # sendDocument (the Bot API's upload limit)


def _retry(seconds: float) -> int:
    return max(1, math.ceil(seconds - 1e-9))


@dataclass
class _Bucket:
    tokens: float
    stamp: float


@dataclass
class RateLimiter:
    limits: Limits
    _groups: dict[int, deque[float]] = field(default_factory=dict)
    _private: dict[int, _Bucket] = field(default_factory=dict)
    _global: deque[float] = field(default_factory=deque)

    def check(self, chat_id: int, is_group: bool, now: float) -> None:
        """Raise the 429 Telegram would answer if one more message went to this chat now."""
        if not self.limits.enabled:
            return
        lim = self.limits
        window = self._window(self._global, now, lim.global_window)
        if len(window) >= lim.global_messages:
            raise too_many_requests(_retry(window[0] + lim.global_window - now))
        if is_group:
            group = self._window(self._groups.setdefault(chat_id, deque()), now, lim.group_window)
            if len(group) >= lim.group_messages:
                raise too_many_requests(_retry(group[0] + lim.group_window - now))
        else:
            bucket = self._bucket(chat_id, now)
            if bucket.tokens < 1.0:
                raise too_many_requests(_retry((1.0 - bucket.tokens) / lim.private_rate))

    def charge(self, chat_id: int, is_group: bool, now: float) -> None:
        if not self.limits.enabled:
            return
        self._global.append(now)
        if is_group:
            self._groups.setdefault(chat_id, deque()).append(now)
        else:
            self._bucket(chat_id, now).tokens -= 1.0

    def check_and_charge(self, chat_id: int, is_group: bool, now: float) -> None:
        self.check(chat_id, is_group, now)
        self.charge(chat_id, is_group, now)

    @staticmethod
    def _window(stamps: deque[float], now: float, width: float) -> deque[float]:
        while stamps and stamps[0] <= now - width:
            stamps.popleft()
        return stamps

    def _bucket(self, chat_id: int, now: float) -> _Bucket:
        lim = self.limits
        bucket = self._private.get(chat_id)
        if bucket is None:
            bucket = self._private[chat_id] = _Bucket(float(lim.private_burst), now)
        bucket.tokens = min(
            float(lim.private_burst), bucket.tokens + (now - bucket.stamp) * lim.private_rate
        )
        bucket.stamp = now
        return bucket


__all__ = ["CHARGED_METHODS", "ApiError", "Limits", "RateLimiter"]
