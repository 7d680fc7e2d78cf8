"""Media as Telegram makes it: photos checked and resized, documents, stickers, voice,
video and animations, each a `Media` (the message fields plus the files to keep).

Photos are decoded with Pillow and refused as Telegram refuses them: at most 10 MB,
width + height at most 10000, a side ratio of at most 20, a real image. Telegram keeps
several sizes of a photo (a PhotoSize each, smallest first); the largest is at most 2560
pixels a side and is the bytes sent when they fit.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from typing import Any

from PIL import Image

from tg_mafia.sandbox.errors import ApiError, bad_request
from tg_mafia.sandbox.limits import Limits
from tg_mafia.sandbox.world.files import FileStore, StoredFile, Upload

PHOTO_BOXES = (90, 320, 800, 1280)  # the smaller sizes Telegram keeps
PHOTO_LARGEST = 2560
PHOTO_MAX_SIDES = 10000
PHOTO_MAX_RATIO = 20
STICKER_SIDE = 512


@dataclass(frozen=True)
class Media:
    kind: str
    fields: dict[str, Any]  # the message's fields, e.g. {"photo": [PhotoSize, ...]}
    files: list[StoredFile]  # kept once the message is sent
    value: Any  # what a file_id of it is sent again as

    def keep(self, store: FileStore) -> None:
        store.keep(self.kind, self.files, self.value)


def _require_content(content: bytes) -> None:
    if not content:
        raise bad_request("file must be non-empty")


def photo(store: FileStore, content: bytes, limits: Limits) -> Media:
    _require_content(content)
    if len(content) > limits.photo_bytes:
        raise bad_request(
            f"file of size {len(content)} bytes is too big for a photo; "
            f"the maximum size is {limits.photo_bytes} bytes"
        )
    image = _decode(content)
    width, height = image.size
    sizes: list[tuple[StoredFile, int, int]] = []
    rgb = image.convert("RGB")
    for box in PHOTO_BOXES:
        if max(width, height) > box:
            sizes.append(_resized(store, rgb, box))
    if max(width, height) > PHOTO_LARGEST:
        sizes.append(_resized(store, rgb, PHOTO_LARGEST))
    else:
        sizes.append((store.new("photo", content), width, height))
    value = [{**f.api_fields(), "width": w, "height": h} for f, w, h in sizes]
    return Media("photo", {"photo": value}, [f for f, _, _ in sizes], value)


def _decode(content: bytes) -> Image.Image:
    """The image in `content`, or the 400 Telegram answers for it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(content))
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        # so many pixels that width + height is far past the limit
        raise bad_request("PHOTO_INVALID_DIMENSIONS") from None
    except (OSError, ValueError):
        raise bad_request("IMAGE_PROCESS_FAILED") from None
    width, height = image.size
    if width + height > PHOTO_MAX_SIDES or max(width, height) > PHOTO_MAX_RATIO * min(
        width, height
    ):
        raise bad_request("PHOTO_INVALID_DIMENSIONS")
    try:
        image.load()
    except (OSError, ValueError):
        raise bad_request("IMAGE_PROCESS_FAILED") from None
    return image


def _resized(store: FileStore, image: Image.Image, box: int) -> tuple[StoredFile, int, int]:
    copy = image.copy()
    copy.thumbnail((box, box))
    out = io.BytesIO()
    copy.save(out, "JPEG", quality=80)
    return store.new("photo", out.getvalue()), copy.width, copy.height


def document(store: FileStore, upload: Upload, limits: Limits) -> Media:
    _require_content(upload.content)
    if len(upload.content) > limits.document_bytes:
        # the Bot API's front refuses the upload itself
        raise ApiError(413, "Request Entity Too Large")
    stored = store.new("document", upload.content)
    value = {
        **stored.api_fields(),
        "file_name": upload.filename,
        "mime_type": upload.mime_type,
    }
    return Media("document", {"document": value}, [stored], value)


def resend(store: FileStore, kind: str, file_id: str) -> Media:
    """Media sent again by file_id: no new file, the same API value."""
    found = store.sent_as(file_id)
    if found is None:
        raise bad_request("wrong file identifier/HTTP URL specified")
    real_kind, value = found
    if real_kind != kind:
        raise bad_request(f"can't use file of type {real_kind.title()} as {kind.title()}")
    return Media(kind, {kind: value}, [], value)


# -- what simulated users send --------------------------------------------------------


def sample_image(width: int = 640, height: int = 480) -> bytes:
    """A real PNG, for a user who sends a photo without giving one."""
    out = io.BytesIO()
    Image.new("RGB", (width, height), (90, 140, 200)).save(out, "PNG")
    return out.getvalue()


def sticker(store: FileStore, emoji: str) -> Media:
    out = io.BytesIO()
    Image.new("RGBA", (STICKER_SIDE, STICKER_SIDE), (250, 200, 60, 255)).save(out, "WEBP")
    stored = store.new("sticker", out.getvalue())
    value = {
        **stored.api_fields(),
        "type": "regular",
        "width": STICKER_SIDE,
        "height": STICKER_SIDE,
        "is_animated": False,
        "is_video": False,
        "emoji": emoji,
    }
    return Media("sticker", {"sticker": value}, [stored], value)


def voice(store: FileStore, content: bytes, duration: int) -> Media:
    _require_content(content)
    stored = store.new("voice", content)
    value = {**stored.api_fields(), "duration": duration, "mime_type": "audio/ogg"}
    return Media("voice", {"voice": value}, [stored], value)


def video(
    store: FileStore, content: bytes, duration: int, width: int, height: int, animation: bool
) -> Media:
    """A video, or an animation (a silent looping video, a GIF once): an animation also
    fills `document`, as Telegram sends it for old clients."""
    _require_content(content)
    kind = "animation" if animation else "video"
    stored = store.new(kind, content)
    value = {
        **stored.api_fields(),
        "width": width,
        "height": height,
        "duration": duration,
        "mime_type": "video/mp4",
    }
    if animation:
        value["file_name"] = "animation.mp4"
        document_value = {k: value[k] for k in ("file_id", "file_unique_id", "file_size")}
        document_value.update(file_name="animation.mp4", mime_type="video/mp4")
        fields = {"animation": value, "document": document_value}
        return Media(kind, fields, [stored], value)
    return Media(kind, {"video": value}, [stored], value)
