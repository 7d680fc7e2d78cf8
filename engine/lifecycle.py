"""Deaths, eliminations, win checks and the end of the game."""

from __future__ import annotations

from engine.context import Ctx
from engine.events import (
    HOST_ONLY,
    PUBLIC,
    ConfirmRequested,
    Drawn,
    Eliminated,
    GameEnded,
    PlayerResult,
)
from engine.events import private as private_to
from engine.roles import Role, Side
from engine.state import Cause, GameState, Phase, Stage
from engine.variants import LivingCount, departure_time
from engine.vocab import EndReason


def reveals_on_death(ctx: Ctx) -> bool:
    return bool(ctx.state.options.get("reveal_roles", False))


def mark_dead(ctx: Ctx, player: str, cause: Cause) -> Role | None:
    """The player is out; returns the role shown in the group, if any."""
    state = ctx.state
    # `dead` and `revealed` are shared with earlier states: replaced, never changed.
    state.table.dead = {**state.table.dead, player: cause}
    state.outcome.last_departure = departure_time(
        state.phase is Phase.NIGHT, state.night.number, state.day.number
    )
    if cause is not Cause.KILLED:
        state.day.eliminated = (*state.day.eliminated, player)
    state.vote.hands = state.vote.hands - {player}
    state.vote.ballots.pop(player, None)
    # Votes for a player who is out no longer count (classic, party).
    state.vote.ballots = {v: t for v, t in state.vote.ballots.items() if t != player}
    # No role is shown for a player out by warnings or fouls, or gone from the group;
    # one out for idleness shows it as an eliminated player does.
    if reveals_on_death(ctx) and cause not in (Cause.WARNINGS, Cause.FOULS, Cause.DEPARTED):
        state.table.revealed = {**state.table.revealed, player: state.table.roles[player]}
        return state.table.roles[player]
    return None


def eliminate(ctx: Ctx, player: str, cause: Cause) -> None:
    role = mark_dead(ctx, player, cause)
    ctx.emit(Eliminated(audience=PUBLIC, player=player, cause=cause, role=role))
    if cause is Cause.VOTE and ctx.variant.has_farewells:
        ctx.state.day.farewells = (*ctx.state.day.farewells, player)


def living_count(ctx: Ctx) -> LivingCount:
    state = ctx.state
    mafia = town = maniac = blocked_mafia = 0
    for player in state.table.alive:
        role = state.table.roles[player]
        if role.is_mafia:
            mafia += 1
            if player in state.night.blocked:
                blocked_mafia += 1
        elif role is Role.MANIAC:
            maniac += 1
        else:
            town += 1
    return LivingCount(mafia, town, maniac, blocked_mafia)


def voting_over(state: GameState) -> None:
    """The day's voting is over (a result, no vote, or a win): nobody stands
    any longer, so the farewells after it and a host's confirmation show no
    candidates (SCENARIOS.md, `candidates`)."""
    state.day.nominees = ()
    state.vote.candidates = ()
    state.vote.hands = frozenset()


def check_win(ctx: Ctx, at_dawn: bool) -> bool:
    """Ends the game (or asks the human host to confirm) when a side has won,
    or, at a dawn, when the game is drawn."""
    state = ctx.state
    if state.is_over:
        return True
    side = ctx.variant.winner(living_count(ctx), at_dawn)
    if (
        side is None
        and at_dawn
        and ctx.variant.is_draw(state.night.number, state.outcome.last_departure)
    ):
        side = Side.DRAW
        ctx.emit(Drawn(audience=PUBLIC, nights=ctx.variant.calm_nights_to_draw))
    if side is None:
        return False
    voting_over(state)
    if ctx.state.human_host:
        ctx.state.outcome.pending_winner = side
        # The host's silence confirms too (after confirm_seconds).
        ctx.enter(Stage.CONFIRM, ctx.later_option("confirm_seconds") or None)
        ctx.emit(ConfirmRequested(audience=HOST_ONLY, winner=side))
    else:
        end_game(ctx, side)
    return True


def _close(ctx: Ctx, side: Side | None) -> tuple[tuple[str, Role], ...]:
    """The game is over: every role is shown; returns them in seat order."""
    state = ctx.state
    state.outcome.winner = side
    state.outcome.pending_winner = None
    state.phase = Phase.ENDED
    ctx.enter(Stage.ENDED, None)
    state.day.speaker = None
    voting_over(state)
    state.day.farewells = ()  # sport: a won or drawn game ends at once, with no farewell
    state.table.revealed = dict(state.table.roles)
    return tuple((p, state.table.roles[p]) for p in state.table.seats)


def abandon(ctx: Ctx) -> None:
    """Nobody played for a whole day and a whole night: the game ends with
    no winner, and no player has a result."""
    ctx.state.outcome.abandoned = True
    end_unscored(ctx, EndReason.ABANDONED)


def end_unscored(ctx: Ctx, reason: EndReason) -> None:
    """The game ends with no winner and no result for anyone, `reason` said
    (GameEnded.reason); every role is shown, as at any end."""
    roles = _close(ctx, None)
    ctx.emit(GameEnded(audience=PUBLIC, winner=None, roles=roles, winners=(), reason=reason))


def end_game(ctx: Ctx, side: Side) -> None:
    state = ctx.state
    roles = _close(ctx, side)
    winners = tuple(p for p in state.table.seats if state.table.roles[p].side is side)
    ctx.emit(GameEnded(audience=PUBLIC, winner=side, roles=roles, winners=winners))
    for player in state.table.seats:
        role = state.table.roles[player]
        ctx.emit(
            PlayerResult(
                audience=private_to(player),
                player=player,
                role=role,
                winner=side,
                won=role.side is side,
            )
        )
