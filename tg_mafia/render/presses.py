"""A press on a game's button: the engine action it stands for, built from
the button's kind (one table), the presser and the engine's views of the
game; what the engine says of it becomes the popup. A button of another
step, a forged one, or one meant for someone else changes nothing."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from engine import HOST, Action, PublicView, Views
from engine.actions import (
    Best,
    Decide,
    Hand,
    HostConfirm,
    HostExtend,
    HostPause,
    HostResume,
    HostSkip,
    HostWarn,
    Leave,
    Lower,
    NightChoice,
    Nominate,
    Pass,
    Plan,
    Unvote,
    Vote,
)
from engine.variants import NightMove
from tg_mafia.render.callbacks import Button, Kind
from tg_mafia.render.texts import Answer
from tg_mafia.render.texts.table import Table

HOST_VERBS: Mapping[str, Callable[[str], Action]] = MappingProxyType(
    {
        "pause": HostPause,
        "resume": HostResume,
        "extend": HostExtend,
        "skip": HostSkip,
        "confirm": HostConfirm,
    }
)
NIGHT_MOVES = frozenset(move.value for move in NightMove)

# The popup that answers a press the engine took.
SUCCESS: Mapping[Kind, Answer] = MappingProxyType(
    {
        Kind.NIGHT: Answer.CHOSEN,
        Kind.PLAN: Answer.OK,
        Kind.HAND: Answer.HAND_RAISED,
        Kind.LOWER: Answer.HAND_LOWERED,
        Kind.VOTE: Answer.VOTED,
        Kind.UNVOTE: Answer.VOTE_WITHDRAWN,
        Kind.BEST: Answer.BEST_MOVE_IN,
    }
)


@dataclass(frozen=True)
class Press:
    """A press as the builders below read it."""

    button: Button
    actor: str
    views: Views
    table: Table

    def player(self, index: int = 0) -> str | None:
        """The player at the seat the argument names (0 and bad seats: None)."""
        number = self.button.seat(index)
        return self.table.player_at(number) if number else None


def _night(press: Press) -> Action | None:
    args = press.button.args
    if len(args) != 2 or args[0] not in NIGHT_MOVES or press.button.seat(1) is None:
        return None
    if press.button.seat(1) == 0:
        return NightChoice(press.actor, NightMove(args[0]), None)  # do nothing tonight
    target = press.player(1)
    return NightChoice(press.actor, NightMove(args[0]), target) if target else None


def _plan(press: Press) -> Action | None:
    if press.button.seat(0) == 0:
        return Plan(press.actor, ())  # cleared
    added = press.player(0)
    # The family's list, one name longer: the engine takes it from the Don alone, and
    # tells anyone else no more than that (the popup), so nothing of it leaks.
    return Plan(press.actor, (*press.views.team.plan, added)) if added else None


def _alone(kind: Callable[[str], Action]) -> Builder:
    return lambda press: kind(press.actor)


def _aimed(kind: Callable[[str, str], Action]) -> Builder:
    def build(press: Press) -> Action | None:
        target = press.player(0)
        return kind(press.actor, target) if target else None

    return build


# ----- sport's best move: the names chosen so far travel in the buttons ---------------

NONE_CHOSEN = "0"
SEAT_JOIN = "_"


def selection_arg(table: Table, players: tuple[str, ...]) -> str:
    """The players chosen, as one button argument: their seats ("3_5_9")."""
    return SEAT_JOIN.join(str(table.seat(p)) for p in players) or NONE_CHOSEN


def picked(button: Button, table: Table) -> tuple[str, ...] | None:
    """The players a best-move button names, in seat order; None if malformed."""
    if len(button.args) != 2 or button.args[0] not in ("t", "d"):
        return None
    if button.args[1] == NONE_CHOSEN:
        return ()
    seats = button.args[1].split(SEAT_JOIN)
    if not all(seat.isdigit() for seat in seats) or len(set(seats)) != len(seats):
        return None
    players = [table.player_at(int(seat)) for seat in seats]
    if any(p is None for p in players):
        return None
    return tuple(p for p in table.seats if p in players)


def is_toggle(button: Button) -> bool:
    """A name pressed in the best-move menu: it redraws the menu, nothing more."""
    return button.kind is Kind.BEST and button.args[:1] == ("t",)


def _best(press: Press) -> Action | None:
    chosen = picked(press.button, press.table)
    if is_toggle(press.button) or not chosen:
        return None
    return Best(press.actor, chosen)


def _host_warn(press: Press) -> Action | None:
    target = press.player(0)
    return HostWarn(HOST, target) if target else None


def _host(press: Press) -> Action | None:
    args = press.button.args
    return HOST_VERBS[args[0]](HOST) if len(args) == 1 and args[0] in HOST_VERBS else None


Builder = Callable[[Press], Action | None]
BUILDERS: Mapping[Kind, Builder] = MappingProxyType(
    {
        Kind.NIGHT: _night,
        Kind.PLAN: _plan,
        Kind.PASS: _alone(Pass),
        Kind.LEAVE: _alone(Leave),
        Kind.UNVOTE: _alone(Unvote),
        Kind.HAND: _alone(Hand),
        Kind.LOWER: _alone(Lower),
        Kind.NOMINATE: _aimed(Nominate),
        Kind.VOTE: _aimed(Vote),
        Kind.DECIDE: _aimed(Decide),
        Kind.BEST: _best,
        Kind.HOST_WARN: _host_warn,
        Kind.HOST: _host,
    }
)


def to_action(button: Button, user_id: int, views: Views, table: Table) -> Action | None:
    """The action a press stands for; None for a malformed button."""
    build = BUILDERS.get(button.kind)
    return build(Press(button, str(user_id), views, table)) if build else None


def stale(button: Button, view: PublicView) -> bool:
    """Made for another step of the game (a button of a stage gone by)."""
    return button.step is not None and button.step != view.step
