"""The owner's /status and /drain in a private chat, on the sandbox; nobody else gets an
answer. The drain: no lobby opens or starts, a running game goes on to its end."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path

from tests.bot.autoplay import AutoPlayers
from tests.bot.harness import Harness, running_bot
from tg_mafia.playtest.autoplay import find_button, prefix
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render.callbacks import Kind
from tg_mafia.sandbox import Sandbox, SimUser
from tg_mafia.storage import GameStatus

RESTARTING = "The bot restarts soon for an update: no new game can start now."


@contextlib.asynccontextmanager
async def with_owner(
    tmp_path: Path, players: int, scheduler: ManualScheduler, drain_seconds: float = 1800
) -> AsyncIterator[tuple[Harness, SimUser]]:
    """A bot whose owner (OWNER_ID) is a user of the sandbox who started it."""
    sb = Sandbox()
    owner = sb.add_user("Owner")
    async with running_bot(
        tmp_path,
        players,
        sb=sb,
        owner_id=owner.id,
        scheduler=scheduler,
        drain_seconds=drain_seconds,
    ) as h:
        owner.start()
        await h.settle()
        yield h, owner


def from_bot(h: Harness, user: SimUser) -> list[str]:
    """What the bot wrote in the user's private chat."""
    bot_id = h.app.bot.id
    return [m.text or "" for m in user.view(user.private_chat) if m.sender_id == bot_id]


def last_private(h: Harness, user: SimUser) -> str:
    texts = from_bot(h, user)
    return texts[-1] if texts else ""


async def test_status_for_the_owner_only(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with with_owner(tmp_path, 7, scheduler=scheduler) as (h, owner):
        stranger = h.users[1]
        stranger.start()
        h.db.save_settings(h.group.id, variant="classic", language="en")
        await h.open_and_fill()
        await h.press_start()
        logging.getLogger("tg_mafia.test").error("sendMessage failed for %s", h.sb.token)

        owner.command(owner.private_chat, "status")
        await h.settle()
        status = last_private(h, owner)
        assert "tg-mafia 0.1.0 on sandbox, up for 0:00:" in status
        assert "Games running: 1. Open lobbies: 0." in status
        assert "Outbox: empty." in status
        assert "Last errors logged:" in status
        assert "tg_mafia.test: sendMessage failed for ***" in status
        assert h.sb.token not in status
        assert "Draining" not in status

        before = from_bot(h, stranger)
        stranger.command(stranger.private_chat, "status")
        stranger.command(stranger.private_chat, "drain")
        owners_group = h.sb.add_group("Owner's club", members=[owner], owner=owner)
        owner.command(owners_group, "status", mention=True)  # only in private
        await h.settle()
        assert from_bot(h, stranger) == before
        assert not [m for m in owner.view(owners_group) if "tg-mafia" in (m.text or "")]
        assert not h.service.draining.active


async def test_owner_commands_exist_only_with_an_owner(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 1) as h:
        user = h.users[0]
        user.start()
        await h.settle()
        before = from_bot(h, user)
        user.command(user.private_chat, "status")
        await h.settle()
        assert from_bot(h, user) == before


async def test_the_owners_drain(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with with_owner(tmp_path, 7, scheduler=scheduler, drain_seconds=3600) as (h, owner):
        h.db.save_settings(h.group.id, variant="classic", language="en")
        game_id = await h.open_and_fill()
        await h.press_start()
        other = h.sb.add_group("Other club", members=[h.admin], owner=h.admin)
        third = h.sb.add_group("Third club", members=[h.admin, *h.users], owner=h.admin)
        h.db.save_settings(third.id, variant="classic", language="fr")
        # A lobby opened before the drain, full, waiting for its Start.
        h.admin.command(third, "newgame", mention=True)
        await h.settle()
        for user in h.users:
            user.open_deep_link(h.sb.deep_link(f"join_{third.id}"))
        await h.settle()
        lobby = h.db.active_game(third.id)
        assert lobby is not None and lobby.status is GameStatus.LOBBY

        owner.command(owner.private_chat, "drain")
        await h.settle()
        assert "Draining from now on: no new games." in last_private(h, owner)
        assert "at the latest in 1:00:00" in last_private(h, owner)
        assert h.service.draining.active
        finished = asyncio.ensure_future(h.service.draining.finished(h.service.own_running_games))

        h.admin.command(other, "newgame", mention=True)
        await h.settle()
        assert h.db.active_game(other.id) is None
        assert any(RESTARTING in m.text for m in h.admin.view(other) if m.text)

        found = find_button(h, third.id, prefix(Kind.LOBBY, lobby, "start"))
        assert found is not None
        press = h.admin.press(third, found[1], message_id=found[0])
        await h.settle()
        assert press.answer.get("text", "").startswith("Le bot redémarre bientôt")
        await h.service._timer_fired(lobby.id, 0)  # its timer: no start either
        await h.settle()
        lobby_after = h.db.get_game(lobby.id)
        assert lobby_after is not None and lobby_after.status is GameStatus.LOBBY

        owner.command(owner.private_chat, "status")
        await h.settle()
        assert "Draining: no new games." in last_private(h, owner)

        assert not finished.done()
        record = await AutoPlayers(h, scheduler, seed=5).play(game_id)
        assert record.status is GameStatus.ENDED  # the running game went on to its end
        assert await asyncio.wait_for(finished, 1) == 0

        owner.command(owner.private_chat, "drain")
        await h.settle()
        assert last_private(h, owner).startswith("Draining: no new games.")


async def test_the_drain_limit_leaves_games_to_the_next_start(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler, drain_seconds=600) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        game_id = await h.open_and_fill()
        await h.press_start()
        loop = asyncio.get_running_loop()
        began = loop.time()
        assert h.service.draining.begin("a test")
        assert not h.service.draining.begin("again")
        left = await h.service.draining.finished(h.service.own_running_games)
        assert left == 1
        assert 600 <= loop.time() - began < 606
        record = h.db.get_game(game_id)
        assert record is not None and record.status is GameStatus.RUNNING
