"""The world of a small Telegram: users, chats, members and messages, and their API shapes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Telegram's well-known fake senders.
GROUP_ANONYMOUS_BOT_ID = 1087968824  # anonymous group administrators post as this user
CHANNEL_BOT_ID = 136817688  # a user posting in a group on behalf of a channel
TELEGRAM_SERVICE_ID = 777000  # "Telegram": the sender of automatic forwards from channels
GENERAL_TOPIC_ID = 1  # a forum's General topic; its messages carry no message_thread_id
DEFAULT_ICON_COLOR = 7322096  # 0x6FB9F0, the first of the topic colours the Bot API allows
MAX_TOPIC_NAME = 128  # Telegram cuts a longer topic name

# Every permission a ChatPermissions object can carry.
PERMISSION_NAMES = (
    "can_send_messages",
    "can_send_audios",
    "can_send_documents",
    "can_send_photos",
    "can_send_videos",
    "can_send_video_notes",
    "can_send_voice_notes",
    "can_send_polls",
    "can_send_other_messages",
    "can_add_web_page_previews",
    "can_react_to_messages",
    "can_edit_tag",
    "can_change_info",
    "can_invite_users",
    "can_pin_messages",
    "can_manage_topics",
)
_MEDIA = (
    "can_send_audios",
    "can_send_documents",
    "can_send_photos",
    "can_send_videos",
    "can_send_video_notes",
    "can_send_voice_notes",
)

# Administrator rights (ChatMemberAdministrator), required ones first.
ADMIN_RIGHTS_REQUIRED = (
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_send_welcome_messages",  # Bot API 10.2+ (bot-api-10.3.json)
)
ADMIN_RIGHTS_OPTIONAL = ("can_pin_messages", "can_manage_topics")
ADMIN_RIGHTS = ADMIN_RIGHTS_REQUIRED + ADMIN_RIGHTS_OPTIONAL


def default_group_permissions() -> dict[str, bool]:
    """What a freshly created group allows its members."""
    perms = dict.fromkeys(PERMISSION_NAMES, True)
    for name in ("can_change_info", "can_pin_messages", "can_manage_topics"):
        perms[name] = False
    return perms


def normalise_permissions(given: dict[str, Any], independent: bool) -> dict[str, bool]:
    """A ChatPermissions request as Telegram applies it: what is not given is False.

    Without independent permissions, Telegram lets some rights imply others.
    """
    perms = {name: bool(given.get(name, False)) for name in PERMISSION_NAMES}
    if not independent:
        if perms["can_send_other_messages"] or perms["can_add_web_page_previews"]:
            for name in (*_MEDIA, "can_send_messages"):
                perms[name] = True
        if perms["can_send_polls"] or any(perms[name] for name in _MEDIA):
            perms["can_send_messages"] = True
    return perms


def admin_rights(**overrides: bool) -> dict[str, bool]:
    """Administrator rights, all False unless given (pass e.g. can_delete_messages=True)."""
    unknown = set(overrides) - set(ADMIN_RIGHTS)
    if unknown:
        raise ValueError(f"unknown administrator rights: {sorted(unknown)}")
    rights = dict.fromkeys(ADMIN_RIGHTS, False)
    rights.update(overrides)
    return rights


def full_admin_rights() -> dict[str, bool]:
    return dict.fromkeys(ADMIN_RIGHTS, True)


def basic_group_admin_rights() -> dict[str, bool]:
    """What an administrator of a basic group holds: a basic group has no per-right
    administrators (Telegram's apps offer the rights a new admin gets by default: all but
    adding admins; stories and topics are supergroup features). Asking for any other set
    upgrades the group to a supergroup (`Migration.place_of_promotion`)."""
    rights = full_admin_rights()
    for name in ("can_promote_members", "can_manage_topics", *_STORY_RIGHTS):
        rights[name] = False
    return rights


_STORY_RIGHTS = ("can_post_stories", "can_edit_stories", "can_delete_stories")


@dataclass
class PrivateLink:
    """A user and one bot: whether they pressed Start (the bot may write to them:
    Telegram's "a bot can't initiate conversation with a user"), whether they blocked it."""

    started: bool = False
    blocked: bool = False


@dataclass
class User:
    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False
    # Their private chats with the sandbox's bots, by bot id: each bot is started (and
    # blocked) on its own, as in Telegram.
    links: dict[int, PrivateLink] = field(default_factory=dict)
    # The bot `started` and `blocked` speak of: the sandbox's first (its default).
    main_bot: int = 0

    def link(self, bot_id: int) -> PrivateLink:
        return self.links.setdefault(bot_id, PrivateLink())

    @property
    def started(self) -> bool:
        """Whether they started the sandbox's default bot."""
        return self.link(self.main_bot).started

    @started.setter
    def started(self, value: bool) -> None:
        self.link(self.main_bot).started = value

    @property
    def blocked(self) -> bool:
        """Whether they blocked the sandbox's default bot."""
        return self.link(self.main_bot).blocked

    @blocked.setter
    def blocked(self, value: bool) -> None:
        self.link(self.main_bot).blocked = value

    def to_api(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            out["last_name"] = self.last_name
        if self.username:
            out["username"] = self.username
        if self.language_code:
            out["language_code"] = self.language_code
        return out


@dataclass
class Member:
    user_id: int
    status: str = "member"  # creator, administrator, member, restricted, left, kicked
    rights: dict[str, bool] = field(default_factory=dict)  # administrators
    is_anonymous: bool = False
    custom_title: str | None = None
    restrictions: dict[str, bool] = field(default_factory=dict)  # restricted members
    until_date: int = 0  # restricted / kicked; 0 = forever

    @property
    def is_admin(self) -> bool:
        return self.status in ("creator", "administrator")

    @property
    def is_present(self) -> bool:
        return self.status in ("creator", "administrator", "member", "restricted")


# Kinds of media a message can carry; an animation also carries "document" (as Telegram
# sends it, for old clients), so it is looked for first.
MEDIA_KINDS = ("animation", "photo", "sticker", "video", "voice", "document")


@dataclass
class Message:
    chat_id: int
    message_id: int
    date: int
    from_id: int | None
    text: str | None = None
    # the entities of `text`, or of `caption` for a media message
    entities: list[dict[str, Any]] = field(default_factory=list)
    reply_markup: dict[str, Any] | None = None
    sender_chat_id: int | None = None
    edit_date: int | None = None
    reply_to: int | None = None
    deleted: bool = False
    # media: the API fields, e.g. {"photo": [PhotoSize, ...]} or {"document": {...}}
    media: dict[str, Any] = field(default_factory=dict)
    caption: str | None = None
    media_group_id: str | None = None
    thread_id: int | None = None  # message_thread_id: a forum topic, or a reply thread
    is_topic_message: bool = False
    protected: bool = False  # has_protected_content
    is_automatic_forward: bool = False
    forward_origin: dict[str, Any] | None = None
    # service messages: the API fields as Telegram shows them (new_chat_members,
    # left_chat_member, migrate_to_chat_id, forum_topic_created, ...)
    service: dict[str, Any] = field(default_factory=dict)
    pinned_message_id: int | None = None  # a pin's service message, rendered live
    # In a private chat: the bot at its other end (a user's chats with two bots share
    # the chat id, the user's own, as each bot sees it).
    bot_id: int | None = None

    @property
    def media_kind(self) -> str | None:
        """photo, document, sticker, voice, video or animation (None for text)."""
        for kind in MEDIA_KINDS:
            if kind in self.media:
                return kind
        return None

    @property
    def is_service(self) -> bool:
        return bool(self.service) or self.pinned_message_id is not None


@dataclass
class Topic:
    """A forum topic; its id is the id of the message that created it."""

    thread_id: int
    name: str
    icon_color: int
    creator_id: int
    icon_custom_emoji_id: str | None = None
    closed: bool = False

    def to_api(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "message_thread_id": self.thread_id,
            "name": self.name,
            "icon_color": self.icon_color,
        }
        if self.icon_custom_emoji_id:
            out["icon_custom_emoji_id"] = self.icon_custom_emoji_id
        return out


@dataclass
class Chat:
    id: int
    type: str  # private, group, supergroup, channel
    title: str | None = None
    username: str | None = None
    members: dict[int, Member] = field(default_factory=dict)
    permissions: dict[str, bool] = field(default_factory=default_group_permissions)
    messages: dict[int, Message] = field(default_factory=dict)
    next_message_id: int = 1
    pinned: list[int] = field(default_factory=list)  # most recent last
    chat_instance: str = ""
    # forums: topics by thread id; the General topic is not in `topics`
    is_forum: bool = False
    topics: dict[int, Topic] = field(default_factory=dict)
    general_closed: bool = False
    migrated_to: int | None = None  # a basic group upgraded to this supergroup
    linked_chat_id: int | None = None  # a channel's discussion group, and back
    last_bot_poster: int | None = None  # the bot that posted last (privacy mode's rule)
    bot_id: int | None = None  # a private chat: the bot at its other end

    @property
    def is_group(self) -> bool:
        return self.type in ("group", "supergroup")

    def new_message_id(self) -> int:
        message_id = self.next_message_id
        self.next_message_id += 1
        return message_id

    def live_message(self, message_id: int) -> Message | None:
        message = self.messages.get(message_id)
        return None if message is None or message.deleted else message
