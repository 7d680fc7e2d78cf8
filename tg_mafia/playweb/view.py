"""A chat as one user's Telegram shows it, as JSON for the page: the messages
still there (a deleted one is gone), their text or caption as safe HTML, a
picture or a file, edited and pinned marks, service lines (in the page's
language) and inline buttons."""

from __future__ import annotations

from html import escape
from typing import Any

from tg_mafia.i18n import Translator, translator
from tg_mafia.playweb import words
from tg_mafia.sandbox import Chat, Message, Sandbox, SimulationError, User

# Telegram's formatting entities and the tags the page draws them with.
_TAGS = {
    "bold": ("<b>", "</b>"),
    "italic": ("<i>", "</i>"),
    "underline": ("<u>", "</u>"),
    "strikethrough": ("<s>", "</s>"),
    "spoiler": ('<span class="spoiler">', "</span>"),
    "code": ("<code>", "</code>"),
    "pre": ("<pre>", "</pre>"),
    "blockquote": ("<blockquote>", "</blockquote>"),
    "expandable_blockquote": ("<blockquote>", "</blockquote>"),
    "bot_command": ('<span class="command">', "</span>"),
    "mention": ('<span class="mention">', "</span>"),
}
_LINK_SCHEMES = ("https://", "http://")


def chat_messages(
    sb: Sandbox, user: User, chat: Chat, t: Translator | None = None
) -> list[dict[str, Any]]:
    """The live messages of `chat` as `user` sees them, oldest first."""
    if chat.type == "private" and chat.id != user.id:
        raise SimulationError("a private chat is seen only by its user")
    t = t or translator("en")
    return [
        message_json(sb, chat, message, t)
        for message in sorted(chat.messages.values(), key=lambda m: m.message_id)
        if not message.deleted
    ]


def message_json(sb: Sandbox, chat: Chat, message: Message, t: Translator) -> dict[str, Any]:
    sender = sb.world.users.get(message.from_id or 0)
    if message.sender_chat_id is not None:
        name = sb.world.chats[message.sender_chat_id].title or ""
    else:
        name = sender.first_name if sender else ""
    keyboard = (message.reply_markup or {}).get("inline_keyboard", [])
    return {
        "id": message.message_id,
        "sender": name,
        "sender_id": message.from_id,
        "from_bot": bool(sender and sender.is_bot),
        "html": to_html(message.text or message.caption or "", message.entities),
        "media": _media(chat, message),
        "service": _service(sb, chat, message, t),
        "edited": message.edit_date is not None,
        "pinned": message.message_id in chat.pinned,
        "buttons": [[_button(button) for button in row] for row in keyboard],
    }


def _button(button: dict[str, Any]) -> dict[str, str]:
    return {"text": str(button.get("text", "")), "kind": "url" if "url" in button else "callback"}


def media_path(chat: Chat, message: Message) -> str:
    """Where the page fetches a message's picture or file (server.py)."""
    return f"/media/{chat.id}/{message.message_id}"


def _media(chat: Chat, message: Message) -> dict[str, Any] | None:
    """A picture to draw, or a file to download; other media: their kind."""
    kind = message.media_kind
    if kind is None:
        return None
    if kind == "photo":
        size = message.media["photo"][-1]
        return {
            "kind": "photo",
            "url": media_path(chat, message),
            "width": int(size.get("width", 0)),
            "height": int(size.get("height", 0)),
        }
    if kind == "document":
        name = str(message.media["document"].get("file_name", "")) or "file"
        return {"kind": "document", "url": media_path(chat, message), "name": name}
    return {"kind": kind}


def _service(sb: Sandbox, chat: Chat, message: Message, t: Translator) -> str | None:
    """A service message's line, as the Telegram apps word it."""
    joined = message.service.get("new_chat_members")
    if joined:
        return words.joined(t, [str(user.get("first_name", "")) for user in joined])
    left = message.service.get("left_chat_member")
    if left:
        return words.left(t, str(left.get("first_name", "")))
    if message.pinned_message_id is not None:
        pinned = chat.messages.get(message.pinned_message_id)
        text = (pinned.text or pinned.caption or "") if pinned else ""
        quoted = text.splitlines()[0] if text else None
        who = sb.world.users[message.from_id].first_name if message.from_id else ""
        return words.pinned(t, who, quoted)
    return None


def to_html(text: str, entities: list[dict[str, Any]]) -> str:
    """`text` with its entities as HTML; every character of the text escaped.
    Offsets and lengths count UTF-16 code units, as in the Bot API."""
    units = text.encode("utf-16-le")

    def plain(start: int, end: int) -> str:
        return escape(units[2 * start : 2 * end].decode("utf-16-le", errors="replace"))

    out: list[str] = []
    open_ends: list[tuple[int, str]] = []  # (end, closing tag), innermost last
    position = 0
    for entity in sorted(entities, key=lambda e: (e["offset"], -e["length"])):
        start = entity["offset"]
        tags = _tags(entity)
        if tags is None or start < position:
            continue
        while open_ends and open_ends[-1][0] <= start:
            end, closing = open_ends.pop()
            out.append(plain(position, end) + closing)
            position = end
        out.append(plain(position, start) + tags[0])
        position = start
        # An entity reaching past the one around it is cut at its end.
        end = start + entity["length"]
        if open_ends:
            end = min(end, open_ends[-1][0])
        open_ends.append((end, tags[1]))
    while open_ends:
        end, closing = open_ends.pop()
        out.append(plain(position, end) + closing)
        position = end
    out.append(plain(position, len(units) // 2))
    return "".join(out)


def _tags(entity: dict[str, Any]) -> tuple[str, str] | None:
    kind = entity.get("type")
    if kind == "text_link":
        url = str(entity.get("url", ""))
        if not url.startswith(_LINK_SCHEMES):
            return ('<span class="link">', "</span>")
        return (
            f'<a href="{escape(url)}" target="_blank" rel="noopener noreferrer">',
            "</a>",
        )
    if kind == "text_mention":
        user_id = int((entity.get("user") or {}).get("id", 0))
        return (f'<span class="mention" data-user="{user_id}">', "</span>")
    if kind == "date_time":
        # The page writes the time as the reader's app would (play.js); the text is the fallback.
        unix = int(entity.get("unix_time", 0))
        style = escape(str(entity.get("date_time_format", "")))
        return (f'<time class="moment" data-unix="{unix}" data-format="{style}">', "</time>")
    return _TAGS.get(str(kind))
