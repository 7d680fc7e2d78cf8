"""What every Bot API method handler shares: the call context, access to a chat, the right
to send into it, and parsing text, markup, replies and topics as Telegram does.

Each handler validates first, then charges the rate limits, then changes the world:
a refused call changes nothing and spends nothing.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tg_mafia.sandbox.errors import bad_request, forbidden, group_migrated
from tg_mafia.sandbox.world.registry import effective_status
from tg_mafia.sandbox.world.state import GENERAL_TOPIC_ID, Chat, Message
from tg_mafia.sandbox.world.textfmt import parse_text

if TYPE_CHECKING:
    from tg_mafia.sandbox.core import Sandbox
    from tg_mafia.sandbox.world.bots import SandboxBot

MAX_TEXT = 4096
MAX_CAPTION = 1024
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
_BUTTON_ACTIONS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)

# How much of a chat a method needs (the Bot API's access rights):
# "read" (getChat), "members" (member lists), "edit" (editing messages), "write".
Access = str


@dataclass
class CallContext:
    method: str
    chat_id: int | None = None
    bot_id: int | None = None  # the bot that called


@dataclass
class PendingQuery:
    id: str
    user_id: int
    chat_id: int
    message_id: int
    data: str
    created: float
    answered: bool = False
    answer: dict[str, Any] = field(default_factory=dict)
    answered_at: float | None = None  # sandbox seconds: when the answer arrived
    bot_id: int | None = None  # the bot it was sent to (whose message was pressed)


Handler = Callable[[dict[str, Any], CallContext], Awaitable[Any]]


@dataclass(frozen=True)
class Placement:
    """Where a bot's new message goes: what it replies to, and its thread."""

    reply_to: int | None
    thread_id: int | None
    is_topic_message: bool


class MethodBase:
    """The methods as one bot (`me`) calls them."""

    def __init__(self, sandbox: Sandbox, me: SandboxBot) -> None:
        self.sb = sandbox
        self.world = sandbox.world
        self.me = me

    def _now(self) -> float:
        return self.sb.clock.now()

    def _chat(self, p: dict[str, Any], ctx: CallContext, access: Access = "write") -> Chat:
        chat = self.world.resolve_chat(p["chat_id"], self.me.id)
        ctx.chat_id = chat.id
        self._check_access(chat, access)
        return chat

    def _check_access(self, chat: Chat, access: Access) -> None:
        """The 400 / 403 Telegram answers before a method touches `chat` (as the Bot API
        server checks access: a basic group needs membership only to change things; a
        private supergroup, even to be read)."""
        if chat.type == "private":
            return
        if chat.migrated_to is not None:
            if access != "read":
                raise group_migrated(chat.migrated_to)
            return
        member = self.world.bot_member(chat, self.me.id)
        if chat.type == "group" and access == "read":
            return
        if member.status == "kicked":
            raise forbidden(f"bot was kicked from the {chat.type} chat")
        if not member.is_present and (
            chat.type == "group" or access != "read" or chat.username is None
        ):
            raise forbidden(f"bot is not a member of the {chat.type} chat")

    def _can_send(self, chat: Chat, permission: str, what: str) -> None:
        """The 403s and 400s for the bot sending `what` (e.g. "photos") into `chat`."""
        if chat.type == "private":
            user = self.world.users[chat.id]
            if user.is_bot:
                raise forbidden("bot can't send messages to bots")
            if user.link(self.me.id).blocked:
                raise forbidden("bot was blocked by the user")
            if not user.link(self.me.id).started:
                raise forbidden("bot can't initiate conversation with a user")
            return
        member = self.world.bot_member(chat, self.me.id)
        if chat.type == "channel" and not member.is_admin:
            raise bad_request("need administrator rights in the channel chat")
        if not member.is_admin:
            allowed = chat.permissions.get(permission, False)
            if effective_status(member, int(self._now())) == "restricted":
                allowed = allowed and member.restrictions.get(permission, False)
            if not allowed:
                raise bad_request(f"not enough rights to send {what} to the chat")

    def _sender(self, chat: Chat) -> dict[str, Any]:
        """A bot's post is signed by the channel in a channel, by the bot elsewhere."""
        if chat.type == "channel":
            return {"from_id": None, "sender_chat_id": chat.id}
        return {"from_id": self.me.id}

    def _text(self, p: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
        raw = p.get("text")
        if raw is None:
            raise bad_request("message text is empty")
        text, entities = parse_text(str(raw), p.get("parse_mode"), p.get("entities"))
        if not text.strip():
            raise bad_request("message text is empty")
        if len(text) > MAX_TEXT:
            raise bad_request("message is too long")
        return text, entities

    def _caption(self, p: dict[str, Any]) -> tuple[str | None, list[dict[str, Any]]]:
        raw = p.get("caption")
        if raw is None or raw == "":
            return None, []
        caption, entities = parse_text(str(raw), p.get("parse_mode"), p.get("caption_entities"))
        if len(caption) > MAX_CAPTION:
            raise bad_request("message caption is too long")
        return (caption or None), entities

    def _markup(self, p: dict[str, Any]) -> dict[str, Any] | None:
        markup = p.get("reply_markup")
        if not isinstance(markup, dict) or "inline_keyboard" not in markup:
            return None  # reply keyboards are not shown in the sandbox's chat views
        for row in markup["inline_keyboard"]:
            for button in row:
                if not str(button.get("text", "")).strip():
                    raise bad_request("BUTTON_TEXT_EMPTY")
                actions = [name for name in _BUTTON_ACTIONS if name in button]
                if len(actions) != 1:
                    raise bad_request(
                        "can't parse inline keyboard button: "
                        "Text buttons are unallowed in the inline keyboard"
                    )
                if "callback_data" in button:
                    size = len(str(button["callback_data"]).encode("utf-8"))
                    if not 1 <= size <= 64:
                        raise bad_request("BUTTON_DATA_INVALID")
                if "url" in button and not re.match(r"^(https?|tg)://\S+$", str(button["url"])):
                    raise bad_request("BUTTON_URL_INVALID")
        return {"inline_keyboard": markup["inline_keyboard"]}

    def _placement(self, chat: Chat, p: dict[str, Any]) -> Placement:
        """reply_parameters and message_thread_id, checked as Telegram checks them."""
        replied: Message | None = None
        reply = p.get("reply_parameters")
        if isinstance(reply, dict):
            target = chat
            if "chat_id" in reply:
                target = self.world.resolve_chat(reply["chat_id"], self.me.id)
            found = target.live_message(reply["message_id"])
            if found is not None:
                replied = found if target is chat else None
            elif not reply.get("allow_sending_without_reply"):
                raise bad_request("message to be replied not found")
        thread = p.get("message_thread_id")
        if not chat.is_forum:
            # outside forums Telegram ignores message_thread_id
            thread_id, in_topic = self.sb.thread_of(chat, None, replied)
            return Placement(replied.message_id if replied else None, thread_id, in_topic)
        if thread is not None and (thread == GENERAL_TOPIC_ID or thread not in chat.topics):
            raise bad_request("message thread not found")
        thread_id, in_topic = self.sb.thread_of(chat, thread, replied)
        if not self.sb.may_post_in_thread(chat, self.me.id, thread_id):
            raise bad_request("TOPIC_CLOSED")
        return Placement(replied.message_id if replied else None, thread_id, in_topic)

    def _charge(self, chat: Chat) -> None:
        self.me.limiter.check_and_charge(chat.id, chat.is_group, self._now())

    def _message_to_edit(self, p: dict[str, Any], ctx: CallContext) -> tuple[Chat, Message]:
        if "inline_message_id" in p:
            raise bad_request("MESSAGE_ID_INVALID")  # inline messages are not modelled
        if "chat_id" not in p or "message_id" not in p:
            raise bad_request("message identifier is not specified")
        chat = self._chat(p, ctx, "edit")
        if chat.type == "private":
            user = self.world.users[chat.id]
            if user.link(self.me.id).blocked:
                raise forbidden("bot was blocked by the user")
        message = chat.live_message(p["message_id"])
        if message is None:
            raise bad_request("message to edit not found")
        own = message.from_id == self.me.id or (
            chat.type == "channel" and message.sender_chat_id == chat.id
        )
        if not own or message.is_service:
            raise bad_request("message can't be edited")
        return chat, message

    def _require_right(self, chat: Chat, right: str, wording: str) -> None:
        if not self.world.bot_has_right(chat, right, self.me.id):
            raise bad_request(wording)
