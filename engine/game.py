"""Setting up a game and applying actions to it: `new_game` and `apply`."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from engine import day, handvote, host, night, openvote, posts
from engine.actions import (
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
    MafiaChat,
    NightChoice,
    Nominate,
    Pass,
    Plan,
    Say,
    Timeout,
    Unvote,
    Vote,
)
from engine.context import Ctx
from engine.errors import IllegalAction, SetupError
from engine.events import HOST_ONLY, PUBLIC, Event, EventKind, private
from engine.options import resolve_options
from engine.roles import Role
from engine.state import FLOOR_STAGES, GameState, Phase, Stage
from engine.variants import find_variant

HOST_ACTIONS = (HostWarn, HostPause, HostResume, HostExtend, HostSkip, HostConfirm)


def deal(
    variant_name: str, players: Sequence[str], options: Mapping[str, object] | None, seed: int
) -> dict[str, Role]:
    """Roles for the seats, shuffled by a generator seeded with `seed`."""
    variant = find_variant(variant_name)
    resolved = resolve_options(variant_name, options)
    deck = variant.deck(len(players), resolved)
    cards = sorted(deck.elements(), key=lambda role: role.value)
    random.Random(seed).shuffle(cards)
    return dict(zip(players, cards, strict=True))


def new_game(
    variant_name: str,
    players: Sequence[str],
    options: Mapping[str, object] | None = None,
    seed: int = 0,
    language: str = "en",
    roles: Mapping[str, Role] | None = None,
) -> tuple[GameState, list[Event]]:
    """A game in its first phase. `roles` fixes the deal (scenarios);
    otherwise roles are dealt from `seed`."""
    variant = find_variant(variant_name)
    resolved = resolve_options(variant_name, options)
    if len(set(players)) != len(players):
        raise SetupError("a player is seated twice")
    if any(p == "host" for p in players):
        raise SetupError("'host' is reserved for the human host")
    deck = variant.deck(len(players), resolved)
    if roles is None:
        dealt = deal(variant_name, players, resolved, seed)
    else:
        dealt = {p: roles[p] for p in players if p in roles}
        if len(dealt) != len(players) or Counter(dealt.values()) != deck:
            want = ", ".join(f"{n} {r.value}" for r, n in sorted(deck.items()))
            raise SetupError(
                f"the roles must be the {variant.name} deck for {len(players)} players: {want}"
            )
    state = GameState(
        variant=variant.name,
        options=resolved,
        language=language,
        seed=seed,
        seats=tuple(players),
        roles=dealt,
    )
    ctx = Ctx(state, variant)
    ctx.emit(EventKind.GAME_STARTED, PUBLIC, players=state.seats)
    for player in state.seats:
        ctx.emit(EventKind.ROLE, private(player), player=player, role=dealt[player])
    ctx.emit(EventKind.ALL_ROLES, HOST_ONLY, roles=tuple((p, dealt[p]) for p in state.seats))
    if variant.starts_with_day:
        state.day = 1
        day.start_day(ctx)
    else:
        night.start_night(ctx)
    return state, ctx.events


# What each player's action does, once the checks every action shares have passed.
PLAYER_MOVES: Mapping[type[Action], Callable[[Ctx, Any], None]] = MappingProxyType(
    {
        NightChoice: night.choose,
        Plan: night.plan,
        MafiaChat: night.mafia_chat,
        Pass: day.pass_floor,
        Nominate: day.nominate,
        Vote: openvote.vote,
        Unvote: openvote.unvote,
        Hand: handvote.raise_hand,
        Lower: handvote.lower_hand,
        Leave: handvote.leave_table,
        Decide: handvote.decide,
    }
)


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """The game after `action`, and what happened. A refused action raises
    IllegalAction and leaves `state` as it was."""
    ctx = Ctx(state.copy())
    _dispatch(ctx, action)
    return ctx.state, ctx.events


def _dispatch(ctx: Ctx, action: Action) -> None:
    state = ctx.state
    if isinstance(action, HOST_ACTIONS):
        host.host_act(ctx, action)
        return
    if isinstance(action, Timeout):
        timeout(ctx, action)
        return
    if state.phase is Phase.ENDED and not isinstance(action, Say):
        raise IllegalAction("game_over", "the game is over")
    if isinstance(action, Say):
        posts.say(ctx, action)
        return
    if action.actor not in state.roles:
        raise IllegalAction("not_a_player", f"{action.actor} is not in this game")
    if state.stage is Stage.CONFIRM:
        raise IllegalAction("game_over", "the game waits for the host to confirm the end")
    move = PLAYER_MOVES.get(type(action))
    if move is None:
        raise IllegalAction("unknown", f"unknown action {action.verb}")
    move(ctx, action)


def timeout(ctx: Ctx, action: Timeout) -> None:
    state = ctx.state
    if state.timer_seconds is None:
        raise IllegalAction("no_timer", "no timer is running")
    if action.timer is not None and action.timer != state.timer_id:
        raise IllegalAction("stale_timer", "that timer belongs to a stage the game has left")
    if state.paused:
        raise IllegalAction("paused", "the timer is paused")
    stage = state.stage
    if stage is Stage.NIGHT:
        night.dawn(ctx)
    elif stage in FLOOR_STAGES:
        day.end_floor(ctx)
    elif stage is Stage.VOTE:
        handvote.end_count(ctx)
    elif stage is Stage.DECIDE:
        handvote.decide_timeout(ctx)
    elif stage in (Stage.DISCUSSION, Stage.BALLOT):
        openvote.timeout(ctx)
    else:  # pragma: no cover - every timed stage is listed above
        raise IllegalAction("no_timer", f"stage {stage} has no timer")
