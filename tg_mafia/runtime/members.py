"""Who belongs to a group, asked of Telegram (getChatMember) and kept a
minute: a game's protocol and picture go only to its players and the members
of its group, and a lobby opens only for its members."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from cachetools import TTLCache
from telegram import Bot, ChatMember
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

KEPT: Final = 60.0  # seconds an answer is trusted
TRACKED: Final = 10_000
MEMBER_STATUSES: Final = frozenset(
    {ChatMemberStatus.MEMBER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER}
)


def belongs(member: ChatMember) -> bool:
    """A member of the chat: restricted members too, while they are in it."""
    if member.status == ChatMemberStatus.RESTRICTED:
        return bool(getattr(member, "is_member", False))
    return member.status in MEMBER_STATUSES


class MemberCheck:
    def __init__(self, bot: Bot, now: Callable[[], float]) -> None:
        self.bot = bot
        self._known: TTLCache[tuple[int, int], bool] = TTLCache(TRACKED, KEPT, timer=now)

    async def is_member(self, chat_id: int, user_id: int) -> bool:
        known = self._known.get((chat_id, user_id))
        if known is not None:
            return known
        try:
            member = await self.bot.get_chat_member(chat_id, user_id)
        except TelegramError:
            return False  # unknown now (a network fault is not cached)
        answer = self._known[(chat_id, user_id)] = belongs(member)
        return answer
