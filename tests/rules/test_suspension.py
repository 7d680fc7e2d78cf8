"""A game suspended from outside (engine/suspension.py): nothing moves while
it stands still, the stage it stood in goes on as it was when lifted, and
its own limit ends it unscored, in every variant and host mode."""

from __future__ import annotations

import random
from operator import attrgetter

import pytest

from engine import IllegalAction, apply, legal_actions, legal_for, new_game
from engine import events as ev
from engine.actions import (
    CHAT,
    HOST,
    Action,
    Depart,
    HostPause,
    HostResume,
    Pass,
    Say,
    Suspend,
    Timeout,
    Unsuspend,
    action_from_dict,
)
from engine.events import Event
from engine.roles import Role
from engine.simulation import lively_action
from engine.state import GameState, Phase, Stage
from engine.variants import VARIANTS
from tests.rules.stored import stored

SEATS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")
CLUB = dict(
    zip(
        SEATS[:7],
        (Role.DON, Role.MAFIA, Role.SHERIFF, Role.DOCTOR, *[Role.CITIZEN] * 3),
        strict=True,
    )
)
MODES = ("auto", "human")
LIMIT = 1800


def play(state: GameState, *actions: Action) -> tuple[GameState, list[Event]]:
    seen: list[Event] = []
    for action in actions:
        state, events = apply(state, action)
        seen += events
    return state, seen


def refused(state: GameState, action: Action) -> str:
    with pytest.raises(IllegalAction) as error:
        apply(state, action)
    return error.value.code


def mid_game(variant: str, host: str, seed: int) -> GameState:
    """A game some random moves in, still running (the moves before the end)."""
    count = 10 if variant == "sport" else 8
    start, _ = new_game(variant, SEATS[:count], {"host": host}, seed=seed)
    rng = random.Random(seed)
    state = start
    for _ in range(rng.randrange(5, 40)):
        after, _ = apply(state, lively_action(state, rng))
        if after.is_over:
            break
        state = after
    assert state is not start
    return state


@pytest.mark.parametrize("host", MODES)
@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_suspended_game_takes_no_move_and_goes_on_as_it_stood(
    variant: str, host: str, seed: int
) -> None:
    before = mid_game(variant, host, seed)
    moves = [a for a in legal_actions(before) if not isinstance(a, Timeout)]
    state, events = play(before, Suspend(CHAT, LIMIT))
    (suspended,) = events
    assert isinstance(suspended, ev.Suspended) and suspended.audience.public
    assert suspended.limit == LIMIT
    assert state.clock.suspended and state.clock.timer_id == before.clock.timer_id + 1
    # Nothing the players or the host could do a moment ago is taken now.
    for action in moves:
        assert refused(state, action) == "suspended", action
    for player in before.table.alive:
        assert refused(state, Say(player, "hello?")) == "suspended"
        assert refused(state, Depart(player)) == "suspended"
        assert legal_for(state, player) == []
    assert legal_for(state, HOST) == []
    # The stage's own timer, armed before, is late now; only the limit is running.
    assert refused(state, Timeout("clock", before.clock.timer_id)) == "stale_timer"
    assert legal_actions(state) == [Timeout("clock", state.clock.timer_id)]

    after, events = play(state, Unsuspend(CHAT))
    assert [type(e) for e in events] == [ev.Unsuspended]
    assert not after.clock.suspended and after.clock.timer_id == state.clock.timer_id + 1
    # Not restarted, not lost: the same stage, step, floor and time to run.
    same = (
        "phase",
        "stage",
        "step",
        "day.speaker",
        "clock.timer_seconds",
        "clock.paused",
        "day.number",
        "night.number",
    )
    assert {k: attrgetter(k)(after) for k in same} == {k: attrgetter(k)(before) for k in same}
    assert refused(after, Timeout("clock", state.clock.timer_id)) == "stale_timer"  # the limit's
    # Every move the stage offered is offered again, and taken.
    again = [a for a in legal_actions(after) if not isinstance(a, Timeout)]
    assert again == moves
    for action in moves:
        apply(after, action)


@pytest.mark.parametrize("host", MODES)
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_limit_ends_the_game_unscored_with_every_role_shown(variant: str, host: str) -> None:
    before = mid_game(variant, host, 7)
    state, _ = play(before, Suspend(CHAT, LIMIT))
    state, events = play(state, Timeout("clock", state.clock.timer_id))
    (ended,) = [e for e in events if isinstance(e, ev.GameEnded)]
    assert ended.reason == "suspended" and ended.winner is None and ended.winners == ()
    assert ended.audience.public and dict(ended.roles) == before.table.roles
    assert not [e for e in events if isinstance(e, ev.PlayerResult)]
    assert (
        state.phase is Phase.ENDED and state.stage is Stage.ENDED and state.outcome.winner is None
    )
    assert (
        state.unscored
        and not state.outcome.abandoned
        and state.table.revealed == before.table.roles
    )
    assert refused(state, Unsuspend(CHAT)) == "game_over"
    assert legal_actions(state) == []


def test_the_floor_runs_its_own_time_after_the_suspension() -> None:
    """Club's first speech: suspended, lifted, and its timer (the new id) ends it
    as it would have; a pass is taken again."""
    state, _ = new_game("club", SEATS[:7], roles=CLUB)
    state, _ = play(state, Timeout("clock", state.clock.timer_id))  # the zero night passes
    assert state.stage is Stage.SPEECH and state.day.speaker == "Ann"
    state, _ = play(state, Suspend(CHAT, LIMIT))
    assert refused(state, Pass("Ann")) == "suspended"
    state, _ = play(state, Unsuspend(CHAT))
    resumed, _ = play(state, Pass("Ann"))
    assert resumed.day.speaker == "Ben"
    timed, _ = play(state, Timeout("clock", state.clock.timer_id))
    assert timed.day.speaker == "Ben"


def test_a_host_pause_outlives_the_suspension() -> None:
    state, _ = new_game("club", SEATS[:7], {"host": "human"}, roles=CLUB)
    state, _ = play(state, HostPause(HOST), Suspend(CHAT, LIMIT))
    assert state.clock.paused and state.clock.suspended
    assert refused(state, HostResume(HOST)) == "suspended"
    state, _ = play(state, Unsuspend(CHAT))
    assert state.clock.paused and not state.clock.suspended  # still the host's to resume
    state, events = play(state, HostResume(HOST))
    assert not state.clock.paused and [
        e.change for e in events if isinstance(e, ev.TimerChanged)
    ] == ["resumed"]


def test_a_suspension_is_lifted_once_and_not_doubled() -> None:
    state, _ = new_game("club", SEATS[:7], roles=CLUB)
    assert refused(state, Unsuspend(CHAT)) == "not_suspended"
    state, _ = play(state, Suspend(CHAT, LIMIT))
    assert refused(state, Suspend(CHAT, LIMIT)) == "suspended"


def test_a_game_awaiting_its_hosts_confirmation_is_not_suspended() -> None:
    state, _ = new_game("club", SEATS[:7], {"host": "human"}, roles=CLUB)
    state.stage = Stage.CONFIRM  # the host has a win to confirm: nothing runs in the chat
    assert refused(state, Suspend(CHAT, LIMIT)) == "game_over"


def test_a_suspension_is_stored_and_logged() -> None:
    state, _ = new_game("club", SEATS[:7], roles=CLUB)
    state, _ = play(state, Suspend(CHAT, LIMIT))
    assert GameState.from_dict(state.to_dict()).clock.suspended
    old = stored("rules-club-suspended").state  # this state, stored before the records
    assert GameState.from_dict(old) == state
    del old["suspended"]  # saved before suspensions existed
    assert not GameState.from_dict(old).clock.suspended
    for action in (Suspend(CHAT, LIMIT), Unsuspend(CHAT)):
        assert action_from_dict(action.to_dict()) == action
