"""What the between-games tests share: the media the bot sent, read back
from the sandbox."""

from __future__ import annotations

import json
from io import BytesIO
from typing import Any

from PIL import Image

from tests.bot.harness import Harness
from tg_mafia.sandbox.world.state import Message


def messages(h: Harness, chat_id: int) -> list[Message]:
    """The chat's live messages, oldest first."""
    chat = h.sb.world.resolve_chat(chat_id)
    return sorted((m for m in chat.messages.values() if not m.deleted), key=lambda m: m.message_id)


def photos(h: Harness, chat_id: int) -> list[tuple[Message, bytes]]:
    """The bot's photos in the chat, each with the bytes of its largest size."""
    found = []
    for message in messages(h, chat_id):
        if message.from_id == h.sb.world.bot.id and message.media_kind == "photo":
            largest = message.media["photo"][-1]
            found.append((message, h.sb.file_bytes(largest["file_id"])))
    return found


def documents(h: Harness, chat_id: int) -> list[tuple[Message, str, bytes]]:
    """The bot's documents in the chat: the message, the file's name, its bytes."""
    found = []
    for message in messages(h, chat_id):
        if message.from_id == h.sb.world.bot.id and message.media_kind == "document":
            document = message.media["document"]
            found.append((message, document["file_name"], h.sb.file_bytes(document["file_id"])))
    return found


def protocol_documents(h: Harness, chat_id: int) -> list[dict[str, Any]]:
    return [json.loads(data) for _, name, data in documents(h, chat_id) if name.endswith(".json")]


def image_size(png: bytes) -> tuple[int, int]:
    with Image.open(BytesIO(png)) as image:
        assert image.format == "PNG"
        return image.size
