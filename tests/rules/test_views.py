"""The audiences' views (engine/views.py, engine/seen.py) over whole random
games: each holds what its audience may see and nothing more, the legal
moves they hand out are exactly the engine's, and `Game` replays a game
to the same state as `apply` does."""

from __future__ import annotations

import random

import pytest

from engine import HOST, VARIANTS, Game, GameSetup, GameState, Phase, Stage, Views, apply
from engine.actions import Hand, MafiaChat, Nominate, Pass
from engine.errors import Reason
from engine.legal import legal_actions, legal_for
from engine.simulation import lively_action


def games(variant: str, seeds: range) -> list[list[GameState]]:
    """Whole games of `variant` (a human host every other one): every state, in order."""
    size = max(VARIANTS[variant].min_players, 9)
    played = []
    for seed in seeds:
        options = {"host": "human"} if seed % 2 else {}
        state = GameSetup(variant, tuple(str(100 + i) for i in range(size)), options, seed).start()
        rng, states = random.Random(seed), []
        while state.stage is not Stage.ENDED:
            state, _ = apply(state, lively_action(state, rng, 0.02))
            states.append(state)
        played.append(states)
    return played


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_view_holds_its_audience_s_share(variant: str) -> None:
    for states in games(variant, range(3)):
        for state in states:
            views = Views(state)
            roles = state.table.roles
            mafia = {p for p in state.table.seats if roles[p].is_mafia}
            team = views.team
            assert {p for p, _ in team.members} == mafia
            assert set(team.living) == mafia & set(state.table.alive)
            assert {p for p, _ in team.shots} <= mafia
            for player in state.table.seats:
                own = views.seat(player)
                assert own.role is roles[player] and own.public is views.public
                if not roles[player].is_mafia:
                    assert own.family == () and own.plan == ()
            assert dict(views.host.roles) == roles
            end = views.end
            if state.phase is Phase.ENDED:
                assert end is not None and dict(end.roles) == roles
                assert end.winner is state.outcome.winner
            else:
                assert end is None


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_legal_moves_handed_out_are_the_engine_s(variant: str) -> None:
    for states in games(variant, range(2)):
        for state in states[::3]:
            views = Views(state)
            assert list(views.legal()) == legal_actions(state, include_host=False)
            for actor in (*state.table.seats, HOST):
                assert list(views.legal(actor)) == legal_for(state, actor)


def test_the_refusal_is_the_engine_s_and_changes_nothing() -> None:
    state = GameSetup("club", tuple(str(100 + i) for i in range(9)), seed=3).start()
    views, before = Views(state), state.to_dict()
    outsider = "999"
    assert views.refusal(Hand(outsider)) is Reason.NOT_A_PLAYER
    assert views.refusal(Nominate(state.table.seats[0], state.table.seats[1])) is not None
    mafioso = next(p for p in state.table.seats if state.table.roles[p].is_mafia)
    assert views.refusal(MafiaChat(mafioso, "hello")) is None  # the acquaintance night
    assert state.to_dict() == before


def test_a_game_replays_as_apply_plays() -> None:
    setup = GameSetup("moscow", tuple(str(100 + i) for i in range(9)), {"maniac": True}, 5)
    game, _ = Game.deal(setup.variant, setup.players, setup.options, setup.seed)
    state, rng = setup.start(), random.Random(5)
    while state.stage is not Stage.ENDED:
        action = lively_action(state, rng)
        state, events = apply(state, action)
        game, replayed = game.apply(action)
        assert replayed == events
    assert game == Game(state) and game == Game.stored(state.to_dict())
    assert game.views.end is not None and game.views.public.winner is state.outcome.winner


def test_a_game_dealt_before_an_option_existed_plays_without_it() -> None:
    seats = tuple(str(100 + i) for i in range(9))
    game, _ = Game.deal("moscow", seats, {}, 1, played={"maniac"})
    assert set(game.views.public.options) == {"maniac"}


def test_the_speaker_passes_through_the_views() -> None:
    state = GameSetup("moscow", tuple(str(100 + i) for i in range(9)), seed=2).start()
    views = Views(state)
    speaker = views.public.speaker
    assert speaker is not None and Pass(speaker) in views.legal(speaker)
