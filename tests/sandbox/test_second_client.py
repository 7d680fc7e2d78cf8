"""The second client (aiogram's models) refuses what the current Bot API forbids, so the
check every sandbox test runs (conftest.read_by_a_second_client) can fail."""

from __future__ import annotations

from tg_mafia.sandbox import Sandbox
from tg_mafia.sandbox.world.state import full_admin_rights

from .second_client import result_problem, update_problem


async def test_an_administrator_without_a_10_3_right_is_refused() -> None:
    sb = Sandbox()
    owner = sb.add_user("Owner")
    group = sb.add_group("Club", owner=owner, bot_rights=full_admin_rights())
    status, body = await sb.call("getChatMember", {"chat_id": group.id, "user_id": sb.bot_user.id})
    assert status == 200 and body["result"]["can_send_welcome_messages"] is True
    assert result_problem("getChatMember", body["result"]) is None
    older = {k: v for k, v in body["result"].items() if k != "can_send_welcome_messages"}
    assert "can_send_welcome_messages" in (result_problem("getChatMember", older) or "")


async def test_an_update_is_read_whole() -> None:
    chat = {"id": 1, "type": "private"}
    good = {"update_id": 1, "message": {"message_id": 1, "date": 0, "chat": chat}}
    assert update_problem(good) is None
    assert update_problem({"update_id": 1, "message": {"message_id": "x"}}) is not None


def test_the_bundled_schema_is_the_current_one() -> None:
    schema = Sandbox().schema
    assert schema.version == "Bot API 10.3"
    administrator = schema.types["ChatMemberAdministrator"].fields
    assert administrator["can_send_welcome_messages"].required
    assert schema.method("deleteEphemeralMessage") is not None
    assert not schema.types["ReplyParameters"].fields["message_id"].required
