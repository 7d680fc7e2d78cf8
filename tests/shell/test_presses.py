"""From a press to the engine action it stands for (presses.to_action)."""

from __future__ import annotations

import pytest

from engine import HOST, GameSetup, GameState, Views
from engine.actions import (
    Decide,
    Hand,
    HostConfirm,
    HostPause,
    HostWarn,
    Leave,
    Lower,
    NightChoice,
    Nominate,
    Pass,
    Plan,
    Unvote,
    Vote,
)
from engine.variants import NightMove
from tg_mafia.render.callbacks import Button, Kind
from tg_mafia.render.presses import to_action
from tg_mafia.render.texts.table import Table

SEATS = tuple(str(100 + i) for i in range(1, 10))
TABLE = Table(SEATS, {p: f"P{p}" for p in SEATS})


def state() -> GameState:
    game = GameSetup("moscow", SEATS, {"maniac": False}, seed=1).start()
    game.night.plan = (SEATS[4],)
    return game


@pytest.mark.parametrize(
    ("button", "action"),
    [
        (Button(Kind.NIGHT, 1, 1, ("kill", "3")), NightChoice("101", NightMove.KILL, SEATS[2])),
        (Button(Kind.NIGHT, 1, 1, ("heal", "0")), NightChoice("101", NightMove.HEAL, None)),
        (Button(Kind.PLAN, 1, 1, ("2",)), Plan("101", (SEATS[4], SEATS[1]))),
        (Button(Kind.PLAN, 1, 1, ("0",)), Plan("101", ())),
        (Button(Kind.PASS, 1, 1), Pass("101")),
        (Button(Kind.NOMINATE, 1, 1, ("9",)), Nominate("101", SEATS[8])),
        (Button(Kind.HAND, 1, 1), Hand("101")),
        (Button(Kind.LOWER, 1, 1), Lower("101")),
        (Button(Kind.LEAVE, 1, 1), Leave("101")),
        (Button(Kind.VOTE, 1, 1, ("4",)), Vote("101", SEATS[3])),
        (Button(Kind.UNVOTE, 1, 1), Unvote("101")),
        (Button(Kind.DECIDE, 1, 1, ("5",)), Decide("101", SEATS[4])),
        (Button(Kind.HOST, 1, None, ("pause",)), HostPause(HOST)),
        (Button(Kind.HOST, 1, None, ("confirm",)), HostConfirm(HOST)),
        (Button(Kind.HOST_WARN, 1, None, ("2",)), HostWarn(HOST, SEATS[1])),
    ],
)
def test_each_kind_stands_for_its_action(button: Button, action: object) -> None:
    assert to_action(button, 101, Views(state()), TABLE) == action


@pytest.mark.parametrize(
    "button",
    [
        Button(Kind.NIGHT, 1, 1, ("kill",)),
        Button(Kind.NIGHT, 1, 1, ("teleport", "3")),
        Button(Kind.NIGHT, 1, 1, ("kill", "99")),  # no such seat
        Button(Kind.VOTE, 1, 1, ("0",)),
        Button(Kind.VOTE, 1, 1, ("x",)),
        Button(Kind.DECIDE, 1, 1),
        Button(Kind.HOST, 1, None, ("explode",)),
        Button(Kind.HOST_WARN, 1, None, ("10",)),
        Button(Kind.TIME, 1, None),
    ],
)
def test_a_malformed_button_stands_for_nothing(button: Button) -> None:
    assert to_action(button, 101, Views(state()), TABLE) is None
