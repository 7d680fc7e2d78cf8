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

from tg_mafia.render.callbacks import Button, decode
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.storage import ButtonsRecord, Database


class Refusal(StrEnum):
    NO_MESSAGE = "no_message"  # an inline message, or none: the bot sends neither
    UNKNOWN_MESSAGE = "unknown_message"  # no buttons of ours recorded on it
    NOT_OFFERED = "not_offered"  # data that is not one of the message's buttons
    OTHER_GAME = "other_game"  # a button naming another game than the message's
    # The same update delivered again (its first handling made the move, then the bot
    # died before Telegram heard back): the message moved on since, and the press counted.
    REPEATED = "repeated"


@dataclass(frozen=True, slots=True)
class Admitted:
    """What the gate vouches for, whoever asked: `button` is one of the buttons the
    message `message_id` of `chat_id` shows, pressed by `user_id`, and `game_id` the
    game that message serves (None: a settings menu)."""

    button: Button
    chat_id: int
    message_id: int
    user_id: int  # signed by Telegram (the press, or the Mini App's initData)
    game_id: int | None


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


async def admit(
    query: CallbackQuery, adb: AsyncDb, update_id: int | None = None
) -> CheckedPress | Refusal:
    """The press checked against the message it is on, or why it is refused."""
    message = query.message
    if message is None or query.data is None:
        return Refusal.NO_MESSAGE
    chat_id, message_id = message.chat.id, message.message_id
    verdict = await admit_data(adb, chat_id, message_id, query.data, query.from_user.id)
    if isinstance(verdict, Refusal):
        if update_id is not None and await adb.run(_made_by_update, update_id):
            return Refusal.REPEATED
        return verdict
    return CheckedPress(
        query, verdict.button, chat_id, message_id, verdict.user_id, verdict.game_id
    )


async def admit_data(
    adb: AsyncDb, chat_id: int, message_id: int, data: str, user_id: int
) -> Admitted | Refusal:
    """`data` pressed by `user_id` on the message `message_id` of `chat_id`, checked
    against the buttons that message shows: a button's press, and a press from the
    Mini App (which names the message and one of its choices), go through here alike."""
    record = await adb.run(_buttons, chat_id, message_id, data)
    return check_data(data, user_id, record, chat_id, message_id)


def check(
    query: CallbackQuery, record: ButtonsRecord | None, chat_id: int, message_id: int
) -> CheckedPress | Refusal:
    verdict = check_data(query.data or "", query.from_user.id, record, chat_id, message_id)
    if isinstance(verdict, Refusal):
        return verdict
    return CheckedPress(
        query, verdict.button, chat_id, message_id, verdict.user_id, verdict.game_id
    )


def check_data(
    data: str, user_id: int, record: ButtonsRecord | None, chat_id: int, message_id: int
) -> Admitted | Refusal:
    if record is None:
        return Refusal.UNKNOWN_MESSAGE
    button = decode(data)
    if button is None or not record.offers(data):
        return Refusal.NOT_OFFERED
    if record.game_id is not None and button.game != record.game_id:
        return Refusal.OTHER_GAME
    game_id = record.game_id if record.game_id is not None else None
    if game_id is None and button.game:
        return Refusal.OTHER_GAME  # a settings menu's buttons name no game
    return Admitted(button, chat_id, message_id, user_id, game_id)


def _buttons(db: Database, chat_id: int, message_id: int, data: str) -> ButtonsRecord | None:
    """The message's record: its own; else, in its chat, a message whose buttons were
    written down before it went out and whose id never came back (a crash between the
    two: the copy people see still takes its presses); else, for a game under way across
    the upgrade to revision 0006 (its messages never written down), the rule before it:
    a button of that game counts in the game's own chats (migration 0006)."""
    named = decode(data)
    legacy = -named.game if named is not None and named.game else None
    with db.transaction() as tx:
        return tx.buttons(chat_id, message_id, data, legacy)


def _made_by_update(db: Database, update_id: int) -> bool:
    with db.transaction() as tx:
        return tx.made_by_update(update_id)
