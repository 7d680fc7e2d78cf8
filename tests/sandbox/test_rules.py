"""Every rule the sandbox enforces, through unmodified PTB Bot calls, on both transports."""

from __future__ import annotations

import pytest
from telegram import ChatPermissions, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import ChatType
from telegram.error import BadRequest, EndPointNotFound, Forbidden, RetryAfter

from tg_mafia.sandbox import SimulationError

from .conftest import Env

pytestmark = [
    pytest.mark.filterwarnings("ignore:Please use:telegram.warnings.PTBUserWarning"),
    pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning"),
]


def keyboard(data: str = "vote:1", text: str = "Vote") -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(text, callback_data=data)]])


async def test_get_me_and_message_shape(env: Env) -> None:
    me = await env.bot.get_me()
    assert me.is_bot and me.username == env.sb.bot_username
    message = await env.bot.send_message(env.group.id, "hello")
    raw = env.sb.log.calls("sendMessage")[-1].result
    assert raw["from"]["is_bot"] is True
    assert raw["chat"]["type"] == "supergroup"
    assert isinstance(raw["date"], int) and abs(raw["date"] - env.sb.clock.now()) < 5
    assert message.chat.type == ChatType.SUPERGROUP
    private = await env.bot.send_message(env.users[0].id, "hi")
    assert private.chat.type == ChatType.PRIVATE


async def test_unknown_method_fails_loudly(env: Env) -> None:
    with pytest.raises(EndPointNotFound):
        await env.bot.do_api_request("sendMessageTypo", api_kwargs={"chat_id": 1})
    assert env.sb.log.calls("sendMessageTypo")[0].error_code == 404


async def test_missing_and_wrong_parameters(env: Env) -> None:
    with pytest.raises(BadRequest, match=r"(?i)chat_id is empty"):
        await env.bot.do_api_request("sendMessage", api_kwargs={"text": "x"})
    with pytest.raises(BadRequest, match=r"(?i)message_id"):
        await env.bot.do_api_request(
            "deleteMessage", api_kwargs={"chat_id": env.group.id, "message_id": "abc"}
        )


async def test_unknown_parameters_are_accepted_and_recorded(env: Env) -> None:
    await env.bot.send_message(env.group.id, "x", api_kwargs={"disable_notifcation": True})
    assert ("sendMessage", "disable_notifcation") in env.sb.log.unknown_parameters()


async def test_cannot_initiate_conversation(env: Env) -> None:
    with pytest.raises(Forbidden, match=r"(?i)bot can't initiate conversation with a user"):
        await env.bot.send_message(env.users[3].id, "hello")
    env.users[3].open_deep_link(env.sb.deep_link("join_1"))
    await env.bot.send_message(env.users[3].id, "hello")


async def test_blocked_by_user(env: Env) -> None:
    env.users[0].block()
    with pytest.raises(Forbidden, match=r"(?i)bot was blocked by the user"):
        await env.bot.send_message(env.users[0].id, "hello")
    env.users[0].start()  # restarting the bot unblocks it
    await env.bot.send_message(env.users[0].id, "hello again")


async def test_chat_not_found(env: Env) -> None:
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await env.bot.send_message(-100123, "x")


async def test_text_empty_and_too_long(env: Env) -> None:
    with pytest.raises(BadRequest, match=r"(?i)message text is empty"):
        await env.bot.send_message(env.group.id, "")
    with pytest.raises(BadRequest, match=r"(?i)message text is empty"):
        await env.bot.send_message(env.group.id, "<b></b>", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"(?i)message is too long"):
        await env.bot.send_message(env.group.id, "x" * 4097)
    await env.bot.send_message(env.group.id, "x" * 4096)
    # the limit counts text after entity parsing
    await env.bot.send_message(env.group.id, "<b>" + "x" * 4096 + "</b>", parse_mode="HTML")


async def test_html_is_parsed(env: Env) -> None:
    message = await env.bot.send_message(env.group.id, "<b>Night</b> &lt;3", parse_mode="HTML")
    assert message.text == "Night <3"
    assert message.entities[0].type == "bold"
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
        await env.bot.send_message(env.group.id, "<blink>x</blink>", parse_mode="HTML")


async def test_edit_not_modified_and_not_found(env: Env) -> None:
    message = await env.bot.send_message(env.group.id, "a", reply_markup=keyboard())
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await env.bot.edit_message_text(
            "a", env.group.id, message.message_id, reply_markup=keyboard()
        )
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await env.bot.edit_message_reply_markup(
            env.group.id, message.message_id, reply_markup=keyboard()
        )
    edited = await env.bot.edit_message_text("b", env.group.id, message.message_id)
    assert not isinstance(edited, bool)
    assert edited.edit_date is not None and edited.reply_markup is None
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await env.bot.edit_message_text("c", env.group.id, 9999)


async def test_user_sees_edits_and_deletions(env: Env) -> None:
    first = await env.bot.send_message(env.group.id, "one", reply_markup=keyboard(text="Join"))
    second = await env.bot.send_message(env.group.id, "two")
    await env.bot.edit_message_text(
        "one!", env.group.id, first.message_id, reply_markup=keyboard(text="Go")
    )
    await env.bot.delete_message(env.group.id, second.message_id)
    view = env.users[2].view(env.group)
    assert [(m.text, m.buttons, m.edited) for m in view] == [("one!", [["Go"]], True)]


async def test_delete_rules(env: Env) -> None:
    said = env.users[0].send(env.group, "out of turn")
    assert await env.bot.delete_message(env.group.id, said.message_id)
    with pytest.raises(BadRequest, match=r"(?i)message to delete not found"):
        await env.bot.delete_message(env.group.id, said.message_id)
    env.sb.set_bot_rights(env.group, {})  # admin without delete rights
    said = env.users[0].send(env.group, "again")
    with pytest.raises(BadRequest, match=r"(?i)message can't be deleted"):
        await env.bot.delete_message(env.group.id, said.message_id)
    own = await env.bot.send_message(env.group.id, "mine")
    assert await env.bot.delete_messages(env.group.id, [own.message_id])
    old = await env.bot.send_message(env.users[0].id, "old")
    env.sb.clock.advance(49 * 3600)
    with pytest.raises(BadRequest, match=r"(?i)message can't be deleted"):
        await env.bot.delete_message(env.users[0].id, old.message_id)


async def test_button_data_invalid(env: Env) -> None:
    with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):
        await env.bot.send_message(env.group.id, "x", reply_markup=keyboard("x" * 65))
    with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):
        await env.bot.send_message(env.group.id, "x", reply_markup=keyboard("é" * 33))  # 66 bytes
    await env.bot.send_message(env.group.id, "x", reply_markup=keyboard("x" * 64))


async def test_callback_query_answered_twice_or_late(env: Env) -> None:
    await env.bot.send_message(env.group.id, "vote", reply_markup=keyboard(text="Vote"))
    press = env.users[0].press(env.group, "Vote")
    (update,) = await env.bot.get_updates()
    query = update.callback_query
    assert query is not None and query.data == "vote:1" and query.chat_instance
    pending = env.sb.callback_queries[press.query_id]
    assert pending.answered_at is None
    env.sb.clock.advance(2)
    assert query.from_user.id == env.users[0].id and query.message is not None
    assert await query.answer("counted")
    assert press.answer == {"text": "counted"}
    assert pending.answered_at is not None  # when it was answered, for the benchmarks
    assert pending.answered_at - pending.created == pytest.approx(2, abs=0.5)
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await query.answer("again")
    late = env.users[1].press(env.group, "Vote")
    env.sb.clock.advance(16)
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await env.bot.answer_callback_query(late.query_id)


async def test_restrict_needs_rights_and_supergroup(env: Env) -> None:
    mute = ChatPermissions(can_send_messages=False)
    assert await env.bot.restrict_chat_member(env.group.id, env.users[0].id, mute)
    with pytest.raises(SimulationError):
        env.users[0].send(env.group, "let me speak")
    member = await env.bot.get_chat_member(env.group.id, env.users[0].id)
    assert member.status == "restricted"
    with pytest.raises(BadRequest, match=r"(?i)can't remove chat owner"):
        await env.bot.restrict_chat_member(env.group.id, env.users[4].id, mute)
    assert await env.bot.restrict_chat_member(
        env.group.id, env.users[0].id, ChatPermissions.all_permissions()
    )
    env.users[0].send(env.group, "free again")
    env.sb.set_bot_rights(env.group, {"can_delete_messages": True})
    with pytest.raises(BadRequest, match=r"(?i)not enough rights"):
        await env.bot.restrict_chat_member(env.group.id, env.users[1].id, mute)
    basic = env.sb.add_group("Basic", supergroup=False, members=env.users, bot_rights={
        "can_restrict_members": True})  # fmt: skip
    with pytest.raises(BadRequest, match=r"(?i)only for supergroups"):
        await env.bot.restrict_chat_member(basic.id, env.users[1].id, mute)


async def test_set_chat_permissions(env: Env) -> None:
    assert await env.bot.set_chat_permissions(
        env.group.id, ChatPermissions(can_send_messages=False, can_invite_users=True),
        use_independent_chat_permissions=True,
    )  # fmt: skip
    chat = await env.bot.get_chat(env.group.id)
    assert chat.permissions is not None
    assert chat.permissions.can_invite_users is True
    # everything not given is now false
    assert chat.permissions.can_send_polls is False
    assert chat.permissions.can_react_to_messages is False
    with pytest.raises(SimulationError):
        env.users[0].send(env.group, "muted")
    env.users[4].send(env.group, "the owner still speaks")
    env.sb.set_bot_rights(env.group, None)
    with pytest.raises(BadRequest, match=r"(?i)not enough rights"):
        await env.bot.set_chat_permissions(env.group.id, ChatPermissions.all_permissions())


async def test_pin_rights(env: Env) -> None:
    message = await env.bot.send_message(env.group.id, "rules")
    assert await env.bot.pin_chat_message(env.group.id, message.message_id)
    chat = await env.bot.get_chat(env.group.id)
    assert chat.pinned_message is not None
    assert chat.pinned_message.message_id == message.message_id
    assert await env.bot.unpin_chat_message(env.group.id, message.message_id)
    env.sb.set_bot_rights(env.group, {"can_delete_messages": True})
    with pytest.raises(BadRequest, match=r"(?i)not enough rights to manage pinned messages"):
        await env.bot.pin_chat_message(env.group.id, message.message_id)


async def test_administrators(env: Env) -> None:
    admins = await env.bot.get_chat_administrators(env.group.id)
    statuses = {a.user.id: a.status for a in admins}
    assert statuses[env.users[4].id] == "creator"
    assert statuses[env.sb.bot_user.id] == "administrator"
    with pytest.raises(BadRequest):
        await env.bot.get_chat_administrators(env.users[0].id)


async def test_group_limit_counts_edits(env: Env) -> None:
    message = await env.bot.send_message(env.group.id, "0")
    for i in range(1, 20):
        await env.bot.edit_message_text(str(i), env.group.id, message.message_id)
    with pytest.raises(RetryAfter):
        await env.bot.send_message(env.group.id, "one too many")
    refused = env.sb.log.calls("sendMessage", ok=False)[-1]
    assert refused.error_code == 429 and refused.retry_after is not None
    assert 1 <= refused.retry_after <= 60
    # deletions and answers are not charged
    said = env.users[0].send(env.group, "hi")
    assert await env.bot.delete_message(env.group.id, said.message_id)
    env.sb.clock.advance(61)
    await env.bot.send_message(env.group.id, "after the window")
    assert env.sb.log.peak_in_window(env.group.id) == 20
    assert env.sb.log.count_429() == 1


async def test_private_limit(env: Env) -> None:
    for i in range(3):  # the tolerated burst
        await env.bot.send_message(env.users[0].id, f"{i}")
    with pytest.raises(RetryAfter):
        await env.bot.send_message(env.users[0].id, "too fast")
    await env.bot.send_message(env.users[1].id, "another chat is fine")
    env.sb.clock.advance(1.0)
    await env.bot.send_message(env.users[0].id, "after a second")


async def test_global_limit(env: Env) -> None:
    users = env.sb.add_users(31, started=True, prefix="Many")
    for user in users[:30]:
        await env.bot.send_message(user.id, "hi")
    with pytest.raises(RetryAfter):
        await env.bot.send_message(users[30].id, "hi")
