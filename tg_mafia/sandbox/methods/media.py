"""Bot API methods sending media: sendPhoto and sendDocument (an upload, or a file_id sent
again), and editMessageCaption. Sending by URL is not modelled: the sandbox has no
network, so it raises SandboxBug rather than pretend."""

from __future__ import annotations

import re
from typing import Any

from tg_mafia.sandbox.errors import SandboxBug, bad_request
from tg_mafia.sandbox.methods.base import NOT_MODIFIED, CallContext, MethodBase
from tg_mafia.sandbox.world import media
from tg_mafia.sandbox.world.files import Upload


class MediaMethods(MethodBase):
    async def send_photo(self, p: dict[str, Any], ctx: CallContext) -> Any:
        return self._send_media(p, ctx, "photo", "can_send_photos", "photos")

    async def send_document(self, p: dict[str, Any], ctx: CallContext) -> Any:
        return self._send_media(p, ctx, "document", "can_send_documents", "documents")

    def _send_media(
        self, p: dict[str, Any], ctx: CallContext, kind: str, permission: str, what: str
    ) -> Any:
        chat = self._chat(p, ctx)
        self._can_send(chat, permission, what)
        caption, entities = self._caption(p)
        markup = self._markup(p)
        place = self._placement(chat, p)
        made = self._media(kind, p[kind])
        self._charge(chat)
        made.keep(self.sb.files)
        message = self.sb.post(
            chat,
            media=made.fields,
            caption=caption,
            entities=entities,
            reply_markup=markup,
            reply_to=place.reply_to,
            thread_id=place.thread_id,
            is_topic_message=place.is_topic_message,
            protected=bool(p.get("protect_content")),
            **self._sender(chat),
        )
        return self.world.message_api(message)

    def _media(self, kind: str, value: Any) -> media.Media:
        store, limits = self.sb.files, self.sb.limits
        if isinstance(value, Upload):
            if kind == "photo":
                return media.photo(store, value.content, limits)
            return media.document(store, value, limits)
        text = str(value)
        if re.match(r"(?i)https?://", text):
            raise SandboxBug(f"sending a file by URL is not modelled (no network): {text}")
        return media.resend(store, kind, text)

    async def edit_message_caption(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat, message = self._message_to_edit(p, ctx)
        if not message.media or message.media_kind == "sticker":
            raise bad_request("there is no caption in the message to edit")
        caption, entities = self._caption(p)
        markup = self._markup(p)
        current = (message.caption, message.entities, message.reply_markup)
        if (caption, entities, markup) == current:
            raise bad_request(NOT_MODIFIED)
        self._charge(chat)
        message.caption, message.entities, message.reply_markup = caption, entities, markup
        message.edit_date = self.sb.clock.date()
        return self.world.message_api(message)
