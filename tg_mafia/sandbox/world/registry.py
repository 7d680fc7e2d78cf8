"""The registry of users and chats, and how they look through the Bot API."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from tg_mafia.sandbox.errors import bad_request
from tg_mafia.sandbox.world.state import (
    ADMIN_RIGHTS_REQUIRED,
    CHANNEL_BOT_ID,
    GROUP_ANONYMOUS_BOT_ID,
    PERMISSION_NAMES,
    TELEGRAM_SERVICE_ID,
    Chat,
    Member,
    Message,
    User,
)


@dataclass
class World:
    bot: User  # the sandbox's first bot, its default
    users: dict[int, User] = field(default_factory=dict)
    chats: dict[int, Chat] = field(default_factory=dict)  # groups and channels
    # Private chats, by (bot, user): a user's chat with each bot is a chat of its own,
    # with its own messages, though every bot knows it by the user's id.
    privates: dict[tuple[int, int], Chat] = field(default_factory=dict)
    next_user_id: int = 100_000_001
    next_group_id: int = 4_000_000_001
    next_supergroup_id: int = 1_001_000_000_001  # supergroups and channels: -100...

    def __post_init__(self) -> None:
        self.users[self.bot.id] = self.bot
        for fake_id, name, username, is_bot in (
            (GROUP_ANONYMOUS_BOT_ID, "Group", "GroupAnonymousBot", True),
            (CHANNEL_BOT_ID, "Channel", "Channel_Bot", True),
            (TELEGRAM_SERVICE_ID, "Telegram", None, False),
        ):
            self.users[fake_id] = User(fake_id, name, username=username, is_bot=is_bot)

    # -- creation ----------------------------------------------------------------

    def add_user(self, first_name: str, *, started: bool = False, **kwargs: Any) -> User:
        """A user; `started`: they pressed Start in the default bot's chat."""
        user = User(self.next_user_id, first_name, main_bot=self.bot.id, **kwargs)
        user.started = started
        self.next_user_id += 1
        self.users[user.id] = user
        return user

    def add_chat(self, type_: str, title: str, username: str | None = None) -> Chat:
        if type_ == "group":
            chat_id = -self.next_group_id
            self.next_group_id += 1
        elif type_ in ("supergroup", "channel"):
            chat_id = -self.next_supergroup_id
            self.next_supergroup_id += 1
        else:
            raise ValueError(f"cannot create a chat of type {type_!r}")
        chat = Chat(chat_id, type_, title=title, username=username)
        chat.chat_instance = _instance(chat_id)
        self.chats[chat_id] = chat
        return chat

    def private_chat(self, user: User, bot_id: int | None = None) -> Chat:
        """The user's private chat with a bot (the default one unless named)."""
        bot_id = self.bot.id if bot_id is None else bot_id
        chat = self.privates.get((bot_id, user.id))
        if chat is None:
            instance = _instance(user.id if bot_id == self.bot.id else f"{bot_id}:{user.id}")
            chat = Chat(user.id, "private", chat_instance=instance, bot_id=bot_id)
            self.privates[bot_id, user.id] = chat
        return chat

    # -- lookups -----------------------------------------------------------------

    def resolve_chat(self, chat_id: int | str, bot_id: int | None = None) -> Chat:
        """The chat a bot's `chat_id` names (a user's id: their private chat with that
        bot, the default one unless named), or 400 "chat not found"."""
        if isinstance(chat_id, str):
            wanted = chat_id.removeprefix("@").lower()
            for chat in self.chats.values():
                if chat.username and chat.username.lower() == wanted:
                    return chat
            raise bad_request("chat not found")
        found = self.chats.get(chat_id)
        if found is not None:
            return found
        caller = self.bot.id if bot_id is None else bot_id
        if chat_id in self.users and chat_id != caller:
            return self.private_chat(self.users[chat_id], caller)
        raise bad_request("chat not found")

    def chat_of(self, message: Message) -> Chat:
        """The chat a message is in (a private one is found by its bot too)."""
        if message.bot_id is not None:
            return self.privates[message.bot_id, message.chat_id]
        return self.chats[message.chat_id]

    def member(self, chat: Chat, user_id: int) -> Member:
        member = chat.members.get(user_id)
        if member is None:
            return Member(user_id, status="left")
        return member

    def bot_member(self, chat: Chat, bot_id: int | None = None) -> Member:
        """A bot's membership of `chat` (the default bot unless named)."""
        return self.member(chat, self.bot.id if bot_id is None else bot_id)

    def bot_has_right(self, chat: Chat, right: str, bot_id: int | None = None) -> bool:
        member = self.bot_member(chat, bot_id)
        if member.status == "creator":
            return True
        return member.status == "administrator" and member.rights.get(right, False)

    # -- API shapes ----------------------------------------------------------------

    def chat_api(self, chat: Chat) -> dict[str, Any]:
        out: dict[str, Any] = {"id": chat.id, "type": chat.type}
        if chat.type == "private":
            user = self.users[chat.id]
            out["first_name"] = user.first_name
            if user.last_name:
                out["last_name"] = user.last_name
            if user.username:
                out["username"] = user.username
        else:
            out["title"] = chat.title or ""
            if chat.username:
                out["username"] = chat.username
            if chat.is_forum:
                out["is_forum"] = True
        return out

    def chat_full_api(self, chat: Chat, now: int) -> dict[str, Any]:
        out = self.chat_api(chat)
        out.update(
            accent_color_id=chat.id % 7,
            max_reaction_count=11,
            accepted_gift_types={
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        )
        if chat.is_group:
            out["permissions"] = dict(chat.permissions)
        if chat.linked_chat_id is not None:
            out["linked_chat_id"] = chat.linked_chat_id
        if chat.pinned:
            pinned = chat.live_message(chat.pinned[-1])
            if pinned is not None:
                out["pinned_message"] = self.message_api(pinned)
        return out

    def message_api(self, message: Message, with_reply: bool = True) -> dict[str, Any]:
        chat = self.chat_of(message)
        out = self._message_head(message, chat)
        if with_reply:
            replied = self._replied(chat, message)
            if replied is not None:
                out["reply_to_message"] = self.message_api(replied, with_reply=False)
        self._message_body(message, out)
        if message.pinned_message_id is not None:
            pinned = chat.messages.get(message.pinned_message_id)
            if pinned is not None:
                out["pinned_message"] = self.message_api(pinned, with_reply=False)
        if message.reply_markup is not None:
            out["reply_markup"] = message.reply_markup
        return out

    def _message_head(self, message: Message, chat: Chat) -> dict[str, Any]:
        """Who sent the message, when, where and from where it was forwarded."""
        out: dict[str, Any] = {"message_id": message.message_id}
        if message.thread_id is not None:
            out["message_thread_id"] = message.thread_id
        if message.from_id is not None:
            out["from"] = self.users[message.from_id].to_api()
        if message.sender_chat_id is not None:
            out["sender_chat"] = self.chat_api(self.chats[message.sender_chat_id])
        out["date"] = message.date
        out["chat"] = self.chat_api(chat)
        if message.forward_origin is not None:
            out["forward_origin"] = message.forward_origin
        if message.is_topic_message:
            out["is_topic_message"] = True
        if message.is_automatic_forward:
            out["is_automatic_forward"] = True
        return out

    def _message_body(self, message: Message, out: dict[str, Any]) -> None:
        """What the message says and shows, added to `out`."""
        if message.edit_date is not None:
            out["edit_date"] = message.edit_date
        if message.protected:
            out["has_protected_content"] = True
        if message.media_group_id is not None:
            out["media_group_id"] = message.media_group_id
        if message.text is not None:
            out["text"] = message.text
            if message.entities:
                out["entities"] = [self._entity_api(e) for e in message.entities]
        out.update(message.media)
        if message.caption is not None:
            out["caption"] = message.caption
            if message.entities:
                out["caption_entities"] = [self._entity_api(e) for e in message.entities]
        out.update(message.service)

    @staticmethod
    def _replied(chat: Chat, message: Message) -> Message | None:
        """The message shown as replied to: the explicit one or, in a forum topic, the
        topic's first message (Telegram's implicit reply)."""
        if message.reply_to is not None:
            return chat.live_message(message.reply_to)
        if message.is_topic_message and message.thread_id != message.message_id:
            return chat.live_message(message.thread_id or 0)
        return None

    def _entity_api(self, entity: dict[str, Any]) -> dict[str, Any]:
        if entity.get("type") == "text_mention" and isinstance(entity.get("user"), dict):
            user = self.users.get(entity["user"].get("id"))
            if user is not None:
                return {**entity, "user": user.to_api()}
        return entity

    def member_api(self, chat: Chat, member: Member, now: int) -> dict[str, Any]:
        user = self.users[member.user_id].to_api()
        status = effective_status(member, now)
        if status == "creator":
            out: dict[str, Any] = {
                "status": status,
                "user": user,
                "is_anonymous": member.is_anonymous,
            }
        elif status == "administrator":
            out = {"status": status, "user": user, "can_be_edited": False}
            out["is_anonymous"] = member.is_anonymous
            for right in ADMIN_RIGHTS_REQUIRED:
                out[right] = member.rights.get(right, False)
            out["can_pin_messages"] = member.rights.get("can_pin_messages", False)
            if chat.type == "supergroup":
                out["can_manage_topics"] = member.rights.get("can_manage_topics", False)
        elif status == "restricted":
            out = {"status": status, "user": user, "is_member": True}
            for name in PERMISSION_NAMES:
                out[name] = member.restrictions.get(name, False)
            out["until_date"] = member.until_date
        elif status == "kicked":
            out = {"status": status, "user": user, "until_date": member.until_date}
        else:
            out = {"status": status, "user": user}
        if member.custom_title and status in ("creator", "administrator"):
            out["custom_title"] = member.custom_title
        return out


def effective_status(member: Member, now: int) -> str:
    """The member's status, after a timed restriction has run out."""
    if member.status == "restricted" and member.until_date and member.until_date <= now:
        return "member"
    return member.status


def _instance(seed: object) -> str:
    # stable and opaque, like Telegram's chat_instance
    return str(int(hashlib.sha256(str(seed).encode()).hexdigest()[:15], 16))
