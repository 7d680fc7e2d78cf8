"""Presses on a game's buttons, one handler per kind of button (`PRESSES`, registered
with one CallbackQueryHandler per kind in handlers/__init__.py). Every one is reached
only through the press gate (common.through_gate): the button is one the pressed message
shows, and the game is the one that message serves. The settings menu's presses are
settings.py's."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from tg_mafia.i18n import translator
from tg_mafia.records import GameRecord
from tg_mafia.render import texts
from tg_mafia.render.callbacks import Kind
from tg_mafia.render.presses import is_toggle
from tg_mafia.render.texts import Answer
from tg_mafia.render.texts.rules import rules, safe_options
from tg_mafia.runtime import archive
from tg_mafia.runtime.gate import CheckedPress
from tg_mafia.runtime.lobby import OtherBot
from tg_mafia.runtime.service import MOVE_KINDS
from tg_mafia.telegram.context import Context
from tg_mafia.telegram.handlers.common import (
    PressHandler,
    answer_query,
    display_name,
    is_member_admin,
    service_of,
    user_translator,
)
from tg_mafia.telegram.handlers.lobby import restarting
from tg_mafia.utf16 import utf16_len

POPUP_LIMIT = 200  # characters Telegram shows in a press's popup


async def on_move(press: CheckedPress, context: Context) -> None:
    """A button whose press is a move of the game: checked and made on one read of the
    game, in one database call (GameService.press_move)."""
    if press.game_id is None:
        await _stale(press)
        return
    service = service_of(context)
    await answer_query(
        press.query, await service.press_move(press.game_id, press.button, press.user_id)
    )


async def on_best(press: CheckedPress, context: Context) -> None:
    """Sport's best-move menu: a name toggled redraws the menu; Done is the move."""
    if is_toggle(press.button):
        await on_game_screen(press, context)
    else:
        await on_move(press, context)


async def on_game_screen(press: CheckedPress, context: Context) -> None:
    """A button that shows something of the running game (the time left, the nomination
    list, the host's warning menu, the best-move menu redrawn) rather than makes a move."""
    record = await _game(press, context)
    if record is not None:
        answer = await service_of(context).press(record, press.user_id, press.button)
        await answer_query(press.query, answer)


async def on_lobby(press: CheckedPress, context: Context) -> None:
    """The lobby's buttons: leave, start, cancel (lobbies.press) and its rules."""
    record = await _game(press, context)
    if record is None:
        return
    service, button, user_id = service_of(context), press.button, press.user_id
    t = translator(record.language)
    answer: str | None
    if button.args == ("start",) and service.draining.active:
        answer = restarting(t)
    elif button.args == ("rules",):
        answer = await _rules_in_private(context, record, user_id)
    elif len(button.args) == 1:
        answer = await _lobby_press(context, press, record)
    else:
        answer = await service.press(record, user_id, button)
    if answer is not None:
        await answer_query(press.query, answer)


async def _lobby_press(context: Context, press: CheckedPress, record: GameRecord) -> str | None:
    """Leave, Start or Cancel on the lobby: its popup, or None when answered already.
    Whether the presser administers the group is asked of Telegram only when it decides
    (Start and Cancel by another than the lobby's opener). A start is answered as soon
    as it is decided, before the deal (which asks Telegram for the group's permissions,
    and writes the whole table): the popup by a call of its own, the webhook's delivery
    kept open until the deal is written, so that a crash meanwhile leaves the press to
    be delivered again."""
    verb, user_id, answered = press.button.args[0], press.user_id, False
    asks = verb != "leave" and user_id != record.opened_by
    admin = asks and await is_member_admin(context, record.chat_id, user_id)

    async def first(popup: str) -> None:
        nonlocal answered
        answered = True
        await answer_query(press.query, popup, at_once=True)

    popup = await service_of(context).lobbies.press(record.id, user_id, verb, admin, first)
    return None if answered else popup


async def on_new_game(press: CheckedPress, context: Context) -> None:
    """The end screen's New game: a lobby, as /newgame would open it, by a member."""
    record = await _game(press, context)
    if record is None:
        return
    service, query, user_id = service_of(context), press.query, press.user_id
    t = translator(record.language)
    if service.draining.active:
        await answer_query(query, restarting(t))
        return
    if not await service.members.is_member(record.chat_id, user_id):
        await answer_query(query, texts.popup(t, Answer.MEMBERS_ONLY))
        return
    chat = query.message.chat if query.message else None
    error = await service.lobbies.open(
        record.chat_id,
        record.topic,
        (chat.title if chat else None) or record.title,
        user_id,
        display_name(query.from_user),
        forum=bool(chat and chat.is_forum),
    )
    if isinstance(error, OtherBot):  # another bot of ours opened the chat's game first
        error = t.gettext("A game is already open in this chat.")
    if error and utf16_len(error) > POPUP_LIMIT:  # the queue's for a table: too long
        await service.answer(record.chat_id, error, record.topic)
        error = texts.popup(t, Answer.SEE_GROUP)
    await answer_query(query, error or texts.popup(t, Answer.OK))


async def on_protocol(press: CheckedPress, context: Context) -> None:
    """The end screen's Protocol: the game's protocol in the presser's private chat (the
    group is spared a copy per press), for its players, its host and the group's members."""
    record = await _game(press, context)
    if record is None:
        return
    t = translator(record.language)
    if not await _may_read(context, record, press.user_id):
        await answer_query(press.query, texts.popup(t, Answer.MEMBERS_ONLY))
        return
    await answer_query(press.query, await _protocol_in_private(context, record, press.user_id))


async def on_unmatched(press: CheckedPress, context: Context) -> None:
    """A press no kind above takes: the gate lets through only the buttons the bot
    made, and each kind has its handler, so this answers what cannot happen."""
    await _stale(press)


PRESSES: Mapping[Kind, PressHandler] = MappingProxyType(
    {
        # The best move's names redraw its menu (on_best); every other move kind moves.
        **dict.fromkeys(MOVE_KINDS - {Kind.BEST}, on_move),
        Kind.BEST: on_best,
        **dict.fromkeys((Kind.NOMINATE_MENU, Kind.TIME, Kind.HOST_WARN_MENU), on_game_screen),
        Kind.LOBBY: on_lobby,
        Kind.NEW_GAME: on_new_game,
        Kind.PROTOCOL: on_protocol,
    }
)


async def _stale(press: CheckedPress) -> None:
    await answer_query(
        press.query, texts.popup(user_translator(press.query.from_user), Answer.STALE)
    )


async def _game(press: CheckedPress, context: Context) -> GameRecord | None:
    """The game the pressed message serves; None (the press answered as stale) when the
    message serves none or the game is gone."""
    record = None
    if press.game_id is not None:
        record = await service_of(context).queries.game(press.game_id)
    if record is None:
        await _stale(press)
    return record


async def _may_read(context: Context, record: GameRecord, user_id: int) -> bool:
    """A game's protocol is for its players, its host and the members of its group."""
    if record.seat_of(user_id) is not None or record.host_user_id == user_id:
        return True
    return await service_of(context).members.is_member(record.chat_id, user_id)


async def _rules_in_private(context: Context, record: GameRecord, user_id: int) -> str:
    """The lobby's Rules button: the game's rules in the presser's private chat."""
    t = translator(record.language)
    service = service_of(context)
    if not await service.can_write_to(user_id):
        return texts.popup(t, Answer.START_ME)
    options = safe_options(record.variant, dict(record.options))
    await service.answer(user_id, rules(t, record.variant, options))
    return texts.popup(t, Answer.SEE_PRIVATE)


async def _protocol_in_private(context: Context, record: GameRecord, user_id: int) -> str:
    t = translator(record.language)
    service = service_of(context)
    if not await service.can_write_to(user_id):
        return texts.popup(t, Answer.START_ME)
    refused = await service.adb.run(
        archive.protocol_of_game, record.id, user_id, service.clock.now()
    )
    if refused:
        return refused
    service.sender.wake()
    return texts.popup(t, Answer.SEE_PRIVATE)
