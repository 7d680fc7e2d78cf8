"""Games stored before GameState had records (schema 1, flat) still load,
and play on exactly as a game that was never stored in that format.

The fixtures (stored_v1/) were written by the code of that time, and are
kept as they were stored: the bot's own games on the sandbox (`bot-*`: the
`game.state` column and the action log read from its database, mid-game and
at the end, one game of each variant), and engine games in states that
simulated players do not reach (`engine-*`: a host's pause, a win awaiting
the host, a suspension and its limit, an abandoned game), stored as the bot
stores them (`GameState.to_dict`). Each keeps its game's setup, its whole
log, and how many of the log's actions the state was stored after."""

from __future__ import annotations

import json

import pytest

from engine import GameState, Stage, apply, replay
from engine.codec import SCHEMA
from engine.events import Event
from tests.rules.stored import names, stored

FIXTURES = names()


def test_the_fixtures_cover_every_variant_and_the_states_they_are_kept_for() -> None:
    loaded = [GameState.from_dict(stored(name).state) for name in FIXTURES]
    assert {s.variant for s in loaded} == {"classic", "moscow", "party", "club", "sport"}
    assert any(s.stage is Stage.ENDED and s.outcome.winner is not None for s in loaded)
    assert any(not s.is_over for s in loaded)
    assert any(s.human_host and s.clock.paused for s in loaded)
    assert any(s.stage is Stage.CONFIRM for s in loaded)
    assert any(s.clock.suspended and not s.is_over for s in loaded)
    assert any(s.clock.suspended and s.unscored for s in loaded)
    assert any(s.outcome.abandoned for s in loaded)
    assert all("schema" not in stored(name).state for name in FIXTURES)
    # Stored mid-game, in the states above: played on to the end from there.
    for name in ("bot-moscow-mid", "engine-club-host-paused", "engine-classic-suspended"):
        fixture = stored(name)
        assert fixture.after and replay(fixture.setup, fixture.log).stage is Stage.ENDED


@pytest.mark.parametrize("name", FIXTURES)
def test_a_schema_1_state_loads_as_the_game_it_was(name: str) -> None:
    fixture = stored(name)
    never_stored = replay(fixture.setup, fixture.before)
    loaded = GameState.from_dict(fixture.state)
    assert loaded == never_stored
    again = loaded.to_dict()
    assert again["schema"] == SCHEMA == 2
    assert again == never_stored.to_dict()
    assert json.loads(json.dumps(again)) == again
    assert GameState.from_dict(json.loads(json.dumps(again))) == loaded


@pytest.mark.parametrize("name", FIXTURES)
def test_a_game_resumed_from_schema_1_plays_on_as_one_never_stored(name: str) -> None:
    fixture = stored(name)
    resumed = GameState.from_dict(fixture.state)
    never_stored = replay(fixture.setup, fixture.before)
    resumed_events: list[Event] = []
    never_stored_events: list[Event] = []
    for action in fixture.after:
        resumed, events = apply(resumed, action)
        resumed_events.extend(events)
        never_stored, events = apply(never_stored, action)
        never_stored_events.extend(events)
    assert resumed_events == never_stored_events
    assert resumed == never_stored == replay(fixture.setup, fixture.log)
    assert resumed.to_dict() == never_stored.to_dict()


def test_a_later_schema_is_refused_with_a_clear_message() -> None:
    data = GameState.from_dict(stored(FIXTURES[0]).state).to_dict()
    data["schema"] = SCHEMA + 1
    with pytest.raises(ValueError, match="schema 3"):
        GameState.from_dict(data)
