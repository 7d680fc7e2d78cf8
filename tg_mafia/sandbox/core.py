"""The Sandbox: one small Telegram, assembled from its parts, and SimUser, a handle on a
simulated user.

The parts: base (the Bot API entry point, posting and delivering), membership, forum,
migration, acting (users in the app) and views (what they see).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tg_mafia.sandbox.acting import Press, UserActions
from tg_mafia.sandbox.base import DEFAULT_BOT_ID
from tg_mafia.sandbox.membership import Membership, bot_record
from tg_mafia.sandbox.views import Views, VisibleMessage
from tg_mafia.sandbox.world.bots import SandboxBot
from tg_mafia.sandbox.world.state import (
    GENERAL_TOPIC_ID,
    Chat,
    Member,
    Message,
    User,
    full_admin_rights,
)

__all__ = ["DEFAULT_BOT_ID", "Press", "Sandbox", "SandboxBot", "SimUser", "VisibleMessage"]


class Sandbox(UserActions, Membership, Views):
    # == building the world =========================================================

    def add_user(
        self,
        first_name: str,
        *,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "en",
        started: bool = False,
        is_bot: bool = False,
    ) -> SimUser:
        """A user; with `is_bot`, another bot, whose messages our bot does not see."""
        user = self.world.add_user(
            first_name,
            last_name=last_name,
            username=username,
            language_code=language_code,
            started=started,
            is_bot=is_bot,
        )
        return SimUser(self, user)

    def add_users(
        self, count: int, *, started: bool = False, prefix: str = "Player"
    ) -> list[SimUser]:
        return [
            self.add_user(f"{prefix}{i + 1}", username=f"{prefix.lower()}{i + 1}", started=started)
            for i in range(count)
        ]

    def user(self, user_id: int) -> SimUser:
        return SimUser(self, self.world.users[user_id])

    def add_group(
        self,
        title: str,
        *,
        members: Iterable[SimUser | User] = (),
        supergroup: bool = True,
        owner: SimUser | User | None = None,
        bot_member: bool = True,
        bot_rights: Mapping[str, bool] | None = None,
        username: str | None = None,
        forum: bool = False,
        bots: Iterable[SandboxBot] | None = None,
    ) -> Chat:
        """A group (supergroup by default; a forum when `forum`) holding `members`; the
        `bots` (the default bot unless given) are administrators with `bot_rights` (see
        `state.admin_rights`) or, when None, plain members. Built as it stands: no
        updates are sent for it."""
        if forum and not supergroup:
            raise ValueError("only a supergroup can be a forum")
        chat = self.world.add_chat("supergroup" if supergroup else "group", title, username)
        if forum:
            chat.is_forum = True
            # message 1 opened the chat and roots General: topics get ids after it
            chat.next_message_id = GENERAL_TOPIC_ID + 1
        if owner is not None:
            chat.members[owner.id] = Member(owner.id, status="creator", rights=full_admin_rights())
        for member in members:
            chat.members.setdefault(member.id, Member(member.id))
        if bot_member:
            for bot in [self.default_bot] if bots is None else bots:
                chat.members[bot.id] = bot_record(bot.id, bot_rights)
        return chat

    def add_channel(
        self, title: str, username: str | None = None, *, discussion: Chat | None = None
    ) -> Chat:
        """A channel; with `discussion`, that group is its linked discussion group (the
        channel's posts are forwarded there automatically)."""
        channel = self.world.add_chat("channel", title, username)
        if discussion is not None:
            channel.linked_chat_id = discussion.id
            discussion.linked_chat_id = channel.id
        return channel

    def chat(self, chat_id: int) -> Chat:
        return self.world.chats[chat_id]


class SimUser:
    """A simulated Telegram user: a handle on the sandbox acting as them."""

    def __init__(self, sandbox: Sandbox, user: User) -> None:
        self.sandbox = sandbox
        self.user = user

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.first_name

    @property
    def private_chat(self) -> Chat:
        """Their private chat with the sandbox's default bot."""
        return self.sandbox.world.private_chat(self.user)

    def private_chat_with(self, bot: SandboxBot) -> Chat:
        """Their private chat with `bot` (one chat per bot)."""
        return self.sandbox.world.private_chat(self.user, bot.id)

    def web_app_data(self, start_param: str = "", bot: SandboxBot | None = None) -> str:
        """The signed initData Telegram gives a Mini App of `bot` (the default one)
        this user opens now."""
        from tg_mafia.sandbox.webapp import init_data

        sb = self.sandbox
        token = sb.bot_named(bot).token
        return init_data(self.user, token, int(sb.clock.now()), start_param)

    # -- writing ------------------------------------------------------------------------

    def send(self, chat: Chat | int, text: str, **kwargs: Any) -> Message:
        """Write `text`; kwargs: reply_to=message_id, anonymous=True, topic=thread_id."""
        return self.sandbox.user_send(self, chat, text, **kwargs)

    def command(
        self,
        chat: Chat | int,
        command: str,
        args: str = "",
        mention: bool = False,
        bot: SandboxBot | None = None,
    ) -> Message:
        """Send `/command` (as `/command@<bot>` when `mention`: the default bot unless
        `bot` is given), with optional arguments."""
        text = "/" + command.lstrip("/")
        if mention:
            text += "@" + self.sandbox.bot_named(bot).username
        return self.send(chat, f"{text} {args}".strip())

    def send_photo(
        self, chat: Chat | int, image: bytes | None = None, caption: str | None = None, **kw: Any
    ) -> Message:
        """A photo (a real image; the sandbox makes one when not given)."""
        return self.sandbox.user_send_media(self, chat, "photo", data=image, caption=caption, **kw)

    def send_document(
        self,
        chat: Chat | int,
        data: bytes,
        file_name: str = "file.txt",
        mime_type: str = "text/plain",
        caption: str | None = None,
        **kw: Any,
    ) -> Message:
        return self.sandbox.user_send_media(
            self, chat, "document", data=data, file_name=file_name, mime_type=mime_type,
            caption=caption, **kw,
        )  # fmt: skip

    def send_sticker(self, chat: Chat | int, emoji: str = "👍", **kw: Any) -> Message:
        return self.sandbox.user_send_media(self, chat, "sticker", emoji=emoji, **kw)

    def send_voice(
        self, chat: Chat | int, duration: int = 3, caption: str | None = None, **kw: Any
    ) -> Message:
        return self.sandbox.user_send_media(
            self, chat, "voice", duration=duration, caption=caption, **kw
        )

    def send_video(
        self, chat: Chat | int, duration: int = 5, caption: str | None = None, **kw: Any
    ) -> Message:
        return self.sandbox.user_send_media(
            self, chat, "video", duration=duration, caption=caption, **kw
        )

    def send_animation(self, chat: Chat | int, caption: str | None = None, **kw: Any) -> Message:
        return self.sandbox.user_send_media(self, chat, "animation", caption=caption, **kw)

    def send_album(
        self,
        chat: Chat | int,
        items: Sequence[tuple[str, bytes | None]] | int,
        caption: str | None = None,
        **kw: Any,
    ) -> list[Message]:
        """An album of (kind, data) items, or of that many sandbox-made photos."""
        if isinstance(items, int):
            items = [("photo", None)] * items
        return self.sandbox.user_send_album(self, chat, items, caption=caption, **kw)

    def edit(self, message: Message, text: str) -> Message:
        """Edit the text (or, for media, the caption) of one of their messages."""
        return self.sandbox.user_edit(self, message, text)

    # -- the bot, buttons, links -----------------------------------------------------

    def start(self, payload: str | None = None, bot: SandboxBot | None = None) -> Message:
        """Press Start in the private chat with `bot` (the default one), with a payload
        as a deep link carries it."""
        if payload is None:
            chat = self.sandbox.world.private_chat(self.user, bot.id if bot else None)
            return self.send(chat, "/start")
        return self.sandbox.open_deep_link(self, payload, bot)

    def open_deep_link(self, link: str) -> Message:
        return self.sandbox.open_deep_link(self, link)

    def press(self, chat: Chat | int, button_text: str, message_id: int | None = None) -> Press:
        return self.sandbox.press(self, chat, button_text, message_id=message_id)

    def forge_press(self, chat: Chat | int, message_id: int, data: str) -> Press:
        """Any callback data on a message of the bot, as a modified client sends it."""
        return self.sandbox.forge_press(self, chat, message_id, data)

    def block(self, bot: SandboxBot | None = None) -> None:
        self.sandbox.block(self, bot)

    def unblock(self, bot: SandboxBot | None = None) -> None:
        self.sandbox.unblock(self, bot)

    # -- membership ---------------------------------------------------------------------

    def join(self, chat: Chat, via_link: bool = False) -> Message:
        return self.sandbox.join(chat, self, via_link=via_link)

    def leave(self, chat: Chat) -> Message:
        return self.sandbox.leave(chat, self)

    # -- what they see ----------------------------------------------------------------

    def view(
        self, chat: Chat | int | None = None, topic: int | None = None
    ) -> list[VisibleMessage]:
        """What this user sees in `chat` (their private chat with the bot by default)."""
        return self.sandbox.view(self, self.private_chat if chat is None else chat, topic=topic)

    def texts(self, chat: Chat | int | None = None) -> list[str]:
        return [m.text for m in self.view(chat) if m.text is not None]

    def __repr__(self) -> str:
        return f"SimUser({self.user.id}, {self.user.first_name!r})"
