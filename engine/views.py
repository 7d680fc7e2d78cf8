"""What each viewer may see (boardgame.io's playerView): a public view for
the group, holding no secret, and a view for each player."""

from __future__ import annotations

from dataclasses import dataclass

from engine import day, night
from engine.context import Ctx
from engine.posts import FREE_STAGES
from engine.roles import Role, Side
from engine.state import FloorMode, GameState, Phase, Stage, VoteRound
from engine.variants import DayMode, NightMove, find_variant
from engine.vocab import CheckAnswer


@dataclass(frozen=True, slots=True)
class PublicView:
    variant: str
    phase: Phase
    day: int
    night: int
    stage: Stage
    step: int  # changes whenever the game enters a stage, floor or count
    timer_id: int
    timer_seconds: int | None
    paused: bool  # the timer stands still: a host's pause, or a suspension
    suspended: bool  # nothing moves until the suspension is lifted (engine/suspension.py)
    seats: tuple[str, ...]
    alive: tuple[str, ...]
    dead: tuple[str, ...]
    revealed: tuple[tuple[str, Role], ...]
    warnings: tuple[tuple[str, int], ...]
    blocked: tuple[str, ...]
    announced: tuple[str, ...]
    eliminated: tuple[str, ...]
    missed: bool
    speaker: str | None  # a farewell's holder too, although dead
    floor_mode: FloorMode
    next_speaker: str | None  # after this speech or introduction
    nominees: tuple[str, ...]
    candidates: tuple[str, ...]
    vote_round: VoteRound
    count_index: int
    hands: tuple[str, ...]
    votes: tuple[tuple[str, int], ...]
    live_tally: tuple[tuple[str, int], ...]  # classic only: the live vote is open
    ballots_cast: int  # party: how many have voted, not for whom
    decider: str | None
    posting_free: bool  # anyone may post now (free talk, the ballot, the end)
    # sport
    farewells: tuple[str, ...]  # still to give, after the one being given
    silenced: tuple[str, ...]  # their next speech is silent (third foul)
    vote_cancelled: bool  # a removal by fouls: the next vote is not held
    best_mover: str | None  # the night-2 victim with a best move
    best_move: tuple[str, ...]  # the players it named
    last_lift: int | None  # hands up in the last finished lift vote
    human_host: bool
    winner: Side | None
    pending_winner: Side | None  # won, waiting for the human host's confirmation


@dataclass(frozen=True, slots=True)
class NightOption:
    move: NightMove
    targets: tuple[str, ...]
    chosen: str | None
    has_chosen: bool


@dataclass(frozen=True, slots=True)
class PlayerView:
    public: PublicView
    player: str
    role: Role
    alive: bool
    family: tuple[tuple[str, Role], ...]  # the mafia, once they have met
    learned: tuple[tuple[str, CheckAnswer], ...]  # every answer this player was given
    night_options: tuple[NightOption, ...]
    plan: tuple[str, ...]
    ballot: str | None


def public_view(state: GameState) -> PublicView:
    variant = find_variant(state.variant)
    ctx = Ctx(state, variant)
    live = variant.day_mode is DayMode.LIVE_VOTE
    tally: dict[str, int] = {}
    if live:
        for target in state.vote.ballots.values():
            tally[target] = tally.get(target, 0) + 1
    return PublicView(
        variant=state.variant,
        phase=state.phase,
        day=state.day.number,
        night=state.night.number,
        stage=state.stage,
        step=state.step,
        timer_id=state.clock.timer_id,
        timer_seconds=state.clock.timer_seconds,
        paused=state.clock.paused or state.clock.suspended,
        suspended=state.clock.suspended,
        seats=state.table.seats,
        alive=state.table.alive,
        dead=tuple(state.table.dead),
        revealed=tuple(state.table.revealed.items()),
        warnings=tuple(state.table.warnings.items()),
        blocked=state.night.blocked,
        announced=state.night.announced,
        eliminated=state.day.eliminated,
        missed=state.night.missed,
        speaker=state.day.speaker,
        floor_mode=state.day.floor_mode,
        next_speaker=day.next_speaker(ctx),
        nominees=state.day.nominees,
        candidates=state.vote.candidates,
        vote_round=state.vote.round,
        count_index=state.vote.count_index,
        hands=tuple(p for p in state.table.seats if p in state.vote.hands),
        votes=tuple(state.vote.votes.items()),
        live_tally=tuple((p, tally[p]) for p in state.table.seats if p in tally),
        ballots_cast=0 if live else len(state.vote.ballots),
        decider=state.vote.decider,
        posting_free=state.stage in FREE_STAGES,
        farewells=state.day.farewells,
        silenced=state.day.silenced,
        vote_cancelled=state.vote.cancelled,
        best_mover=state.day.best_mover,
        best_move=state.day.best_move,
        last_lift=state.vote.last_lift,
        human_host=state.human_host,
        winner=state.outcome.winner,
        pending_winner=state.outcome.pending_winner,
    )


def player_view(state: GameState, player: str) -> PlayerView:
    ctx = Ctx(state)
    role = state.table.roles[player]
    met = state.night.number >= 1 or state.phase is Phase.ENDED
    family = (
        tuple((p, state.table.roles[p]) for p in state.table.mafia_members())
        if role.is_mafia and met
        else ()
    )
    options = tuple(
        NightOption(
            move=move,
            targets=night.valid_targets(ctx, player, move),
            chosen=state.night.choices.get(f"{player}:{move.value}"),
            has_chosen=f"{player}:{move.value}" in state.night.choices,
        )
        for move in night.actor_moves(ctx, player)
    )
    return PlayerView(
        public=public_view(state),
        player=player,
        role=role,
        alive=state.table.is_alive(player),
        family=family,
        learned=tuple(state.night.learned_all.get(player, {}).items()),
        night_options=options,
        plan=state.night.plan if role.is_mafia else (),
        ballot=state.vote.ballots.get(player),
    )
