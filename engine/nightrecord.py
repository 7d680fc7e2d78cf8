"""What came of each night move, for the record: the protocol lists every
move of the night with its result (a check with its answer, a shot with
whether it killed), which only the dawn knows."""

from __future__ import annotations

from dataclasses import dataclass

from engine.context import Ctx
from engine.events import RECORD, MoveOutcome, NightResolved
from engine.variants import NightMove
from engine.vocab import CheckAnswer, MoveResult


@dataclass(frozen=True, slots=True)
class Dawn:
    """The night's resolution, as `night.dawn` worked it out."""

    shot: str | None  # the mafia's target (None: no shot)
    maniac_shot: str | None
    healed: str | None
    victims: tuple[str, ...]
    answers: dict[str, dict[str, CheckAnswer]]  # checker -> {target: answer}


def record_night(ctx: Ctx, dawn: Dawn) -> None:
    """Every move each living actor had tonight (seat order), as it stood,
    with its result. Called before the dawn changes anything."""
    state = ctx.state
    outcomes: list[MoveOutcome] = []
    for player in state.table.alive:
        for move in ctx.variant.night_moves(state.table.roles[player], state.night.number):
            key = f"{player}:{move}"  # night.choice_key (night imports this module)
            if key not in state.night.choices:
                outcomes.append(MoveOutcome(player, move, None, MoveResult.NO_CHOICE))
                continue
            target = state.night.choices[key]
            result = _result(ctx, dawn, player, move, target)
            outcomes.append(MoveOutcome(player, move, target, result))
    ctx.emit(NightResolved(audience=RECORD, night=state.night.number, moves=tuple(outcomes)))


def _result(
    ctx: Ctx, dawn: Dawn, player: str, move: NightMove, target: str | None
) -> MoveResult | CheckAnswer:
    if target is None:
        return MoveResult.SKIPPED
    if move is NightMove.CHECK:
        return dawn.answers[player][target]
    if move is NightMove.HEAL:
        return MoveResult.SAVED if target in (dawn.shot, dawn.maniac_shot) else MoveResult.NO_SHOT
    if move is NightMove.BLOCK:
        return MoveResult.BLOCKED
    if target in dawn.victims:
        return MoveResult.KILLED
    mafia = ctx.state.table.roles[player].is_mafia
    shot = dawn.shot if mafia else dawn.maniac_shot
    if shot is None:
        return MoveResult.MISSED  # no agreement (or a tie): the family made no shot
    if target != shot:
        return MoveResult.OUTVOTED
    if not ctx.state.table.is_alive(target):
        return MoveResult.GONE
    return MoveResult.SAVED
