"""A game the shell steps through without reading its state: a stored
log replayed (the protocol, the Mini App's chronicle, the screens drawn
again after a restore), a scenario, the simulated players' table. It moves
by `apply`, as the engine's own function does, and shows itself only
through its views (engine/seen.py)."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from engine.actions import Action
from engine.events import Event
from engine.game import apply, new_game
from engine.roles import Role
from engine.seen import Views
from engine.simulation import lively_action
from engine.state import GameState


class Game:
    __slots__ = ("_state", "views")

    def __init__(self, state: GameState) -> None:
        self._state = state
        self.views = Views(state)

    @classmethod
    def deal(
        cls,
        variant: str,
        players: Sequence[str],
        options: Mapping[str, object] | None = None,
        seed: int = 0,
        language: str = "en",
        roles: Mapping[str, Role] | None = None,
        played: Collection[str] | None = None,
    ) -> tuple[Game, list[Event]]:
        """A new game, as `new_game` deals it. `played`: the options a game set
        up before some option existed was played with; the others are left
        out, so that the engine reads them as off, as it did then."""
        state, events = new_game(variant, players, options, seed, language, roles)
        if played is not None:
            for name in [n for n in state.options if n not in played]:
                del state.options[name]
        return cls(state), events

    @classmethod
    def stored(cls, data: Mapping[str, Any]) -> Game:
        """The game as its stored state (engine/codec.py) holds it."""
        return cls(GameState.from_dict(data))

    def apply(self, action: Action) -> tuple[Game, list[Event]]:
        """The game after `action`, with the events it caused; refused, it
        raises IllegalAction and this game is unchanged."""
        state, events = apply(self._state, action)
        return Game(state), events

    def random_move(self, rng: random.Random, chatter: float = 0.0) -> Action:
        """The simulated players' next move: the engine's seeded random policy
        (engine/simulation.py, `lively_action`) at this table."""
        return lively_action(self._state, rng, chatter)

    def __eq__(self, other: object) -> bool:
        """Two games are equal when their states are (a replay checked against
        the stored game)."""
        return isinstance(other, Game) and other._state == self._state

    __hash__ = None  # type: ignore[assignment]  # as its state's: not hashable
