"""Setting up a game and applying actions to it: `new_game` and `apply`."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from engine import abandon, host, idle, posts, suspension
from engine.actions import HOST, Action, Depart, Say, Timeout
from engine.context import Ctx, Entry
from engine.errors import IllegalAction, Reason, SetupError
from engine.events import HOST_ONLY, PUBLIC, AllRoles, Event, GameStarted, RoleDealt, private
from engine.flow import ENTRIES, STAGES
from engine.moves import Move
from engine.options import resolve_options
from engine.roles import Role
from engine.state import GameState, Table
from engine.variants import find_variant

HOST_MOVES: Mapping[type[Action], Move] = {move.action: move for move in host.MOVES}
SUSPENSION_MOVES: Mapping[type[Action], Move] = {move.action: move for move in suspension.MOVES}


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
    if any(p == HOST for p in players):
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
        table=Table(seats=tuple(players), roles=dealt),
    )
    ctx = Ctx(state, variant, ENTRIES)
    ctx.emit(GameStarted(audience=PUBLIC, players=state.table.seats))
    for player in state.table.seats:
        ctx.emit(RoleDealt(audience=private(player), player=player, role=dealt[player]))
    ctx.emit(AllRoles(audience=HOST_ONLY, roles=tuple((p, dealt[p]) for p in state.table.seats)))
    if variant.starts_with_day:
        state.day.number = 1
        ctx.go(Entry.DAY)
    else:
        ctx.go(Entry.NIGHT)
    return state, ctx.events


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """The game after `action`, and what happened. A refused action raises
    IllegalAction and leaves `state` as it was."""
    ctx = Ctx(state.copy(), flow=ENTRIES)
    _dispatch(ctx, action)
    return ctx.state, ctx.events


def _dispatch(ctx: Ctx, action: Action) -> None:
    state = ctx.state
    if isinstance(action, Timeout):
        timeout(ctx, action)
        return
    outside = SUSPENSION_MOVES.get(type(action))
    if outside is not None:
        outside.play(ctx, action)
        return
    suspension.refuse_while_suspended(ctx, action)
    if action.actor in state.table.roles and not isinstance(action, Depart):
        # A player plays (a refused action leaves no trace: this copy is dropped).
        idle.note_action(ctx, action.actor)
        abandon.note_action(ctx)
    if isinstance(action, Say):
        posts.say(ctx, action)
        return
    if isinstance(action, Depart):
        posts.depart(ctx, action)
        return
    host_move = HOST_MOVES.get(type(action))
    if host_move is not None:
        host_move.play(ctx, action)
        return
    if action.actor not in state.table.roles:
        raise IllegalAction(Reason.NOT_A_PLAYER, f"{action.actor} is not in this game")
    if state.is_over:
        raise IllegalAction(Reason.GAME_OVER, "the game is over")
    move = STAGES[state.stage].move_for(type(action))
    if move is None:
        raise IllegalAction(action.refused, f"no {action.verb} during the {state.stage} stage")
    move.play(ctx, action)


def timeout(ctx: Ctx, action: Timeout) -> None:
    state = ctx.state
    stale = action.timer is not None and action.timer != state.clock.timer_id
    if state.clock.suspended and not state.is_over and not stale:
        # The stage's timer stands still: this is the suspension's own limit.
        suspension.limit_reached(ctx)
        return
    if state.clock.timer_seconds is None:
        raise IllegalAction(Reason.NO_TIMER, "no timer is running")
    if stale:
        raise IllegalAction(Reason.STALE_TIMER, "that timer belongs to a stage the game has left")
    if state.clock.paused:
        # A paused timer does not run out: this is the pause's own limit.
        host.pause_timeout(ctx)
        return
    on_timeout = STAGES[state.stage].on_timeout
    if on_timeout is None:  # pragma: no cover - a stage with a timer has a timeout
        raise IllegalAction(Reason.NO_TIMER, f"stage {state.stage} has no timer")
    on_timeout(ctx)
