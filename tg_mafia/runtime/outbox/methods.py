"""What each kind of outbox call does with the Bot API: one small function
per kind (calls.py), picked by `make`."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, assert_never

from telegram import (
    Bot,
    ChatMemberRestricted,
    ChatPermissions,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    Message,
    WebAppInfo,
)
from telegram.constants import ChatMemberStatus, ParseMode
from telegram.error import BadRequest

from tg_mafia.render.calls import (
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
from tg_mafia.render.drawings import draw


def markup(keyboard: Keyboard | None) -> InlineKeyboardMarkup | None:
    """A stored keyboard as the Bot API takes it."""
    if not keyboard:
        return None
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(b["text"], url=b["url"])
                if "url" in b
                else InlineKeyboardButton(b["text"], web_app=WebAppInfo(b["web_app"]))
                if "web_app" in b
                else InlineKeyboardButton(b["text"], callback_data=b["data"])
                for b in row
            ]
            for row in keyboard
            if row
        ]
    )


@dataclass(frozen=True)
class ShownButtons:
    """The buttons a message shows after a call, for the press gate (gate.py):
    `choices` None when the message is gone."""

    chat: int
    message_id: int
    game: int | None
    choices: tuple[str, ...] | None
    entry: int | None = None  # the outbox call that sent it, whose record it takes over


def choices(keyboard: Keyboard | None) -> tuple[str, ...]:
    """The callback data of a keyboard's buttons (its links take no press)."""
    return tuple(b["data"] for row in keyboard or () for b in row if "data" in b)


@dataclass
class Delivery:
    """What a made call leaves to write down."""

    entries: list[int]
    living: tuple[int, int, str, int | None] | None = None  # game, chat, key, id (None: gone)
    buttons: ShownButtons | None = None  # the buttons of the message the call made or changed
    ahead: bool = False  # its buttons were written down before the call (sender.py)
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
    now: float = 0.0  # the bot's clock when the call is made
    sent: int | None = None  # the message a send made

    @property
    def target(self) -> int | None:
        return message_id_of(self.op) or self.living_id

    def living(self, message_id: int | None) -> None:
        key = key_of(self.op)
        if key is not None and self.game is not None:
            self.delivery.living = (self.game, self.chat, key, message_id)

    def made(self, message_id: int) -> None:
        """A message sent: living if it has a key; its buttons, if any, recorded."""
        self.sent = message_id
        self.living(message_id)
        keyboard = keyboard_of(self.op)
        if keyboard:
            entry = self.delivery.entries[0] if self.delivery.entries else None
            self.showing(message_id, choices(keyboard), entry)

    def showing(
        self, message_id: int, shown: tuple[str, ...] | None, entry: int | None = None
    ) -> None:
        self.delivery.buttons = ShownButtons(self.chat, message_id, self.game, shown, entry)


async def make(call: Call) -> None:
    """Makes the call with the Bot API (none for an op with nothing to act on)."""
    match call.op:
        case Send() as op:
            await post(call, op.keyboard, protect=op.protect)
        case Edit() as op:
            await edit(call, op)
        case Clear():
            await clear(call)
        case Delete():
            await delete(call)
        case Pin():
            await pin(call)
        case Unpin():
            await unpin(call)
        case Permissions() as op:
            await permissions(call, op)
        case Topic() as op:
            await topic(call, op)
        case Restrict() as op:
            await restrict(call, op)
        case Photo() as op:
            await photo(call, op)
        case Document() as op:
            await document(call, op)
        case _:
            assert_never(call.op)


async def post(call: Call, keyboard: Keyboard | None, *, protect: bool = False) -> None:
    """A new message of the call's text."""
    message: Message = await call.bot.send_message(
        call.chat,
        call.text,
        parse_mode=ParseMode.HTML,
        reply_markup=markup(keyboard),
        protect_content=protect or None,
        disable_web_page_preview=True,
        message_thread_id=call.topic,
    )
    call.made(message.message_id)


async def photo(call: Call, op: Photo) -> None:
    """A picture drawn now, in a worker thread, from the data the op carries."""
    picture = await asyncio.to_thread(draw, op.picture)
    message: Message = await call.bot.send_photo(
        call.chat,
        InputFile(picture.png, filename=f"{op.picture['kind']}.png"),
        parse_mode=ParseMode.HTML,
        message_thread_id=call.topic,
    )
    call.made(message.message_id)


async def document(call: Call, op: Document) -> None:
    """A file made of the op's text content (the protocol's JSON); its text the caption."""
    message: Message = await call.bot.send_document(
        call.chat,
        InputFile(op.file.content.encode(), filename=op.file.name),
        caption=call.text or None,
        parse_mode=ParseMode.HTML,
        message_thread_id=call.topic,
    )
    call.made(message.message_id)


async def edit(call: Call, op: Edit) -> None:
    target = call.target
    if target is None:
        await post(call, op.keyboard)  # never sent, or lost: said anew
        return
    # Shown either way: "not modified" means the message shows this already (an edit
    # made again after a crash, Telegram having taken it before the process died).
    call.showing(target, choices(op.keyboard))
    await call.bot.edit_message_text(
        call.text,
        chat_id=call.chat,
        message_id=target,
        parse_mode=ParseMode.HTML,
        reply_markup=markup(op.keyboard),
        disable_web_page_preview=True,
    )


async def clear(call: Call) -> None:
    """The living message loses its buttons, and stops being living."""
    target = call.target
    if target is not None:
        call.living(None)
        call.showing(target, ())
        await call.bot.edit_message_reply_markup(call.chat, target, reply_markup=None)


async def delete(call: Call) -> None:
    call.living(None)
    target = call.target
    if target is not None:
        call.showing(target, None)
        await call.bot.delete_message(call.chat, target)


async def pin(call: Call) -> None:
    if call.target is not None:
        await call.bot.pin_chat_message(call.chat, call.target, disable_notification=True)


async def unpin(call: Call) -> None:
    if call.target is not None:
        await call.bot.unpin_chat_message(call.chat, call.target)


def wanted_permissions(op: Permissions) -> dict[str, Any]:
    """The permissions a Permissions op sets, as sent."""
    if op.permissions is None:
        return ChatPermissions.no_permissions().to_dict()
    return (ChatPermissions.de_json(op.permissions) or ChatPermissions()).to_dict()


async def permissions(call: Call, op: Permissions) -> None:
    """The masked night: no permission at all, or the group's own again."""
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


async def topic(call: Call, op: Topic) -> None:
    """The masked night in a forum: the game's topic closed, then reopened
    (topic 0: the General topic)."""
    bot, chat, opening = call.bot, call.chat, op.open
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


# How long a forum night's restriction of a player lasts at most: lifted in the morning,
# it also runs out by itself should the morning's call never come (longest night, paused).
RESTRICTED_FOR = 900.0


async def restrict(call: Call, op: Restrict) -> None:
    """A forum's masked night: the game's players may post in no topic (the
    group's other members still may). At night each player who is a plain member
    is restricted until morning; in the morning each restriction of ours (no
    sending, running out within RESTRICTED_FOR) is lifted. Others' restrictions,
    administrators and those who left are left alone. Made again after a crash,
    it does the same."""
    bot, chat, opening = call.bot, call.chat, op.open
    for user_id in op.players:
        try:
            member = await bot.get_chat_member(chat, user_id)
            if opening and _ours(member, call.now):
                await bot.restrict_chat_member(
                    chat, user_id, ChatPermissions.all_permissions(),
                    use_independent_chat_permissions=True,
                )  # fmt: skip
            elif not opening and member.status == ChatMemberStatus.MEMBER:
                await bot.restrict_chat_member(
                    chat, user_id, ChatPermissions.no_permissions(),
                    use_independent_chat_permissions=True,
                    until_date=int(call.now + RESTRICTED_FOR),
                )  # fmt: skip
        except BadRequest:
            continue  # gone meanwhile, or an administrator since: nothing to do for them


def _ours(member: object, now: float) -> bool:
    if not isinstance(member, ChatMemberRestricted) or member.can_send_messages:
        return False
    until = member.until_date.timestamp() if member.until_date else 0.0
    return 0.0 < until <= now + RESTRICTED_FOR + 60.0
