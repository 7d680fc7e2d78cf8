"""Every action the rules would accept now: what the shell offers as
buttons, and what simulators and tests pick from.

Built from the same stage table and move checks as `apply`, so a listed
action is always accepted. Free text (`Say`, `MafiaChat`) is left out: it
has no finite set of values; the Don's list is listed one name at a time
(extended by one, or cleared), as the shell offers it."""

from __future__ import annotations

from engine.actions import Action, Timeout
from engine.context import Ctx
from engine.flow import STAGES
from engine.game import HOST_MOVES
from engine.state import GameState


def legal_actions(state: GameState, include_host: bool = True) -> list[Action]:
    ctx = Ctx(state)
    if state.clock.suspended and not state.is_over:
        return [Timeout("clock", state.clock.timer_id)]  # only the suspension's limit
    actions: list[Action] = []
    if state.clock.timer_seconds is not None and not state.clock.paused:
        actions.append(Timeout("clock", state.clock.timer_id))
    if not state.is_over:
        for move in STAGES[state.stage].moves:
            actions.extend(move.legal(ctx))
    if include_host and state.human_host:
        for move in HOST_MOVES.values():
            actions.extend(move.legal(ctx))
    return actions


def legal_for(state: GameState, actor: str) -> list[Action]:
    """What one player (or the host) may do now."""
    return [a for a in legal_actions(state) if a.actor == actor]
