"""The record of every call the bot made, for assertions and benchmarks."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tg_mafia.sandbox.limits import CHARGED_METHODS


@dataclass(frozen=True)
class CallRecord:
    method: str
    params: dict[str, Any]
    time: float  # sandbox seconds
    ok: bool
    error_code: int | None
    description: str | None
    chat_id: int | None
    result: Any = None
    unknown_params: tuple[str, ...] = ()
    retry_after: int | None = None
    fault: str | None = None  # set when the answer was injected
    bot_id: int | None = None  # the bot that called (None: a token no bot has)


def most_within(stamps: list[float], window: float) -> int:
    """The most of `stamps` (in order) within any `window` seconds: the sliding-window
    peak that Telegram's rate limits are about."""
    best = start = 0
    for end, stamp in enumerate(stamps):
        while stamps[start] <= stamp - window:
            start += 1
        best = max(best, end - start + 1)
    return best


@dataclass
class CallLog:
    records: list[CallRecord] = field(default_factory=list)

    def add(self, record: CallRecord) -> None:
        self.records.append(record)

    def __iter__(self) -> Iterator[CallRecord]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    def calls(
        self,
        method: str | None = None,
        chat_id: int | None = None,
        ok: bool | None = None,
        bot_id: int | None = None,
    ) -> list[CallRecord]:
        return [
            r
            for r in self.records
            if (method is None or r.method == method)
            and (chat_id is None or r.chat_id == chat_id)
            and (ok is None or r.ok == ok)
            and (bot_id is None or r.bot_id == bot_id)
        ]

    def count_429(self, bot_id: int | None = None) -> int:
        """The 429s answered (to one bot's calls, when named)."""
        return sum(1 for r in self.records if r.error_code == 429 and bot_id in (None, r.bot_id))

    def errors(self) -> list[CallRecord]:
        return [r for r in self.records if not r.ok]

    def unknown_parameters(self) -> set[tuple[str, str]]:
        """(method, parameter) pairs the bot sent that the schema does not know."""
        return {(r.method, name) for r in self.records for name in r.unknown_params}

    def peak_in_window(self, chat_id: int, window: float = 60.0, bot_id: int | None = None) -> int:
        """Most successful charged calls to `chat_id` (by one bot, when named: each bot
        has its own budget in a chat) within any `window` sandbox seconds."""
        stamps = [
            r.time
            for r in self.records
            if r.ok
            and r.chat_id == chat_id
            and r.method in CHARGED_METHODS
            and bot_id in (None, r.bot_id)
        ]
        return most_within(stamps, window)

    def group_peak(self, window: float = 60.0, bot_id: int | None = None) -> dict[int, int]:
        """Per group chat (negative id): the sliding-window peak of charged calls (by
        one bot, when named)."""
        chats = {r.chat_id for r in self.records if r.chat_id is not None and r.chat_id < 0}
        return {chat: self.peak_in_window(chat, window, bot_id) for chat in chats}
