"""A call the bot decided to make, as data: written to the outbox in the
same transaction as the action that caused it, and sent later by the
sender (sender.py). Plain JSON, so it survives a crash and any process
can send it."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

# Where a stage's deadline goes in a text: filled in when the message is
# actually sent, so the time shown is the time the stage really ends.
DEADLINE: Final = "\u2063deadline\u2063"
# An op's extra key for a call worth making only now: {"token": the stage's timer,
# "until": its deadline}. The sender drops it (settled, no call) when the chat's
# budget has no room at once, the stage has moved on, or too little time is left.
SPARE: Final = "spare"
RELATIVE_DEADLINE: Final = "\u2063deadline:r\u2063"  # the same, shown as "in 45 seconds"


class Method(StrEnum):
    SEND = "send"
    EDIT = "edit"  # a living message, found by its key
    CLEAR = "clear"  # a living message loses its buttons
    DELETE = "delete"  # a living message (key) or a player's post (message_id)
    PIN = "pin"
    UNPIN = "unpin"
    PERMISSIONS = "permissions"  # the group's permissions (the masked night)
    TOPIC = "topic"  # a forum topic closed or reopened (the masked night in a forum)
    RESTRICT = "restrict"  # a forum's night: the players may post nowhere until morning
    PHOTO = "photo"  # a picture, drawn by the sender from `picture`
    DOCUMENT = "document"  # a file made of `file`: its name and its text


class Priority:
    GAME = 0  # the game's own messages
    ANSWER = 1  # answers to commands
    REMINDER = 2  # said again after a restart


# A button as stored: its label and either callback data or a URL.
ButtonData = dict[str, str]
Keyboard = list[list[ButtonData]]


@dataclass
class Op:
    method: Method
    text: str | None = None
    keyboard: Keyboard | None = None
    key: str | None = None  # the living message this op sends or changes
    message_id: int | None = None  # a message that is not living (a player's post)
    mergeable: bool = False  # plain text that may join its neighbours in one message
    protect: bool = False  # protect_content: a role card
    # A stage whose timer starts when this message reaches the chat.
    timer: dict[str, Any] | None = None
    permissions: dict[str, bool] | None = None  # PERMISSIONS: None closes the chat
    final: bool = False  # PERMISSIONS: the game's last restore (forget the saved ones)
    picture: dict[str, Any] | None = None  # PHOTO: what to draw (drawings.py)
    file: dict[str, str] | None = None  # DOCUMENT: {"name": ..., "content": ...}
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"m": self.method.value}
        for name in (
            "text",
            "keyboard",
            "key",
            "message_id",
            "timer",
            "permissions",
            "picture",
            "file",
        ):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        for name in ("mergeable", "protect", "final"):
            if getattr(self, name):
                data[name] = True
        if self.extra:
            data["extra"] = self.extra
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Op:
        return cls(
            method=Method(data["m"]),
            text=data.get("text"),
            keyboard=data.get("keyboard"),
            key=data.get("key"),
            message_id=data.get("message_id"),
            mergeable=bool(data.get("mergeable")),
            protect=bool(data.get("protect")),
            timer=data.get("timer"),
            permissions=data.get("permissions"),
            final=bool(data.get("final")),
            picture=data.get("picture"),
            file=data.get("file"),
            extra=dict(data.get("extra") or {}),
        )


def callback(label: str, data: str) -> ButtonData:
    return {"text": label, "data": data}


def link(label: str, url: str) -> ButtonData:
    return {"text": label, "url": url}


def web_app(label: str, url: str) -> ButtonData:
    """A button that opens a Mini App (private chats only: groups refuse them)."""
    return {"text": label, "web_app": url}
