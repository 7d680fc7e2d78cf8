"""The bot's pending updates, served by long polling or pushed to a webhook."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tg_mafia.waiting import wait_set

# Without allowed_updates, Telegram sends every kind except these.
NOT_BY_DEFAULT = frozenset({"chat_member", "message_reaction", "message_reaction_count"})


@dataclass
class _Entry:
    update_id: int
    update: dict[str, Any]


class UpdateQueue:
    def __init__(self) -> None:
        self._entries: list[_Entry] = []
        self._next_id = 1
        self._allowed: frozenset[str] | None = None  # None: Telegram's default set
        self._arrived: asyncio.Event | None = None
        self._polls = 0  # getUpdates requests begun: the newest one is the live one

    # -- producing ---------------------------------------------------------------

    def wants(self, kind: str) -> bool:
        if self._allowed is None:
            return kind not in NOT_BY_DEFAULT
        return kind in self._allowed

    def push(self, kind: str, payload: dict[str, Any]) -> dict[str, Any] | None:
        """Queue an update of `kind`, unless allowed_updates filters it out."""
        if not self.wants(kind):
            return None
        update = {"update_id": self._next_id, kind: payload}
        self._append(self._next_id, update)
        return update

    def push_raw(self, update: dict[str, Any]) -> dict[str, Any]:
        """Queue any dict as it is (malformed ones included), giving it an update_id if it has
        no integer one."""
        given = update.get("update_id")
        if isinstance(given, int) and not isinstance(given, bool) and given >= self._next_id:
            update_id = given
        else:
            update_id = self._next_id
            if "update_id" not in update:
                update = {"update_id": update_id, **update}
        self._append(update_id, update)
        return update

    def _append(self, update_id: int, update: dict[str, Any]) -> None:
        self._entries.append(_Entry(update_id, update))
        self._next_id = update_id + 1
        if self._arrived is not None:
            self._arrived.set()
            self._arrived = None

    # -- consuming ---------------------------------------------------------------

    def set_allowed(self, kinds: Iterable[str] | None) -> None:
        kinds = list(kinds) if kinds is not None else None
        # an empty list means "the default set", as with Telegram
        self._allowed = frozenset(kinds) if kinds else None

    def confirm(self, offset: int) -> None:
        if offset < 0:
            self._entries = self._entries[offset:]
        else:
            self._entries = [e for e in self._entries if e.update_id >= offset]

    def remove(self, update_id: int) -> None:
        """One update delivered (a webhook's deliveries end in any order)."""
        self._entries = [e for e in self._entries if e.update_id != update_id]

    def drop_all(self) -> None:
        self._entries.clear()

    @property
    def pending(self) -> list[dict[str, Any]]:
        return [e.update for e in self._entries]

    def peek(self, limit: int = 100) -> list[dict[str, Any]]:
        return [e.update for e in self._entries[:limit]]

    def begin_poll(self) -> int:
        """A getUpdates request begins: it ends any other still waiting (Telegram answers
        that one 409 Conflict); returns its own number for `superseded`."""
        self._polls += 1
        if self._arrived is not None:
            self._arrived.set()
            self._arrived = None
        return self._polls

    def superseded(self, poll: int) -> bool:
        return poll != self._polls

    async def wait_after(self, update_id: int, real_timeout: float) -> bool:
        """Wait until an update newer than `update_id` is pending or the timeout passes."""
        if self._entries and self._entries[-1].update_id > update_id:
            return True
        if self._arrived is None:
            self._arrived = asyncio.Event()
        await wait_set(self._arrived, real_timeout)
        return bool(self._entries) and self._entries[-1].update_id > update_id

    async def wait(self, real_timeout: float) -> bool:
        """Wait until an update is pending or the timeout passes; True if one is."""
        if self._entries:
            return True
        if real_timeout <= 0:
            return False
        if self._arrived is None:
            self._arrived = asyncio.Event()
        await wait_set(self._arrived, real_timeout)
        return bool(self._entries)
