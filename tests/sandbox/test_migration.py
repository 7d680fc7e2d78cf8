"""A basic group upgraded to a supergroup: the new chat, the service messages on both
sides, what is carried over, and python-telegram-bot's ChatMigrated for the old id."""

from __future__ import annotations

import pytest
from telegram import ChatPermissions
from telegram.error import ChatMigrated

from tg_mafia.sandbox import Sandbox, SimulationError
from tg_mafia.sandbox.world.state import basic_group_admin_rights

from .conftest import BOT_RIGHTS, TRANSPORTS, connected

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_upgrade_to_a_supergroup(transport: str) -> None:
    sb = Sandbox()
    owner, admin, member = sb.add_users(3)
    group = sb.add_group(
        "Basic", supergroup=False, members=[admin, member], owner=owner, bot_rights=BOT_RIGHTS
    )
    assert sb.promote(group, admin, **basic_group_admin_rights()) is group  # no upgrade
    async with connected(sb, transport) as bot:
        quiet = ChatPermissions(can_send_messages=True)
        await bot.set_chat_permissions(group.id, quiet, use_independent_chat_permissions=True)
        said = await bot.send_message(group.id, "before the upgrade")
        assert sb.updates.pending == []

        new = sb.migrate(group, by=owner)
        assert str(new.id).startswith("-100") and new.type == "supergroup"
        farewell, welcome = await bot.get_updates()
        assert farewell.message is not None and welcome.message is not None
        assert farewell.message.chat.id == group.id
        assert farewell.message.migrate_to_chat_id == new.id
        assert welcome.message.chat.id == new.id
        assert welcome.message.migrate_from_chat_id == group.id

        admins = {a.user.id: a for a in await bot.get_chat_administrators(new.id)}
        assert admins[owner.id].status == "creator"
        assert getattr(admins[admin.id], "can_delete_messages") is True  # noqa: B009
        assert getattr(admins[sb.bot_user.id], "can_restrict_members") is True  # noqa: B009
        assert (await bot.get_chat_member(new.id, member.id)).status == "member"
        chat = await bot.get_chat(new.id)
        assert chat.permissions is not None and chat.permissions.can_send_polls is False
        await bot.restrict_chat_member(new.id, member.id, ChatPermissions.no_permissions())

        for call in (
            bot.send_message(group.id, "old id"),
            bot.delete_message(group.id, said.message_id),
            bot.get_chat_administrators(group.id),
        ):
            with pytest.raises(ChatMigrated) as raised:
                await call
            assert raised.value.new_chat_id == new.id
        assert (await bot.get_chat(group.id)).type == "group"  # reading still answers
        record = sb.log.calls("sendMessage", chat_id=group.id)[-1]
        assert record.description == "Bad Request: group chat was upgraded to a supergroup chat"

        with pytest.raises(SimulationError, match="upgraded"):
            admin.send(group, "hello?")
        admin.send(new, "hello!")
        with pytest.raises(SimulationError, match="already upgraded"):
            sb.migrate(group)
        with pytest.raises(SimulationError, match="only a basic group"):
            sb.migrate(new)
        assert [m.service for m in owner.view(group)][-1] == f"upgraded to supergroup {new.id}"


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_promoting_the_bot_with_chosen_rights_upgrades_a_basic_group(transport: str) -> None:
    """A basic group has no per-right administrators: the bot given some rights (the
    first evening's "make the bot an admin so it can close the night") upgrades it, and
    the bot hears it in Telegram's order: migrate_to_chat_id in the old chat,
    migrate_from_chat_id in the new one, then its own my_chat_member there."""
    sb = Sandbox()
    owner, player = sb.add_users(2)
    group = sb.add_group("Basic", supergroup=False, members=[player], owner=owner)
    async with connected(sb, transport) as bot:
        said = await bot.send_message(group.id, "Players (1)")
        new = sb.set_bot_rights(group, BOT_RIGHTS, by=owner)
        assert new is not group and new.type == "supergroup" and group.migrated_to == new.id
        farewell, welcome, promoted = await bot.get_updates()
        assert farewell.message is not None and welcome.message is not None
        assert farewell.message.chat.id == group.id
        assert farewell.message.migrate_to_chat_id == new.id
        assert welcome.message.chat.id == new.id
        assert welcome.message.migrate_from_chat_id == group.id
        change = promoted.my_chat_member
        assert change is not None and change.chat.id == new.id
        assert change.from_user.id == owner.id
        assert change.old_chat_member.status == "member"
        assert change.new_chat_member.status == "administrator"
        assert getattr(change.new_chat_member, "can_restrict_members") is True  # noqa: B009
        # the old id: 400 naming the new one, for the message posted before too
        with pytest.raises(ChatMigrated) as raised:
            await bot.edit_message_text("Players (2)", chat_id=group.id, message_id=said.message_id)
        assert raised.value.new_chat_id == new.id
        await bot.set_chat_permissions(new.id, ChatPermissions(can_send_messages=False))
        # the same for a user made an administrator with chosen rights
        other = sb.add_group("Other", supergroup=False, members=[player], owner=owner)
        assert sb.promote(other, player, can_pin_messages=True).type == "supergroup"
        kept = sb.add_group("Kept", supergroup=False, owner=owner, bot_rights=BOT_RIGHTS)
        assert sb.set_bot_rights(kept, None) is kept  # a demotion never upgrades
        assert sb.set_bot_rights(kept, basic_group_admin_rights()) is kept
