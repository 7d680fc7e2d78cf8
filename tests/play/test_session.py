"""A play table without the page: its set-up checks, acting as its users, and
autoplay with the bot's own timers running."""

from __future__ import annotations

import asyncio

import pytest

from engine import action_from_dict
from engine.actions import Timeout
from tg_mafia.playweb.session import PlayConfig, PlaySession
from tg_mafia.storage import GameStatus

FAST = PlayConfig(variant="classic", players=7, speed=100.0, seed=11, person=1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"language": "de"}, "language 'de'"),
        ({"variant": "chess"}, "unknown variant 'chess'"),
        ({"players": 3}, "classic needs 7 to 20 players, not 3"),
        ({"speed": 0}, "speed 0"),
        ({"speed": "fast"}, "bad settings"),
        ({"person": 9}, "seat 9: there are 7 seats"),
        ({"options": {"thanks_rule": "on"}}, "not used by the classic variant"),
        ({"options": {"night_seconds": "5"}}, "out of range"),
        ({"options": ["night_seconds"]}, "options must be an object"),
    ],
)
def test_a_bad_setting_is_refused_and_changes_nothing(
    change: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError) as refused:
        FAST.changed(change)
    assert message in str(refused.value)


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


async def test_the_table_opens_on_a_full_lobby_and_acts_as_its_users() -> None:
    async with PlaySession.open(FAST, 1) as session:
        assert session.status() == "lobby"
        snapshot = session.snapshot()
        names = [seat["name"] for seat in snapshot["seats"]]
        assert names == ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Admin"]
        assert [s["autoplay"] for s in snapshot["seats"]] == [False, *[True] * 6, False]
        lobby = next(m for m in snapshot["chats"]["group"] if m["buttons"])
        assert "Players (7)" in lobby["html"] and lobby["pinned"]
        ann, ben = session.h.users[:2]

        session.send(ann.id, "group", "hi all")
        assert session.chats()["group"][-1]["html"] == "hi all"
        with pytest.raises(ValueError, match="type a message"):
            session.send(ann.id, "group", "   ")
        with pytest.raises(ValueError, match="no seat"):
            session.send(12345, "group", "hi")
        with pytest.raises(ValueError, match="Admin has no chat 'private'"):
            session.send(session.h.admin.id, "private", "hi")

        # Ben presses Leave on the lobby, as Ben.
        row, column = next(
            (r, c)
            for r, line in enumerate(lobby["buttons"])
            for c, button in enumerate(line)
            if button["text"] == "Leave"
        )
        answer = await session.press(ben.id, "group", lobby["id"], row, column)
        assert answer.get("text")
        await session.h.settle()
        lobby_now = {m["id"]: m for m in session.chats()["group"]}[lobby["id"]]
        assert "Players (6)" in lobby_now["html"]
        with pytest.raises(ValueError, match="no such button"):
            await session.press(ben.id, "group", lobby["id"], 9, 0)

        session.set_autoplay(ben.id, False)
        assert session.seats()[1]["autoplay"] is False
        with pytest.raises(ValueError, match="admin does not play"):
            session.set_autoplay(session.h.admin.id, True)


async def test_autoplay_plays_every_seat_but_the_persons_to_the_end() -> None:
    async with PlaySession.open(FAST, 1) as session:
        h = session.h
        record = h.db.active_game(h.group.id)
        assert record is not None
        await h.press_start()
        await until(lambda: h.db.get_game(record.id).status is GameStatus.ENDED, 60)  # type: ignore[union-attr]
        actors = [action_from_dict(dict(a.action)) for a in h.db.actions(record.id)]
        person = str(h.users[0].id)
        assert not [a for a in actors if a.actor == person], "autoplay played the person's seat"
        assert any(isinstance(a, Timeout) for a in actors), "the bot's own timers ran"
        assert session.autoplay.moves > 5
        await h.settle()
        assert any("wins!" in m["html"] for m in session.chats()["group"])
