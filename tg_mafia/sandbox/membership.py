"""Who is in a chat, and how the bot hears of every change.

Every change of a member goes through `change_member`, which tells the bot as Telegram
does: a `my_chat_member` update when the bot itself changes, a `chat_member` update for
anyone else (only to an administrator bot, and only if it asked for them in
allowed_updates), and the new_chat_members / left_chat_member service message when
someone enters or leaves a group.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from tg_mafia.sandbox.base import SandboxBase
from tg_mafia.sandbox.errors import SimulationError
from tg_mafia.sandbox.migration import Migration
from tg_mafia.sandbox.world.bots import SandboxBot
from tg_mafia.sandbox.world.state import (
    Chat,
    Member,
    Message,
    User,
    admin_rights,
    normalise_permissions,
)

Someone = Any  # a SimUser or a User: anything with an `id`


class Membership(Migration):
    def change_member(
        self,
        chat: Chat,
        new: Member,
        *,
        by: int,
        invite_link: dict[str, Any] | None = None,
    ) -> Message | None:
        """Make `new` the member record; returns the service message, if there is one."""
        old = self.world.member(chat, new.user_id)
        if old == new:
            return None  # Telegram reports no change that changes nothing
        now = self.clock.date()
        update: dict[str, Any] = {
            "chat": self.world.chat_api(chat),
            "from": self.world.users[by].to_api(),
            "date": now,
            "old_chat_member": self.world.member_api(chat, old, now),
        }
        chat.members[new.user_id] = new
        update["new_chat_member"] = self.world.member_api(chat, new, now)
        if invite_link is not None:
            update["invite_link"] = invite_link
        changed = self.bots.get(new.user_id)  # one of the sandbox's bots, itself
        if changed is not None:
            self._push("my_chat_member", update, changed)
        for bot in self.bots.values():
            if bot is not changed and self.world.bot_member(chat, bot.id).is_admin:
                self._push("chat_member", update, bot)
        if not chat.is_group or old.is_present == new.is_present:
            return None
        user = self.world.users[new.user_id].to_api()
        service = {"new_chat_members": [user]} if new.is_present else {"left_chat_member": user}
        message = self.post(chat, by, service=service)
        # a bot is not sent the messages of its own acts; one that arrives or goes
        # hears of it (after its removal too); the other bots there see it as any message
        if changed is not None and changed.id != by:
            self._push("message", self.world.message_api(message), changed)
        skip = {by} | ({changed.id} if changed is not None else set())
        self._deliver(chat, message, skip=skip)
        return message

    # -- users ----------------------------------------------------------------------

    def join(self, chat: Chat, user: Someone, *, via_link: bool = False) -> Message:
        """`user` joins `chat` by themselves (a public group, or an invite link when
        `via_link`): a chat_member update and a new_chat_members service message."""
        member = self.world.member(chat, user.id)
        if member.is_present:
            raise SimulationError(f"{_name(self, user)} is already in {chat.title}")
        if member.status == "kicked":
            raise SimulationError(f"{_name(self, user)} is banned from {chat.title}")
        self._require_active(chat)
        link = self._invite_link(chat) if via_link else None
        message = self.change_member(chat, Member(user.id), by=user.id, invite_link=link)
        assert message is not None
        return message

    def add_member(self, chat: Chat, user: Someone, *, by: Someone) -> Message:
        """`by` adds `user` to `chat` (an administrator may add a banned user back)."""
        adder = self.world.member(chat, by.id)
        may_invite = adder.status == "creator" or (
            adder.status == "administrator" and adder.rights.get("can_invite_users", False)
        )
        if not may_invite and not (adder.is_present and chat.permissions.get("can_invite_users")):
            raise SimulationError(f"{_name(self, by)} may not add members to {chat.title}")
        member = self.world.member(chat, user.id)
        if member.is_present:
            raise SimulationError(f"{_name(self, user)} is already in {chat.title}")
        if member.status == "kicked" and not adder.is_admin:
            raise SimulationError(f"{_name(self, user)} is banned; only an admin can add them")
        self._require_active(chat)
        message = self.change_member(chat, Member(user.id), by=by.id)
        assert message is not None
        return message

    def leave(self, chat: Chat, user: Someone) -> Message:
        """`user` leaves `chat`: a left_chat_member service message; they can post no more."""
        if not self.world.member(chat, user.id).is_present:
            raise SimulationError(f"{_name(self, user)} is not in {chat.title}")
        message = self.change_member(chat, Member(user.id, status="left"), by=user.id)
        assert message is not None
        return message

    def ban(self, chat: Chat, user: Someone, *, by: Someone | None = None, until: int = 0) -> None:
        """An administrator bans `user` (in a basic group: removes them). `until` = 0: forever."""
        actor = self._restricting_admin(chat, by)
        self._check_target(chat, user, actor)
        if chat.type == "group":
            self.change_member(chat, Member(user.id, status="left"), by=actor)
        else:
            self.change_member(chat, Member(user.id, status="kicked", until_date=until), by=actor)

    def unban(self, chat: Chat, user: Someone, *, by: Someone | None = None) -> None:
        actor = self._restricting_admin(chat, by)
        if self.world.member(chat, user.id).status != "kicked":
            raise SimulationError(f"{_name(self, user)} is not banned from {chat.title}")
        self.change_member(chat, Member(user.id, status="left"), by=actor)

    def restrict(
        self,
        chat: Chat,
        user: Someone,
        *,
        by: Someone | None = None,
        until: int = 0,
        **permissions: bool,
    ) -> None:
        """An administrator restricts `user` in a supergroup: every permission not given
        True is taken away (can_send_messages=True keeps them talking, say)."""
        if chat.type != "supergroup":
            raise SimulationError("members are restricted only in supergroups")
        actor = self._restricting_admin(chat, by)
        self._check_target(chat, user, actor)
        perms = normalise_permissions(permissions, independent=True)
        new = Member(user.id, status="restricted", restrictions=perms, until_date=until)
        self.change_member(chat, new, by=actor)

    def unrestrict(self, chat: Chat, user: Someone, *, by: Someone | None = None) -> None:
        actor = self._restricting_admin(chat, by)
        if self.world.member(chat, user.id).status != "restricted":
            raise SimulationError(f"{_name(self, user)} is not restricted in {chat.title}")
        self.change_member(chat, Member(user.id), by=actor)

    def promote(
        self,
        chat: Chat,
        user: Someone,
        *,
        anonymous: bool = False,
        by: Someone | None = None,
        custom_title: str | None = None,
        **rights: bool,
    ) -> Chat:
        """Make `user` an administrator with `rights` (see `state.admin_rights`). In a
        basic group, rights other than `state.basic_group_admin_rights()` upgrade it
        first: returns the chat the promotion happened in."""
        chat = self.place_of_promotion(chat, rights, by)
        new = Member(
            user.id,
            status="administrator",
            rights=admin_rights(**rights),
            is_anonymous=anonymous,
            custom_title=custom_title,
        )
        self.change_member(chat, new, by=self.performer(chat, by))
        return chat

    def demote(self, chat: Chat, user: Someone, *, by: Someone | None = None) -> None:
        if self.world.member(chat, user.id).status != "administrator":
            raise SimulationError(f"{_name(self, user)} is not an administrator")
        self.change_member(chat, Member(user.id), by=self.performer(chat, by))

    # -- the bot ----------------------------------------------------------------------

    def add_bot(
        self,
        chat: Chat,
        *,
        by: Someone | None = None,
        rights: Mapping[str, bool] | None = None,
        bot: SandboxBot | None = None,
    ) -> None:
        """A bot (the default one unless named) is added to `chat`: as an administrator
        with `rights`, or a member."""
        bot = self.bot_named(bot)
        if self.world.bot_member(chat, bot.id).is_present:
            raise SimulationError(f"@{bot.username} is already in {chat.title}")
        self._require_active(chat)
        self.change_member(chat, bot_record(bot.id, rights), by=self.performer(chat, by))

    def remove_bot(
        self, chat: Chat, *, by: Someone | None = None, bot: SandboxBot | None = None
    ) -> None:
        """An administrator removes a bot from `chat`: it is "kicked" (Telegram answers
        its calls with 403 "bot was kicked from the ... chat"), sees nothing there, and
        comes back only through `add_bot`."""
        bot = self.bot_named(bot)
        if not self.world.bot_member(chat, bot.id).is_present:
            raise SimulationError(f"@{bot.username} is not in {chat.title}")
        record = Member(bot.id, status="kicked")
        self.change_member(chat, record, by=self.performer(chat, by))

    def set_bot_rights(
        self,
        chat: Chat,
        rights: Mapping[str, bool] | None,
        *,
        by: Someone | None = None,
        bot: SandboxBot | None = None,
    ) -> Chat:
        """Promote a bot (the default one unless named) to administrator with `rights`,
        or demote it to a plain member when None: a my_chat_member update, from `by` or
        the owner. In a basic group, rights other than `state.basic_group_admin_rights()`
        upgrade it to a supergroup first (the updates: migrate_to_chat_id,
        migrate_from_chat_id, my_chat_member in the new chat). Returns the chat the bot
        now has its rights in."""
        bot = self.bot_named(bot)
        if not self.world.bot_member(chat, bot.id).is_present:
            raise SimulationError(f"@{bot.username} is not in {chat.title}: add_bot first")
        chat = self.place_of_promotion(chat, rights, by)
        record = bot_record(bot.id, rights)
        if self.world.bot_member(chat, bot.id) != record:
            self.change_member(chat, record, by=self.performer(chat, by))
        return chat

    # -- helpers ----------------------------------------------------------------------

    def _require_active(self, chat: Chat) -> None:
        if chat.migrated_to is not None:
            raise SimulationError(f"{chat.title} was upgraded to supergroup {chat.migrated_to}")

    def _restricting_admin(self, chat: Chat, by: Someone | None) -> int:
        actor = self.performer(chat, by)
        member = self.world.member(chat, actor)
        if not (
            member.status == "creator"
            or (member.status == "administrator" and member.rights.get("can_restrict_members"))
        ):
            raise SimulationError(f"{_name(self, actor)} may not ban or restrict members")
        return actor

    def _check_target(self, chat: Chat, user: Someone, actor: int) -> None:
        target = self.world.member(chat, user.id)
        if target.status == "creator":
            raise SimulationError("the owner cannot be banned or restricted")
        if target.status == "administrator" and self.world.member(chat, actor).status != "creator":
            raise SimulationError("only the owner can ban or restrict an administrator")

    def _invite_link(self, chat: Chat) -> dict[str, Any]:
        """The chat's primary link as the bot sees it: made by the owner, its tail hidden."""
        creator = self.performer(chat, None)
        token = hashlib.sha256(f"link{chat.id}".encode()).hexdigest()[:4]
        return {
            "invite_link": f"https://t.me/+{token}...",
            "creator": self.world.users[creator].to_api(),
            "creates_join_request": False,
            "is_primary": True,
            "is_revoked": False,
        }


def bot_record(bot_id: int, rights: Mapping[str, bool] | None) -> Member:
    if rights is None:
        return Member(bot_id)
    return Member(bot_id, status="administrator", rights=admin_rights(**rights))


def _name(sandbox: SandboxBase, someone: Someone | int) -> str:
    user_id = someone if isinstance(someone, int) else someone.id
    user: User | None = sandbox.world.users.get(user_id)
    return user.first_name if user else str(user_id)
