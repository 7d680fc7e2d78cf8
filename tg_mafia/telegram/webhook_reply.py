"""One Bot API call carried by a webhook's answer.

Telegram carries out a call that the answer to its webhook POST names (its `method`
field), on receipt; the bot never learns its result. A press's popup goes that way
when the press came by webhook: the bot saves a round trip, and the press's delivery
ends sooner, which matters because Telegram sends a chat's next update only once the
one before it has been answered."""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any


@dataclass
class ReplySlot:
    """The answer of the webhook delivery being handled: room for one call, until it
    is written."""

    call: dict[str, Any] | None = None
    closed: bool = False

    def claim(self, method: str, params: dict[str, Any]) -> bool:
        """Takes the call into the answer: False if the answer is written or full."""
        if self.closed or self.call is not None:
            return False
        self.call = {"method": method, **params}
        return True


# The delivery this task is handling (None when polling, or outside an update).
_SLOT: ContextVar[ReplySlot | None] = ContextVar("webhook_reply", default=None)


def open_slot() -> tuple[ReplySlot, Any]:
    """A slot for the update about to be handled in this task, and the token that
    `close_slot` takes."""
    slot = ReplySlot()
    return slot, _SLOT.set(slot)


def close_slot(slot: ReplySlot, token: Any) -> None:
    slot.closed = True  # a handler still running elsewhere calls the API itself
    _SLOT.reset(token)


def claim(method: str, params: dict[str, Any]) -> bool:
    """Puts the call in the answer of the delivery being handled, if there is one
    with room: True if it went there (and must not be made as well)."""
    slot = _SLOT.get()
    return slot is not None and slot.claim(method, params)
