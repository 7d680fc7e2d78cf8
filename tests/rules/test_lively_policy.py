"""The lively random policy plays games to an end: the tests that play
whole games through the bot rely on it, since pure chance leaves about one
classic table in twenty silent for a whole day and night (abandoned)."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import GameState
from engine.actions import Action
from engine.game import apply
from engine.replay import GameSetup
from engine.simulation import lively_action, random_action
from engine.state import Stage

Policy = Callable[[GameState, random.Random, float], Action]


def abandoned_games(variant: str, size: int, policy: Policy, games: int) -> int:
    abandoned = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = GameSetup(variant, tuple(f"p{i}" for i in range(size)), seed=seed).start()
        while state.stage is not Stage.ENDED:
            state, _ = apply(state, policy(state, rng, 0.0))
        abandoned += state.outcome.abandoned
    return abandoned


def test_pure_chance_abandons_some_tables() -> None:
    # What the lively policy is for: without it these seeds see abandoned games.
    assert abandoned_games("classic", 7, random_action, 120) > 0
    assert abandoned_games("party", 8, random_action, 120) > 0


def test_the_lively_policy_never_abandons_a_table() -> None:
    assert abandoned_games("classic", 7, lively_action, 120) == 0
    assert abandoned_games("party", 8, lively_action, 120) == 0
