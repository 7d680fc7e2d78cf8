"""What every handler shares: the service, who the sender is, in which chat
and topic, whether they administer it, and how to answer."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import Chat, Message, Update, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError

from tg_mafia.i18n import Translator, resolve_language, translator
from tg_mafia.records import GameStatus
from tg_mafia.render import texts
from tg_mafia.render.calls import Op
from tg_mafia.render.texts import Answer
from tg_mafia.render.texts.names import clean_name
from tg_mafia.runtime.gate import CheckedPress, Refusal, admit
from tg_mafia.runtime.service import GameService
from tg_mafia.telegram import webhook_reply
from tg_mafia.telegram.context import Context
from tg_mafia.telegram.limiter import InputLimiter

log = logging.getLogger(__name__)

ADMIN_STATUSES = (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


def service_of(context: Context) -> GameService:
    return context.bot_data.running


def display_name(user: User) -> str:
    """The name the table shows; "" when nothing of it shows (spaces only,
    say), which the table calls by its seat ("Player 5": render/texts/names.py)."""
    return clean_name(user.full_name)


def topic_of(message: Message | None) -> int:
    """The forum topic a message was posted in (0: not a forum topic)."""
    if message is None or not message.is_topic_message:
        return 0
    return message.message_thread_id or 0


def user_translator(user: User | None) -> Translator:
    return translator(resolve_language(user.language_code if user else None))


async def group_translator(context: Context, chat_id: int) -> Translator:
    settings = await service_of(context).queries.settings(chat_id)
    return translator(settings.language)


async def is_admin(context: Context, chat: Chat, update: Update) -> bool:
    """An administrator of `chat`: by their membership, or an anonymous
    administrator (who posts as the group itself)."""
    message = update.effective_message
    if message is not None and message.sender_chat is not None:
        return message.sender_chat.id == chat.id
    user = update.effective_user
    if user is None:
        return False
    return await is_member_admin(context, chat.id, user.id)


async def is_member_admin(context: Context, chat_id: int, user_id: int) -> bool:
    try:
        member = await context.bot.get_chat_member(chat_id, user_id)
    except TelegramError:
        return False
    return member.status in ADMIN_STATUSES


Handler = Callable[[Update, "Context"], Coroutine[Any, Any, None]]
PressHandler = Callable[[CheckedPress, "Context"], Coroutine[Any, Any, None]]


def addressed_to_me(message: Message | None, username: str | None) -> bool:
    """Whether the message's command names this bot (`/cmd@thisbot`)."""
    if message is None or not message.text or not username:
        return False
    command = message.text.split(maxsplit=1)[0]
    return command.lower().endswith("@" + username.lower())


async def left_to_another_bot(context: Context, update: Update) -> bool:
    """Whether the chat's game is another bot's of ours (several tokens, one game a
    chat): this bot leaves it alone and says nothing of it, unless the command named
    it (`/cmd@thisbot`): then it says once which bot runs the game."""
    chat = update.effective_chat
    if chat is None or chat.type == ChatType.PRIVATE:
        return False
    service = service_of(context)
    other = await service.queries.other_bots_game(chat.id, topic_of(update.effective_message))
    if other is None:
        return False
    await tell_other_bot(context, update, other)
    return True


async def tell_other_bot(context: Context, update: Update, bot_id: int | None) -> None:
    """Asked by name in a chat whose game another bot runs: which bot (said once, only
    to a command that named this one)."""
    chat = update.effective_chat
    if chat is None or not addressed_to_me(update.effective_message, context.bot.username):
        return
    t = await group_translator(context, chat.id)
    username = context.bot_data.bots.get(bot_id) if bot_id is not None else None
    if username:
        text = t.gettext("A game is already open in this chat, with @{bot}.").format(bot=username)
    else:
        text = t.gettext("A game is already open in this chat.")
    await reply(context, update, text)


def limiter_of(context: Context) -> InputLimiter:
    return context.bot_data.input_limiter


def too_fast(t: Translator, seconds: int) -> str:
    return t.ngettext(
        "Too fast: try again in {n} second.", "Too fast: try again in {n} seconds.", seconds
    ).format(n=seconds)


def gated(handler: Handler) -> Handler:
    """A command, answered while its sender keeps within the one limit that
    commands and presses share (limiter.py); past it, they are told when to
    try again. A deep link into a lobby (/start join_…) is never limited: a
    player must not lose their seat to the commands they sent before."""

    @functools.wraps(handler)
    async def answer_within_limit(update: Update, context: Context) -> None:
        if await answered_by_another_bot(context, update):
            return
        user = update.effective_user
        if user is not None and not _joining(context):
            limited = await limiter_of(context).take(user.id)
            if limited is not None:
                context.bot_data.metrics.limited_inputs.labels("command").inc()
                log.info("a command of user %s limited for %s s", user.id, limited.wait)
                if limited.first:  # said once a spell: telling costs what the limit spares
                    await reply(context, update, too_fast(user_translator(user), limited.wait))
                return
        await handler(update, context)

    return answer_within_limit


async def answered_by_another_bot(context: Context, update: Update) -> bool:
    """A group with several bots of this process (several tokens): a command that names
    no bot reaches each of them, and one answers: the bot that runs the chat's game, or,
    with none, the first of them (the lowest id) administering the group. A command that
    names a bot is that bot's."""
    chat, message = update.effective_chat, update.effective_message
    ours = context.bot_data.bots
    if chat is None or chat.type == ChatType.PRIVATE or len(ours) < 2:
        return False
    if message is None or not message.text or "@" in message.text.split(maxsplit=1)[0]:
        return False
    service = service_of(context)
    if await service.queries.other_bots_game(chat.id, topic_of(message)) is not None:
        return True
    if await service.queries.active_game(chat.id, topic_of(message)) is not None:
        return False  # this bot runs the chat's game
    me = context.bot.id
    for other in sorted(ours):
        if other == me:
            return False
        # An administrator reads every message: it got this one too (a plain member
        # with privacy mode on may not have, so this bot answers rather than nobody).
        if await is_member_admin(context, chat.id, other):
            return True
    return False


def _joining(context: Context) -> bool:
    return bool(context.args and context.args[0].startswith("join_"))


def through_gate(handler: PressHandler) -> Handler:
    """Every press goes through here: it reaches `handler` only as a press the
    gate checked against the message it is on (gate.py) and within the user's
    limit; anything else gets the same short popup and changes nothing."""

    @functools.wraps(handler)
    async def checked(update: Update, context: Context) -> None:
        query = update.callback_query
        if query is None:
            return
        service = service_of(context)
        t = user_translator(query.from_user)
        limited = await limiter_of(context).take(query.from_user.id)
        if limited is not None:  # a popup costs no budget: every press is told
            context.bot_data.metrics.limited_inputs.labels("press").inc()
            await answer_query(query, too_fast(t, limited.wait))
            return
        verdict = await admit(query, service.adb, update.update_id)
        if isinstance(verdict, Refusal):
            context.bot_data.metrics.refused_presses.labels(verdict.value).inc()
            log.info("press of user %s refused: %s", query.from_user.id, verdict.value)
            repeated = verdict is Refusal.REPEATED  # it counted: no "out of date" for it
            await answer_query(query, None if repeated else texts.popup(t, Answer.STALE))
            return
        await handler(verdict, context)

    return checked


async def answer_place(context: Context, update: Update) -> tuple[int, int] | None:
    """Where an answer to this update goes: the chat (and topic) it came from;
    but while a game runs in that group, the asker's private chat, for the
    group's budget is the game's (None: nobody to answer in private)."""
    chat = update.effective_chat
    if chat is None:
        return None
    topic = topic_of(update.effective_message)
    if chat.type == ChatType.PRIVATE:
        return chat.id, topic
    game = await service_of(context).queries.active_game(chat.id, topic)
    if game is None or game.status is not GameStatus.RUNNING:
        return chat.id, topic
    message = update.effective_message
    if update.effective_user is None or (message is not None and message.sender_chat):
        return None  # an anonymous administrator or a channel: no private chat to use
    return update.effective_user.id, 0


async def reply(context: Context, update: Update, text: str) -> None:
    """An answer (see answer_place) through that chat's outbox: its messages
    keep their order and its rate limit."""
    place = await answer_place(context, update)
    if place is not None:
        await service_of(context).answer(place[0], text, place[1])


async def send(context: Context, update: Update, op: Op) -> None:
    """A call (a picture, say) to where the answers go, behind them."""
    place = await answer_place(context, update)
    if place is None:
        return
    chat_id, topic = place
    await service_of(context).show_plain(chat_id, op, topic)


async def answer_query(query: Any, text: str | None, *, at_once: bool = False) -> None:
    """A popup for a press (free of any rate limit): never raises. A press that came
    by webhook is answered in the webhook's answer (webhook_reply.py), unless `at_once`:
    its handling goes on after the popup, and the webhook's answer waits for its end."""
    params: dict[str, Any] = {"callback_query_id": query.id}
    if text:
        params["text"] = text
    if not at_once and webhook_reply.claim("answerCallbackQuery", params):
        return
    try:
        await query.answer(text or None)
    except TelegramError as error:
        log.info("callback answer failed: %s", error)
