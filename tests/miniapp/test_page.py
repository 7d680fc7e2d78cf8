"""The table's Mini App in a real headless browser (Debian's chromium): opened
with initData signed by the sandbox's token, a player sees the table and their
own role card, and no other player's role anywhere in the page or its event
stream; a spectator sees the public table; forged, expired and foreign pages
are refused, and change nothing."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from tornado.httpclient import AsyncHTTPClient, HTTPClientError

from engine import Phase, Role, action_from_dict, apply, new_game, public_view
from engine import events as ev
from engine.simulation import lively_action
from tests.bot.autoplay import AutoPlayers
from tests.miniapp.conftest import Table, served_table
from tests.play.test_browser import launched
from tg_mafia.i18n import translator
from tg_mafia.miniapp.snapshot import plain
from tg_mafia.render import texts
from tg_mafia.runtime.gameview import table_of as table_of_record
from tg_mafia.sandbox.webapp import init_data

pytestmark = pytest.mark.real_time

PHONE = {"width": 360, "height": 740}
SPEED = 20.0  # the bot's and the sandbox's clocks: a game's group messages go out fast
T = translator("en")


@pytest.fixture
async def browser(tmp_path: Path) -> AsyncIterator[Any]:
    async with launched(tmp_path, PHONE) as context:
        yield context


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    async with served_table(tmp_path, lobby_seed=3) as served:
        yield served


def foreign_labels(table: Table, player: str | None) -> set[str]:
    """The role labels of the other players that neither the viewer's own view
    (None: a spectator's) nor the public view (a role shown when its player
    left) gives."""
    state = table.state()
    mine = state.table.roles[player] if player is not None else None
    known = {p for p, _ in _family(table, player)} if player is not None else set()
    shown = {role for _, role in public_view(state).revealed}
    return {
        texts.role_label(T, role)
        for p, role in state.table.roles.items()
        if p != player and p not in known and role is not mine and role not in shown
    }


def _family(table: Table, player: str) -> tuple[tuple[str, Role], ...]:
    from engine import player_view

    return player_view(table.state(), player).family


async def open_page(browser: Any, url: str) -> Any:
    page = await browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    await page.goto(url)
    return page


async def stream_text(table: Table, init: str, seconds: float = 1.5) -> str:
    """What the event stream sends this viewer in its first moments."""
    chunks: list[bytes] = []
    url = f"{table.base}/events?game={table.game_id}&auth={quote(init)}"
    client = AsyncHTTPClient()
    with pytest.raises(HTTPClientError) as ended:  # cut off after `seconds`
        await client.fetch(url, streaming_callback=chunks.append, request_timeout=seconds)
    assert ended.value.code == 599
    return b"".join(chunks).decode()


def events_of(raw: str) -> list[dict[str, Any]]:
    return [
        json.loads(line.removeprefix("data: "))
        for line in raw.splitlines()
        if line.startswith("data: ")
    ]


async def test_a_player_sees_the_table_and_only_their_own_role(browser: Any, table: Table) -> None:
    state = table.state()
    users = {str(u.id): u for u in table.h.users}
    citizen = next(p for p in state.table.seats if state.table.roles[p] is Role.CITIZEN)
    mafioso = next(p for p in state.table.seats if state.table.roles[p].is_mafia)
    for player in (citizen, mafioso):
        init = users[player].web_app_data(f"g{table.game_id}")
        page = await open_page(browser, table.url(init))
        role = page.locator("#role")
        await role.wait_for()
        assert await role.inner_text() == texts.role_label(T, state.table.roles[player])
        seats = page.locator("#seats li")
        assert await seats.count() == len(state.table.seats)
        assert await page.locator("#seats li.me").get_attribute("data-seat") == str(
            state.table.seats.index(player) + 1
        )
        assert await page.locator("#seats li[data-role]").count() == 0  # nothing revealed yet
        html = await page.content()
        for label in foreign_labels(table, player):
            assert label not in html
        events = events_of(await stream_text(table, init))
        assert events
        for event in events:
            assert event["me"]["role"] == texts.role_label(T, state.table.roles[player])
            assert all(seat["role"] is None for seat in event["seats"])
            for label in foreign_labels(table, player):
                assert label not in json.dumps(event, ensure_ascii=False)
        # A phone's width: nothing sticks out sideways.
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"]
        # The theme Telegram gave is the page's.
        background = await page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(23, 33, 43)"
        assert not page.errors
        await page.close()


async def test_a_spectator_sees_the_public_table(browser: Any, table: Table) -> None:
    init = table.h.admin.web_app_data(f"g{table.game_id}")  # a member of the group, not playing
    page = await open_page(browser, table.url(init))
    await page.locator("#spectator").wait_for()
    assert await page.locator("#card").is_hidden()
    assert await page.locator("#seats li").count() == len(table.state().table.seats)
    html = await page.content()
    for role in set(table.state().table.roles.values()):
        assert texts.role_label(T, role) not in html
    events = events_of(await stream_text(table, init))
    assert events
    for event in events:
        assert event["me"] is None and event["choices"] == []
    assert not page.errors


@pytest.mark.parametrize("how", ["forged", "expired", "unsigned", "outsider"])
async def test_a_bad_signature_or_a_stranger_is_refused(
    browser: Any, table: Table, how: str
) -> None:
    h = table.h
    user = h.users[0]
    now = int(h.sb.clock.now())
    start = f"g{table.game_id}"
    data = {
        "forged": init_data(user.user, "42:ANOTHER-bot-token", now, start),
        "expired": init_data(user.user, h.sb.token, now - 2 * 24 * 3600, start),
        "unsigned": "",
        "outsider": h.sb.add_user("Stranger").web_app_data(start),
    }[how]
    status = 403 if how == "outsider" else 401
    version = table.record().version
    page = await open_page(browser, table.url(data))
    await page.locator("#error").wait_for()
    assert await page.locator("#seats li").count() == 0
    client = AsyncHTTPClient()
    for path, body in (
        (f"/state?game={table.game_id}", None),
        (f"/events?game={table.game_id}&auth={quote(data)}", None),
        ("/press", json.dumps({"game": table.game_id, "m": "1:1", "d": "ps:1:1"})),
    ):
        with pytest.raises(HTTPClientError) as refused:
            await client.fetch(
                table.base + path,
                method="POST" if body else "GET",
                body=body,
                headers={"Authorization": f"tma {data}"},
            )
        assert refused.value.code == status, path
    assert table.record().version == version  # nothing changed


async def test_after_two_nights_no_role_nor_night_move_reaches_another_page(
    browser: Any, tmp_path: Path
) -> None:
    """Every page and stream lists the same public events, the group's; none holds
    another player's role (unless the public view shows it), a night move, or a
    check's answer (but the checker's own)."""
    (tmp_path / "game").mkdir()
    async with served_table(tmp_path / "game", 8, lobby_seed=7, speed=SPEED) as table:
        h = table.h
        auto = AutoPlayers(h, table.scheduler, 7, chatter=0.0)
        table.app.limiter = h.app.bot_data.input_limiter
        for _ in range(400):
            await h.settle()
            state = table.state()
            if state.night.number >= 2 and state.phase is Phase.DAY:
                break
            assert not state.is_over, "the game ended before the second morning"
            await auto.perform(
                table.record(), public_view(state), lively_action(state, auto.rng, 0.0)
            )
        secrets = night_secrets(table)
        assert secrets.moves, "no night move was made"
        listed: list[str] | None = None
        for user in [*h.users, h.admin]:  # every player, and a spectator
            player = str(user.id) if user is not h.admin else None
            page = await open_page(browser, table.page_url(user))
            await page.locator("#events li").first.wait_for()
            lines = await page.locator("#events li").all_inner_texts()
            stream = stream_text(table, table.signed(user))
            (sent,) = events_of(await stream)
            assert [e["text"] for e in sent["events"]] == lines
            if listed is None:
                listed = lines
                killed = [line for line in lines if "Killed last night" in line]
                assert killed or any("Nobody was killed" in line for line in lines)
            assert lines == listed  # the same public list for everyone
            seen = await page.content() + json.dumps(sent, ensure_ascii=False)
            for label in foreign_labels(table, player):
                assert label not in seen, (player, label)
            for move in secrets.moves:
                assert move not in seen, (player, move)
            for checker, answer in secrets.answers:
                if checker != player:
                    assert answer not in seen, (player, answer)
            assert not page.errors
            await page.close()


@dataclass
class Secrets:
    moves: set[str]  # each night move as the mafia and a host are told it
    answers: list[tuple[str, str]]  # (checker, the answer they were given)


def night_secrets(table: Table) -> Secrets:
    """The night's words, from the game replayed with every event, private ones too."""
    record = table.record()
    seats = table_of_record(record)
    options = {**record.options, "host": "auto"}
    players = tuple(str(p.user_id) for p in record.players)
    state, _ = new_game(record.variant, players, options, record.seed, record.language)
    found = Secrets(set(), [])
    for stored in table.h.db.actions(record.id):
        state, events = apply(state, action_from_dict(dict(stored.action)))
        for event in events:
            if isinstance(event, ev.ChoiceMade) and event.target is not None:
                found.moves.add(plain(texts.mafia_pick(T, seats, event.player, event.target)))
                found.moves.add(
                    plain(
                        texts.host_night_move(
                            T, seats, event.player, event.role, event.move, event.target
                        )
                    )
                )
            if isinstance(event, ev.CheckResult):
                answer = plain(texts.check_result(T, seats, event.target, event.answer))
                found.answers.append((event.player, answer))
    return found
