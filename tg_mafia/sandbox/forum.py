"""Forum supergroups: topics, the General topic, and who may post where.

A topic's id (message_thread_id) is the id of its forum_topic_created service message.
Messages in a topic carry message_thread_id and is_topic_message, and reply implicitly to
that first message; messages in General carry neither. A closed topic takes posts only
from administrators with can_manage_topics and from the topic's creator (Telegram's rule;
the Bot API answers anyone else 400 TOPIC_CLOSED). The same holds for a closed General.
A deleted topic goes with all its messages (deleteForumTopic: "delete a forum topic along
with all its messages"); no service message tells of it, and a post into it is refused
("message thread not found", as Telegram answers in groups).
"""

from __future__ import annotations

from typing import Any

from tg_mafia.sandbox.base import SandboxBase
from tg_mafia.sandbox.errors import SimulationError
from tg_mafia.sandbox.world.state import (
    DEFAULT_ICON_COLOR,
    GENERAL_TOPIC_ID,
    MAX_TOPIC_NAME,
    Chat,
    Message,
    Topic,
)


class Forums(SandboxBase):
    # -- rights -----------------------------------------------------------------------

    def can_manage_topics(self, chat: Chat, user_id: int) -> bool:
        member = self.world.member(chat, user_id)
        if member.status == "creator":
            return True
        return member.status == "administrator" and member.rights.get("can_manage_topics", False)

    def can_create_topics(self, chat: Chat, user_id: int) -> bool:
        if self.can_manage_topics(chat, user_id):
            return True
        member = self.world.member(chat, user_id)
        if not member.is_present:
            return False
        allowed = chat.permissions.get("can_manage_topics", False)
        if member.status == "restricted":
            allowed = allowed and member.restrictions.get("can_manage_topics", False)
        return allowed

    def may_post_in_thread(self, chat: Chat, user_id: int, thread_id: int | None) -> bool:
        """False when the topic (or General, for None) is closed to this poster."""
        if thread_id is None:
            return not chat.general_closed or self.can_manage_topics(chat, user_id)
        topic = chat.topics[thread_id]
        return (
            not topic.closed or topic.creator_id == user_id or self.can_manage_topics(chat, user_id)
        )

    # -- where a new message goes ---------------------------------------------------

    def thread_of(
        self, chat: Chat, topic: int | None, reply_to: Message | None
    ) -> tuple[int | None, bool]:
        """(message_thread_id, is_topic_message) for a new message in `chat` posted into
        `topic` (a thread id, or None) or replying to `reply_to`.

        In a forum a reply goes to the replied message's topic. In other supergroups a
        reply belongs to the thread of the message it answers (Telegram's reply threads)."""
        if chat.is_forum:
            if topic is None and reply_to is not None and reply_to.is_topic_message:
                topic = reply_to.thread_id
            if topic is None or topic == GENERAL_TOPIC_ID:
                return None, False
            return topic, True
        if chat.type == "supergroup" and reply_to is not None:
            return reply_to.thread_id or reply_to.message_id, False
        return None, False

    # -- topics ---------------------------------------------------------------------

    def open_topic(
        self,
        chat: Chat,
        creator_id: int,
        name: str,
        icon_color: int = DEFAULT_ICON_COLOR,
        icon_custom_emoji_id: str | None = None,
    ) -> tuple[Topic, Message]:
        """A new topic and its forum_topic_created service message (not yet delivered)."""
        created: dict[str, Any] = {"name": name[:MAX_TOPIC_NAME], "icon_color": icon_color}
        if icon_custom_emoji_id:
            created["icon_custom_emoji_id"] = icon_custom_emoji_id
        thread_id = chat.next_message_id  # the service message's own id
        message = self.post(
            chat,
            creator_id,
            service={"forum_topic_created": created},
            thread_id=thread_id,
            is_topic_message=True,
        )
        topic = Topic(
            thread_id, created["name"], icon_color, creator_id, icon_custom_emoji_id or None
        )
        chat.topics[thread_id] = topic
        return topic, message

    def set_topic_closed(self, chat: Chat, thread_id: int, closed: bool, by_id: int) -> Message:
        """Close or reopen a topic (GENERAL_TOPIC_ID: General), with its service message."""
        key = "forum_topic_closed" if closed else "forum_topic_reopened"
        if thread_id == GENERAL_TOPIC_ID:
            chat.general_closed = closed
            return self.post(chat, by_id, service={key: {}})
        chat.topics[thread_id].closed = closed
        return self.post(chat, by_id, service={key: {}}, thread_id=thread_id, is_topic_message=True)

    def remove_topic(self, chat: Chat, thread_id: int) -> None:
        """A topic deleted: it goes, and every message in it."""
        del chat.topics[thread_id]
        for message in chat.messages.values():
            if message.thread_id == thread_id and message.is_topic_message:
                message.deleted = True
        chat.pinned = [m for m in chat.pinned if not chat.messages[m].deleted]

    def rename_topic(
        self, chat: Chat, thread_id: int, by_id: int, edited: dict[str, Any]
    ) -> Message:
        """Apply a forum_topic_edited change ({"name": ..., "icon_custom_emoji_id": ...})."""
        topic = chat.topics[thread_id]
        if "name" in edited:
            topic.name = edited["name"]
        if "icon_custom_emoji_id" in edited:
            topic.icon_custom_emoji_id = edited["icon_custom_emoji_id"] or None
        return self.post(
            chat,
            by_id,
            service={"forum_topic_edited": edited},
            thread_id=thread_id,
            is_topic_message=True,
        )

    # -- users managing topics ------------------------------------------------------

    def create_topic(
        self,
        chat: Chat,
        name: str,
        *,
        by: Any,
        icon_color: int = DEFAULT_ICON_COLOR,
    ) -> int:
        """`by` creates a topic in forum `chat`; returns its message_thread_id."""
        self._require_forum(chat)
        if not self.can_create_topics(chat, by.id):
            raise SimulationError(f"user {by.id} may not create topics in {chat.title}")
        if not name.strip():
            raise SimulationError("a topic needs a name")
        topic, message = self.open_topic(chat, by.id, name, icon_color)
        self._deliver(chat, message)
        return topic.thread_id

    def close_topic(self, chat: Chat, thread_id: int, *, by: Any) -> Message:
        """`by` closes a topic (GENERAL_TOPIC_ID for General)."""
        return self._toggle_topic(chat, thread_id, True, by)

    def reopen_topic(self, chat: Chat, thread_id: int, *, by: Any) -> Message:
        return self._toggle_topic(chat, thread_id, False, by)

    def delete_topic(self, chat: Chat, thread_id: int, *, by: Any) -> None:
        """`by` (an administrator who may delete messages) deletes a topic and all its
        messages. Telegram sends the bot nothing for it."""
        self._require_forum(chat)
        self._topic(chat, thread_id)
        member = self.world.member(chat, by.id)
        if not (
            member.status == "creator"
            or (member.status == "administrator" and member.rights.get("can_delete_messages"))
        ):
            raise SimulationError(f"user {by.id} may not delete topics in {chat.title}")
        self.remove_topic(chat, thread_id)

    def _toggle_topic(self, chat: Chat, thread_id: int, closed: bool, by: Any) -> Message:
        self._require_forum(chat)
        if thread_id == GENERAL_TOPIC_ID:
            allowed = self.can_manage_topics(chat, by.id)
            current = chat.general_closed
        else:
            topic = self._topic(chat, thread_id)
            allowed = topic.creator_id == by.id or self.can_manage_topics(chat, by.id)
            current = topic.closed
        if not allowed:
            raise SimulationError(f"user {by.id} may not close or reopen this topic")
        if current == closed:
            raise SimulationError(f"the topic is already {'closed' if closed else 'open'}")
        message = self.set_topic_closed(chat, thread_id, closed, by.id)
        self._deliver(chat, message)
        return message

    def _require_forum(self, chat: Chat) -> None:
        if not chat.is_forum:
            raise SimulationError(f"{chat.title} is not a forum")

    def _topic(self, chat: Chat, thread_id: int) -> Topic:
        topic = chat.topics.get(thread_id)
        if topic is None:
            raise SimulationError(f"no topic {thread_id} in {chat.title}")
        return topic
