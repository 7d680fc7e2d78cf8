"""Bot API methods on chats and their members: restrict, ban, unban, permissions, leave,
and the reads (getChat, getChatMember, getChatAdministrators).

Every member change goes through `Sandbox.change_member`, so the bot's own acts produce the
chat_member updates and service messages Telegram sends for them.
"""

from __future__ import annotations

from typing import Any

from tg_mafia.sandbox.errors import bad_request
from tg_mafia.sandbox.methods.base import CallContext, MethodBase
from tg_mafia.sandbox.world.state import Chat, Member, normalise_permissions

RESTRICT_RIGHTS = "not enough rights to restrict/unrestrict chat member"


class MemberMethods(MethodBase):
    def _until(self, p: dict[str, Any]) -> int:
        until = int(p.get("until_date", 0))
        now = self._now()
        # Telegram: less than 30 seconds or more than 366 days from now means forever
        if until and not now + 30 <= until <= now + 366 * 86400:
            return 0
        return until

    def _target(self, chat: Chat, user_id: int, *, present: bool) -> Member:
        """The member a restriction or ban applies to, or the 400 Telegram answers."""
        member = chat.members.get(user_id)
        if user_id not in self.world.users or (
            present and (member is None or not member.is_present)
        ):
            raise bad_request("user not found")
        member = member or Member(user_id, status="left")
        if member.status == "creator":
            raise bad_request("can't remove chat owner")
        if member.status == "administrator":
            raise bad_request("user is an administrator of the chat")
        return member

    async def restrict_chat_member(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._chat(p, ctx)
        if chat.type != "supergroup":
            raise bad_request("method is available only for supergroups")
        self._require_right(chat, "can_restrict_members", RESTRICT_RIGHTS)
        user_id = p["user_id"]
        if user_id == self.me.id:
            raise bad_request("can't restrict self")
        self._target(chat, user_id, present=True)
        independent = bool(p.get("use_independent_chat_permissions", False))
        perms = normalise_permissions(p["permissions"], independent)
        if all(perms.values()):
            new = Member(user_id, status="member")
        else:
            new = Member(
                user_id, status="restricted", restrictions=perms, until_date=self._until(p)
            )
        self.sb.change_member(chat, new, by=self.me.id)
        return True

    async def ban_chat_member(self, p: dict[str, Any], ctx: CallContext) -> Any:
        """A ban (in a basic group: a removal). With revoke_messages, or always in a basic
        group, the user's messages go too."""
        chat = self._chat(p, ctx)
        if chat.type == "private":
            raise bad_request("can't ban members in private chats")
        self._require_right(chat, "can_restrict_members", RESTRICT_RIGHTS)
        user_id = p["user_id"]
        if user_id == self.me.id:
            raise bad_request("can't restrict self")
        self._target(chat, user_id, present=False)
        if chat.type == "group" or p.get("revoke_messages"):
            for message in chat.messages.values():
                if message.from_id == user_id and message.sender_chat_id is None:
                    message.deleted = True
        if chat.type == "group":
            new = Member(user_id, status="left")
        else:
            new = Member(user_id, status="kicked", until_date=self._until(p))
        self.sb.change_member(chat, new, by=self.me.id)
        return True

    async def unban_chat_member(self, p: dict[str, Any], ctx: CallContext) -> Any:
        """The user may join again. A member is removed unless only_if_banned."""
        chat = self._chat(p, ctx)
        if chat.type not in ("supergroup", "channel"):
            raise bad_request("method is available for supergroup and channel chats only")
        self._require_right(chat, "can_restrict_members", RESTRICT_RIGHTS)
        user_id = p["user_id"]
        if user_id not in self.world.users:
            raise bad_request("user not found")
        member = self.world.member(chat, user_id)
        if p.get("only_if_banned") and member.status != "kicked":
            return True
        self._target(chat, user_id, present=False)
        self.sb.change_member(chat, Member(user_id, status="left"), by=self.me.id)
        return True

    async def set_chat_permissions(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._chat(p, ctx)
        if not chat.is_group:
            raise bad_request("method is available only for supergroups and groups")
        self._require_right(
            chat, "can_restrict_members", "not enough rights to change chat permissions"
        )
        independent = bool(p.get("use_independent_chat_permissions", False))
        perms = normalise_permissions(p["permissions"], independent)
        if perms == chat.permissions:
            raise bad_request("CHAT_NOT_MODIFIED")
        chat.permissions = perms
        return True

    async def leave_chat(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._chat(p, ctx, "read")
        if chat.type == "private":
            raise bad_request("can't leave private chats")
        if self.world.bot_member(chat, self.me.id).is_present:
            bot_id = self.me.id
            self.sb.change_member(chat, Member(bot_id, status="left"), by=bot_id)
        return True

    async def get_chat(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._chat(p, ctx, "read")
        return self.world.chat_full_api(chat, self.sb.clock.date())

    async def get_chat_member(self, p: dict[str, Any], ctx: CallContext) -> Any:
        user_id = p["user_id"]
        chat = self._chat(p, ctx, "read" if user_id == self.me.id else "members")
        if user_id not in self.world.users:
            raise bad_request("user not found")
        if chat.type == "private":
            if user_id not in (chat.id, self.me.id):
                raise bad_request("user not found")
            return self.world.member_api(chat, Member(user_id), self.sb.clock.date())
        member = self.world.member(chat, user_id)
        return self.world.member_api(chat, member, self.sb.clock.date())

    async def get_chat_administrators(self, p: dict[str, Any], ctx: CallContext) -> Any:
        chat = self._chat(p, ctx, "members")
        if chat.type == "private":
            raise bad_request("there are no administrators in the private chat")
        out = []
        for member in chat.members.values():
            if not member.is_admin:
                continue
            user = self.world.users[member.user_id]
            if user.is_bot and user.id != self.me.id and not p.get("return_bots"):
                continue
            out.append(self.world.member_api(chat, member, self.sb.clock.date()))
        return out
