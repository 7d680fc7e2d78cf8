"""Members coming and going, bans and restrictions, and the bot itself removed, added,
promoted and demoted: the updates and service messages Telegram sends, on both transports."""

from __future__ import annotations

import pytest
from telegram import ChatPermissions, Update
from telegram.error import BadRequest, Forbidden

from tg_mafia.sandbox import Sandbox, SimulationError

from .conftest import BOT_RIGHTS, Env

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

EVERYTHING = ["message", "chat_member", "my_chat_member", "edited_message"]


def kinds(updates: tuple[Update, ...]) -> list[str]:
    names = ("message", "chat_member", "my_chat_member", "edited_message")
    return [next(n for n in names if getattr(update, n) is not None) for update in updates]


async def test_joining_leaving_and_the_service_messages(env: Env) -> None:
    sb, group, owner = env.sb, env.group, env.users[4]
    await env.bot.get_updates(allowed_updates=EVERYTHING)
    nina, omar = sb.add_user("Nina"), sb.add_user("Omar")
    nina.join(group, via_link=True)
    sb.add_member(group, omar, by=owner)
    env.users[0].leave(group)
    updates = await env.bot.get_updates()
    assert kinds(updates) == ["chat_member", "message"] * 3

    joined, joined_message = updates[0].chat_member, updates[1].message
    assert joined is not None and joined_message is not None
    assert (joined.from_user.id, joined.old_chat_member.status) == (nina.id, "left")
    assert joined.new_chat_member.status == "member"
    assert joined.invite_link is not None and joined.invite_link.creator.id == owner.id
    assert [u.id for u in joined_message.new_chat_members] == [nina.id]

    added, added_message = updates[2].chat_member, updates[3].message
    assert added is not None and added_message is not None
    assert added.from_user.id == owner.id and added.invite_link is None
    assert added_message.from_user is not None and added_message.from_user.id == owner.id
    assert [u.id for u in added_message.new_chat_members] == [omar.id]

    left, left_message = updates[4].chat_member, updates[5].message
    assert left is not None and left_message is not None
    assert left.new_chat_member.status == "left" and left.from_user.id == env.users[0].id
    assert left_message.left_chat_member is not None
    assert left_message.left_chat_member.id == env.users[0].id

    with pytest.raises(SimulationError, match=r"(?i)not a member"):
        env.users[0].send(group, "still here?")
    member = await env.bot.get_chat_member(group.id, env.users[0].id)
    assert member.status == "left"
    assert [m.service for m in owner.view(group)] == ["joined", "added Omar", "left"]


async def test_chat_member_updates_only_when_asked_and_only_to_an_admin(env: Env) -> None:
    sb, group = env.sb, env.group
    sb.join(group, sb.add_user("Nina"))  # default allowed_updates: no chat_member
    assert kinds(await env.bot.get_updates()) == ["message"]
    await env.bot.get_updates(offset=-1, allowed_updates=EVERYTHING)
    await env.bot.get_updates(offset=sb.updates.pending[-1]["update_id"] + 1)
    sb.set_bot_rights(group, None)  # a plain member is told nothing of others
    sb.join(group, sb.add_user("Omar"))
    assert kinds(await env.bot.get_updates()) == ["my_chat_member", "message"]


async def test_bans_and_restrictions_by_an_admin(env: Env) -> None:
    sb, group, owner, user = env.sb, env.group, env.users[4], env.users[1]
    await env.bot.get_updates(allowed_updates=EVERYTHING)
    sb.ban(group, user, by=owner)
    banned = await env.bot.get_chat_member(group.id, user.id)
    assert banned.status == "kicked"
    with pytest.raises(SimulationError, match=r"(?i)banned"):
        user.join(group)
    sb.unban(group, user, by=owner)
    assert (await env.bot.get_chat_member(group.id, user.id)).status == "left"
    user.join(group)
    sb.restrict(group, env.users[2], by=owner, can_send_messages=False)
    with pytest.raises(SimulationError, match=r"(?i)may not post"):
        env.users[2].send(group, "muted")
    sb.unrestrict(group, env.users[2], by=owner)
    env.users[2].send(group, "free")

    updates = await env.bot.get_updates()
    changes = [
        (u.chat_member.old_chat_member.status, u.chat_member.new_chat_member.status)
        for u in updates
        if u.chat_member is not None
    ]
    assert changes == [
        ("member", "kicked"),
        ("kicked", "left"),
        ("left", "member"),
        ("member", "restricted"),
        ("restricted", "member"),
    ]
    assert all(u.chat_member.from_user.id in (owner.id, user.id) for u in updates if u.chat_member)
    removal = next(u.message for u in updates if u.message and u.message.left_chat_member)
    assert removal.from_user is not None and removal.from_user.id == owner.id
    with pytest.raises(SimulationError, match=r"(?i)may not ban"):
        sb.ban(group, env.users[3], by=env.users[0])


async def test_the_bot_bans_unbans_and_restricts(env: Env) -> None:
    sb, group, user = env.sb, env.group, env.users[2]
    await env.bot.get_updates(allowed_updates=EVERYTHING)
    said = user.send(group, "spam")
    await env.bot.get_updates(offset=(await env.bot.get_updates())[-1].update_id + 1)
    assert await env.bot.ban_chat_member(group.id, user.id, revoke_messages=True)
    assert group.messages[said.message_id].deleted
    assert await env.bot.unban_chat_member(group.id, user.id)
    assert (await env.bot.get_chat_member(group.id, user.id)).status == "left"
    # only_if_banned leaves a member alone; without it, unbanning removes them
    assert await env.bot.unban_chat_member(group.id, env.users[3].id, only_if_banned=True)
    assert (await env.bot.get_chat_member(group.id, env.users[3].id)).status == "member"
    assert await env.bot.unban_chat_member(group.id, env.users[3].id)
    assert (await env.bot.get_chat_member(group.id, env.users[3].id)).status == "left"
    await env.bot.restrict_chat_member(group.id, env.users[0].id, ChatPermissions.no_permissions())

    updates = await env.bot.get_updates()
    assert kinds(updates) == ["chat_member"] * 4  # the bot is not sent its own service messages
    assert all(u.chat_member and u.chat_member.from_user.id == sb.bot_user.id for u in updates)
    with pytest.raises(BadRequest, match=r"(?i)can't remove chat owner"):
        await env.bot.ban_chat_member(group.id, env.users[4].id)
    basic = sb.add_group("Basic", supergroup=False, members=env.users, bot_rights=BOT_RIGHTS)
    with pytest.raises(BadRequest, match=r"(?i)supergroup and channel chats only"):
        await env.bot.unban_chat_member(basic.id, user.id)
    sb.set_bot_rights(group, {"can_delete_messages": True})
    with pytest.raises(BadRequest, match=r"(?i)not enough rights to restrict/unrestrict"):
        await env.bot.ban_chat_member(group.id, env.users[1].id)


async def test_the_bot_removed_and_added_back(env: Env) -> None:
    sb, group, owner = env.sb, env.group, env.users[4]
    sb.remove_bot(group, by=owner)
    removed, farewell = await env.bot.get_updates()
    assert removed.my_chat_member is not None
    assert removed.my_chat_member.old_chat_member.status == "administrator"
    assert removed.my_chat_member.new_chat_member.status == "kicked"
    assert removed.my_chat_member.from_user.id == owner.id
    assert farewell.message is not None and farewell.message.left_chat_member is not None
    assert farewell.message.left_chat_member.id == sb.bot_user.id
    with pytest.raises(Forbidden, match=r"(?i)bot was kicked from the supergroup chat"):
        await env.bot.send_message(group.id, "hello?")
    with pytest.raises(Forbidden, match=r"(?i)bot was kicked from the supergroup chat"):
        await env.bot.get_chat(group.id)
    env.users[0].send(group, f"/newgame@{sb.bot_username}")
    assert await env.bot.get_updates(offset=farewell.update_id + 1) == ()  # sees nothing

    sb.add_bot(group, by=owner)
    added, welcome = await env.bot.get_updates(offset=farewell.update_id + 1)
    assert added.my_chat_member is not None
    assert added.my_chat_member.new_chat_member.status == "member"
    assert welcome.message is not None
    assert [u.id for u in welcome.message.new_chat_members] == [sb.bot_user.id]
    await env.bot.send_message(group.id, "back")

    assert await env.bot.leave_chat(group.id)
    with pytest.raises(Forbidden, match=r"(?i)bot is not a member of the supergroup chat"):
        await env.bot.send_message(group.id, "hello?")


async def test_the_bot_removed_from_a_basic_group() -> None:
    sb = Sandbox()
    users = sb.add_users(2)
    group = sb.add_group("Basic", supergroup=False, members=users, owner=users[0])
    bot = sb.bot()
    async with bot:
        sb.remove_bot(group)
        with pytest.raises(Forbidden, match=r"(?i)bot was kicked from the group chat"):
            await bot.send_message(group.id, "hello?")
        assert (await bot.get_chat(group.id)).title == "Basic"  # reading a basic group is allowed
        sb.add_bot(group)
        assert await bot.leave_chat(group.id)
        with pytest.raises(Forbidden, match=r"(?i)bot is not a member of the group chat"):
            await bot.send_message(group.id, "hello?")


async def test_the_bot_promoted_and_demoted(env: Env) -> None:
    sb, group, owner = env.sb, env.group, env.users[4]
    sb.set_bot_rights(group, {"can_delete_messages": True, "can_pin_messages": True})
    (update,) = await env.bot.get_updates()
    change = update.my_chat_member
    assert change is not None and change.from_user.id == owner.id
    old, new = change.old_chat_member, change.new_chat_member
    assert getattr(old, "can_restrict_members") is True  # noqa: B009
    assert getattr(new, "can_restrict_members") is False  # noqa: B009
    with pytest.raises(BadRequest, match=r"(?i)not enough rights"):
        await env.bot.restrict_chat_member(
            group.id, env.users[0].id, ChatPermissions.no_permissions()
        )
    sb.set_bot_rights(group, None, by=owner)
    (update,) = await env.bot.get_updates(offset=update.update_id + 1)
    assert update.my_chat_member is not None
    assert update.my_chat_member.new_chat_member.status == "member"
    sb.set_bot_rights(group, None)  # no change, no update
    assert await env.bot.get_updates(offset=update.update_id + 1) == ()


async def test_users_promoted_and_demoted(env: Env) -> None:
    sb, group = env.sb, env.group
    await env.bot.get_updates(allowed_updates=EVERYTHING)
    sb.promote(group, env.users[0], can_delete_messages=True, custom_title="judge")
    admins = await env.bot.get_chat_administrators(group.id)
    assert env.users[0].id in {a.user.id for a in admins}
    sb.demote(group, env.users[0])
    updates = await env.bot.get_updates()
    statuses = [u.chat_member.new_chat_member.status for u in updates if u.chat_member]
    assert statuses == ["administrator", "member"]


async def test_blocking_and_unblocking(env: Env) -> None:
    env.users[0].block()
    env.users[0].unblock()
    blocked, unblocked = await env.bot.get_updates()
    assert blocked.my_chat_member is not None and unblocked.my_chat_member is not None
    assert blocked.my_chat_member.new_chat_member.status == "kicked"
    assert unblocked.my_chat_member.old_chat_member.status == "kicked"
    assert unblocked.my_chat_member.new_chat_member.status == "member"
    assert unblocked.my_chat_member.chat.id == env.users[0].id
