"""A move: what one kind of action needs to be legal, what it does, and
which actions of that kind are worth asking about. `apply` runs `check`
then `perform`; `legal_actions` lists the candidates whose check passes.
One check serves both, so a listed action is always accepted and an
accepted one always listed."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.context import Ctx
from engine.errors import IllegalAction


@dataclass(frozen=True, slots=True)
class Move:
    action: type[Action]
    check: Callable[[Ctx, Any], None]  # raises IllegalAction
    perform: Callable[[Ctx, Any], None]
    # Every action of this kind that might be legal now (a superset): the
    # checks pick the legal ones. Free text (posts, the family's talk) has none.
    candidates: Callable[[Ctx], Iterable[Action]]

    def play(self, ctx: Ctx, action: Action) -> None:
        self.check(ctx, action)
        self.perform(ctx, action)

    def legal(self, ctx: Ctx) -> list[Action]:
        found = []
        for action in self.candidates(ctx):
            try:
                self.check(ctx, action)
            except IllegalAction:
                continue
            found.append(action)
        return found


def no_candidates(ctx: Ctx) -> Iterable[Action]:
    return ()
