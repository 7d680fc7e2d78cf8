"""A game suspended from outside: the chat it is played in cannot take it
for now (in Telegram, its forum topic was closed and the bot may not reopen
it). Any host mode, any variant.

While it is suspended nothing moves: no player's move, post or departure,
no host's move is taken (each is refused with "suspended"), and the stage's
timer stands still. The engine has no clock: as for a host's pause, the
shell keeps the time the stage had left and gives it back on `Unsuspend`.
The suspension has a limit of its own, a timer the shell sets: its
`Timeout` ends the game unscored (no winner, no result), every role shown,
with its protocol, as an abandoned game ends (engine/abandon.py)."""

from __future__ import annotations

from engine.actions import Action, Suspend, Unsuspend
from engine.context import Ctx
from engine.errors import IllegalAction, Reason
from engine.events import PUBLIC, Suspended, Unsuspended
from engine.lifecycle import end_unscored
from engine.moves import Move, no_candidates
from engine.vocab import EndReason


def refuse_while_suspended(ctx: Ctx, action: Action) -> None:
    if ctx.state.clock.suspended and not ctx.state.is_over:
        raise IllegalAction(Reason.SUSPENDED, f"no {action.verb} while the game is suspended")


def check_suspend(ctx: Ctx, action: Suspend) -> None:
    if ctx.state.is_over:
        raise IllegalAction(Reason.GAME_OVER, "the game is over")
    refuse_while_suspended(ctx, action)


def suspend(ctx: Ctx, action: Suspend) -> None:
    # A new timer id: a late firing of the stage's timer is stale, and the
    # suspension's limit is a timer of its own. A host's pause stays as it was.
    ctx.state.clock.timer_id += 1
    ctx.state.clock.suspended = True
    ctx.emit(Suspended(audience=PUBLIC, limit=action.limit))


def check_unsuspend(ctx: Ctx, action: Unsuspend) -> None:
    if ctx.state.is_over:
        raise IllegalAction(Reason.GAME_OVER, "the game is over")
    if not ctx.state.clock.suspended:
        raise IllegalAction(Reason.NOT_SUSPENDED, "the game is not suspended")


def unsuspend(ctx: Ctx, action: Unsuspend) -> None:
    # A new timer id again: the limit's timer is stale now; the stage's timer
    # runs on with the time it had left (or the host's pause goes on).
    ctx.state.clock.timer_id += 1
    ctx.state.clock.suspended = False
    ctx.emit(Unsuspended(audience=PUBLIC))


def limit_reached(ctx: Ctx) -> None:
    """The suspension's timer ran out: the game ends, unscored."""
    end_unscored(ctx, EndReason.SUSPENDED)


# Never offered by legal_actions: only the shell suspends a game, and random
# play (engine/simulation.py) must not.
MOVES = (
    Move(Suspend, check_suspend, suspend, no_candidates),
    Move(Unsuspend, check_unsuspend, unsuspend, no_candidates),
)
