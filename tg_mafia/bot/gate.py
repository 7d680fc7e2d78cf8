"""The one way a press reaches a handler. Telegram vouches for the message a
button is on (its chat and id) and for the user who pressed, not for the
callback data: a modified client can send any data on any message of the bot.
So a press counts only on a message the bot recorded as carrying buttons (the
sender writes each one down, calls.ShownButtons) and only with the data of one of
the buttons that message shows now; the game it acts on is the one that
message serves, never one the data names. Everything else is refused the same
way: one short popup, nothing changed, nothing sent, counted."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from telegram import CallbackQuery

from tg_mafia.bot.callbacks import Button, decode
from tg_mafia.bot.dbthread import AsyncDb
from tg_mafia.bot.sender import Sender
from tg_mafia.storage import ButtonsRecord, Database


class Refusal(StrEnum):
    NO_MESSAGE = "no_message"  # an inline message, or none: the bot sends neither
    UNKNOWN_MESSAGE = "unknown_message"  # no buttons of ours recorded on it
    NOT_OFFERED = "not_offered"  # data that is not one of the message's buttons
    OTHER_GAME = "other_game"  # a button naming another game than the message's


@dataclass(frozen=True, slots=True)
class CheckedPress:
    """A press the gate let through: `button` is one of the buttons the message
    shows, and `game_id` the game the message serves (None: a settings menu)."""

    query: CallbackQuery
    button: Button
    chat_id: int  # the chat of the message pressed
    message_id: int
    user_id: int  # who pressed (signed by Telegram)
    game_id: int | None

    @property
    def private(self) -> bool:
        """The message is in the presser's own private chat with the bot."""
        return self.chat_id == self.user_id


async def admit(query: CallbackQuery, adb: AsyncDb, sender: Sender) -> CheckedPress | Refusal:
    """The press checked against the message it is on, or why it is refused."""
    message = query.message
    if message is None or query.data is None:
        return Refusal.NO_MESSAGE
    chat_id, message_id = message.chat.id, message.message_id
    record = await adb.run(_buttons, chat_id, message_id)
    if record is None:
        # The message may be this moment's: its call is answered, not yet written down.
        await sender.landed(chat_id)
        record = await adb.run(_buttons, chat_id, message_id)
    named = decode(query.data)
    if record is None and named is not None and named.game:
        # A game under way across the upgrade to revision 0006 (its messages were never
        # written down): a button of that game counts in its own chats (migration 0006).
        record = await adb.run(_buttons, chat_id, -named.game)
    return check(query, record, chat_id, message_id)


def check(
    query: CallbackQuery, record: ButtonsRecord | None, chat_id: int, message_id: int
) -> CheckedPress | Refusal:
    if record is None:
        return Refusal.UNKNOWN_MESSAGE
    data = query.data or ""
    button = decode(data)
    if button is None or not record.offers(data):
        return Refusal.NOT_OFFERED
    if record.game_id is not None and button.game != record.game_id:
        return Refusal.OTHER_GAME
    game_id = record.game_id if record.game_id is not None else None
    if game_id is None and button.game:
        return Refusal.OTHER_GAME  # a settings menu's buttons name no game
    return CheckedPress(query, button, chat_id, message_id, query.from_user.id, game_id)


def _buttons(db: Database, chat_id: int, message_id: int) -> ButtonsRecord | None:
    with db.transaction() as tx:
        return tx.buttons(chat_id, message_id)
