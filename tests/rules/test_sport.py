"""What the sport scenarios cannot say: the options and timers of each
floor, the events the shell draws from (who they reach, what they carry),
and the draw as a result nobody won."""

from __future__ import annotations

import pytest

from engine import GameState, Role, Side, Stage, apply, new_game, resolve_options
from engine import events as ev
from engine.actions import Action, Best, Hand, NightChoice, Nominate, Pass, Say, Timeout
from engine.errors import SetupError
from engine.events import Event
from engine.variants import NightMove
from tests.rules.stored import stored
from tg_mafia.cli import main

SEATS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")
ROLES = {
    "Ann": Role.CITIZEN,
    "Ben": Role.DON,
    "Cat": Role.CITIZEN,
    "Dan": Role.SHERIFF,
    "Eve": Role.MAFIA,
    "Fay": Role.CITIZEN,
    "Gus": Role.CITIZEN,
    "Hal": Role.MAFIA,
    "Ivy": Role.CITIZEN,
    "Jon": Role.CITIZEN,
}
CLOCK = Timeout("clock")


def start(**options: object) -> tuple[GameState, list[Event]]:
    return new_game("sport", SEATS, options, roles=ROLES)


def play(state: GameState, *actions: Action) -> tuple[GameState, list[Event]]:
    seen: list[Event] = []
    for action in actions:
        state, events = apply(state, action)
        seen += events
    return state, seen


def of(kind: type[Event], events: list[Event]) -> list[Event]:
    return [e for e in events if isinstance(e, kind)]


def test_the_options_and_their_defaults() -> None:
    options = resolve_options("sport")
    assert options == {
        "host": "auto",
        "night_seconds": 60,
        "speech_seconds": 60,
        "last_word_seconds": 30,
        "vote_count_seconds": 6,  # Decision: [L] 7.9's two seconds are too short for a button
        "thanks_rule": True,
        "warnings_limit": 4,
        "idle_limit": 2,
        "pause_limit": 600,
        "confirm_seconds": 300,
    }
    assert resolve_options("moscow")["thanks_rule"] is False
    assert resolve_options("moscow")["warnings_limit"] == 3
    for name in ("reveal_roles", "maniac", "day_seconds"):
        with pytest.raises(SetupError, match="not used by the sport variant"):
            resolve_options("sport", {name: 1})
    with pytest.raises(SetupError, match="exactly 10 players, not 9"):
        new_game("sport", SEATS[:9])


def test_the_zero_night_shows_the_sheriff_to_the_judge_and_lets_the_mafia_meet() -> None:
    state, events = start()
    (seen,) = of(ev.SheriffSeen, events)
    assert isinstance(seen, ev.SheriffSeen) and seen.player == "Dan"
    assert seen.audience.players == {"Dan"} and not seen.audience.is_public
    (met,) = of(ev.FamilyMet, events)
    assert isinstance(met, ev.FamilyMet) and met.talk and met.plan
    assert not of(ev.NightPrompt, events)  # no shot, no check
    assert state.clock.timer_seconds == 60


def test_each_floor_has_its_timer_and_mode() -> None:
    state, _ = start(speech_seconds=50, last_word_seconds=20, vote_count_seconds=5)
    state, events = play(state, CLOCK)
    (floor,) = of(ev.FloorGiven, events)
    assert isinstance(floor, ev.FloorGiven)
    assert (floor.player, floor.seconds, floor.mode) == ("Ann", 50, "normal")
    # Gus's third foul: his speech comes silent, for last_word_seconds.
    state, events = play(state, Say("Gus", "a"), Say("Gus", "b"), Say("Gus", "c"))
    fouls = [e for e in of(ev.Fouled, events) if isinstance(e, ev.Fouled)]
    assert [(f.count, f.limit, f.effect) for f in fouls] == [
        (1, 4, ""),
        (2, 4, ""),
        (3, 4, "silenced"),
    ]
    state, _ = play(state, Nominate("Ann", "Eve"), Pass("Ann"), Nominate("Ben", "Cat"))
    state, events = play(state, *(Pass(p) for p in ("Ben", "Cat", "Dan", "Eve", "Fay")))
    floor = of(ev.FloorGiven, events)[-1]
    assert isinstance(floor, ev.FloorGiven)
    assert (floor.player, floor.seconds, floor.mode) == ("Gus", 20, "silent")
    assert state.day.silenced == ()  # once
    # A tie: each re-speech is a last_word floor in the respeech mode.
    state, _ = play(state, Pass("Gus"), CLOCK, CLOCK, CLOCK)
    assert state.stage.value == "vote"
    state, _ = play(state, *(Hand(p) for p in ("Ann", "Dan", "Fay", "Gus", "Ivy")), CLOCK)
    state, events = play(state, CLOCK)
    floor = of(ev.FloorGiven, events)[-1]
    assert isinstance(floor, ev.FloorGiven)
    assert (floor.stage, floor.seconds, floor.mode) == ("last_word", 20, "respeech")
    state, _ = play(state, CLOCK, CLOCK)
    state, _ = play(state, *(Hand(p) for p in ("Ann", "Dan", "Fay", "Gus", "Ivy")), CLOCK)
    state, events = play(state, CLOCK)
    (lift,) = of(ev.LiftStarted, events)
    assert isinstance(lift, ev.LiftStarted)
    assert (lift.candidates, lift.living, lift.seconds) == (("Eve", "Cat"), 10, 5)
    assert state.clock.timer_seconds == 5
    state, _ = play(state, *(Hand(p) for p in ("Ann", "Dan", "Fay", "Gus", "Ivy", "Jon")))
    state, events = play(state, CLOCK)
    (ended,) = of(ev.LiftEnded, events)
    assert isinstance(ended, ev.LiftEnded)
    assert ended.voters == ("Ann", "Dan", "Fay", "Gus", "Ivy", "Jon") and ended.leave
    (farewell,) = of(ev.FarewellGiven, events)
    assert isinstance(farewell, ev.FarewellGiven)
    assert (farewell.player, farewell.seconds, farewell.best_move) == ("Eve", 50, False)
    assert state.clock.timer_seconds == 50


def test_the_best_move_is_asked_in_private_shown_in_public_and_lapses() -> None:
    state, _ = start()
    state, _ = play(state, *[CLOCK] * 11)
    kills = [("Ben", "Cat"), ("Eve", "Cat"), ("Hal", "Cat")]
    shots = [NightChoice(a, NightMove.KILL, t) for a, t in kills]
    checks = [
        NightChoice("Ben", NightMove.CHECK, "Ann"),
        NightChoice("Dan", NightMove.CHECK, "Ben"),
    ]
    before = state
    state, events = play(state, *shots, *checks)
    (asked,) = of(ev.BestMoveAsked, events)
    assert isinstance(asked, ev.BestMoveAsked)
    assert asked.audience.players == {"Cat"} and not asked.audience.is_public
    assert asked.choices == state.table.alive and asked.most == 3
    made_state, events = play(state, Best("Cat", ("Ben", "Eve")))
    (made,) = of(ev.BestMoveMade, events)
    assert isinstance(made, ev.BestMoveMade) and made.audience.is_public
    assert made.targets == ("Ben", "Eve")
    # It changes nothing but the record.
    assert made_state.table.alive == state.table.alive and made_state.stage is state.stage
    # Not made: it lapses with the farewell, and the holder is told.
    _, events = play(state, Pass("Cat"))
    (lapsed,) = of(ev.BestMoveLapsed, events)
    assert isinstance(lapsed, ev.BestMoveLapsed) and lapsed.audience.players == {"Cat"}
    _, events = play(made_state, Pass("Cat"))
    assert not of(ev.BestMoveLapsed, events)
    assert before.day.best_mover is None and state.day.best_mover == "Cat"


def test_a_removal_says_which_vote_it_cancels() -> None:
    state, _ = start()
    state, events = play(state, *(Say("Gus", str(n)) for n in range(4)))
    cancelled = of(ev.VoteCancelled, events)
    assert [(e.player, e.when) for e in cancelled if isinstance(e, ev.VoteCancelled)] == [
        ("Gus", "next_day")
    ]
    fouled = of(ev.Fouled, events)[-1]
    assert isinstance(fouled, ev.Fouled) and fouled.effect == "removed"
    (out,) = of(ev.Eliminated, events)
    assert isinstance(out, ev.Eliminated) and out.cause == "fouls" and out.role is None
    state, events = play(state, CLOCK, *[CLOCK] * 9)
    (no_vote,) = of(ev.NoVote, events)
    assert isinstance(no_vote, ev.NoVote) and no_vote.reason == "cancelled"


def test_a_draw_is_a_result_nobody_won() -> None:
    state, _ = start(idle_limit=0)
    events: list[Event] = []
    while state.outcome.winner is None:
        # Each day's opener speaks: a table where nobody acts is abandoned instead.
        opener = state.day.speaking_order[0] if state.stage is Stage.SPEECH else None
        speaks = (
            opener == state.day.speaker
            and opener is not None
            and opener not in state.activity.present
        )
        action = Say(opener, "hello") if speaks and opener else CLOCK
        state, new = apply(state, action)
        events += new
    assert state.outcome.winner is Side.DRAW and state.night.number == 4
    (drawn,) = of(ev.Drawn, events)
    assert isinstance(drawn, ev.Drawn) and drawn.nights == 3
    (ended,) = of(ev.GameEnded, events)
    assert isinstance(ended, ev.GameEnded) and ended.winner is Side.DRAW and ended.winners == ()
    results = [e for e in of(ev.PlayerResult, events) if isinstance(e, ev.PlayerResult)]
    assert len(results) == 10 and not any(r.won for r in results)
    assert all(r.winner is Side.DRAW for r in results)
    assert GameState.from_dict(state.to_dict()).outcome.winner is Side.DRAW


def test_a_state_saved_before_sport_still_loads() -> None:
    state, _ = new_game("club", SEATS[:9], seed=1)
    data = stored("rules-club-new").state  # this state, stored before the records
    for name in (
        "floor_mode",
        "opener",
        "farewells",
        "silenced",
        "vote_cancelled",
        "best_mover",
        "best_move",
        "last_lift",
        "last_departure",
    ):
        del data[name]
    assert GameState.from_dict(data).to_dict() == state.to_dict()


def test_simulate_reports_the_draw_and_sport_s_moments(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--players", "10", "--games", "40", "--no-progress"]
    assert main([*args, "--variant", "sport", "--chatter", "0.05"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "sport, 10 players, 40 games (seeds 0..39)"
    for label in ("town", "mafia", "draw", "games with a lift", "with a best move", "a removal"):
        assert any(label in line for line in lines), label
    assert (
        main(["simulate", "--players", "9", "--games", "5", "--no-progress", "--variant", "club"])
        == 0
    )
    club = capsys.readouterr().out
    assert "draw" not in club and "lift" not in club and "best move" not in club
    assert main([*args, "--variant", "sport", "--chatter", "1"]) == 2
