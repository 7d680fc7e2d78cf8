"""Every action the rules would accept now, for simulators and tests.

Free text (`Say`, `MafiaChat`) and the Don's list are left out: they have
no finite set of values. Every action listed here is accepted by `apply`."""

from __future__ import annotations

from engine import handvote, night, openvote
from engine.actions import (
    HOST,
    Action,
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
    Timeout,
    Unvote,
    Vote,
)
from engine.context import Ctx
from engine.state import FLOOR_STAGES, GameState, Stage


def legal_actions(state: GameState, include_host: bool = True) -> list[Action]:
    ctx = Ctx(state)
    actions: list[Action] = []
    stage = state.stage
    if stage is Stage.ENDED:
        return actions
    if stage is Stage.CONFIRM:
        return [HostConfirm(HOST)] if include_host else []
    if state.timer_seconds is not None and not state.paused:
        actions.append(Timeout("clock", state.timer_id))
    if stage is Stage.NIGHT:
        actions.extend(_night_actions(ctx))
    elif stage in FLOOR_STAGES and state.speaker is not None:
        actions.append(Pass(state.speaker))
        if stage is Stage.SPEECH and not state.nominated_this_floor:
            actions.extend(
                Nominate(state.speaker, t)
                for t in state.alive
                if t != state.speaker and t not in state.nominees
            )
    elif stage is Stage.VOTE:
        actions.extend(_hand_actions(ctx))
    elif stage is Stage.DECIDE and state.decider is not None:
        actions.extend(Decide(state.decider, t) for t in state.candidates)
    elif openvote.voting_open(ctx):
        for voter in state.alive:
            current = state.ballots.get(voter)
            actions.extend(Vote(voter, t) for t in state.alive if t not in (voter, current))
            if current is not None:
                actions.append(Unvote(voter))
    if include_host and state.human_host:
        actions.extend(_host_actions(ctx))
    return actions


def _night_actions(ctx: Ctx) -> list[Action]:
    actions: list[Action] = []
    for player in ctx.state.alive:
        for move in night.actor_moves(ctx, player):
            actions.append(NightChoice(player, move, None))
            actions.extend(
                NightChoice(player, move, t) for t in night.valid_targets(ctx, player, move)
            )
    return actions


def _hand_actions(ctx: Ctx) -> list[Action]:
    state = ctx.state
    actions: list[Action] = []
    for player in state.alive:
        if player in state.hands:
            actions.append(Lower(player))
        elif handvote.may_vote(ctx, player):
            actions.append(Hand(player))
    if ctx.variant.has_leave_table and len(state.candidates) == 2 and state.count_index == 0:
        actions.extend(Leave(c) for c in state.candidates)
    return actions


def _host_actions(ctx: Ctx) -> list[Action]:
    state = ctx.state
    actions: list[Action] = []
    if state.timer_seconds is not None:
        actions.append(HostResume(HOST) if state.paused else HostPause(HOST))
        actions.append(HostExtend(HOST))
    if state.stage in FLOOR_STAGES:
        actions.append(HostSkip(HOST))
    if ctx.variant.has_warnings:
        actions.extend(HostWarn(HOST, p) for p in state.alive)
    return actions
