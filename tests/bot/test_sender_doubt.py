"""A call that got no answer may still be carried out later, after the bot's next
call to the same chat (the sandbox carries a hung call out once its hang is over):
the bot must not then skip a call as already made."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.bot.one_sender import one_sender
from tg_mafia.render.calls import Permissions
from tg_mafia.sandbox import Sandbox
from tg_mafia.sandbox.transport.inprocess import SandboxRequest

HANG = 0.5  # seconds a hung setChatPermissions takes to land
OPEN = {"can_send_messages": True, "can_send_polls": True}


class QuickSandbox(Sandbox):
    def request(self, read_timeout: float = 0.1) -> SandboxRequest:
        return super().request(read_timeout)


async def test_a_group_reopened_after_a_hung_close_is_reopened_at_the_end(
    tmp_path: Path,
) -> None:
    sb = QuickSandbox()
    (admin,) = sb.add_users(1, started=True)
    group = sb.add_group(
        "Night", members=[admin], owner=admin, bot_rights={"can_restrict_members": True}
    )

    def can_write() -> bool:
        return bool(sb.world.resolve_chat(group.id).permissions.get("can_send_messages"))

    async with one_sender(sb, tmp_path, group.id, admin.id) as one:
        sb.fail_next("hang", method="setChatPermissions", hang_seconds=HANG)
        await one.calls(Permissions())  # the night: timed out, made again, closed
        assert not can_write()
        await one.calls(Permissions(OPEN))  # the day, before the hung close lands
        assert can_write()
        await asyncio.sleep(HANG)  # ... and there it lands: closed again
        assert not can_write()
        await one.calls(Permissions(OPEN, final=True))  # the end: must be made
        assert can_write()
