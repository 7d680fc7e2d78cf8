"""What each kind of outbox call does with the Bot API: one small function
per method, picked from a table by the sender."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from telegram import Bot, ChatPermissions, InputFile, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest

from tg_mafia.bot.drawings import draw
from tg_mafia.bot.ops import Method, Op, markup


@dataclass
class Delivery:
    """What a made call leaves to write down."""

    entries: list[int]
    living: tuple[int, int, str, int | None] | None = None  # game, chat, key, id (None: gone)
    deadline: tuple[int, str, float] | None = None  # game, timer token, when the stage ends
    forget_permissions: int | None = None  # the game whose saved permissions are restored


@dataclass
class Call:
    """One call about to be made: the op, where, and the message it targets."""

    bot: Bot
    op: Op
    chat: int
    game: int | None
    topic: int | None
    text: str  # the op's text, its deadline filled in
    living_id: int | None  # the op's living message, if it has one
    delivery: Delivery = field(default_factory=lambda: Delivery([]))
    sent: int | None = None  # the message a send made

    @property
    def target(self) -> int | None:
        return self.op.message_id or self.living_id

    def living(self, message_id: int | None) -> None:
        if self.op.key is not None and self.game is not None:
            self.delivery.living = (self.game, self.chat, self.op.key, message_id)


async def send(call: Call) -> None:
    message: Message = await call.bot.send_message(
        call.chat,
        call.text,
        parse_mode=ParseMode.HTML,
        reply_markup=markup(call.op.keyboard),
        protect_content=call.op.protect or None,
        disable_web_page_preview=True,
        message_thread_id=call.topic,
    )
    call.sent = message.message_id
    call.living(message.message_id)


async def photo(call: Call) -> None:
    """A picture drawn now, in a worker thread, from the data the op carries;
    its text is the caption."""
    picture = await asyncio.to_thread(draw, call.op.picture or {})
    kind = str((call.op.picture or {}).get("kind", "picture"))
    message: Message = await call.bot.send_photo(
        call.chat,
        InputFile(picture.png, filename=f"{kind}.png"),
        caption=call.text or None,
        parse_mode=ParseMode.HTML,
        reply_markup=markup(call.op.keyboard),
        message_thread_id=call.topic,
    )
    call.sent = message.message_id
    call.living(message.message_id)


async def document(call: Call) -> None:
    """A file made of the op's text content (the protocol's JSON)."""
    made = call.op.file or {}
    message: Message = await call.bot.send_document(
        call.chat,
        InputFile(made.get("content", "").encode(), filename=made.get("name", "file.txt")),
        caption=call.text or None,
        parse_mode=ParseMode.HTML,
        reply_markup=markup(call.op.keyboard),
        message_thread_id=call.topic,
    )
    call.sent = message.message_id
    call.living(message.message_id)


async def edit(call: Call) -> None:
    if call.target is None:
        await send(call)  # never sent, or lost: said anew
        return
    await call.bot.edit_message_text(
        call.text,
        chat_id=call.chat,
        message_id=call.target,
        parse_mode=ParseMode.HTML,
        reply_markup=markup(call.op.keyboard),
        disable_web_page_preview=True,
    )


async def clear(call: Call) -> None:
    """The living message loses its buttons, and stops being living."""
    if call.target is not None:
        call.living(None)
        await call.bot.edit_message_reply_markup(call.chat, call.target, reply_markup=None)


async def delete(call: Call) -> None:
    call.living(None)
    if call.target is not None:
        await call.bot.delete_message(call.chat, call.target)


async def pin(call: Call) -> None:
    if call.target is not None:
        await call.bot.pin_chat_message(call.chat, call.target, disable_notification=True)


async def unpin(call: Call) -> None:
    if call.target is not None:
        await call.bot.unpin_chat_message(call.chat, call.target)


def wanted_permissions(op: Op) -> dict[str, Any]:
    """The permissions a PERMISSIONS op sets, as sent."""
    if op.permissions is None:
        return ChatPermissions.no_permissions().to_dict()
    return (ChatPermissions.de_json(op.permissions) or ChatPermissions()).to_dict()


async def permissions(call: Call) -> None:
    """The masked night: no permission at all, or the group's own again."""
    op = call.op
    wanted = ChatPermissions.de_json(wanted_permissions(op), call.bot) or ChatPermissions()
    try:
        await call.bot.set_chat_permissions(
            call.chat, wanted, use_independent_chat_permissions=True
        )
    except BadRequest as error:
        if "not modified" not in str(error).lower().replace("_", " "):  # CHAT_NOT_MODIFIED
            raise
    if op.final:
        call.delivery.forget_permissions = call.game


async def topic(call: Call) -> None:
    """The masked night in a forum: the game's topic closed, then reopened
    (topic 0: the General topic)."""
    bot, chat, opening = call.bot, call.chat, bool(call.op.extra.get("open"))
    try:
        if call.topic:
            if opening:
                await bot.reopen_forum_topic(chat, call.topic)
            else:
                await bot.close_forum_topic(chat, call.topic)
        elif opening:
            await bot.reopen_general_forum_topic(chat)
        else:
            await bot.close_general_forum_topic(chat)
    except BadRequest as error:
        if "not_modified" not in str(error).lower().replace(" ", "_"):  # TOPIC_NOT_MODIFIED
            raise


CALLS: Mapping[Method, Callable[[Call], Awaitable[None]]] = MappingProxyType(
    {
        Method.SEND: send,
        Method.EDIT: edit,
        Method.CLEAR: clear,
        Method.DELETE: delete,
        Method.PIN: pin,
        Method.UNPIN: unpin,
        Method.PERMISSIONS: permissions,
        Method.TOPIC: topic,
        Method.PHOTO: photo,
        Method.DOCUMENT: document,
    }
)
