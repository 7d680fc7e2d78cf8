"""What the bot last put in front of a chat: each message's text and buttons, the
group's permissions. A call that would change none of it is not made: Telegram refuses
it ("message is not modified", CHAT_NOT_MODIFIED) and a group's refused call spends its
budget all the same. (A forum topic's opening and closing are always made: an admin
may close or reopen it behind the bot's back, Telegram tells the bot only of the
admin's acts, and those calls are outside the group's budget.)

Kept in memory by the sender, for the calls it made itself: after a restart nothing is
known, and the first such call is made (its refusal is harmless). It knows only what
the bot did; what an admin changes by hand is not seen here, so a call is skipped only
when the bot's own last call already asked for exactly that.

A call whose answer never came (timed out, a 5xx) may still be carried out later, after
the bot's next call to the same message or chat: what it touches is never known again.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, assert_never

from tg_mafia.render.calls import (
    DEADLINE,
    RELATIVE_DEADLINE,
    Clear,
    Delete,
    Document,
    Edit,
    Keyboard,
    Op,
    Permissions,
    Photo,
    Pin,
    Restrict,
    Send,
    Topic,
    Unpin,
    key_of,
    keyboard_of,
    message_id_of,
)
from tg_mafia.runtime.outbox.methods import Call, Delivery, wanted_permissions

# Messages remembered at most (the oldest forgotten first): ~100 bytes each.
LIMIT = 50_000
# A message's look: its text (None when not known) and its buttons (None: none).
Look = tuple[str | None, Keyboard | None]
Living = tuple[int | None, int, str]  # game, chat, key


class Shown:
    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self._messages: OrderedDict[tuple[int, int], Look] = OrderedDict()
        self._living: OrderedDict[Living, int] = OrderedDict()
        self._permissions: dict[int, dict[str, Any]] = {}
        # (chat, message) or (chat, None) for the permissions: a call to it whose answer
        # never came may land after any later one, so what it shows is not known
        self._doubted: OrderedDict[tuple[int, int | None], None] = OrderedDict()

    # ----- before a call --------------------------------------------------------------

    def unchanged(self, op: Op, chat: int, game: int | None, topic: int) -> Delivery | None:
        """What to write down instead of making `op`'s call, when it would change
        nothing the bot knows it showed; None when the call is to be made."""
        match op:
            case Permissions():
                if self._permissions.get(chat) != wanted_permissions(op):
                    return None
                return Delivery([], forget_permissions=game if op.final else None)
            case Edit() if op.timer is None:  # one that starts a stage's timer must go out
                return self._same_text(op, self._look(op, chat, game))
            case Clear():
                return self._no_buttons(op, chat, game, self._look(op, chat, game))
            case Send() | Edit() | Delete() | Pin() | Unpin() | Topic() | Restrict():
                return None
            case Photo() | Document():
                return None
            case _:
                assert_never(op)

    def _look(self, op: Op, chat: int, game: int | None) -> Look | None:
        target = self._target(op, chat, game)
        return self._messages.get((chat, target)) if target is not None else None

    def _same_text(self, op: Edit, look: Look | None) -> Delivery | None:
        """An edit of a message that shows already what it would."""
        if look is None or DEADLINE in op.text or RELATIVE_DEADLINE in op.text:
            return None  # not known, or filled in as it goes
        return Delivery([]) if look == (op.text, op.keyboard or None) else None

    def _no_buttons(
        self, op: Clear, chat: int, game: int | None, look: Look | None
    ) -> Delivery | None:
        """A clear of a message that shows no buttons: it only stops being living."""
        if look is None or look[1] is not None:
            return None
        return Delivery([], living=(game, chat, op.key, None) if game is not None else None)

    def offers(self, chat: int, message_id: int, data: tuple[str, ...]) -> bool:
        """Whether the message showed every one of these buttons after the bot's last
        call to it (an edit that adds none needs no record written ahead)."""
        look = self._messages.get((chat, message_id))
        if look is None or look[1] is None:
            return False
        shown = {button.get("data") for row in look[1] for button in row}
        return set(data) <= shown

    # ----- after a call ----------------------------------------------------------------

    def record(self, call: Call) -> None:
        """What a call Telegram took now shows."""
        op, chat = call.op, call.chat
        shown = call.sent if call.sent is not None else call.target
        if isinstance(op, Permissions):
            if (chat, None) not in self._doubted:
                self._permissions[chat] = wanted_permissions(op)
        elif shown is None or (chat, shown) in self._doubted:
            return
        elif call.sent is not None or isinstance(op, Edit):  # an edit of none is a send
            self._remember(self._messages, (chat, shown), (call.text, keyboard_of(op) or None))
        elif isinstance(op, Clear):
            text = self._messages.get((chat, shown), (None, None))[0]
            self._remember(self._messages, (chat, shown), (text, None))
        elif isinstance(op, Delete):
            self._messages.pop((chat, shown), None)

    def doubt(self, call: Call) -> None:
        """A call whose answer never came: what it touches is not known from now on."""
        if isinstance(call.op, Permissions):
            self._permissions.pop(call.chat, None)
            self._remember(self._doubted, (call.chat, None), None)
        elif call.target is not None:
            self._messages.pop((call.chat, call.target), None)
            self._remember(self._doubted, (call.chat, call.target), None)

    def settled(self, delivery: Delivery) -> None:
        """Which message is now living under a key (a call made or refused)."""
        if delivery.living is None:
            return
        game, chat, key, message_id = delivery.living
        if message_id is None:
            self._living.pop((game, chat, key), None)
        else:
            self._remember(self._living, (game, chat, key), message_id)

    def forget_chat(self, chat: int) -> None:
        """A chat that moved (a group became a supergroup): nothing of it holds."""
        for key in [k for k in self._messages if k[0] == chat]:
            del self._messages[key]
        for living in [k for k in self._living if k[1] == chat]:
            del self._living[living]
        self._permissions.pop(chat, None)
        for doubted in [k for k in self._doubted if k[0] == chat]:
            del self._doubted[doubted]

    # ----- helpers -----------------------------------------------------------------------

    def _target(self, op: Op, chat: int, game: int | None) -> int | None:
        message_id, key = message_id_of(op), key_of(op)
        if message_id is not None:
            return message_id
        if key is None:
            return None
        return self._living.get((game, chat, key))

    def _remember(self, table: OrderedDict[Any, Any], key: Any, value: Any) -> None:
        table[key] = value
        table.move_to_end(key)
        while len(table) > self.limit:
            table.popitem(last=False)
