"""The outbox's JSON of each kind of call (render/calls_json.py). The fixtures are
what the bot wrote before the calls had a class each (one catch-all Op, its `to_json`):
a bot upgraded after a crash finds such rows in its outbox, and must send them. Each
loads, and is stored again as it was (but for "mergeable", which nothing reads now)."""

from __future__ import annotations

from typing import Any, get_args

import pytest

from tg_mafia.render.calls import (
    DEADLINE,
    Document,
    DocumentFile,
    Edit,
    Op,
    Permissions,
    Photo,
    Restrict,
    Send,
    Spare,
    Timer,
    Topic,
)
from tg_mafia.render.calls_json import from_json, readable, to_json, topic_of

BUTTONS = [[{"text": "Pass", "data": "ps:7:12"}, {"text": "⏱", "data": "tm:7"}]]
LINKS = [
    [{"text": "Table", "url": "https://t.me/bot/app?startapp=g7"}],
    [{"text": "Open", "web_app": "https://example.org/app"}],
]
RATING = {
    "user_id": 101,
    "mu": 25.0,
    "sigma": 8.3,
    "record": [3, 2],
    "by_role": {"sheriff": [1, 1]},
    "by_side": {"town": [3, 2]},
}
SNAPSHOT = {
    "title": "Club",
    "variant": "classic",
    "winner": "town",
    "seats": [[1, "Anna", "sheriff", "alive", None]],
}
NO_SPEED = {"game": 7, "token": "14", "seconds": 5}  # stored before the stages' speeds
STORED: list[dict[str, Any]] = [
    {"m": "send", "text": "<b>Anna</b> is eliminated.", "mergeable": True},
    {"m": "send", "text": "Your role: 🕵 Sheriff", "protect": True},
    {
        "m": "send",
        "text": "Day 1 ends " + DEADLINE,
        "keyboard": BUTTONS,
        "key": "floor",
        "timer": {"game": 7, "token": "12", "seconds": 60, "speed": 1.0},
        "topic": 4,
    },
    {"m": "send", "text": "Open the table", "keyboard": LINKS},
    {"m": "edit", "text": "Votes: 2", "keyboard": BUTTONS, "key": "board", "extra": {"every": 4.0}},
    {
        "m": "edit",
        "text": "Boris speaks\n⏱ 10 seconds left!",
        "keyboard": BUTTONS,
        "key": "floor",
        "extra": {"spare": {"token": "12", "by": 1712345678.5}},
    },
    {
        "m": "edit",
        "text": "Boris speaks",
        "keyboard": BUTTONS,
        "key": "floor",
        "timer": {"game": 7, "token": "13", "seconds": 60, "speed": 0.25},
    },
    {
        "m": "edit",
        "text": "Night",
        "key": "floor",
        "timer": {"game": 7, "token": "14", "seconds": 5},
    },
    {"m": "edit", "text": "⚙️ Settings", "keyboard": BUTTONS, "message_id": 321},
    {"m": "clear", "key": "night:kill"},
    {"m": "delete", "key": "floor"},
    {"m": "delete", "message_id": 99},
    {"m": "pin", "key": "lobby"},
    {"m": "unpin", "key": "lobby", "topic": 4},
    {"m": "permissions"},
    {"m": "permissions", "permissions": {"can_send_messages": True, "can_send_photos": False}},
    {"m": "permissions", "permissions": {}, "final": True},
    {"m": "topic", "extra": {"open": False}, "topic": 4},
    {"m": "topic", "extra": {"open": True}},
    {"m": "restrict", "extra": {"open": False, "players": [101, 102, 103]}},
    {"m": "photo", "picture": {"kind": "table", "language": "en"}},
    {"m": "photo", "picture": {"kind": "table", "language": "ru", "table": SNAPSHOT}},
    {
        "m": "photo",
        "picture": {
            "kind": "player",
            "language": "fr",
            "title": "Club",
            "name": "Anna",
            "rank": None,
            "ranked": 3,
            "player": RATING,
        },
    },
    {
        "m": "photo",
        "picture": {
            "kind": "leaderboard",
            "language": "vi",
            "title": "Club",
            "players": [RATING],
            "names": {"101": "Anna"},
        },
    },
    {
        "m": "document",
        "text": "The same protocol as data: JSON, schema 1 version 3.",
        "file": {"name": "protocol-7.json", "content": '{"game": 7}'},
    },
]


@pytest.mark.parametrize("stored", STORED, ids=lambda d: str(d["m"]))
def test_a_call_stored_before_loads_and_is_stored_the_same(stored: dict[str, Any]) -> None:
    again = to_json(from_json(stored), topic_of(stored))
    expected = {k: v for k, v in stored.items() if k != "mergeable"}
    assert again == expected
    assert list(again) == list(expected)  # the same row, key for key


def test_every_kind_of_call_has_a_stored_one() -> None:
    assert {type(from_json(stored)) for stored in STORED} == set(get_args(Op))


def test_the_fields_load_typed() -> None:
    ops = [from_json(stored) for stored in STORED]
    assert ops[0] == Send("<b>Anna</b> is eliminated.")
    assert ops[2] == Send(
        "Day 1 ends " + DEADLINE, keyboard=BUTTONS, key="floor", timer=Timer(7, "12", 60, 1.0)
    )
    assert ops[4] == Edit("Votes: 2", keyboard=BUTTONS, key="board", every=4.0)
    assert isinstance(ops[5], Edit) and ops[5].spare == Spare("12", 1712345678.5)
    assert isinstance(ops[7], Edit) and ops[7].timer == Timer(7, "14", 5)  # no speed: the bot's
    assert ops[14] == Permissions(None)
    assert ops[16] == Permissions({}, final=True)
    assert ops[17] == Topic(False)
    assert ops[19] == Restrict(False, (101, 102, 103))
    assert ops[20] == Photo({"kind": "table", "language": "en"})
    assert ops[24] == Document(
        "The same protocol as data: JSON, schema 1 version 3.",
        DocumentFile("protocol-7.json", '{"game": 7}'),
    )


def test_the_topic_goes_with_the_stored_call() -> None:
    assert to_json(Send("a"), 4) == {"m": "send", "text": "a", "topic": 4}
    assert to_json(Send("a")) == {"m": "send", "text": "a"}
    assert topic_of({"m": "send", "text": "a"}) == 0


@pytest.mark.parametrize(
    "stored",
    [
        {"m": "fly"},
        {"text": "no kind"},
        {"m": "send"},
        {"m": "clear"},
        {"m": "restrict", "extra": {"open": True}},
        {"m": "photo", "picture": {"kind": "video", "language": "en"}},
        {"m": "document", "text": "x", "file": "protocol.json"},
    ],
)
def test_a_call_this_version_does_not_make_is_not_read(stored: dict[str, Any]) -> None:
    assert readable(stored) is None
    with pytest.raises(Exception):  # noqa: B017 - whichever cattrs raises
        from_json(stored)
