"""What users see in the app: each chat after edits and deletions, as VisibleMessages or as
plain text."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tg_mafia.sandbox.base import SandboxBase
from tg_mafia.sandbox.errors import SimulationError
from tg_mafia.sandbox.world.state import GENERAL_TOPIC_ID, Chat, Message


@dataclass(frozen=True)
class VisibleMessage:
    """A message as a user sees it in the app, after edits and deletions."""

    message_id: int
    sender_id: int | None
    sender: str
    text: str | None
    buttons: list[list[str]]
    edited: bool
    pinned: bool
    service: str | None = None
    media: str | None = None  # photo, document, sticker, voice, video, animation
    caption: str | None = None
    entities: list[dict[str, Any]] = field(default_factory=list)  # of the text or caption
    thread_id: int | None = None  # the forum topic (None: General) or reply thread
    media_group_id: str | None = None
    protected: bool = False

    @property
    def body(self) -> str | None:
        """The text, or the caption of a media message."""
        return self.text if self.text is not None else self.caption

    def entity_text(self, entity: dict[str, Any]) -> str:
        """The part of the body an entity covers (offsets count UTF-16 code units)."""
        encoded = (self.body or "").encode("utf-16-le")
        start = entity["offset"] * 2
        return encoded[start : start + entity["length"] * 2].decode("utf-16-le")

    def entities_of(self, kind: str) -> list[dict[str, Any]]:
        """The entities of one type, e.g. "date_time" (each has unix_time and
        date_time_format) or "bot_command"."""
        return [e for e in self.entities if e.get("type") == kind]


class Views(SandboxBase):
    def view(
        self, user: Any, chat: Chat | int, *, topic: int | None = None
    ) -> list[VisibleMessage]:
        """What `user` sees in `chat`; in a forum, `topic` picks one topic
        (GENERAL_TOPIC_ID: General)."""
        chat = chat if isinstance(chat, Chat) else self.world.resolve_chat(chat)
        if chat.type == "private" and chat.id != user.id:
            raise SimulationError("a private chat is seen only by its user")
        out = []
        for message in chat.messages.values():
            if message.deleted or not _in_topic(message, topic):
                continue
            out.append(self._visible(chat, message))
        return out

    def _visible(self, chat: Chat, message: Message) -> VisibleMessage:
        if message.sender_chat_id is not None:
            sender = self.world.chats[message.sender_chat_id].title or ""
        elif message.from_id is not None:
            sender = self.world.users[message.from_id].first_name
        else:
            sender = ""
        buttons = [
            [str(b.get("text", "")) for b in row]
            for row in (message.reply_markup or {}).get("inline_keyboard", [])
        ]
        return VisibleMessage(
            message_id=message.message_id,
            sender_id=message.from_id,
            sender=sender,
            text=message.text,
            buttons=buttons,
            edited=message.edit_date is not None,
            pinned=message.message_id in chat.pinned,
            service=self._describe_service(message),
            media=message.media_kind,
            caption=message.caption,
            entities=[dict(e) for e in message.entities],
            thread_id=message.thread_id,
            media_group_id=message.media_group_id,
            protected=message.protected,
        )

    def _describe_service(self, message: Message) -> str | None:
        if message.pinned_message_id is not None:
            return f"pinned {message.pinned_message_id}"
        service = message.service
        if "new_chat_members" in service:
            joined = service["new_chat_members"]
            if [u["id"] for u in joined] == [message.from_id]:
                return "joined"
            return "added " + ", ".join(u["first_name"] for u in joined)
        if "left_chat_member" in service:
            left = service["left_chat_member"]
            return "left" if left["id"] == message.from_id else f"removed {left['first_name']}"
        if "migrate_to_chat_id" in service:
            return f"upgraded to supergroup {service['migrate_to_chat_id']}"
        if "migrate_from_chat_id" in service:
            return f"upgraded from group {service['migrate_from_chat_id']}"
        if "forum_topic_created" in service:
            return f"created topic {service['forum_topic_created']['name']}"
        if "forum_topic_edited" in service:
            return "edited the topic"
        if "forum_topic_closed" in service:
            return "closed the topic"
        if "forum_topic_reopened" in service:
            return "reopened the topic"
        return None

    def render(self, user: Any, chat: Chat | int) -> str:
        """The chat as plain text, one message per block (for demos and failing tests).
        Formatting is dropped: a date_time entity shows its text."""
        lines = []
        for m in self.view(user, chat):
            mark = " (edited)" if m.edited else ""
            body = m.service or m.body or ""
            if m.media:
                body = f"[{m.media}] {body}".rstrip()
            lines.append(f"[{m.message_id}] {m.sender}{mark}: {body}")
            lines.extend("    " + " | ".join(f"[{b}]" for b in row) for row in m.buttons)
        return "\n".join(lines)


def _in_topic(message: Message, topic: int | None) -> bool:
    if topic is None:
        return True
    if topic == GENERAL_TOPIC_ID:
        return not message.is_topic_message
    return message.is_topic_message and message.thread_id == topic
