"""`tg-mafia run` by long polling (no webhook, so no webhook server): with
MINIAPP_URL the bot's own process serves the Mini App on MINIAPP_LISTEN, and a
game's pinned lobby links to it; without it nothing listens and no link is
shown, as before."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from tests.loopback import loopback_client
from tests.run.test_live import BOT_RIGHTS, PATIENCE, World, free_port, launch, until_healthy
from tg_mafia.render.callbacks import Kind, decode
from tg_mafia.sandbox import HttpTransport, Sandbox

pytestmark = pytest.mark.real_time

PLAYERS = 7


@pytest.fixture
async def world() -> AsyncIterator[World]:
    sb = Sandbox()
    users = sb.add_users(PLAYERS)
    group = sb.add_group("Club", members=users, owner=users[0], bot_rights=BOT_RIGHTS)
    async with HttpTransport(sb) as http:
        yield World(sb, http, group, users)
    await sb.close()


async def start_a_game(world: World) -> None:
    """/newgame, everyone joins by the deep link, Start: until the game begins."""
    sb, group = world.sb, world.group
    world.users[0].command(group, "newgame", mention=True)
    await sb.wait_for(lambda: any(m.buttons for m in world.users[0].view(group)), PATIENCE)
    for user in world.users:
        user.open_deep_link(sb.deep_link(f"join_{group.id}"))
        await sb.wait_for(lambda u=user: len(u.texts()) >= 2, PATIENCE)  # /start, then joined
    chat = sb.world.resolve_chat(group.id)
    lobby = max(
        (m for m in chat.messages.values() if m.reply_markup),
        key=lambda m: m.message_id,
    )
    start = next(
        b["text"]
        for row in lobby.reply_markup["inline_keyboard"]
        for b in row
        if (found := decode(b.get("callback_data"))) and found.kind is Kind.LOBBY
        if found.args == ("start",)
    )
    world.users[0].press(group, start, message_id=lobby.message_id)
    await sb.wait_for(
        lambda: any("The game begins" in t for t in world.users[0].texts(group)), PATIENCE
    )


def pinned_links(world: World) -> list[str]:
    chat = world.sb.world.resolve_chat(world.group.id)
    if not chat.pinned:
        return []
    message = chat.messages[chat.pinned[-1]]
    rows = (message.reply_markup or {}).get("inline_keyboard", [])
    return [b["url"] for row in rows for b in row if "url" in b]


async def test_by_long_polling_the_bot_serves_the_mini_app_itself(
    world: World, tmp_path: Path
) -> None:
    health, port = free_port(), free_port()
    base = f"http://127.0.0.1:{port}/table"
    bot = await launch(
        world, tmp_path, "--health-listen", str(health), "--miniapp-name", "table",
        "--drain-seconds", "0", "--miniapp-url", base, "--miniapp-listen", f"127.0.0.1:{port}",
    )  # fmt: skip
    try:
        await until_healthy(bot, health)
        await start_a_game(world)
        links = [f"https://t.me/{world.sb.bot_username}/table?startapp=g1"]
        await world.sb.wait_for(lambda: pinned_links(world) == links, PATIENCE)
        async with loopback_client() as client:
            page = await client.get(base, timeout=PATIENCE)
            assert page.status_code == 200 and "/table/static/app.js" in page.text
            script = await client.get(f"{base}/static/app.js", timeout=PATIENCE)
            assert script.status_code == 200
            unsigned = await client.get(f"{base}/state?game=1", timeout=PATIENCE)
            assert unsigned.status_code == 401
            init = world.users[1].web_app_data("g1")
            answer = await client.get(
                f"{base}/state?game=1", headers={"Authorization": f"tma {init}"}, timeout=PATIENCE
            )
        assert answer.status_code == 200
        table = json.loads(answer.text)["table"]
        assert len(table["seats"]) == PLAYERS and table["me"]["seat"] == 2
        assert table["events"][0]["text"].startswith("🎭 The game begins.")
    finally:
        assert await bot.stop() == 0, bot.output()  # the game waits for the next start
    assert f"by long polling, the Mini App on 127.0.0.1:{port}" in bot.output()


async def test_by_long_polling_without_its_url_there_is_no_mini_app(
    world: World, tmp_path: Path
) -> None:
    health, port = free_port(), free_port()
    bot = await launch(
        world, tmp_path, "--health-listen", str(health), "--miniapp-name", "table",
        "--drain-seconds", "0", "--miniapp-listen", f"127.0.0.1:{port}",
    )  # fmt: skip
    try:
        await until_healthy(bot, health)
        await start_a_game(world)
        await world.sb.wait_for(lambda: not world.sb.world.resolve_chat(world.group.id).pinned)
        assert pinned_links(world) == []  # the lobby is unpinned at the start, as before
        async with loopback_client() as client:
            with pytest.raises(httpx.ConnectError):
                await client.get(f"http://127.0.0.1:{port}/app", timeout=PATIENCE)
    finally:
        assert await bot.stop() == 0, bot.output()  # the game waits for the next start
    assert "the Mini App on" not in bot.output()
