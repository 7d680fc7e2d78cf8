"""The play page in a real headless browser (Debian's chromium, driven by
playwright): a person plays one game of each variant to its end, each in
another language, by reading the page and pressing the buttons it shows;
the other seats autoplay with the bot's own timers running fast.

Without /usr/bin/chromium the tests are skipped, except in CI (CI=true),
where they fail. TG_MAFIA_PLAY_SCREENSHOTS=<folder> keeps the screenshots
there (docs/make_screenshots.py writes docs/images so); by default they go
to the test's temporary folder."""

from __future__ import annotations

import contextlib
import os
import re
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tg_mafia.i18n import translator
from tg_mafia.playweb.server import serve
from tg_mafia.playweb.session import PlayConfig
from tg_mafia.playweb.words import page_words, status_word
from tg_mafia.render import texts

# A real browser in another process: the wall clock, not the virtual one.
pytestmark = pytest.mark.real_time

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SPEED = 20.0  # the simulated players' turns; the person's run at real time
GAME_LIMIT = 900.0  # real seconds; a game takes one to three minutes (more on a busy machine)
LOOK = 5_000  # ms: how long the person waits for the page to change before looking again
CLICK = 5_000  # ms: a button that does not take a click by then went away (the stage moved on)
GROUP = 'section[data-chat="group"]'
SEAT = 'section[data-seat="{}"]'
# The shortest turns the options allow: the person acts at once anyway.
FLOORS = {"speech_seconds": "15", "last_word_seconds": "10", "vote_count_seconds": "3"}
NIGHT = {"night_seconds": "20"}


@dataclass(frozen=True)
class Game:
    variant: str
    language: str
    players: int
    options: dict[str, str] = field(default_factory=dict)
    seed: int = 1

    def config(self) -> PlayConfig:
        return PlayConfig(
            language=self.language,
            variant=self.variant,
            players=self.players,
            options=self.options,
            speed=SPEED,
            seed=self.seed,
            person=1,
        )


GAMES = [
    Game("classic", "en", 7, {"day_seconds": "60", **NIGHT}, seed=3),
    Game("moscow", "ru", 7, {"intro_seconds": "15", **FLOORS, **NIGHT}, seed=4),
    Game("party", "ro", 8, {"day_seconds": "60", "ballot_seconds": "15", **NIGHT}, seed=5),
    Game("club", "fr", 7, {**FLOORS, **NIGHT}, seed=6),
    Game("sport", "vi", 10, {**FLOORS, **NIGHT}, seed=7),
]


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


@contextlib.asynccontextmanager
async def launched(tmp_path: Path, viewport: dict[str, int]) -> AsyncIterator[Any]:
    """Debian's chromium, headless, with a profile of its own: every browser test's."""
    async_playwright = browser_or_skip()
    async with async_playwright() as pw:
        context = await pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=str(CHROMIUM),
            headless=True,
            args=FLAGS,
            viewport=viewport,
        )
        try:
            yield context
        finally:
            await context.close()


@pytest.fixture
async def browser(tmp_path: Path) -> AsyncIterator[Any]:
    async with launched(tmp_path, {"width": 1500, "height": 900}) as context:
        yield context


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("TG_MAFIA_PLAY_SCREENSHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# What the person sees: every message of the group and of their own chat,
# read in one go (an element may go away between two reads).
READ = """([group, mine]) => {
  const read = (section) => [...section.querySelectorAll("li.message")].map((item) => ({
    id: item.dataset.id,
    text: item.querySelector(".text")?.innerText ?? "",
    mentions: [...item.querySelectorAll(".text .mention")].map((m) => m.innerText),
    moments: [...item.querySelectorAll(".text time.moment")].map((m) => Number(m.dataset.unix)),
    buttons: [...item.querySelectorAll(".keyboard button")].map((b) => b.innerText),
  }));
  return {
    group: read(document.querySelector(group)),
    mine: read(document.querySelector(mine)),
    received: Number(document.body.dataset.received || 0),
  };
}"""
SEAT_LABEL = re.compile(r"^\d+ · ")


class Person:
    """Plays seat 1 as a person would: reads what the page shows in the
    group and in their own chat, and presses what they would press there,
    by its label in the table's language."""

    def __init__(self, page: Any, me: str, language: str) -> None:
        self.page = page
        self.me = me  # the seat's label, "1 · Ann"
        t = translator(language)
        self.label = {name: texts.button(t, name) for name in ("pass", "nominate", "raise")}
        self.label |= {name: texts.button(t, name) for name in ("withdraw", "done", "new_game")}
        self.done: set[str] = set()  # what was done, each once: "verb:message:version"
        self.clicks = 0
        self.spoke = False
        self.own_floor_seconds: list[float] = []  # real seconds each floor of mine had left
        self.seen = 0  # the page's count of updates at the last look

    async def look(self) -> dict[str, Any]:
        seen = await self.page.evaluate(READ, [GROUP, SEAT.format(1)])
        self.seen = seen["received"]
        return dict(seen)

    async def next_change(self) -> None:
        """Until the page changes (or LOOK passes: a timer may end a stage silently)."""
        try:
            await self.page.wait_for_function(
                "seen => Number(document.body.dataset.received || 0) > seen",
                arg=self.seen,
                timeout=LOOK,
            )
        except Exception as error:  # playwright's TimeoutError
            if "Timeout" not in type(error).__name__:
                raise

    def over(self, seen: dict[str, Any]) -> bool:
        return any(self.label["new_game"] in m["buttons"] for m in seen["group"])

    async def step(self) -> None:
        """One thing a person does now, if there is one; then waits for the page."""
        seen = await self.look()
        for act in (self.private, self.floor, self.hand, self.ballot):
            if await act(seen):
                return
        await self.next_change()

    async def press(self, section: str, message: dict[str, Any], label: str) -> bool:
        button = self.page.locator(f'{section} li.message[data-id="{message["id"]}"]')
        button = button.get_by_role("button", name=label, exact=True)
        try:
            await button.click(timeout=CLICK)
        except Exception as error:  # the message lost the button: the stage moved on
            if "Timeout" not in type(error).__name__:
                raise
            return False
        self.clicks += 1
        return True

    def once(self, verb: str, message: dict[str, Any], version: str = "") -> bool:
        key = f"{verb}:{message['id']}:{version}"
        if key in self.done:
            return False
        self.done.add(key)
        return True

    def names(self, message: dict[str, Any]) -> list[str]:
        """The players a message's buttons name, but me."""
        return [b for b in message["buttons"] if SEAT_LABEL.match(b) and b != self.me]

    async def private(self, seen: dict[str, Any]) -> bool:
        """What the bot asks me in private: a night move, a nominee, the Don's
        list, a deciding vote, a best move: one name, then Done if asked."""
        for message in reversed(seen["mine"]):
            names = self.names(message)
            if names and self.once("pick", message):
                return await self.press(SEAT.format(1), message, names[0])
            if self.label["done"] in message["buttons"] and self.once("done", message):
                return await self.press(SEAT.format(1), message, self.label["done"])
        return False

    async def floor(self, seen: dict[str, Any]) -> bool:
        """My floor: a word in the group once a game, a nominee if I may, then Pass."""
        for message in reversed(seen["group"]):
            if self.label["pass"] not in message["buttons"]:
                continue
            if message["mentions"][:1] != [self.me]:
                return False  # someone else's floor
            version = message["text"].splitlines()[0]
            if self.once("floor", message, version) and message["moments"]:
                self.own_floor_seconds.append(message["moments"][0] - time.time())
            if not self.spoke:
                await self.say("👋")
                return True
            if self.label["nominate"] in message["buttons"] and self.once(
                "nominate", message, version
            ):
                asked = len(seen["mine"])
                if await self.press(GROUP, message, self.label["nominate"]):
                    await self.until_private_grows(asked)
                return True
            if self.once("pass", message, version):
                return await self.press(GROUP, message, self.label["pass"])
            return False
        return False

    async def hand(self, seen: dict[str, Any]) -> bool:
        """A hand-raise count (or sport's lift vote): my hand up once a vote,
        against someone else (the candidate counted is the last one named)."""
        for message in reversed(seen["group"]):
            if self.label["raise"] not in message["buttons"]:
                continue
            if message["mentions"][-1:] == [self.me]:
                return False
            if self.once("raise", message, message["text"].splitlines()[0]):
                return await self.press(GROUP, message, self.label["raise"])
            return False
        return False

    async def ballot(self, seen: dict[str, Any]) -> bool:
        """classic's live vote and party's ballot: my vote, once a day."""
        for message in reversed(seen["group"]):
            names = self.names(message)
            if self.label["withdraw"] in message["buttons"] and names:
                if self.once("vote", message):
                    return await self.press(GROUP, message, names[0])
                return False
        return False

    async def say(self, text: str) -> None:
        box = self.page.locator(f"{GROUP} .composer input")
        await box.fill(text)
        await box.press("Enter")
        name = self.me.split(" · ", 1)[1]
        mine = self.page.locator(f'{GROUP} li.message:has(.sender:text-is("{name}"))')
        await mine.filter(has_text=text).first.wait_for(timeout=30_000)  # only a stuck page
        self.spoke = True

    async def until_private_grows(self, count: int) -> None:
        """Until my private chat has more than `count` messages (Nominate… sends a list there)."""
        try:
            await self.page.wait_for_function(
                f"n => document.querySelectorAll('{SEAT.format(1)} li.message').length > n",
                arg=count,
                timeout=10_000,
            )
        except Exception as error:  # no list: the floor moved on meanwhile
            if "Timeout" not in type(error).__name__:
                raise


async def screenshot(page: Any, path: Path) -> None:
    """A screenshot, without a popup over it (a click closes one)."""
    for _ in range(3):
        shown = page.locator(".popup")
        if not await shown.count():
            break
        await unless_gone(shown.first.click(timeout=CLICK))
    await page.screenshot(path=str(path))


async def unless_gone(call: Any) -> None:
    """A click on something that may go by itself meanwhile."""
    try:
        await call
    except Exception as error:  # playwright's TimeoutError
        if "Timeout" not in type(error).__name__:
            raise


# Counts the popups on the page as they come and go: the most shown at once, and their texts.
WATCH_POPUPS = """() => {
  window.popups = { most: 0, seen: [] };
  new MutationObserver(() => {
    const shown = document.querySelectorAll(".popup");
    window.popups.most = Math.max(window.popups.most, shown.length);
    for (const text of document.querySelectorAll(".popup-text")) {
      if (!window.popups.seen.includes(text.textContent)) window.popups.seen.push(text.textContent);
    }
  }).observe(document.body, { childList: true, subtree: true });
}"""


async def open_page(browser: Any, port: int) -> tuple[Any, list[str]]:
    page = await browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.goto(f"http://127.0.0.1:{port}/")
    await page.locator(f"{GROUP} li.message").first.wait_for(timeout=30_000)
    return page, errors


@pytest.mark.parametrize("game", GAMES, ids=[game.variant for game in GAMES])
async def test_a_person_plays_a_whole_game_in_the_browser(
    game: Game, browser: Any, shots: Path
) -> None:
    t = translator(game.language)
    words = page_words(t)
    started = time.monotonic()
    async with serve(game.config(), "127.0.0.1", 0) as (tables, port):
        page, errors = await open_page(browser, port)
        # The page speaks the table's language.
        assert await page.locator("#setup-toggle").inner_text() == words["table"]
        assert await page.locator("#tabs button").first.inner_text() == words["group"]
        await page.locator(f'#status:has-text("{status_word(t, "lobby")} · ")').wait_for()
        me = await page.locator(f"{SEAT.format(1)} h2").inner_text()

        # The lobby waits for Start, however late the page opened; I opened it: I start it.
        lobby = page.locator(f"{GROUP} li.message").filter(
            has=page.get_by_role("button", name=texts.button(t, "start"), exact=True)
        )
        await lobby.wait_for(timeout=10_000)
        assert not await lobby.locator("time").count(), "no clock starts the lobby"
        if game.variant == "classic":
            await screenshot(page, shots / "play-lobby.png")
        await lobby.get_by_role("button", name=texts.button(t, "start"), exact=True).click()
        await page.locator(f'#status:has-text("{status_word(t, "playing")}")').wait_for(
            timeout=30_000
        )

        person = Person(page, me, game.language)
        vote_pictured = 0  # 1: a count on screen; 2: one with a candidate's hands counted
        while True:
            seen = await person.look()
            if person.over(seen):
                break
            assert time.monotonic() - started < GAME_LIMIT, "the game did not end in time"
            counts = [m["text"] for m in seen["group"] if person.label["raise"] in m["buttons"]]
            if game.variant == "moscow" and counts:
                better = 2 if re.search(r"\d+ · \S+ — \d+ ", "\n".join(counts)) else 1
                if better > vote_pictured:
                    vote_pictured = better
                    await screenshot(page, shots / "play-vote.png")
            await person.step()

        # The end: the picture drawn, the roles, New game.
        end = page.locator(f"{GROUP} li.message").filter(
            has=page.get_by_role("button", name=person.label["new_game"], exact=True)
        )
        picture = page.locator(f"{GROUP} img.picture").last
        await picture.scroll_into_view_if_needed()
        await page.wait_for_function(
            "img => img.complete && img.naturalWidth > 0", arg=await picture.element_handle()
        )
        await end.scroll_into_view_if_needed()
        if game.variant == "classic":
            await screenshot(page, shots / "play-end.png")
        assert person.clicks >= 1, "the person never had a thing to press"
        # My turns ran at real time: a floor of 10 s or more (half a second for the
        # simulated players) had more than 2 left when I read it.
        assert all(left > 2 for left in person.own_floor_seconds), person.own_floor_seconds

        if game.variant == "classic":
            # New game: a new lobby; my Join, and the table fills in seat order.
            await end.get_by_role("button", name=person.label["new_game"], exact=True).click()
            join = page.locator(f"{GROUP} li.message").filter(
                has=page.get_by_role("button", name=texts.button(t, "join"), exact=True)
            )
            session = await tables.current()
            last = f"{game.players} · {session.h.users[-1].name}"
            await join.last.get_by_role("button", name=texts.button(t, "join")).click()
            await join.last.filter(has_text=last).wait_for(timeout=60_000)
        assert not errors, errors


async def test_the_page_fits_a_phone(browser: Any, shots: Path) -> None:
    async with serve(GAMES[0].config(), "127.0.0.1", 0) as (_, port):
        page = await browser.new_page()
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.goto(f"http://127.0.0.1:{port}/")
        await page.locator(f"{GROUP} li.message").first.wait_for(timeout=30_000)
        for tab, selector in (("Cat", SEAT.format(3)), ("Group", GROUP)):
            await page.locator(f'#tabs button:text-is("{tab}")').click()
            column = page.locator(selector)
            # The smooth scroll ends with the column on the screen.
            await page.wait_for_function(
                "el => { const box = el.getBoundingClientRect();"
                " return box.x >= -1 && box.x + box.width <= 391; }",
                arg=await column.element_handle(),
            )
            assert await page.locator(f"{selector} .composer input").is_visible()
        await screenshot(page, shots / "play-phone.png")


async def test_popups_replace_each_other_and_each_seat_acts_as_itself(browser: Any) -> None:
    config = PlayConfig(
        variant="moscow", players=7, options={"intro_seconds": "60"}, speed=10, seed=5
    )
    async with serve(config, "127.0.0.1", 0) as (_, port):
        page, errors = await open_page(browser, port)
        start = page.locator(f"{GROUP} li.message .keyboard").get_by_role(
            "button", name="Start", exact=True
        )
        # Ben may not start Ann's lobby: the bot says so, once on the page however often.
        await page.evaluate(WATCH_POPUPS)
        await page.locator(f"{GROUP} .actor select").select_option(label="2 · Ben")
        for _ in range(3):
            await start.click()
        only = texts.popup(translator("en"), "only_opener")
        await page.wait_for_function("text => window.popups.seen.includes(text)", arg=only)
        # A refusal replaces it (a popup fades after 3 s: the page is watched, not looked at).
        await page.locator(f"{SEAT.format(2)} .composer input").fill(" ")
        await page.locator(f"{SEAT.format(2)} .composer input").press("Enter")
        refused = "Type a message first."
        await page.wait_for_function("text => window.popups.seen.includes(text)", arg=refused)
        assert await page.evaluate("() => window.popups.most") == 1

        # Every seat but Ann's autoplays; unticked, Ben's does not, and presses count as his.
        box = page.locator(f"{SEAT.format(2)} .autoplay input")
        await box.click()
        await page.wait_for_function("b => !b.checked", arg=await box.element_handle())
        await page.locator(f"{GROUP} .actor select").select_option(label="1 · Ann")
        await start.click()
        floor = page.locator(f'{GROUP} li.message:has(.mention:text-is("1 · Ann"))').filter(
            has=page.get_by_role("button", name="Pass", exact=True)
        )
        await floor.get_by_role("button", name="Pass", exact=True).click()
        # Ben's introduction is a person's now: it waits at real time for his Pass.
        ben = page.locator(f'{GROUP} li.message:has(.mention:text-is("2 · Ben"))').filter(
            has=page.get_by_role("button", name="Pass", exact=True)
        )
        await ben.wait_for(timeout=30_000)
        await page.locator(f"{GROUP} .actor select").select_option(label="2 · Ben")
        await ben.get_by_role("button", name="Pass", exact=True).click()
        # Taken as Ben's: his floor ends at once, not in a minute.
        await ben.wait_for(state="hidden", timeout=30_000)
        refusal = texts.popup(translator("en"), "not_your_floor")
        assert refusal not in await page.evaluate("() => window.popups.seen")
        assert not errors, errors


async def test_the_table_form_refuses_a_bad_table_and_opens_a_new_one(browser: Any) -> None:
    async with serve(GAMES[0].config(), "127.0.0.1", 0) as (tables, port):
        page, _ = await open_page(browser, port)
        await page.locator("#setup-toggle").click()
        form = page.locator("#setup")
        await form.locator('[name="players"]').fill("3")
        await form.locator('button[type="submit"]').click()
        await form.locator(
            '#setup-error:has-text("Classic (Sleeping City) needs 7 to 20 players.")'
        ).wait_for()
        assert tables.number == 1

        await form.locator('[name="players"]').fill("8")
        await form.locator('[name="variant"]').select_option("moscow")
        await form.locator('[name="language"]').select_option("fr")
        await form.locator('[name="options"]').fill("thanks_rule=on\nmaniac=off")
        await form.locator('button[type="submit"]').click()
        await page.locator('#tabs button:text-is("Amélie")').wait_for(timeout=30_000)
        assert await form.is_hidden()
        assert await page.locator("#tabs button").count() == 9  # the group and 8 players
        words = page_words(translator("fr"))
        assert await page.locator("#setup-toggle").inner_text() == words["table"]
        assert await page.locator("html").get_attribute("lang") == "fr"
        assert "Français" in await page.locator("#status").inner_text()
        assert dict(tables.config.options) == {"thanks_rule": "on", "maniac": "off"}
