"""A play table without the page: its set-up checks, acting as its users, and
autoplay with the bot's own timers running."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from engine import action_from_dict
from engine.actions import Timeout
from tg_mafia.i18n import translator
from tg_mafia.playweb.session import PlayConfig, PlaySession
from tg_mafia.playweb.words import Refused
from tg_mafia.storage import GameStatus

FAST = PlayConfig(variant="classic", players=7, speed=100.0, seed=11, person=1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"language": "de"}, "Language de: use one of en, fr, ru, ro, vi."),
        ({"variant": "chess"}, "Variant chess: use one of"),
        ({"players": 3}, "Classic (Sleeping City) needs 7 to 20 players."),
        ({"variant": "sport", "players": 9}, "Sport Mafia (FIIM) needs exactly 10 players."),
        ({"speed": 0}, "Speed 0: use a number above 0"),
        ({"speed": "fast"}, "Players, speed and seat are numbers"),
        ({"person": 9}, "Seat 9: there are 7 seats."),
        ({"options": {"lights": "on"}}, "There is no option lights."),
        ({"options": {"thanks_rule": "on"}}, "Classic (Sleeping City) has no option thanks_rule."),
        ({"options": {"night_seconds": "5"}}, "night_seconds: a whole number from 20 to 300."),
        ({"options": {"reveal_roles": "maybe"}}, "reveal_roles: write on or off."),
        ({"options": {"host": "robot"}}, "host: one of auto, human."),
        ({"options": ["night_seconds"]}, "Write the options as NAME=VALUE"),
    ],
)
def test_a_bad_setting_is_refused_and_changes_nothing(
    change: dict[str, object], message: str
) -> None:
    with pytest.raises(Refused) as refused:
        FAST.changed(change)
    assert message in str(refused.value)


def test_a_refusal_is_in_the_pages_language() -> None:
    with pytest.raises(Refused) as refused:
        FAST.changed({"players": 3}, translator("fr"))
    assert "7" in str(refused.value) and "players" not in str(refused.value)


def test_settings_change_and_keep_the_seed() -> None:
    changed = FAST.changed({"variant": "moscow", "options": {"thanks_rule": "on"}, "speed": 5})
    assert (changed.variant, dict(changed.options), changed.speed) == (
        "moscow",
        {"thanks_rule": "on"},
        5.0,
    )
    assert changed.seed == FAST.seed and changed.to_json()["players"] == 7


async def until(condition: object, seconds: float) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not condition():  # type: ignore[operator]
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.05)


def find(messages: list[dict[str, Any]], label: str) -> tuple[int, int, int]:
    """(message id, row, column) of the newest button whose text has `label`."""
    for message in reversed(messages):
        for r, line in enumerate(message["buttons"]):
            for c, button in enumerate(line):
                if label in button["text"]:
                    return message["id"], r, c
    raise AssertionError(f"no button {label!r}")


async def test_the_table_opens_on_a_full_lobby_that_waits_and_acts_as_its_users() -> None:
    async with PlaySession.open(FAST, 1) as session:
        assert session.status() == "lobby"
        record = session.h.db.active_game(session.h.group.id)
        assert record is not None and record.stage_deadline is None, "no timer starts it"
        snapshot = session.snapshot()
        names = [seat["name"] for seat in snapshot["seats"]]
        assert names == ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Admin"]
        assert [s["autoplay"] for s in snapshot["seats"]] == [False, *[True] * 6, False]
        assert snapshot["words"]["send"] == "Send"
        assert snapshot["headline"].startswith("Lobby open · Classic (Sleeping City) · 7 players")
        lobby = next(m for m in snapshot["chats"]["group"] if m["buttons"])
        # The person opened it: theirs to start, and it says so.
        assert "Players (7)" in lobby["html"] and lobby["pinned"]
        assert "Starts when Ann presses Start." in lobby["html"]
        ann, ben = session.h.users[:2]

        session.send(ann.id, "group", "hi all")
        assert session.chats()["group"][-1]["html"] == "hi all"
        with pytest.raises(Refused, match="Type a message first"):
            session.send(ann.id, "group", "   ")
        with pytest.raises(Refused, match="There is no such seat"):
            session.send(12345, "group", "hi")
        with pytest.raises(Refused, match="Admin has no such chat here"):
            session.send(session.h.admin.id, "private", "hi")

        # Ben presses Leave on the lobby, as Ben.
        answer = await session.press(ben.id, "group", *find([lobby], "Leave"))
        assert answer.get("text")
        await session.h.settle()
        lobby_now = {m["id"]: m for m in session.chats()["group"]}[lobby["id"]]
        assert "Players (6)" in lobby_now["html"]
        with pytest.raises(Refused, match="That button is gone"):
            await session.press(ben.id, "group", lobby["id"], 9, 0)

        session.set_autoplay(ben.id, False)
        assert session.seats()[1]["autoplay"] is False
        with pytest.raises(Refused, match="The admin does not play"):
            session.set_autoplay(session.h.admin.id, True)
        await asyncio.sleep(60)  # 100 minutes of the bots' time (a virtual minute): no start
        assert session.status() == "lobby"


async def test_the_persons_turn_runs_at_real_time_and_the_bots_fast() -> None:
    config = PlayConfig(variant="moscow", players=7, speed=100.0, seed=5, person=1)
    async with PlaySession.open(config, 1) as session:
        h = session.h
        record = h.db.active_game(h.group.id)
        assert record is not None
        await h.press_start()
        await h.settle()
        loop_now = h.service.clock.now
        ann = h.users[0]
        # Day 1 opens at seat 1: the person's introduction, 15 s of real time.
        game = h.db.get_game(record.id)
        assert game is not None and game.stage_deadline is not None
        deadline = game.stage_deadline
        assert 10 < deadline - loop_now() <= 15 + 5
        assert "1 · Ann" in session.chats()["group"][-1]["html"]
        # The Time button counts in seconds of the person's time...
        answer = await session.press(ann.id, "group", *find(session.chats()["group"], "⏱"))
        seconds = re.search(r"\d+", answer["text"])
        assert seconds is not None and 10 <= int(seconds.group()) <= 20, answer
        # ...and "10 seconds left" comes 10 real seconds before the end.
        await asyncio.sleep(deadline - 12 - loop_now())
        assert not countdowns(session)
        await asyncio.sleep(4)
        await h.settle()
        assert countdowns(session) == ["⏱ 10 seconds left!"]
        await session.press(ann.id, "group", *find(session.chats()["group"], "Pass"))
        await h.settle()
        # Ben's floor, autoplayed: 15 s of the bots' time, a fraction of a second.
        game = h.db.get_game(record.id)
        assert game is not None and game.stage_deadline is not None
        assert game.stage_deadline - loop_now() < 1.0


def countdowns(session: PlaySession) -> list[str]:
    """The "seconds left" lines the bot has written into the group so far
    (a later redraw, a warning's, may take the line away again)."""
    return [
        line
        for record in session.h.sb.log.records
        if record.method == "editMessageText" and record.ok
        for line in str(record.params.get("text", "")).splitlines()
        if "seconds left" in line
    ]


async def test_autoplay_never_plays_the_persons_seat() -> None:
    config = PlayConfig(variant="classic", players=7, speed=100.0, seed=11, person=0)
    async with PlaySession.open(config, 1) as session:
        h = session.h
        ann = h.users[0]
        session.set_autoplay(ann.id, False)  # a person at seat 1, who never acts
        record = h.db.active_game(h.group.id)
        assert record is not None
        await h.press_start()
        # The game goes on, at real time while Ann has a move: long enough to see.
        await until(lambda: session.autoplay.moves > 5, 60)
        actors = [action_from_dict(dict(a.action)).actor for a in h.db.actions(record.id)]
        assert str(ann.id) not in actors, "autoplay played the person's seat"
        assert any(
            isinstance(action_from_dict(dict(a.action)), Timeout) for a in h.db.actions(record.id)
        ), "the bot's own timers ran"


async def test_new_game_fills_the_table_in_seat_order_and_waits_for_start() -> None:
    config = PlayConfig(variant="classic", players=7, speed=100.0, seed=11, person=0)
    async with PlaySession.open(config, 1) as session:
        h = session.h
        first = h.db.active_game(h.group.id)
        assert first is not None
        await h.press_start()  # every seat autoplays: a game in a moment
        await until(lambda: h.db.get_game(first.id).status is GameStatus.ENDED, 60)  # type: ignore[union-attr]
        await h.settle()
        group = session.chats()["group"]
        assert any(m["media"] and m["media"]["kind"] == "photo" for m in group), "the end picture"
        # Watching: New game, pressed as the admin, fills the table by itself.
        await session.press(h.admin.id, "group", *find(group, "New game"))
        await until(lambda: session.status() == "lobby" and len(lobby_players(session)) == 7, 30)
        assert lobby_players(session) == [u.name for u in h.users]
        await asyncio.sleep(60)  # a virtual minute: 100 of the bots'
        assert session.status() == "lobby", "it waits for Start"

        # Playing seat 3: the seats after it wait for the person's Join.
        await session.press(h.admin.id, "group", *find(session.chats()["group"], "Cancel"))
        await until(lambda: session.status() == "no game", 30)
        session.set_autoplay(h.users[2].id, False)
        await session.press(h.admin.id, "group", *find(session.chats()["group"], "New game"))
        await until(lambda: len(lobby_players(session)) == 2, 30)
        await asyncio.sleep(0.5)
        assert lobby_players(session) == ["Ann", "Ben"]
        cat = h.users[2]
        await session.press(cat.id, "group", *find(session.chats()["group"], "Join"))
        await until(lambda: len(lobby_players(session)) == 7, 30)
        assert lobby_players(session) == [u.name for u in h.users]


def lobby_players(session: PlaySession) -> list[str]:
    record = session.h.db.active_game(session.h.group.id)
    if record is None or record.status is not GameStatus.LOBBY:
        return []
    return [player.name for player in record.players]
