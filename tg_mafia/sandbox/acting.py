"""Simulated users acting in the Telegram app: writing, sending media and albums, editing,
pressing buttons, opening deep links, blocking the bot; and channels posting.

What the app would not let a user do raises SimulationError.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tg_mafia.sandbox.base import SandboxBase
from tg_mafia.sandbox.errors import ApiError, SimulationError
from tg_mafia.sandbox.forum import Forums
from tg_mafia.sandbox.methods.table import PendingQuery
from tg_mafia.sandbox.world import media as media_
from tg_mafia.sandbox.world.bots import SandboxBot
from tg_mafia.sandbox.world.files import Upload
from tg_mafia.sandbox.world.registry import effective_status
from tg_mafia.sandbox.world.state import (
    CHANNEL_BOT_ID,
    GENERAL_TOPIC_ID,
    GROUP_ANONYMOUS_BOT_ID,
    TELEGRAM_SERVICE_ID,
    Chat,
    Message,
    User,
)
from tg_mafia.sandbox.world.textfmt import command_entities

Someone = Any  # a SimUser or a User

# The chat permission each kind of message needs from a member who is not an admin.
PERMISSION_FOR = {
    "text": "can_send_messages",
    "photo": "can_send_photos",
    "document": "can_send_documents",
    "video": "can_send_videos",
    "voice": "can_send_voice_notes",
    "sticker": "can_send_other_messages",
    "animation": "can_send_other_messages",
}
ALBUM_KINDS = ("photo", "video", "document")


@dataclass(frozen=True)
class Press:
    """A button press: the callback query the bot received, and how the bot answered it."""

    sandbox: SandboxBase
    query_id: str

    @property
    def answered(self) -> bool:
        return self.sandbox.callback_queries[self.query_id].answered

    @property
    def answer(self) -> dict[str, Any]:
        return self.sandbox.callback_queries[self.query_id].answer


class UserActions(Forums):
    # -- writing ----------------------------------------------------------------------

    def user_send(
        self,
        user: Someone,
        chat: Chat | int,
        text: str,
        *,
        reply_to: int | None = None,
        anonymous: bool = False,
        topic: int | None = None,
    ) -> Message:
        """`user` writes `text` (bot commands in it become bot_command entities)."""
        return self._user_post(
            self.world.users[user.id],
            self._resolve(chat),
            "text",
            text=text,
            entities=command_entities(text),
            reply_to=reply_to,
            anonymous=anonymous,
            topic=topic,
        )

    def user_send_media(
        self,
        user: Someone,
        chat: Chat | int,
        kind: str,
        *,
        data: bytes | None = None,
        caption: str | None = None,
        file_name: str = "file.txt",
        mime_type: str = "text/plain",
        emoji: str = "👍",
        duration: int = 3,
        width: int = 640,
        height: int = 360,
        reply_to: int | None = None,
        anonymous: bool = False,
        topic: int | None = None,
        media_group_id: str | None = None,
    ) -> Message:
        """`user` sends a photo, document, sticker, voice, video or animation, with a
        caption (its bot commands become caption_entities, as Telegram parses them).
        Without `data` the sandbox makes the content (a real PNG for a photo)."""
        if kind == "sticker" and caption is not None:
            raise SimulationError("a sticker has no caption")
        made = self._user_media(kind, data, file_name, mime_type, emoji, duration, width, height)
        message = self._user_post(
            self.world.users[user.id],
            self._resolve(chat),
            kind,
            media=made.fields,
            caption=caption,
            entities=command_entities(caption or ""),
            media_group_id=media_group_id,
            reply_to=reply_to,
            anonymous=anonymous,
            topic=topic,
        )
        made.keep(self.files)
        return message

    def user_send_album(
        self,
        user: Someone,
        chat: Chat | int,
        items: Sequence[tuple[str, bytes | None]],
        *,
        caption: str | None = None,
        topic: int | None = None,
        reply_to: int | None = None,
    ) -> list[Message]:
        """An album: 2-10 (kind, data) items sharing one media_group_id, each its own
        message and update; the caption goes on the first, as the apps send it."""
        if not 2 <= len(items) <= 10:
            raise SimulationError("an album holds 2 to 10 items")
        kinds = {kind for kind, _ in items}
        if not kinds <= set(ALBUM_KINDS) or ("document" in kinds and len(kinds) > 1):
            raise SimulationError("albums mix photos and videos, or hold documents only")
        group_id = self.new_media_group_id()
        return [
            self.user_send_media(
                user,
                chat,
                kind,
                data=data,
                caption=caption if index == 0 else None,
                media_group_id=group_id,
                topic=topic,
                reply_to=reply_to,
                file_name=f"file{index + 1}",
            )
            for index, (kind, data) in enumerate(items)
        ]

    def _user_media(
        self,
        kind: str,
        data: bytes | None,
        file_name: str,
        mime_type: str,
        emoji: str,
        duration: int,
        width: int,
        height: int,
    ) -> media_.Media:
        synthetic = f"sandbox {kind}, {duration} s".encode()
        try:
            if kind == "photo":
                return media_.photo(self.files, data or media_.sample_image(), self.limits)
            if kind == "document":
                upload = Upload(file_name, data if data is not None else b"sandbox", mime_type)
                return media_.document(self.files, upload, self.limits)
            if kind == "sticker":
                return media_.sticker(self.files, emoji)
            if kind == "voice":
                return media_.voice(self.files, data or synthetic, duration)
            if kind in ("video", "animation"):
                content = data or synthetic
                return media_.video(
                    self.files, content, duration, width, height, kind == "animation"
                )
        except ApiError as error:
            raise SimulationError(f"the app would not send this {kind}: {error}") from None
        raise SimulationError(f"users send no media of kind {kind!r}")

    def _user_post(
        self,
        user: User,
        chat: Chat,
        kind: str,
        *,
        reply_to: int | None,
        anonymous: bool,
        topic: int | None,
        text: str | None = None,
        **fields: Any,
    ) -> Message:
        if anonymous and not chat.is_group:
            raise SimulationError("users post anonymously only in groups, as administrators")
        if chat.type == "private":
            self._check_private(user, chat, text)
        elif chat.type == "channel":
            raise SimulationError("users do not post in channels here; use channel_post")
        else:
            self._check_group(user, chat, kind, anonymous)
        replied = None
        if reply_to is not None:
            replied = chat.live_message(reply_to)
            if replied is None:
                raise SimulationError(f"no message {reply_to} to reply to")
        thread_id, in_topic = self.thread_of(chat, self._check_topic(chat, topic), replied)
        if chat.is_forum and not self.may_post_in_thread(chat, user.id, thread_id):
            raise SimulationError(f"the topic is closed to {user.first_name}")
        sender = (GROUP_ANONYMOUS_BOT_ID, chat.id) if anonymous else (user.id, None)
        message = self.post(
            chat,
            sender[0],
            text,
            sender_chat_id=sender[1],
            reply_to=reply_to,
            thread_id=thread_id,
            is_topic_message=in_topic,
            **fields,
        )
        self._deliver(chat, message)
        return message

    def _check_private(self, user: User, chat: Chat, text: str | None) -> None:
        if chat.id != user.id:
            raise SimulationError("users write to the bot only in their own private chat")
        bot = self.bots[chat.bot_id or self.default_bot.id]
        link = user.link(bot.id)
        if text is not None and text.startswith("/start"):
            if link.blocked:
                self._set_blocked(user, False, bot)  # restarting the bot unblocks it
            link.started = True
            return
        if link.blocked:
            raise SimulationError(f"{user.first_name} blocked @{bot.username}; unblock first")
        if not link.started:
            raise SimulationError(
                f"{user.first_name} must press Start (send /start) to @{bot.username} first"
            )

    def _check_group(self, user: User, chat: Chat, kind: str, anonymous: bool) -> None:
        if chat.migrated_to is not None:
            raise SimulationError(
                f"{chat.title} was upgraded to a supergroup: post in {chat.migrated_to}"
            )
        member = self.world.member(chat, user.id)
        if not member.is_present:
            raise SimulationError(f"{user.first_name} is not a member of {chat.title}")
        if not member.is_admin:
            right = PERMISSION_FOR[kind]
            allowed = chat.permissions.get(right, False)
            if effective_status(member, self.clock.date()) == "restricted":
                allowed = allowed and member.restrictions.get(right, False)
            if not allowed:
                raise SimulationError(f"{user.first_name} may not post {kind} in {chat.title}")
        if anonymous and not member.is_admin:
            raise SimulationError("only administrators can post anonymously")

    def _check_topic(self, chat: Chat, topic: int | None) -> int | None:
        if topic is None:
            return None
        if not chat.is_forum:
            raise SimulationError(f"{chat.title or chat.id} has no topics")
        if topic != GENERAL_TOPIC_ID and topic not in chat.topics:
            raise SimulationError(f"no topic {topic} in {chat.title}")
        return topic

    def user_edit(self, user: Someone, message: Message, text: str) -> Message:
        """The user edits their message's text, or a media message's caption: an
        edited_message update."""
        chat = self.world.chat_of(message)
        if message.deleted or message.from_id != user.id:
            raise SimulationError("users edit only their own live messages")
        if message.media_kind == "sticker" or message.is_service:
            raise SimulationError("this message cannot be edited")
        if message.media:
            message.caption = text
        else:
            message.text = text
        message.entities = command_entities(text)
        message.edit_date = self.clock.date()
        self._deliver_edit(chat, message)
        return message

    # -- channels ---------------------------------------------------------------------

    def post_as_channel(self, chat: Chat, channel: Chat, text: str) -> Message:
        """A message in group `chat` sent on behalf of `channel` (sender_chat = the channel)."""
        message = self.post(
            chat, CHANNEL_BOT_ID, text, entities=command_entities(text), sender_chat_id=channel.id
        )
        self._deliver(chat, message)
        return message

    def channel_post(self, channel: Chat, text: str) -> tuple[Message, Message | None]:
        """The channel publishes `text` (a channel_post update if the bot administers the
        channel) and, if it has a discussion group, Telegram forwards it there
        automatically (from "Telegram", is_automatic_forward, forward_origin)."""
        if channel.type != "channel":
            raise SimulationError(f"{channel.title} is not a channel")
        entities = command_entities(text)
        post = self.post(channel, None, text, entities=entities, sender_chat_id=channel.id)
        self._deliver(channel, post)
        if channel.linked_chat_id is None:
            return post, None
        group = self.world.chats[channel.linked_chat_id]
        origin = {
            "type": "channel",
            "date": post.date,
            "chat": self.world.chat_api(channel),
            "message_id": post.message_id,
        }
        forward = self.post(
            group,
            TELEGRAM_SERVICE_ID,
            text,
            entities=list(entities),
            sender_chat_id=channel.id,
            is_automatic_forward=True,
            forward_origin=origin,
        )
        self._deliver(group, forward)
        return post, forward

    # -- deep links and buttons -----------------------------------------------------

    def open_deep_link(
        self, user: Someone, link_or_payload: str, bot: SandboxBot | None = None
    ) -> Message:
        """Open `t.me/<bot>?start=<payload>`: /start <payload> in the private chat with
        the bot the link names (just a payload: with `bot`, the default one unless given)."""
        match = re.search(r"t\.me/([A-Za-z0-9_]+)\?start=([A-Za-z0-9_-]+)", link_or_payload)
        if match:
            named = self.bot_by_username(match.group(1))
            if named is None:
                raise SimulationError(f"{link_or_payload} is not a link to a bot of the sandbox")
            bot, payload = named, match.group(2)
        else:
            payload = link_or_payload
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", payload):
            raise SimulationError(f"Telegram would not pass start parameter {payload!r}")
        chat = self.world.private_chat(self.world.users[user.id], self.bot_named(bot).id)
        return self.user_send(user, chat, f"/start {payload}")

    def deep_link(self, payload: str, bot: SandboxBot | None = None) -> str:
        return f"https://t.me/{self.bot_named(bot).username}?start={payload}"

    def press(
        self,
        user: Someone,
        chat: Chat | int,
        button_text: str,
        *,
        message_id: int | None = None,
    ) -> Press:
        """Press the inline button labelled `button_text` on the latest message showing it
        (or on `message_id`)."""
        user, chat = self._presser(user, chat)
        candidates = (
            [chat.live_message(message_id)]
            if message_id is not None
            else sorted(
                (m for m in chat.messages.values() if not m.deleted),
                key=lambda m: -m.message_id,
            )
        )
        for message in candidates:
            if message is None or message.reply_markup is None:
                continue
            for row in message.reply_markup.get("inline_keyboard", []):
                for button in row:
                    if button.get("text") == button_text:
                        return self._press(user, chat, message, button)
        raise SimulationError(f"no button {button_text!r} visible in {chat.title or chat.id}")

    def forge_press(self, user: Someone, chat: Chat | int, message_id: int, data: str) -> Press:
        """A modified client's press: any callback data on any message of the bot the
        user can see (Telegram passes the data on as it came, up to 64 bytes; it
        vouches only for the message and the user)."""
        user, chat = self._presser(user, chat)
        message = chat.live_message(message_id)
        if message is None or message.from_id not in self.bots:
            raise SimulationError(f"no message {message_id} of a bot in {chat.title or chat.id}")
        if not data or len(data.encode("utf-8")) > 64:
            raise SimulationError("Telegram passes 1 to 64 bytes of callback data")
        return self._press(user, chat, message, {"callback_data": data})

    def _presser(self, someone: Someone, where: Chat | int) -> tuple[User, Chat]:
        """Who presses where: a chat they see (their own private chat, a group they are in)."""
        user, chat = self.world.users[someone.id], self._resolve(where)
        if chat.type == "private" and chat.id != user.id:
            raise SimulationError("a private chat is seen only by its user")
        if chat.is_group and not self.world.member(chat, user.id).is_present:
            raise SimulationError(f"{user.first_name} is not in {chat.title}")
        return user, chat

    def _press(self, user: User, chat: Chat, message: Message, button: dict[str, Any]) -> Press:
        if "url" in button:
            self.open_deep_link(user, str(button["url"]))
            return Press(self, "")
        if "callback_data" not in button:
            raise SimulationError("the sandbox presses only callback and deep-link buttons")
        # The press goes to the bot whose message it is on.
        bot = self.bots.get(message.from_id or 0) or self.bots[chat.bot_id or self.default_bot.id]
        query_id = str(next(self._query_ids))
        data = str(button["callback_data"])
        self.callback_queries[query_id] = PendingQuery(
            query_id, user.id, chat.id, message.message_id, data, self.clock.now(), bot_id=bot.id
        )
        self._push(
            "callback_query",
            {
                "id": query_id,
                "from": user.to_api(),
                "message": self.world.message_api(message),
                "chat_instance": chat.chat_instance,
                "data": data,
            },
            bot,
        )
        return Press(self, query_id)

    # -- blocking -----------------------------------------------------------------------

    def block(self, user: Someone, bot: SandboxBot | None = None) -> None:
        """`user` blocks `bot` (the default one unless named)."""
        self._set_blocked(self.world.users[user.id], True, self.bot_named(bot))

    def unblock(self, user: Someone, bot: SandboxBot | None = None) -> None:
        self._set_blocked(self.world.users[user.id], False, self.bot_named(bot))

    def _set_blocked(self, user: User, blocked: bool, bot: SandboxBot) -> None:
        link = user.link(bot.id)
        if link.blocked == blocked:
            return
        link.blocked = blocked
        chat = self.world.private_chat(user, bot.id)
        me = bot.user.to_api()
        member = {"status": "member", "user": me}
        kicked = {"status": "kicked", "user": me, "until_date": 0}
        self._push(
            "my_chat_member",
            {
                "chat": self.world.chat_api(chat),
                "from": user.to_api(),
                "date": self.clock.date(),
                "old_chat_member": member if blocked else kicked,
                "new_chat_member": kicked if blocked else member,
            },
            bot,
        )

    def _resolve(self, chat: Chat | int) -> Chat:
        return chat if isinstance(chat, Chat) else self.world.resolve_chat(chat)
