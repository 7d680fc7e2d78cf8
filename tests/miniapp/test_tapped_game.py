"""A whole game of `moscow` in a real headless browser (Debian's chromium): the
demo's players, with the demo's seed, press every other button by tapping it
in their own page of the Mini App (opened with initData signed by the
sandbox's token) and the rest in the chat; the game ends exactly as `tg-mafia
demo` plays that seed, every move alike. Every page lists the group's public
events, each once.

The taps wait for what the page shows (the button of the move, the answer to
the press), never for a length of time; the bot's and the sandbox's clocks run
fast so that the group's messages go out at once (timers are fired by hand,
as in the demo)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine import Action, Side
from tests.miniapp.conftest import Table, serving
from tests.miniapp.test_page import PHONE, open_page
from tests.play.test_browser import launched
from tg_mafia.i18n import translator
from tg_mafia.miniapp.snapshot import plain
from tg_mafia.playtest.cast import LINES, names
from tg_mafia.playtest.demo import Demo, ThankfulPlayers
from tg_mafia.playtest.harness import running_bot
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render import texts
from tg_mafia.render.protocol import build_protocol, protocol_json
from tg_mafia.sandbox import SimUser, virtual_time
from tg_mafia.storage.tx import SEED_BITS

pytestmark = pytest.mark.real_time

VARIANT, PLAYERS, LANGUAGE, SEED = "moscow", 8, "en", 3
SPEED = 20.0
T = translator(LANGUAGE)
WAIT = 60_000  # ms: what only a stuck page takes to show a move's button or answer
# Pages open at once: each holds its event stream open, and chromium lets one host
# have 6 connections at a time, the presses' included.
OPEN_PAGES = 4


class TappingPlayers(ThankfulPlayers):
    """The demo's players; every other press is a tap in the presser's page."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table: Table | None = None
        self.browser: Any = None
        self.pages: dict[int, Any] = {}
        self.turn = 0
        self.in_page = 0
        self.in_chat = 0
        self.on_seats = 0  # taps on a seat of the circle (the rest on the list of moves)

    async def press(
        self, user: SimUser, chat: int, match: Callable[[str], bool], action: Action
    ) -> None:
        self.turn += 1
        data = newest_data(self.h, chat, match)
        if self.turn % 2 or data is None:
            self.in_chat += 1
            await super().press(user, chat, match, action)
            return
        await self.tap(user, data, action)
        self.in_page += 1

    async def page_of(self, user: SimUser) -> Any:
        """The user's page, open since their last tap; the least recently tapped
        closes beyond OPEN_PAGES (one browser stands for every player's phone)."""
        page = self.pages.pop(user.id, None)
        if page is None:
            assert self.table is not None
            page = await open_page(self.browser, self.table.page_url(user))
        self.pages[user.id] = page
        if len(self.pages) > OPEN_PAGES:
            oldest = next(iter(self.pages))
            await self.pages.pop(oldest).close()
        return page

    async def tap(self, user: SimUser, data: str, action: Action) -> None:
        page = await self.page_of(user)
        listed = page.locator(f'#choices button[data-choice="{data}"]')
        await listed.wait_for(timeout=WAIT)  # the page shows the move: it is up to date
        seat = page.locator(f'#seats button[data-choice="{data}"]')
        target = seat if await seat.count() == 1 else listed
        self.on_seats += target is seat
        answered = page.expect_response(lambda r: r.url.endswith("/app/press"), timeout=WAIT)
        async with answered as pressed:
            await target.click(timeout=WAIT)
        response = await pressed.value
        body = await response.json()
        assert response.status == 200 and body["ok"], (action, response.status, body)
        await page.wait_for_function(
            "text => document.getElementById('status').textContent === text",
            arg=body["text"],
            timeout=WAIT,
        )
        await self.h.settle()


def newest_data(h: Any, chat_id: int, match: Callable[[str], bool]) -> str | None:
    """The data of the newest live button of the chat that `match` takes."""
    chat = h.sb.world.resolve_chat(chat_id)
    for message in sorted(chat.messages.values(), key=lambda m: -m.message_id):
        if message.deleted or not message.reply_markup:
            continue
        for row in message.reply_markup.get("inline_keyboard", []):
            for button in row:
                data = button.get("callback_data")
                if data and match(data):
                    return str(data)
    return None


def the_game(protocol: dict[str, Any]) -> dict[str, Any]:
    """What two plays of one seed share: the deal, every move, the end (not the
    moments, nor the game's number)."""
    return {
        "seed": protocol["game"]["seed"],
        "seats": protocol["seats"],
        "log": protocol["log"],
        "result": protocol["result"],
    }


async def test_a_game_tapped_half_in_the_page_ends_as_its_demo(tmp_path: Path) -> None:
    demo = Demo(VARIANT, PLAYERS, LANGUAGE, {}, SEED)
    await asyncio.to_thread(virtual_time.run, demo.play())  # on a clock of its own
    assert demo.protocol is not None
    rng = random.Random(SEED)  # the seeds as the demo draws them
    deal, moves = rng.getrandbits(SEED_BITS), rng.getrandbits(64)
    scheduler = ManualScheduler()
    (tmp_path / "bot").mkdir()
    async with (
        launched(tmp_path, PHONE) as browser,
        running_bot(
            tmp_path / "bot",
            PLAYERS,
            scheduler=scheduler,
            names=names(LANGUAGE),
            language=LANGUAGE,
            lobby_seed=deal,
            speed=SPEED,
        ) as h,
    ):
        h.db.save_settings(h.group.id, variant=VARIANT, language=LANGUAGE, options={}, title="Demo")
        game_id = await h.open_and_fill()
        players = TappingPlayers(h, scheduler, moves, chatter=0.02, lines=LINES[LANGUAGE])
        await h.press_start()
        async with serving(h, game_id, scheduler) as table:
            players.table, players.browser = table, browser
            record = await players.play(game_id)
            listed = (await table.app.hub.read(game_id) or _no_game()).events
            for page in players.pages.values():
                lines = page.locator("#events li")
                last = f'#events li[data-n="{listed[-1].n}"]'
                await page.locator(last).wait_for(timeout=WAIT)  # the page has the end
                assert await lines.all_inner_texts() == [e.text for e in listed]
                assert not page.errors
        played = protocol_json(build_protocol(record, h.db.actions(game_id)))
    assert the_game(played) == the_game(demo.protocol)
    assert record.winner is not None  # and the pages' last public event says who won
    assert listed[-1].text.startswith(plain(texts.winner_line(T, Side(record.winner))))
    # Half the presses in the page, half in the chat; some taps on the seats.
    assert players.in_page >= 10 and abs(players.in_page - players.in_chat) <= 1
    assert players.on_seats >= 1


def _no_game() -> Any:
    raise AssertionError("the game is gone")
