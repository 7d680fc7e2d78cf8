"""The way into the Mini App from the group: the lobby stays pinned through
the game with a "Table" link (t.me/<bot>/<app>?startapp=g<game>: groups take
no web_app button), unpinned when the game ends; without a Mini App name the
lobby is unpinned at the start, as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine import GameState, Role
from tests.bot.harness import Harness, running_bot
from tg_mafia.i18n import translator
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render import texts

T = translator("en")


def pinned_buttons(h: Harness) -> list[dict[str, str]]:
    chat = h.sb.world.resolve_chat(h.group.id)
    if not chat.pinned:
        return []
    message = chat.messages[chat.pinned[-1]]
    return [b for row in (message.reply_markup or {}).get("inline_keyboard", []) for b in row]


async def test_the_pinned_lobby_links_to_the_table_until_the_end(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler, miniapp_name="table") as h:
        h.db.save_settings(h.group.id, variant="moscow", language="en")
        game_id = await h.open_and_fill()
        await h.press_start()
        (button,) = pinned_buttons(h)
        assert button["text"] == texts.button(T, "table")
        assert button["url"] == f"https://t.me/{h.sb.bot_username}/table?startapp=g{game_id}"
        h.admin.command(h.group, "cancel", mention=True)
        await h.settle()
        assert not h.sb.world.resolve_chat(h.group.id).pinned


async def test_without_a_mini_app_the_lobby_is_unpinned_at_the_start(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 7, scheduler=ManualScheduler()) as h:
        h.db.save_settings(h.group.id, variant="moscow", language="en")
        await h.open_and_fill()
        await h.press_start()
        assert not h.sb.world.resolve_chat(h.group.id).pinned


async def test_private_prompts_open_the_table_in_the_mini_app(tmp_path: Path) -> None:
    app = "https://bot.example.org/app"
    async with running_bot(tmp_path, 7, scheduler=ManualScheduler(), app_url=app) as h:
        h.db.save_settings(h.group.id, variant="moscow", language="en")
        game_id = await h.open_and_fill()
        await h.press_start()
        users = {str(u.id): u for u in h.users}
        for _ in range(7):  # the introductions, each floor passed: night 1 comes
            state = GameState.from_dict((h.db.get_game(game_id) or _none()).state or {})
            if state.day.speaker is None:
                break
            users[state.day.speaker].press(h.group, texts.button(T, "pass"))
            await h.settle()
        state = GameState.from_dict((h.db.get_game(game_id) or _none()).state or {})
        assert state.phase.value == "night"
        don = next(p for p in state.table.seats if state.table.roles[p] is Role.DON)
        chat = h.sb.world.private_chat(users[don].user)
        prompt = [m for m in chat.messages.values() if m.reply_markup][-1]
        last = prompt.reply_markup["inline_keyboard"][-1]
        assert last == [
            {"text": texts.button(T, "table"), "web_app": {"url": f"{app}?game={game_id}"}}
        ]
        # The group's keyboards keep to callbacks and links: groups refuse web_app buttons.
        group = h.sb.world.resolve_chat(h.group.id)
        for message in group.messages.values():
            for row in (message.reply_markup or {}).get("inline_keyboard", []):
                assert all("web_app" not in button for button in row)


def _none() -> Any:
    raise AssertionError("no game")
