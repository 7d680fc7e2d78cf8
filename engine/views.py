"""What each viewer may see (boardgame.io's playerView): a public view for
the group, holding no secret, and a view for each player."""

from __future__ import annotations

from dataclasses import dataclass

from engine import day, night
from engine.context import Ctx
from engine.posts import FREE_STAGES
from engine.roles import Role, Side
from engine.state import GameState, Phase, Stage
from engine.variants import DayMode, find_variant


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
    floor_mode: str  # normal, silent, short, respeech
    next_speaker: str | None  # after this speech or introduction
    nominees: tuple[str, ...]
    candidates: tuple[str, ...]
    vote_round: str
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
    move: str
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
    learned: tuple[tuple[str, str], ...]  # every answer this player was given
    night_options: tuple[NightOption, ...]
    plan: tuple[str, ...]
    ballot: str | None


def public_view(state: GameState) -> PublicView:
    variant = find_variant(state.variant)
    ctx = Ctx(state, variant)
    live = variant.day_mode is DayMode.LIVE_VOTE
    tally: dict[str, int] = {}
    if live:
        for target in state.ballots.values():
            tally[target] = tally.get(target, 0) + 1
    return PublicView(
        variant=state.variant,
        phase=state.phase,
        day=state.day,
        night=state.night,
        stage=state.stage,
        step=state.step,
        timer_id=state.timer_id,
        timer_seconds=state.timer_seconds,
        paused=state.paused or state.suspended,
        suspended=state.suspended,
        seats=state.seats,
        alive=state.alive,
        dead=tuple(state.dead),
        revealed=tuple(state.revealed.items()),
        warnings=tuple(state.warnings.items()),
        blocked=state.blocked,
        announced=state.announced,
        eliminated=state.eliminated,
        missed=state.missed,
        speaker=state.speaker,
        floor_mode=state.floor_mode.value,
        next_speaker=day.next_speaker(ctx),
        nominees=state.nominees,
        candidates=state.candidates,
        vote_round=state.vote_round.value,
        count_index=state.count_index,
        hands=tuple(p for p in state.seats if p in state.hands),
        votes=tuple(state.votes.items()),
        live_tally=tuple((p, tally[p]) for p in state.seats if p in tally),
        ballots_cast=0 if live else len(state.ballots),
        decider=state.decider,
        posting_free=state.stage in FREE_STAGES,
        farewells=state.farewells,
        silenced=state.silenced,
        vote_cancelled=state.vote_cancelled,
        best_mover=state.best_mover,
        best_move=state.best_move,
        last_lift=state.last_lift,
        human_host=state.human_host,
        winner=state.winner,
        pending_winner=state.pending_winner,
    )


def player_view(state: GameState, player: str) -> PlayerView:
    ctx = Ctx(state)
    role = state.roles[player]
    met = state.night >= 1 or state.phase is Phase.ENDED
    family = (
        tuple((p, state.roles[p]) for p in state.mafia_members()) if role.is_mafia and met else ()
    )
    options = tuple(
        NightOption(
            move=move.value,
            targets=night.valid_targets(ctx, player, move),
            chosen=state.choices.get(f"{player}:{move.value}"),
            has_chosen=f"{player}:{move.value}" in state.choices,
        )
        for move in night.actor_moves(ctx, player)
    )
    return PlayerView(
        public=public_view(state),
        player=player,
        role=role,
        alive=state.is_alive(player),
        family=family,
        learned=tuple(state.learned_all.get(player, {}).items()),
        night_options=options,
        plan=state.plan if role.is_mafia else (),
        ballot=state.ballots.get(player),
    )
