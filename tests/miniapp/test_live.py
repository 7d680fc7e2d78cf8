"""The page lives: a move made in the chat reaches every open page as an
event, a move pressed in the page goes through the same gate and engine call as
the chat's button, and a stream that reconnects with its last event id is sent
only what changed since."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest

from engine.state import FloorMode, Stage
from tests.miniapp.conftest import Table, served_table
from tests.miniapp.test_page import PHONE, events_of, open_page
from tests.play.test_browser import launched
from tg_mafia.i18n import translator
from tg_mafia.miniapp.hub import read_game
from tg_mafia.render import texts
from tg_mafia.sandbox import SimUser

pytestmark = pytest.mark.real_time
T = translator("en")
SPEED = 20.0


@pytest.fixture
async def browser(tmp_path: Path) -> AsyncIterator[Any]:
    async with launched(tmp_path, PHONE) as context:
        yield context


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    # The clocks run fast: the group's messages go out at once (timers are fired by hand).
    async with served_table(tmp_path, lobby_seed=3, speed=SPEED) as served:
        await served.h.settle()
        yield served


def user_of(table: Table, player: str) -> SimUser:
    return next(u for u in table.h.users if str(u.id) == player)


def floor_message(table: Table) -> int:
    """The group's message whose Pass the speaker presses now."""
    _, buttons, _ = read_game(table.h.db, table.game_id)
    return next(b.message_id for b in buttons if any(d.startswith("ps:") for d in b.choices or ()))


async def wait_until(check: Any, what: str, seconds: float = 20.0) -> None:
    for _ in range(int(seconds * 20)):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")


async def test_the_floor_passes_by_page_and_by_chat_and_every_page_follows(
    browser: Any, table: Table
) -> None:
    h = table.h
    watcher = await open_page(browser, table.page_url(h.admin))  # a spectator's page
    await watcher.locator("#seats li.speaking").wait_for()
    pages: dict[str, Any] = {}
    seats = table.state().table.seats
    for turn in range(len(seats)):
        state = table.state()
        speaker = state.day.speaker
        assert speaker is not None and state.stage.value == "intro"
        number = str(seats.index(speaker) + 1)
        await wait_until(
            lambda n=number: _speaking(watcher, n), f"seat {number} speaking on the page"
        )
        if turn % 2 == 0:  # pressed in the page
            if speaker not in pages:
                pages[speaker] = await open_page(browser, table.page_url(user_of(table, speaker)))
            page = pages[speaker]
            button = page.locator(f'#choices button:text-is("{texts.button(T, "pass")}")')
            await button.wait_for(timeout=20_000)
            others = [p for p in pages if p != speaker]
            for other in others:  # nobody else is offered the speaker's Pass
                assert not await pages[other].locator("#choices button").count()
            await button.click()
            await wait_until(lambda p=page: _said(p), "the press's answer on the page")
        else:  # pressed in the chat
            user_of(table, speaker).press(h.group, texts.button(T, "pass"), floor_message(table))
        await h.settle()
        after = table.state()
        assert after.day.speaker != speaker or after.stage.value != "intro"
    assert table.state().stage.value != "intro"
    for page in (watcher, *pages.values()):
        assert not page.errors


async def _speaking(page: Any, number: str) -> bool:
    return await page.locator("#seats li.speaking").get_attribute("data-seat") == number


async def _said(page: Any) -> bool:
    return (await page.locator("#status").inner_text()).strip() not in ("", "…")


async def stream(table: Table, init: str, last: str, seconds: float, during: Any = None) -> str:
    """The event stream as a reconnecting page gets it (Last-Event-ID: `last`),
    for `seconds`; `during` runs meanwhile."""
    chunks: list[bytes] = []
    request = HTTPRequest(
        f"{table.base}/events?game={table.game_id}&auth={quote(init)}",
        headers={"Last-Event-ID": last} if last else {},
        streaming_callback=chunks.append,
        request_timeout=seconds,
    )
    fetching = asyncio.ensure_future(AsyncHTTPClient().fetch(request))
    if during is not None:
        await asyncio.sleep(0.5)
        await during()
    with pytest.raises(HTTPClientError):
        await fetching
    return b"".join(chunks).decode()


async def test_a_stream_resumes_from_its_last_event_id(table: Table) -> None:
    h = table.h
    viewer = h.users[1]
    init = table.signed(viewer)
    state = await AsyncHTTPClient().fetch(
        f"{table.base}/state?game={table.game_id}", headers={"Authorization": f"tma {init}"}
    )
    current = json.loads(state.body)["id"]
    # Reconnected with the id it has: nothing is sent again.
    assert events_of(await stream(table, init, current, 1.5)) == []
    # With an older id (or none): the table as it is now.
    (again,) = events_of(await stream(table, init, "0-old", 1.5))
    assert again["v"] == table.record().version
    # Reconnected, then the speaker passes in the chat: that one change comes.
    speaker = table.state().day.speaker
    assert speaker is not None

    async def pass_in_chat() -> None:
        user_of(table, speaker).press(h.group, texts.button(T, "pass"), floor_message(table))
        await h.settle()

    raw = await stream(table, init, current, 3.0, pass_in_chat)
    changed = events_of(raw)
    assert changed and all(e["v"] > again["v"] for e in changed)
    speaking = [s["n"] for s in changed[-1]["seats"] if s["speaking"]]
    assert speaking == [table.state().table.seats.index(table.state().day.speaker or "") + 1]
    ids = [line.removeprefix("id: ") for line in raw.splitlines() if line.startswith("id: ")]
    assert current not in ids and len(set(ids)) == len(ids)
    # The public events: those it had, then the new floor's, none twice or skipped.
    had, now = again["events"], changed[-1]["events"]
    numbers = [e["n"] for e in now]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    assert now[: len(had)] == had and len(now) == len(had) + 1
    head = texts.floor_head(T, Stage.INTRO, FloorMode.NORMAL, 1)
    assert now[-1]["text"].startswith(f"{head} — {speaking[0]} · ")
