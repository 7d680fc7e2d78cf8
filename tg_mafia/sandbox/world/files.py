"""The files Telegram holds: what the bot uploaded and what simulated users sent.

Every file keeps its bytes, so a test can read back what the bot sent
(`Sandbox.file_bytes(file_id)`). A file_id names one stored file; the API value it was
sent as (a list of PhotoSize, a Document, ...) is kept too, so a file_id can be sent again.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
from dataclasses import dataclass, field
from typing import Any

# Telegram's file_id prefixes by kind, so ids look like the real ones in logs.
_PREFIX = {
    "photo": "AgACAgIAAxkBAAI",
    "document": "BQACAgIAAxkBAAI",
    "sticker": "CAACAgIAAxkBAAI",
    "voice": "AwACAgIAAxkBAAI",
    "video": "BAACAgIAAxkBAAI",
    "animation": "CgACAgIAAxkBAAI",
}


@dataclass(frozen=True)
class Upload:
    """A file sent in the request body (multipart), as either transport receives it."""

    filename: str
    content: bytes
    mime_type: str = "application/octet-stream"


@dataclass(frozen=True)
class StoredFile:
    file_id: str
    file_unique_id: str
    kind: str
    content: bytes

    def api_fields(self) -> dict[str, Any]:
        """The fields every file object shares (PhotoSize, Document, Sticker, ...)."""
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_size": len(self.content),
        }


@dataclass
class FileStore:
    _files: dict[str, StoredFile] = field(default_factory=dict)
    _sent_as: dict[str, tuple[str, Any]] = field(default_factory=dict)
    _serial: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def new(self, kind: str, content: bytes) -> StoredFile:
        """A file with fresh ids, not yet kept (a refused call must leave no trace)."""
        serial = next(self._serial)
        tail = base64.urlsafe_b64encode(f"{kind}:{serial:08d}".encode()).decode().rstrip("=")
        digest = hashlib.sha256(kind.encode() + content).digest()[:12]
        unique = "AQAD" + base64.urlsafe_b64encode(digest).decode().rstrip("=")
        return StoredFile(_PREFIX[kind] + tail, unique, kind, content)

    def keep(self, kind: str, files: list[StoredFile], api_value: Any) -> None:
        """Keep `files`, each of which can later be sent again as `api_value`."""
        for stored in files:
            self._files[stored.file_id] = stored
            self._sent_as[stored.file_id] = (kind, api_value)

    def __len__(self) -> int:
        return len(self._files)

    def get(self, file_id: str) -> StoredFile | None:
        return self._files.get(file_id)

    def sent_as(self, file_id: str) -> tuple[str, Any] | None:
        """(kind, API value) of the media a file_id belongs to."""
        return self._sent_as.get(file_id)
