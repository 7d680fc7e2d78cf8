"""The first evening in a real group, as a new admin lives it: what the bot cannot see
with privacy mode on, the group upgraded under a lobby or a day, topics closed and
deleted."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.harness import running_bot
from tg_mafia.sandbox import Sandbox

BLIND = "the floor will not be enforced"
FIX = "make me an administrator of the group"
ONLY_WARN = "I will only warn"


@pytest.mark.parametrize(
    ("privacy", "admin", "says"),
    [
        (True, False, BLIND),  # sees only commands and replies: says so, and how to fix it
        (False, False, ONLY_WARN),  # sees every post, cannot delete them: only warns
        (True, True, None),  # an administrator sees everything and has the rights
    ],
)
async def test_the_lobby_says_what_the_bot_cannot_see(
    tmp_path: Path, privacy: bool, admin: bool, says: str | None
) -> None:
    async with running_bot(tmp_path, 3, sb=Sandbox(privacy_mode=privacy)) as h:
        if not admin:
            h.sb.set_bot_rights(h.group, None, by=h.admin)  # a plain member
        h.admin.command(h.group, "newgame", mention=True)
        await h.settle()
        assert h.db.active_game(h.group.id) is not None
        said = "\n".join(h.group_texts())
        for notice in (BLIND, ONLY_WARN):
            assert (notice in said) == (notice == says), said
        assert (FIX in said) == (says == BLIND)
