"""Idle players, abandoned games and the human host's limits: what the
scenarios cannot see (the events and who hears them)."""

from __future__ import annotations

from engine import apply, new_game
from engine import events as ev
from engine.actions import Action, HostPause, MafiaChat, Pass, Timeout
from engine.events import Event
from engine.roles import Role
from engine.state import Cause, GameState

CLOCK = Timeout("clock")
# The family talks on night 1, so the table is not idle as a whole.
NIGHT_ONE = (MafiaChat("Ben", "hello"), CLOCK)
SEATS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")
CLUB = dict(
    zip(SEATS, (Role.DON, Role.MAFIA, Role.SHERIFF, Role.DOCTOR, *[Role.CITIZEN] * 3), strict=True)
)


def play(state: GameState, *actions: Action) -> tuple[GameState, list[Event]]:
    seen: list[Event] = []
    for action in actions:
        state, events = apply(state, action)
        seen += events
    return state, seen


def test_an_idle_speech_reminds_in_private_how_many_more_put_one_out() -> None:
    state, _ = new_game("club", SEATS, {"idle_limit": 3}, roles=CLUB)
    state, events = play(state, *NIGHT_ONE, CLOCK)  # Ann's speech runs out
    (reminder,) = [e for e in events if isinstance(e, ev.IdleReminded)]
    assert reminder.player == "Ann" and (reminder.count, reminder.limit, reminder.left) == (1, 3, 2)
    assert not reminder.audience.public and reminder.audience.players == {"Ann"}
    assert state.activity.idle == {"Ann": 1}


def test_out_for_idleness_is_an_elimination_the_group_is_told_of() -> None:
    state, _ = new_game("club", SEATS, {"idle_limit": 1, "reveal_roles": True}, roles=CLUB)
    state, events = play(state, *NIGHT_ONE, CLOCK)
    (out,) = [e for e in events if isinstance(e, ev.Eliminated)]
    assert out.audience.public and (out.player, out.cause, out.role) == ("Ann", "idle", Role.DON)
    assert state.table.dead == {"Ann": Cause.IDLE} and state.day.speaker == "Ben"
    assert not [e for e in events if isinstance(e, ev.IdleReminded)]


def test_a_pass_is_no_idle_turn() -> None:
    state, _ = new_game("club", SEATS, {"idle_limit": 1}, roles=CLUB)
    state, _ = play(state, *NIGHT_ONE, Pass("Ann"))
    assert state.activity.idle == {} and "Ann" not in state.table.dead


def test_an_abandoned_game_ends_with_no_winner_and_no_player_result() -> None:
    state, _ = new_game("club", SEATS, roles=CLUB)  # idle_limit 2: nobody is singled out
    events: list[Event] = []
    while not state.outcome.abandoned:
        state, new = apply(state, CLOCK)
        events += new
    (ended,) = [e for e in events if isinstance(e, ev.GameEnded)]
    assert ended.reason == "abandoned" and ended.winner is None and ended.winners == ()
    assert dict(ended.roles) == CLUB and state.outcome.winner is None
    assert not [e for e in events if isinstance(e, ev.PlayerResult)]


def test_the_pause_limit_resumes_the_timer_and_tells_the_group() -> None:
    state, _ = new_game("club", SEATS, {"host": "human"}, roles=CLUB)
    state, _ = play(state, HostPause("host"))
    step = state.step
    state, events = play(state, Timeout("clock", state.clock.timer_id))
    (note,) = events
    assert isinstance(note, ev.TimerChanged) and note.change == "unpaused" and note.audience.public
    assert not state.clock.paused and state.step == step


def test_when_nobody_plays_nobody_is_singled_out() -> None:
    state, _ = new_game("club", SEATS, {"idle_limit": 1}, roles=CLUB)
    state, _ = play(state, CLOCK, CLOCK)  # nobody acted on night 1
    assert state.day.speaker == "Ben" and not state.table.dead and state.activity.idle == {}
