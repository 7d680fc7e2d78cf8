"""The play page in a real headless browser (Debian's chromium, driven by
playwright): a person plays seat 1 by clicking and typing, the other seats
autoplay with the bot's own timers running, until the end screen.

Without /usr/bin/chromium the test is skipped, except in CI (CI=true), where
it fails. TG_MAFIA_PLAY_SCREENSHOTS=<folder> keeps the screenshots there
(docs/images was made so); by default they go to the test's temporary folder."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any

import pytest

from tg_mafia.playweb.server import serve
from tg_mafia.playweb.session import PlayConfig

# A real browser in another process: the wall clock, not the virtual one.
pytestmark = pytest.mark.real_time

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Fast timers, but long enough for a person's clicks to land within them.
CONFIG = PlayConfig(
    variant="moscow",
    players=7,
    options={
        "intro_seconds": "60",
        "speech_seconds": "180",
        "night_seconds": "120",
        "vote_count_seconds": "30",
    },
    speed=40.0,
    seed=5,  # seat 1 is the sheriff: night moves to click
    person=1,
)
GAME_LIMIT = 240.0  # real seconds; a game takes about 20 (more on a busy machine)
GROUP = 'section[data-chat="group"]'
SEAT = 'section[data-seat="{}"]'
WORDS = "I am a simple citizen, believe me."


def browser_or_skip() -> Any:
    """playwright's async API, or a skip (a failure in CI) saying what is missing."""
    missing = None
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        missing = "the playwright package is not installed (pip install -e '.[test]')"
    if missing is None and not CHROMIUM.exists():
        missing = f"{CHROMIUM} is missing (apt-get install chromium)"
    if missing is None:
        return async_playwright
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must run the browser test: {missing}")
    pytest.skip(missing)


@pytest.mark.parametrize(
    ("ci", "outcome"), [("", pytest.skip.Exception), ("true", pytest.fail.Exception)]
)
def test_without_chromium_it_skips_but_fails_in_ci(
    ci: str, outcome: type[BaseException], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sys.modules[__name__], "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="no-chromium is missing"):
        browser_or_skip()


@pytest.fixture
async def browser(tmp_path: Path) -> AsyncIterator[Any]:
    async_playwright = browser_or_skip()
    async with async_playwright() as pw:
        context = await pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=str(CHROMIUM),
            headless=True,
            args=FLAGS,
            viewport={"width": 1500, "height": 900},
        )
        try:
            yield context
        finally:
            await context.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("TG_MAFIA_PLAY_SCREENSHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Person:
    """Plays seat 1 through the page as a person would, and keeps count."""

    def __init__(self, page: Any, name: str) -> None:
        self.page = page
        self.name = name
        self.seat = page.locator(SEAT.format(1))
        self.group = page.locator(GROUP)
        self.pressed: set[str] = set()  # message id + text: each version once
        self.clicks = 0
        self.spoke = False

    async def once(self, message: Any, label: str | None = None) -> bool:
        """Presses the first button (or `label`) of a message version not pressed yet."""
        # The message may lose its buttons meanwhile: then there is nothing to press.
        key = await unless_gone(message.get_attribute("data-id", timeout=2000))
        text = await unless_gone(message.inner_text(timeout=2000))
        if key is GONE or text is GONE:
            return False
        key = f"{key or ''}{text}"
        if key in self.pressed:
            return False
        self.pressed.add(key)
        buttons = message.locator(".keyboard button")
        button = buttons.filter(has_text=label) if label else buttons.first
        if not await button.count():
            return False
        if await unless_gone(button.first.click(timeout=2000)) is GONE:
            return False  # the stage moved on meanwhile
        self.clicks += 1
        return True

    async def step(self) -> None:
        # Night moves, a nominee, the Don's list...: what the bot asks in private.
        asks = self.seat.locator("li.message:has(.keyboard)")
        for index in range(await asks.count()):
            await self.once(asks.nth(index))
        # The floor is mine: say something, then pass.
        floor = self.group.locator(f'li.message:has-text("Now: 1 · {self.name}"):has(.keyboard)')
        if await floor.count():
            if not self.spoke:
                await self.say_in_group(WORDS)
            await self.once(floor.last, "Pass")
        # A hand-raise count for someone else: raise my hand.
        count = self.group.locator('li.message:has-text("Raise your hand"):has(.keyboard)')
        if await count.count():
            text = await unless_gone(count.last.inner_text(timeout=2000))  # the count may end
            if text is not GONE and f"eliminate 1 · {self.name}." not in text:
                await self.once(count.last, "Raise")

    async def say_in_group(self, text: str) -> None:
        box = self.group.locator(".composer input")
        await box.fill(text)
        await box.press("Enter")
        mine = self.group.locator(
            f'li.message:has(.sender:text-is("{self.name}")):has-text("{text}")'
        )
        await mine.first.wait_for(timeout=30_000)  # only a stuck page waits that long
        self.spoke = True


GONE = object()  # what unless_gone gives for an element that went away


async def unless_gone(call: Awaitable[Any]) -> Any:
    """The call's result, or GONE when it timed out on an element that matched a
    moment ago (its buttons went away as the stage moved on): never a 30-s wait."""
    try:
        return await call
    except Exception as error:  # playwright's TimeoutError
        if "Timeout" not in type(error).__name__:
            raise
        return GONE


async def group_text(page: Any) -> str:
    return str(await page.locator(f"{GROUP} .messages").inner_text())


async def press_for_another_seat(page: Any, seats: range) -> bool:
    """Presses a button in another seat's private chat: the bot must take it
    as that seat (its chat changes; no refusal). False while none has one."""
    for number in seats:
        column = page.locator(SEAT.format(number))
        asks = column.locator("li.message:has(.keyboard)")
        if not await asks.count():
            continue
        before = await column.locator(".messages").inner_html()
        await asks.last.locator(".keyboard button").first.click(timeout=30_000)
        for _ in range(300):  # 30 s: only a stuck page waits that long
            if await column.locator(".messages").inner_html() != before:
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError(f"seat {number}'s chat did not change after its button")
        assert not await column.locator(".toast.refused").count()
        return True
    return False


async def set_autoplay(page: Any, seats: range, on: bool) -> None:
    """Ticks the seats' autoplay boxes, and waits until the server's word on
    them (pushed back to the page) agrees."""
    for number in seats:
        box = page.locator(f"{SEAT.format(number)} .autoplay input")
        if await box.is_checked() is not on:
            await box.click()
    for number in seats:
        box = page.locator(f"{SEAT.format(number)} .autoplay input")
        for _ in range(50):
            if await box.is_checked() is on:
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError(f"seat {number}: autoplay did not turn {on}")


async def test_a_person_plays_a_whole_game_in_the_browser(browser: Any, shots: Path) -> None:
    loop = asyncio.get_running_loop()
    started = loop.time()
    async with serve(CONFIG, "127.0.0.1", 0) as (_, port):
        page = await browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.goto(f"http://127.0.0.1:{port}/")
        lobby = page.locator(f'{GROUP} li.message:has(.keyboard button:text-is("Start"))')
        await lobby.wait_for(timeout=10_000)
        name = (await page.locator(f"{SEAT.format(1)} h2").inner_text()).split(" · ")[1]
        others = range(2, CONFIG.players + 1)
        # The others wait until a press in one of their chats was checked.
        await set_autoplay(page, others, False)

        actor = page.locator(f"{GROUP} .actor select")
        await actor.select_option(label="Admin")
        await lobby.locator('button:text-is("Start")').click()
        await actor.select_option(label=f"1 · {name}")
        await page.locator(f'{GROUP} li.message:has-text("The game begins")').wait_for()

        person = Person(page, name)
        await person.seat.locator(".composer input").fill("Hello, bot.")
        await person.seat.locator(".composer input").press("Enter")
        await person.seat.locator('li.message.own:has-text("Hello, bot.")').wait_for()

        crossed = False
        counted = False
        while "wins!" not in await group_text(page):
            assert loop.time() - started < GAME_LIMIT, "the game did not end in time"
            if not crossed and await press_for_another_seat(page, others):
                crossed = True
                await set_autoplay(page, others, True)
            await person.step()
            if not counted and re.search(r"— \d+ hands? \(", await group_text(page)):
                counted = True
                await page.screenshot(path=str(shots / "play-vote.png"))
            await asyncio.sleep(0.1)

        end = page.locator(f'{GROUP} li.message:has-text("wins!")')
        await end.locator('.keyboard button:has-text("New game")').wait_for()
        await end.scroll_into_view_if_needed()
        await page.screenshot(path=str(shots / "play-end.png"))

        assert crossed, "no other seat ever had a button to press"
        assert person.spoke and person.clicks >= 2, (person.spoke, person.clicks)
        assert not errors, errors
    assert loop.time() - started < GAME_LIMIT


async def test_the_page_fits_a_phone(browser: Any, shots: Path) -> None:
    async with serve(CONFIG, "127.0.0.1", 0) as (_, port):
        page = await browser.new_page()
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.goto(f"http://127.0.0.1:{port}/")
        await page.locator(f"{GROUP} li.message").first.wait_for(timeout=10_000)
        for tab, selector in (("Cat", SEAT.format(3)), ("Group", GROUP)):
            await page.locator(f'#tabs button:text-is("{tab}")').click()
            await asyncio.sleep(0.6)  # the smooth scroll
            box = await page.locator(selector).bounding_box()
            assert box is not None and box["x"] >= -1 and box["x"] + box["width"] <= 391, box
            assert await page.locator(f"{selector} .composer input").is_visible()
        await page.screenshot(path=str(shots / "play-phone.png"))


async def test_the_table_form_refuses_a_bad_table_and_opens_a_new_one(browser: Any) -> None:
    async with serve(CONFIG, "127.0.0.1", 0) as (tables, port):
        page = await browser.new_page()
        await page.goto(f"http://127.0.0.1:{port}/")
        await page.locator('#tabs button:text-is("Ann")').wait_for(timeout=10_000)
        await page.locator("#setup-toggle").click()
        form = page.locator("#setup")
        await form.locator('[name="players"]').fill("3")
        await form.locator('button[type="submit"]').click()
        await form.locator('#setup-error:has-text("moscow needs 7 to 15 players")').wait_for()
        assert tables.number == 1

        await form.locator('[name="players"]').fill("8")
        await form.locator('[name="language"]').select_option("fr")
        await form.locator('[name="options"]').fill("thanks_rule=on\nmaniac=off")
        await form.locator('button[type="submit"]').click()
        await page.locator('#tabs button:text-is("Amélie")').wait_for(timeout=10_000)
        assert await form.is_hidden()
        assert await page.locator("#tabs button").count() == 9  # the group and 8 players
        assert "fr" in await page.locator("#status").inner_text()
        assert dict(tables.config.options) == {"thanks_rule": "on", "maniac": "off"}
