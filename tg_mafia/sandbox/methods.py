"""One handler per modelled Bot API method.

Each handler validates first, then charges the rate limits, then changes the world:
a refused call changes nothing and spends nothing.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import ApiError, bad_request, forbidden
from .state import Chat, Member, Message, normalise_permissions
from .textfmt import parse_text
from .world import effective_status

if TYPE_CHECKING:
    from .core import Sandbox

MAX_TEXT = 4096
DELETE_WINDOW = 48 * 3600  # bots may delete messages for 48 hours
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
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
_COMMAND_NAME = re.compile(r"^[a-z0-9_]{1,32}$")
_SECRET = re.compile(r"^[A-Za-z0-9_-]{1,256}$")


@dataclass
class CallContext:
    method: str
    chat_id: int | None = None


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


Handler = Callable[[dict[str, Any], CallContext], Awaitable[Any]]


class Methods:
    def __init__(self, sandbox: Sandbox) -> None:
        self.sb = sandbox
        self.world = sandbox.world
        self.handlers: dict[str, Handler] = {
            "getMe": self.get_me,
            "getUpdates": self.get_updates,
            "setWebhook": self.set_webhook,
            "deleteWebhook": self.delete_webhook,
            "getWebhookInfo": self.get_webhook_info,
            "setMyCommands": self.set_my_commands,
            "getMyCommands": self.get_my_commands,
            "deleteMyCommands": self.delete_my_commands,
            "sendMessage": self.send_message,
            "editMessageText": self.edit_message_text,
            "editMessageReplyMarkup": self.edit_message_reply_markup,
            "answerCallbackQuery": self.answer_callback_query,
            "deleteMessage": self.delete_message,
            "deleteMessages": self.delete_messages,
            "restrictChatMember": self.restrict_chat_member,
            "setChatPermissions": self.set_chat_permissions,
            "getChat": self.get_chat,
            "getChatMember": self.get_chat_member,
            "getChatAdministrators": self.get_chat_administrators,
            "pinChatMessage": self.pin_chat_message,
            "unpinChatMessage": self.unpin_chat_message,
        }

    # -- helpers -----------------------------------------------------------------

    def _now(self) -> float:
        return self.sb.clock.now()

    def _chat(self, p: dict[str, Any], ctx: CallContext) -> Chat:
        chat = self.world.resolve_chat(p["chat_id"])
        ctx.chat_id = chat.id
        return chat

    def _can_write(self, chat: Chat) -> None:
        """The 403s and 400s for a bot writing into `chat`."""
        if chat.type == "private":
            user = self.world.users[chat.id]
            if user.is_bot:
                raise forbidden("bot can't send messages to bots")
            if user.blocked:
                raise forbidden("bot was blocked by the user")
            if not user.started:
                raise forbidden("bot can't initiate conversation with a user")
            return
        kind = {"group": "group", "supergroup": "supergroup", "channel": "channel"}[chat.type]
        member = self.world.bot_member(chat)
        if member.status == "kicked":
            raise forbidden(f"bot was kicked from the {kind} chat")
        if not member.is_present:
            raise forbidden(f"bot is not a member of the {kind} chat")
        if chat.type == "channel" and not member.is_admin:
            raise bad_request("need administrator rights in the channel chat")
        if not member.is_admin:
            allowed = chat.permissions.get("can_send_messages", False)
            if effective_status(member, int(self._now())) == "restricted":
                allowed = allowed and member.restrictions.get("can_send_messages", False)
            if not allowed:
                raise bad_request("not enough rights to send text messages to the chat")

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

    def _charge(self, chat: Chat) -> None:
        self.sb.limiter.check_and_charge(chat.id, chat.is_group, self._now())

    def _message_to_edit(self, p: dict[str, Any], ctx: CallContext) -> tuple[Chat, Message]:
        if "inline_message_id" in p:
            raise bad_request("MESSAGE_ID_INVALID")  # inline messages are not modelled
        if "chat_id" not in p or "message_id" not in p:
            raise bad_request("message identifier is not specified")
        chat = self._chat(p, ctx)
        if chat.type == "private":
            user = self.world.users[chat.id]
            if user.blocked:
                raise forbidden("bot was blocked by the user")
        message = chat.live_message(p["message_id"])
        if message is None:
            raise bad_request("message to edit not found")
        if message.from_id != self.world.bot.id or message.text is None:
            raise bad_request("message can't be edited")
        return chat, message

    def _require_right(self, chat: Chat, right: str, wording: str) -> None:
        if not self.world.bot_has_right(chat, right):
            raise bad_request(wording)

    # -- bot and updates ---------------------------------------------------------

    async def get_me(self, p: dict[str, Any], ctx: CallContext) -> Any:
        out = self.world.bot.to_api()
        out.update(
            can_join_groups=True,
            can_read_all_group_messages=not self.sb.privacy_mode,
            supports_inline_queries=False,
            can_connect_to_business=False,
            has_main_web_app=False,
        )
        return out

    async def get_updates(self, p: dict[str, Any], ctx: CallContext) -> Any:
        if self.sb.webhook is not None:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        queue = self.sb.updates
        if "offset" in p:
            queue.confirm(p["offset"])
        if "allowed_updates" in p:
            queue.set_allowed(p["allowed_updates"])
        limit = min(100, max(1, int(p.get("limit", 100))))
        timeout = max(0, int(p.get("timeout", 0)))
        await queue.wait(self.sb.clock.to_real(timeout))
        return queue.peek(limit)

    async def set_webhook(self, p: dict[str, Any], ctx: CallContext) -> Any:
        url = p["url"]
        if not url:
            await self.sb.stop_webhook()
            return True
        loopback = re.match(r"^http://(127\.0\.0\.1|localhost)(:\d+)?/", url + "/")
        if not url.startswith("https://") and not loopback:
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        secret = p.get("secret_token")
        if secret is not None and not _SECRET.match(secret):
            raise bad_request("secret token contains unallowed characters")
        if p.get("drop_pending_updates"):
            self.sb.updates.drop_all()
        if "allowed_updates" in p:
            self.sb.updates.set_allowed(p["allowed_updates"])
        await self.sb.start_webhook(url, secret)
        return True

    async def delete_webhook(self, p: dict[str, Any], ctx: CallContext) -> Any:
        await self.sb.stop_webhook()
        if p.get("drop_pending_updates"):
            self.sb.updates.drop_all()
        return True

    async def get_webhook_info(self, p: dict[str, Any], ctx: CallContext) -> Any:
        hook = self.sb.webhook
        info: dict[str, Any] = {
            "url": hook.config.url if hook else "",
            "has_custom_certificate": False,
            "pending_update_count": len(self.sb.updates.pending),
        }
        if hook and hook.last_error_date is not None:
            info["last_error_date"] = hook.last_error_date
            info["last_error_message"] = hook.last_error_message
        return info

    async def set_my_commands(self, p: dict[str, Any], ctx: CallContext) -> Any:
        commands = p["commands"]
        if len(commands) > 100:
            raise bad_request("BOT_COMMANDS_TOO_MUCH")
        for command in commands:
            if not _COMMAND_NAME.match(command["command"]):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(command["description"]) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        key = self._commands_key(p)
        self.sb.commands[key] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
        return True

    async def get_my_commands(self, p: dict[str, Any], ctx: CallContext) -> Any:
        return self.sb.commands.get(self._commands_key(p), [])

    async def delete_my_commands(self, p: dict[str, Any], ctx: CallContext) -> Any:
        self.sb.commands.pop(self._commands_key(p), None)
        return True

    @staticmethod
    def _commands_key(p: dict[str, Any]) -> str:
        scope = p.get("scope") or {"type": "default"}
        return f"{scope.get('type')}:{scope.get('chat_id', '')}:{scope.get('user_id', '')}:" + str(
            p.get("language_code", "")
        )

    # -- messages ----------------------------------------------------------------

    async def send_message(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._chat(p, ctx)
        self._can_write(chat)
        text, entities = self._text(p)
        markup = self._markup(p)
        reply_to = None
        reply = p.get("reply_parameters")
        if isinstance(reply, dict):
            target_chat = chat
            if "chat_id" in reply:
                target_chat = self.world.resolve_chat(reply["chat_id"])
            if target_chat.live_message(reply["message_id"]) is not None:
                reply_to = reply["message_id"] if target_chat is chat else None
            elif not reply.get("allow_sending_without_reply"):
                raise bad_request("message to be replied not found")
        self._charge(chat)
        message = self.sb.post(
            chat, self.world.bot.id, text, entities=entities, markup=markup, reply_to=reply_to
        )
        return self.world.message_api(message)

    async def edit_message_text(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat, message = self._message_to_edit(p, ctx)
        text, entities = self._text(p)
        markup = self._markup(p)  # no markup given: Telegram removes the keyboard
        if (text, entities, markup) == (message.text, message.entities, message.reply_markup):
            raise bad_request(NOT_MODIFIED)
        self._charge(chat)
        message.text, message.entities, message.reply_markup = text, entities, markup
        message.edit_date = self.sb.clock.date()
        return self.world.message_api(message)

    async def edit_message_reply_markup(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat, message = self._message_to_edit(p, ctx)
        markup = self._markup(p)
        if markup == message.reply_markup:
            raise bad_request(NOT_MODIFIED)
        self._charge(chat)
        message.reply_markup = markup
        message.edit_date = self.sb.clock.date()
        return self.world.message_api(message)

    async def answer_callback_query(self, p: dict[str, Any], ctx: CallContext) -> Any:
        query = self.sb.callback_queries.get(p["callback_query_id"])
        if query is not None:
            ctx.chat_id = query.chat_id
        too_late = self.sb.limits.callback_answer_timeout
        if query is None or query.answered or self._now() - query.created > too_late:
            raise bad_request(QUERY_TOO_OLD)
        if len(p.get("text", "")) > 200:
            raise bad_request("MESSAGE_TOO_LONG")
        query.answered = True
        query.answer = {k: p[k] for k in ("text", "show_alert", "url", "cache_time") if k in p}
        return True

    def _check_deletable(self, chat: Chat, message: Message) -> None:
        if self._now() - message.date > DELETE_WINDOW:
            raise bad_request("message can't be deleted")
        if chat.type == "private":
            return
        own = message.from_id == self.world.bot.id and message.sender_chat_id is None
        if own:
            return
        if not self.world.bot_has_right(chat, "can_delete_messages"):
            raise bad_request("message can't be deleted")

    async def delete_message(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._chat(p, ctx)
        message = chat.live_message(p["message_id"])
        if message is None:
            raise bad_request("message to delete not found")
        self._check_deletable(chat, message)
        message.deleted = True
        return True

    async def delete_messages(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._chat(p, ctx)
        ids = p["message_ids"]
        if not 1 <= len(ids) <= 100:
            raise bad_request("message_ids must contain 1-100 identifiers")
        found = [m for m in (chat.live_message(i) for i in ids) if m is not None]
        if not found:
            raise bad_request("message to delete not found")
        for message in found:
            self._check_deletable(chat, message)
        for message in found:
            message.deleted = True
        return True

    # -- members and rights ------------------------------------------------------

    async def restrict_chat_member(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._chat(p, ctx)
        if chat.type != "supergroup":
            raise bad_request("method is available only for supergroups")
        self._require_right(
            chat, "can_restrict_members", "not enough rights to restrict/unrestrict chat member"
        )
        user_id = p["user_id"]
        if user_id == self.world.bot.id:
            raise bad_request("can't restrict self")
        member = chat.members.get(user_id)
        if user_id not in self.world.users or member is None or not member.is_present:
            raise bad_request("user not found")
        if member.status == "creator":
            raise bad_request("can't remove chat owner")
        if member.status == "administrator":
            raise bad_request("user is an administrator of the chat")
        independent = bool(p.get("use_independent_chat_permissions", False))
        perms = normalise_permissions(p["permissions"], independent)
        now = self._now()
        until = int(p.get("until_date", 0))
        # Telegram: less than 30 seconds or more than 366 days from now means forever
        if until and not now + 30 <= until <= now + 366 * 86400:
            until = 0
        if all(perms.values()):
            chat.members[user_id] = Member(user_id, status="member")
        else:
            chat.members[user_id] = Member(
                user_id, status="restricted", restrictions=perms, until_date=until
            )
        return True

    async def set_chat_permissions(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._chat(p, ctx)
        if not chat.is_group:
            raise bad_request("method is available only for supergroups and groups")
        self._require_right(
            chat, "can_restrict_members", "not enough rights to change chat permissions"
        )
        independent = bool(p.get("use_independent_chat_permissions", False))
        perms = normalise_permissions(p["permissions"], independent)
        if perms == chat.permissions:
            raise bad_request("CHAT_NOT_MODIFIED")
        chat.permissions = perms
        return True

    async def get_chat(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._chat(p, ctx)
        return self.world.chat_full_api(chat, self.sb.clock.date())

    async def get_chat_member(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._chat(p, ctx)
        user_id = p["user_id"]
        if user_id not in self.world.users:
            raise bad_request("user not found")
        if chat.type == "private":
            if user_id not in (chat.id, self.world.bot.id):
                raise bad_request("user not found")
            return self.world.member_api(chat, Member(user_id), self.sb.clock.date())
        member = self.world.member(chat, user_id)
        return self.world.member_api(chat, member, self.sb.clock.date())

    async def get_chat_administrators(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._chat(p, ctx)
        if chat.type == "private":
            raise bad_request("there are no administrators in the private chat")
        out = []
        for member in chat.members.values():
            if not member.is_admin:
                continue
            user = self.world.users[member.user_id]
            if user.is_bot and user.id != self.world.bot.id and not p.get("return_bots"):
                continue
            out.append(self.world.member_api(chat, member, self.sb.clock.date()))
        return out

    async def pin_chat_message(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._chat(p, ctx)
        if chat.is_group:
            self._require_right(
                chat, "can_pin_messages", "not enough rights to manage pinned messages in the chat"
            )
        elif chat.type == "private" and self.world.users[chat.id].blocked:
            raise forbidden("bot was blocked by the user")
        message = chat.live_message(p["message_id"])
        if message is None:
            raise bad_request("message to pin not found")
        self._charge(chat)
        if message.message_id in chat.pinned:
            chat.pinned.remove(message.message_id)
        chat.pinned.append(message.message_id)
        if chat.is_group:
            # pinning leaves a service message in groups, as in the Telegram apps
            self.sb.post(chat, self.world.bot.id, None, pinned=message.message_id)
        return True

    async def unpin_chat_message(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._chat(p, ctx)
        if chat.is_group:
            self._require_right(
                chat, "can_pin_messages", "not enough rights to manage pinned messages in the chat"
            )
        message_id = p.get("message_id")
        if message_id is None:
            if not chat.pinned:
                return True
            message_id = chat.pinned[-1]
        if message_id not in chat.pinned:
            raise bad_request("message to unpin not found")
        self._charge(chat)
        chat.pinned.remove(message_id)
        return True
