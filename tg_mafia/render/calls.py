"""A call the bot decided to make, as data: written to the outbox in the
same transaction as the action that caused it, and sent later by the
sender (runtime/outbox/sender.py). One dataclass per kind of call, each with
the fields its call uses; `Op` is any of them. Stored as plain JSON
(calls_json.py), so it survives a crash and any process can send it."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from enum import StrEnum
from typing import ClassVar, Final, Literal, assert_never

from tg_mafia.render.pictures.data import PictureData

# Where a stage's deadline goes in a text: filled in when the message is
# actually sent, so the time shown is the time the stage really ends.
DEADLINE: Final = "\u2063deadline\u2063"
RELATIVE_DEADLINE: Final = "\u2063deadline:r\u2063"  # the same, shown as "in 45 seconds"


class Method(StrEnum):
    """Each kind of call's name: its tag in the stored JSON (key "m")."""

    SEND = "send"
    EDIT = "edit"
    CLEAR = "clear"
    DELETE = "delete"
    PIN = "pin"
    UNPIN = "unpin"
    PERMISSIONS = "permissions"
    TOPIC = "topic"
    RESTRICT = "restrict"
    PHOTO = "photo"
    DOCUMENT = "document"


class Priority:
    GAME = 0  # the game's own messages
    ANSWER = 1  # answers to commands
    REMINDER = 2  # said again after a restart


# A button as stored: its label and either callback data or a URL.
ButtonData = dict[str, str]
Keyboard = list[list[ButtonData]]


@dataclass(frozen=True, slots=True)
class Timer:
    """A stage whose timer starts when the message carrying it reaches the chat."""

    game: int
    token: str  # the stage's timer (the game's timer_token)
    seconds: int
    # The clock it runs on (runtime/clock.py); None: the bot's (calls stored before speeds).
    speed: float | None = None


@dataclass(frozen=True, slots=True)
class Spare:
    """A call worth making only now: for the stage whose timer is `token`, by the
    bot's clock `by`. The sender drops it (settled, no call) when the chat's budget
    has no room at once, the stage has moved on, or too little time is left."""

    token: str
    by: float


@dataclass(frozen=True, slots=True)
class DocumentFile:
    name: str
    content: str


@dataclass(frozen=True, slots=True)
class Send:
    """A new message; with a `key`, the game's living message of that name."""

    method: ClassVar[Method] = Method.SEND
    text: str
    _: KW_ONLY
    keyboard: Keyboard | None = None
    key: str | None = None
    timer: Timer | None = None
    protect: bool = False  # protect_content: a role card


@dataclass(frozen=True, slots=True)
class Edit:
    """A message's new text and buttons: the living message `key`, or `message_id`
    (a menu that is not living); sent anew when the chat has no such message."""

    method: ClassVar[Method] = Method.EDIT
    text: str
    _: KW_ONLY
    keyboard: Keyboard | None = None
    key: str | None = None
    message_id: int | None = None
    timer: Timer | None = None  # an edit that opens a stage (the next speaker's floor)
    # A busy living message (the live vote board): at most one edit every `every`
    # seconds; the edits queued meanwhile fold into the last.
    every: float | None = None
    spare: Spare | None = None  # the countdown's edit


@dataclass(frozen=True, slots=True)
class Clear:
    """A living message loses its buttons, and stops being living."""

    method: ClassVar[Method] = Method.CLEAR
    key: str


@dataclass(frozen=True, slots=True)
class Delete:
    """A living message (`key`) or a player's post (`message_id`) deleted."""

    method: ClassVar[Method] = Method.DELETE
    _: KW_ONLY
    key: str | None = None
    message_id: int | None = None


@dataclass(frozen=True, slots=True)
class Pin:
    method: ClassVar[Method] = Method.PIN
    key: str


@dataclass(frozen=True, slots=True)
class Unpin:
    method: ClassVar[Method] = Method.UNPIN
    key: str


@dataclass(frozen=True, slots=True)
class Permissions:
    """The group's permissions (the masked night): None closes the chat."""

    method: ClassVar[Method] = Method.PERMISSIONS
    permissions: dict[str, bool] | None = None
    _: KW_ONLY
    final: bool = False  # the game's last restore: its saved permissions are forgotten


@dataclass(frozen=True, slots=True)
class Topic:
    """The game's forum topic closed or reopened (the masked night in a forum)."""

    method: ClassVar[Method] = Method.TOPIC
    open: bool


@dataclass(frozen=True, slots=True)
class Restrict:
    """A forum's night: the game's `players` may post in no topic until morning."""

    method: ClassVar[Method] = Method.RESTRICT
    open: bool
    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Photo:
    """A picture, drawn by the sender from `picture` (drawings.py)."""

    method: ClassVar[Method] = Method.PHOTO
    picture: PictureData


@dataclass(frozen=True, slots=True)
class Document:
    """A file made of `file`, its text the caption (the protocol's JSON)."""

    method: ClassVar[Method] = Method.DOCUMENT
    text: str
    file: DocumentFile


Op = Send | Edit | Clear | Delete | Pin | Unpin | Permissions | Topic | Restrict | Photo | Document
Message = Send | Edit  # a drawing of a message: its text, buttons and key
Drawn = Literal[Method.SEND, Method.EDIT]  # how a drawing is shown: a new message, or an edit


def message(
    method: Drawn,
    text: str,
    *,
    keyboard: Keyboard | None = None,
    key: str | None = None,
    timer: Timer | None = None,
) -> Message:
    """A drawing sent as a new message or as an edit of the one it replaces."""
    if method is Method.EDIT:
        return Edit(text, keyboard=keyboard, key=key, timer=timer)
    return Send(text, keyboard=keyboard, key=key, timer=timer)


# ----- what any call carries, for those that read every kind --------------------------------


def makes_a_message(op: Op) -> bool:
    """A call that posts a new message (an edit of one the chat lacks is sent anew,
    but is no such call)."""
    match op:
        case Send() | Photo() | Document():
            return True
        case Edit() | Clear() | Delete() | Pin() | Unpin() | Permissions() | Topic():
            return False
        case Restrict():
            return False
        case _:
            assert_never(op)


def key_of(op: Op) -> str | None:
    """The living message the call sends or changes."""
    match op:
        case Send(key=key) | Edit(key=key) | Delete(key=key):
            return key
        case Clear(key=key) | Pin(key=key) | Unpin(key=key):
            return key
        case Permissions() | Topic() | Restrict() | Photo() | Document():
            return None
        case _:
            assert_never(op)


def text_of(op: Op) -> str:
    """The call's text (a document's caption); empty for a call without one."""
    match op:
        case Send(text=text) | Edit(text=text) | Document(text=text):
            return text
        case Clear() | Delete() | Pin() | Unpin() | Permissions() | Topic() | Restrict():
            return ""
        case Photo():
            return ""
        case _:
            assert_never(op)


def keyboard_of(op: Op) -> Keyboard | None:
    match op:
        case Send(keyboard=keyboard) | Edit(keyboard=keyboard):
            return keyboard
        case Clear() | Delete() | Pin() | Unpin() | Permissions() | Topic() | Restrict():
            return None
        case Photo() | Document():
            return None
        case _:
            assert_never(op)


def timer_of(op: Op) -> Timer | None:
    """The stage whose timer starts when this call's message reaches the chat."""
    match op:
        case Send(timer=timer) | Edit(timer=timer):
            return timer
        case Clear() | Delete() | Pin() | Unpin() | Permissions() | Topic() | Restrict():
            return None
        case Photo() | Document():
            return None
        case _:
            assert_never(op)


def message_id_of(op: Op) -> int | None:
    """The message a call targets by its id (not living under a key)."""
    match op:
        case Edit(message_id=message_id) | Delete(message_id=message_id):
            return message_id
        case Send() | Clear() | Pin() | Unpin() | Permissions() | Topic() | Restrict():
            return None
        case Photo() | Document():
            return None
        case _:
            assert_never(op)


def callback(label: str, data: str) -> ButtonData:
    return {"text": label, "data": data}


def link(label: str, url: str) -> ButtonData:
    return {"text": label, "url": url}


def web_app(label: str, url: str) -> ButtonData:
    """A button that opens a Mini App (private chats only: groups refuse them)."""
    return {"text": label, "web_app": url}
