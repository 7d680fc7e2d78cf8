"""Bot API methods on messages: send, edit, delete, pin, and answering button presses."""

from __future__ import annotations

from typing import Any

from tg_mafia.sandbox.errors import bad_request, forbidden
from tg_mafia.sandbox.methods.base import NOT_MODIFIED, CallContext, MethodBase
from tg_mafia.sandbox.world.state import Chat, Message

DELETE_WINDOW = 48 * 3600  # bots may delete messages for 48 hours
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
PIN_RIGHTS = "not enough rights to manage pinned messages in the chat"
CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)


class MessageMethods(MethodBase):
    async def send_message(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._chat(p, ctx)
        self._can_send(chat, "can_send_messages", "text messages")
        text, entities = self._text(p)
        markup = self._markup(p)
        place = self._placement(chat, p)
        self._charge(chat)
        message = self.sb.post(
            chat,
            text=text,
            entities=entities,
            reply_markup=markup,
            reply_to=place.reply_to,
            thread_id=place.thread_id,
            is_topic_message=place.is_topic_message,
            protected=bool(p.get("protect_content")),
            **self._sender(chat),
        )
        return self.world.message_api(message)

    async def send_chat_action(self, p: dict[str, Any], ctx: CallContext) -> Any:
        """ "typing…" for a few seconds: the same 403s and rights as a text
        message (a bot may not show it to a user who never started it)."""
        chat = self._chat(p, ctx)
        if p.get("action") not in CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        self._can_send(chat, "can_send_messages", "text messages")
        return True

    async def edit_message_text(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat, message = self._message_to_edit(p, ctx)
        if message.text is None:
            raise bad_request("there is no text in the message to edit")
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
        if query is not None and query.bot_id not in (None, self.me.id):
            query = None  # another bot's: unknown to this one
        if query is not None:
            ctx.chat_id = query.chat_id
        too_late = self.sb.limits.callback_answer_timeout
        if query is None or query.answered or self._now() - query.created > too_late:
            raise bad_request(QUERY_TOO_OLD)
        if len(p.get("text", "")) > 200:
            raise bad_request("MESSAGE_TOO_LONG")
        query.answered = True
        query.answered_at = self._now()
        query.answer = {k: p[k] for k in ("text", "show_alert", "url", "cache_time") if k in p}
        return True

    def _check_deletable(self, chat: Chat, message: Message) -> None:
        if self._now() - message.date > DELETE_WINDOW:
            raise bad_request("message can't be deleted")
        if chat.type == "private":
            return
        own = message.from_id == self.me.id and message.sender_chat_id is None
        if own:
            return
        if not self.world.bot_has_right(chat, "can_delete_messages", self.me.id):
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
        """Deletes what it can find; one album item is one message like any other."""
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

    async def pin_chat_message(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._chat(p, ctx)
        if chat.is_group:
            self._require_right(chat, "can_pin_messages", PIN_RIGHTS)
        elif chat.type == "private" and self.world.users[chat.id].link(self.me.id).blocked:
            raise forbidden("bot was blocked by the user")
        message = chat.live_message(p["message_id"])
        if message is None:
            raise bad_request("message to pin not found")
        self._charge(chat)
        if message.message_id in chat.pinned:
            chat.pinned.remove(message.message_id)
        chat.pinned.append(message.message_id)
        if chat.is_group:
            # pinning leaves a service message in groups, as in the Telegram apps;
            # in a forum, in the topic of the message pinned
            self.sb.post(
                chat,
                self.me.id,
                pinned_message_id=message.message_id,
                thread_id=message.thread_id if chat.is_forum else None,
                is_topic_message=bool(chat.is_forum and message.thread_id),
            )
        return True

    async def unpin_chat_message(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._chat(p, ctx)
        if chat.is_group:
            self._require_right(chat, "can_pin_messages", PIN_RIGHTS)
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
