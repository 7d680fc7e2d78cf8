"""The upgrade of a basic group to a supergroup.

Telegram upgrades a basic group when an administrator makes it public, changes who sees
the history, edits an administrator's rights, turns topics or slow mode on, or when it
reaches 200 members. The sandbox offers the upgrade as one call, `migrate`.

The supergroup gets a new id (-100...), the members, administrators, the bot's rights and
the permissions; the old group says migrate_to_chat_id, the new one migrate_from_chat_id.
Afterwards a call with the old id answers 400 "group chat was upgraded to a supergroup
chat" with parameters.migrate_to_chat_id (getChat, which only reads, still answers).

Giving an administrator (the bot too) rights other than a basic group's set upgrades the
group first, as Telegram's apps do: the updates come as Telegram sends them,
migrate_to_chat_id in the old chat, migrate_from_chat_id in the new one, then the
promotion's my_chat_member (or chat_member) in the new chat.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from tg_mafia.sandbox.base import SandboxBase
from tg_mafia.sandbox.errors import SimulationError
from tg_mafia.sandbox.world.state import Chat, admin_rights, basic_group_admin_rights


class Migration(SandboxBase):
    def place_of_promotion(
        self, chat: Chat, rights: Mapping[str, bool] | None, by: Any | None
    ) -> Chat:
        """Where a promotion with `rights` (None: a demotion) happens: `chat`, or the
        supergroup it becomes when a basic group is given per-right administrators."""
        if chat.type != "group" or rights is None:
            return chat
        wanted = admin_rights(**rights)
        if wanted == basic_group_admin_rights():
            return chat
        return self.migrate(chat, by=by)

    def migrate(self, chat: Chat, *, by: Any | None = None) -> Chat:
        """Upgrade basic group `chat` (by `by`, or its owner); returns the supergroup."""
        if chat.type != "group":
            raise SimulationError(f"only a basic group is upgraded, not a {chat.type}")
        if chat.migrated_to is not None:
            raise SimulationError(f"{chat.title} was already upgraded")
        actor = self.performer(chat, by)
        new = self.world.add_chat("supergroup", chat.title or "", chat.username)
        new.members = {
            user_id: dataclasses.replace(
                member, rights=dict(member.rights), restrictions=dict(member.restrictions)
            )
            for user_id, member in chat.members.items()
        }
        new.permissions = dict(chat.permissions)
        farewell = self.post(chat, actor, service={"migrate_to_chat_id": new.id})
        self._deliver(chat, farewell)
        chat.migrated_to = new.id
        welcome = self.post(new, actor, service={"migrate_from_chat_id": chat.id})
        self._deliver(new, welcome)
        return new
