"""Bot API methods on forum topics.

Rights as Telegram checks them: creating a topic needs the can_manage_topics right (or the
chat permission of that name); editing, closing and reopening need the right or having
created the topic; closing and reopening General need the right; deleting a topic needs
can_delete_messages. The service messages of the bot's own acts are kept in the chat but
not sent back to it.
"""

from __future__ import annotations

from typing import Any

from tg_mafia.sandbox.errors import bad_request
from tg_mafia.sandbox.methods.base import CallContext, MethodBase
from tg_mafia.sandbox.world.state import (
    DEFAULT_ICON_COLOR,
    GENERAL_TOPIC_ID,
    MAX_TOPIC_NAME,
    Chat,
    Topic,
)

TOGGLE_RIGHTS = "not enough rights to close or open the topic"


class ForumMethods(MethodBase):
    def _forum(self, p: dict[str, Any], ctx: CallContext) -> Chat:
        chat = self._chat(p, ctx)
        if not chat.is_forum:
            raise bad_request("the chat is not a forum")
        return chat

    def _topic(self, chat: Chat, p: dict[str, Any]) -> Topic:
        topic = chat.topics.get(p["message_thread_id"])
        if topic is None:
            raise bad_request("TOPIC_ID_INVALID")
        return topic

    def _may_edit(self, chat: Chat, topic: Topic) -> bool:
        bot_id = self.me.id
        return topic.creator_id == bot_id or self.sb.can_manage_topics(chat, bot_id)

    async def create_forum_topic(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._forum(p, ctx)
        if not self.sb.can_create_topics(chat, self.me.id):
            raise bad_request("not enough rights to create a topic")
        name = str(p["name"]).strip()
        if not name:
            raise bad_request("name must be non-empty")
        topic, _ = self.sb.open_topic(
            chat,
            self.me.id,
            name,
            int(p.get("icon_color") or DEFAULT_ICON_COLOR),
            p.get("icon_custom_emoji_id") or None,
        )
        return topic.to_api()

    async def edit_forum_topic(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._forum(p, ctx)
        topic = self._topic(chat, p)
        if not self._may_edit(chat, topic):
            raise bad_request("not enough rights to edit the topic")
        name = str(p.get("name") or "").strip()[:MAX_TOPIC_NAME]
        if not name and "icon_custom_emoji_id" not in p:
            return True  # nothing asked: Telegram does nothing and says yes
        edited: dict[str, Any] = {}
        if name and name != topic.name:
            edited["name"] = name
        emoji = p.get("icon_custom_emoji_id")
        if "icon_custom_emoji_id" in p and (emoji or None) != topic.icon_custom_emoji_id:
            edited["icon_custom_emoji_id"] = emoji or ""
        if not edited:
            raise bad_request("TOPIC_NOT_MODIFIED")
        self.sb.rename_topic(chat, topic.thread_id, self.me.id, edited)
        return True

    async def close_forum_topic(self, p: dict[str, Any], ctx: CallContext) -> Any:
        return self._toggle(p, ctx, closed=True)

    async def reopen_forum_topic(self, p: dict[str, Any], ctx: CallContext) -> Any:
        return self._toggle(p, ctx, closed=False)

    def _toggle(self, p: dict[str, Any], ctx: CallContext, *, closed: bool) -> bool:
        chat = self._forum(p, ctx)
        topic = self._topic(chat, p)
        if not self._may_edit(chat, topic):
            raise bad_request(TOGGLE_RIGHTS)
        if topic.closed == closed:
            raise bad_request("TOPIC_NOT_MODIFIED")
        self.sb.set_topic_closed(chat, topic.thread_id, closed, self.me.id)
        return True

    async def delete_forum_topic(self, p: dict[str, Any], ctx: CallContext) -> Any:
        """ "The bot must be an administrator in the chat for this to work and must have the
        can_delete_messages administrator rights." """
        chat = self._forum(p, ctx)
        topic = self._topic(chat, p)
        self._require_right(chat, "can_delete_messages", "not enough rights to delete the topic")
        self.sb.remove_topic(chat, topic.thread_id)
        return True

    async def close_general_forum_topic(self, p: dict[str, Any], ctx: CallContext) -> Any:
        return self._toggle_general(p, ctx, closed=True)

    async def reopen_general_forum_topic(self, p: dict[str, Any], ctx: CallContext) -> Any:
        return self._toggle_general(p, ctx, closed=False)

    def _toggle_general(self, p: dict[str, Any], ctx: CallContext, *, closed: bool) -> bool:
        chat = self._forum(p, ctx)
        if not self.sb.can_manage_topics(chat, self.me.id):
            raise bad_request(TOGGLE_RIGHTS)
        if chat.general_closed == closed:
            raise bad_request("TOPIC_NOT_MODIFIED")
        self.sb.set_topic_closed(chat, GENERAL_TOPIC_ID, closed, self.me.id)
        return True
