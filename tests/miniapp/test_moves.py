"""The viewer's controls in the page are the chat's: the speaker's Pass (Thank
you where the thanks rule holds), Nominate… and the list it opens in private,
and a human host's panel (pause, resume, +30 s, skip the speaker, warn and the
list it opens). Each goes through the gate and the chat's own call; a press
that is not the viewer's now is refused with 403, and nothing changes. The
page lists the group's public events as they happen."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from tornado.httpclient import AsyncHTTPClient, HTTPClientError

from engine import GameState, Stage, legal_actions, public_view
from engine.actions import Nominate
from engine.simulation import lively_action
from tests.bot.autoplay import AutoPlayers
from tests.bot.harness import running_bot
from tests.bot.test_host_mode import hosted_game
from tests.miniapp.conftest import Table, served_table, serving
from tg_mafia.i18n import translator
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render import texts
from tg_mafia.sandbox import SimUser
from tg_mafia.telegram.limiter import InputLimiter

# On the virtual clock: the page's requests are on loopback, within the loop.
T = translator("en")


async def table_of(table: Table, user: SimUser) -> dict[str, Any]:
    answer = await AsyncHTTPClient().fetch(
        f"{table.base}/state?game={table.game_id}",
        headers={"Authorization": f"tma {table.signed(user)}"},
    )
    content: dict[str, Any] = json.loads(answer.body)["table"]
    return content


async def press(table: Table, user: SimUser, choice: dict[str, Any]) -> tuple[int, str]:
    """A press from `user`'s page: the status and the popup's words."""
    body = json.dumps({"game": table.game_id, "m": choice["m"], "d": choice["d"]})
    try:
        answer = await AsyncHTTPClient().fetch(
            f"{table.base}/press",
            method="POST",
            body=body,
            headers={"Authorization": f"tma {table.signed(user)}"},
        )
    except HTTPClientError as error:
        assert error.response is not None
        return error.code, json.loads(error.response.body)["text"]
    await table.h.settle()
    return answer.code, json.loads(answer.body)["text"]


def labelled(content: dict[str, Any], label: str) -> dict[str, Any] | None:
    return next((c for c in content["choices"] if c["label"] == label), None)


def user_of(table: Table, player: str) -> SimUser:
    return next(u for u in table.h.users if str(u.id) == player)


async def until(table: Table, auto: AutoPlayers, done: Any) -> GameState:
    """The game played by the autoplayers until `done(state)`."""
    for _ in range(600):
        await table.h.settle()
        state = table.state()
        if done(state):
            return state
        assert not state.is_over, "the game ended first"
        await auto.perform(table.record(), public_view(state), lively_action(state, auto.rng, 0.0))
    raise AssertionError("never came")


@pytest.fixture
async def thanks_table(tmp_path: Path) -> AsyncIterator[Table]:
    settings = {"options": {"thanks_rule": True}}
    async with served_table(tmp_path, 8, settings=settings, lobby_seed=5) as table:
        await table.h.settle()
        yield table


def may_nominate(state: GameState) -> str | None:
    speaker = state.day.speaker
    legal = legal_actions(state, include_host=False)
    found = any(isinstance(a, Nominate) and a.actor == speaker for a in legal)
    return speaker if state.stage is Stage.SPEECH and found else None


async def test_the_speaker_nominates_and_thanks_from_the_page(thanks_table: Table) -> None:
    table, h = thanks_table, thanks_table.h
    auto = AutoPlayers(h, table.scheduler, 5, chatter=0.0)
    table.app.limiter = h.app.bot_data.input_limiter
    state = await until(table, auto, may_nominate)
    speaker = user_of(table, str(state.day.speaker))
    other = user_of(table, next(p for p in state.table.alive if p != state.day.speaker))
    mine = await table_of(table, speaker)
    # The floor's button says the thanks word, as the chat's does.
    assert labelled(mine, texts.button(T, "thanks")) is not None
    assert labelled(mine, texts.button(T, "pass")) is None
    menu = labelled(mine, texts.button(T, "nominate"))
    assert menu is not None and "seat" not in menu
    theirs = await table_of(table, other)
    assert theirs["choices"] == []  # nobody else may end the floor or nominate
    # Another player sends the speaker's choice: refused, nothing changed.
    version = table.record().version
    assert await press(table, other, menu) == (403, texts.popup(T, "not_yours"))
    assert table.record().version == version
    assert not h.private_texts(other)[-1].startswith(texts.nominate_prompt(T, state.day.number))
    # The speaker opens the list: it comes in private, as from the chat's button.
    assert await press(table, speaker, menu) == (200, texts.popup(T, "see_private"))
    assert h.private_texts(speaker)[-1] == texts.nominate_prompt(T, state.day.number)
    mine = await table_of(table, speaker)
    names = [c for c in mine["choices"] if c["label"].startswith("Nominate ")]
    assert names and all("seat" in c for c in names)
    target = table.state().table.seats[names[0]["seat"] - 1]
    assert (await press(table, speaker, names[0]))[0] == 200
    assert target in table.state().day.nominees
    nominated = texts.nominated(T, table_of_record(table), str(speaker.id), target)
    events = [e["text"] for e in (await table_of(table, other))["events"]]
    assert events[-1] == nominated
    # And the floor ends with the thanks word's button.
    mine = await table_of(table, speaker)
    thanks = labelled(mine, texts.button(T, "thanks"))
    assert thanks is not None
    assert (await press(table, speaker, thanks))[0] == 200
    assert table.state().day.speaker != str(speaker.id)


def table_of_record(table: Table) -> Any:
    from tg_mafia.runtime.gameview import table_of as seats

    return seats(table.record())


@pytest.fixture
async def hosted(tmp_path: Path) -> AsyncIterator[Table]:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 9, scheduler=scheduler, lobby_seed=2) as h:
        game_id = await hosted_game(h, "club")
        h.app.bot_data.input_limiter = InputLimiter(rate=10**9)
        async with serving(h, game_id, scheduler) as table:
            yield table


async def test_the_host_has_the_host_panel_and_nobody_else(hosted: Table) -> None:
    table, h = hosted, hosted.h
    host, player = h.admin, h.users[0]
    page = await table_of(table, host)
    assert page["host"] is True and page["me"] is None
    assert all(seat["role"] is None for seat in page["seats"])  # the public table
    labels = [c["label"] for c in page["choices"]]
    for name in ("pause", "extend", "warn"):
        assert texts.button(T, name) in labels, name
    assert texts.button(T, "resume") not in labels  # nothing is paused
    if table.state().day.speaker is not None:
        assert texts.button(T, "skip_speaker") in labels
    pause = labelled(page, texts.button(T, "pause"))
    assert pause is not None
    # A player and a spectator send the host's choices: refused, nothing changed.
    version = table.record().version
    guest = h.sb.add_user("Guest")
    guest.join(h.group)  # a member of the group who does not play
    await h.settle()
    for who in (player, guest):
        assert (await table_of(table, who))["host"] is False
        assert await press(table, who, pause) == (403, texts.popup(T, "not_yours"))
    assert table.record().version == version and not table.state().clock.paused
    # The host pauses and resumes from the page.
    assert await press(table, host, pause) == (200, texts.popup(T, "ok"))
    assert table.state().clock.paused
    page = await table_of(table, host)
    assert labelled(page, texts.button(T, "pause")) is None
    resume = labelled(page, texts.button(T, "resume"))
    assert resume is not None
    assert (await press(table, host, resume))[0] == 200 and not table.state().clock.paused
    # Warn…: the list in the host's private chat, then a warning from the page.
    page = await table_of(table, host)
    warn = labelled(page, texts.button(T, "warn"))
    assert warn is not None
    assert await press(table, host, warn) == (200, texts.popup(T, "see_private"))
    page = await table_of(table, host)
    names = [c for c in page["choices"] if c["label"].startswith("Warn ")]
    assert len(names) == len(table.state().table.alive) and all("seat" in c for c in names)
    warned = table.state().table.seats[names[0]["seat"] - 1]
    assert (await press(table, host, names[0]))[0] == 200
    assert dict(table.state().table.warnings).get(warned) == 1
    events = [e["text"] for e in (await table_of(table, player))["events"]]
    assert texts.timer_note(T, "paused", 0) in events
    assert texts.timer_note(T, "resumed", 0) in events
    assert any(e.startswith("⚠️ ") and "warned by the host" in e for e in events)
