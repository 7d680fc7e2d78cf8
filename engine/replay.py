"""A game is its setup plus its action log: rebuilding it from both."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action, MafiaChat, Say, action_from_dict
from engine.game import apply, new_game
from engine.options import OptionValue
from engine.roles import Role
from engine.state import GameState
from engine.thanks import THANKS_WORDS, says_thanks


@dataclass(frozen=True, slots=True)
class GameSetup:
    variant: str
    players: tuple[str, ...]
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    seed: int = 0
    language: str = "en"
    roles: Mapping[str, Role] | None = None

    def start(self) -> GameState:
        state, _ = new_game(
            self.variant, self.players, self.options, self.seed, self.language, self.roles
        )
        return state

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": list(self.players),
            "options": dict(self.options),
            "seed": self.seed,
            "language": self.language,
            "roles": {p: r.value for p, r in self.roles.items()} if self.roles else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameSetup:
        roles = data.get("roles")
        return cls(
            variant=data["variant"],
            players=tuple(data["players"]),
            options=dict(data.get("options") or {}),
            seed=int(data.get("seed", 0)),
            language=data.get("language", "en"),
            roles={p: Role(r) for p, r in roles.items()} if roles else None,
        )


def replay(setup: GameSetup, actions: Iterable[Action | Mapping[str, Any]]) -> GameState:
    """The state after every logged action. The log holds accepted actions
    only, so a refusal here means the log does not belong to this setup."""
    state = setup.start()
    for item in actions:
        action = item if isinstance(item, Action) else action_from_dict(dict(item))
        state, _ = apply(state, action)
    return state


def stand_in(action: Mapping[str, Any], language: str) -> str:
    """What the text of a post or a family message (an action's dict) may
    become once the game is over, with the replay unchanged: a post that
    holds the thanks word keeps the thanks word alone, a family message
    stays a message (an empty one relays nothing), any other post is empty."""
    if action.get("verb") == Say.verb and says_thanks(str(action.get("text", "")), language):
        return THANKS_WORDS.get(language, THANKS_WORDS["en"])[0]
    if action.get("verb") == MafiaChat.verb:
        return "…"
    return ""
