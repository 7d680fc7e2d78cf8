"""Games stored before GameState had records (schema 1: every field flat, no
"schema" key), kept in stored_v1/ as they were stored; see
tests/rules/test_stored_states.py."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.actions import Action, action_from_dict
from engine.replay import GameSetup

FOLDER = Path(__file__).parent / "stored_v1"


@dataclass(frozen=True)
class Stored:
    """A stored state, the game's setup and whole log, and how many of the
    log's actions the state was stored after."""

    name: str
    about: str
    setup: GameSetup
    log: tuple[Action, ...]
    stored_after: int
    state: dict[str, Any]

    @property
    def before(self) -> tuple[Action, ...]:
        return self.log[: self.stored_after]

    @property
    def after(self) -> tuple[Action, ...]:
        return self.log[self.stored_after :]


def stored(name: str) -> Stored:
    """The fixture `name`, read afresh (its state is the caller's to change)."""
    data = json.loads((FOLDER / f"{name}.json").read_text())
    return Stored(
        name=data["name"],
        about=data["about"],
        setup=GameSetup.from_dict(data["setup"]),
        log=tuple(action_from_dict(a) for a in data["log"]),
        stored_after=data["stored_after"],
        state=data["state"],
    )


def names() -> list[str]:
    return sorted(path.stem for path in FOLDER.glob("*.json"))
