"""What each audience may see (boardgame.io's playerView): a public view
for the group, holding no secret; a view for each player (a seat); the
mafia's shared one (the team); the human host's; and, once the game is
over, the end's, where nothing is secret any more. Each is a frozen
record built from the state: the shell renders these, never the state
(engine/seen.py hands them out)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from engine import day, night
from engine.context import Ctx
from engine.handvote import finished_counts
from engine.options import OptionValue
from engine.posts import FREE_STAGES
from engine.roles import Role, Side
from engine.state import Cause, FloorMode, GameState, Phase, Stage, VoteRound
from engine.variants import DayMode, NightMove, find_variant
from engine.vocab import CheckAnswer


@dataclass(frozen=True, slots=True)
class PublicView:
    variant: str
    language: str
    options: Mapping[str, OptionValue]  # the game's options, as it plays them
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
    deleted: int  # posts deleted for being out of turn, so far
    speaker: str | None  # a farewell's holder too, although dead
    floor_mode: FloorMode
    next_speaker: str | None  # after this speech or introduction
    nominees: tuple[str, ...]
    candidates: tuple[str, ...]
    vote_round: VoteRound
    count_index: int
    hands: tuple[str, ...]
    votes: tuple[tuple[str, int], ...]
    counted: tuple[tuple[str, tuple[str, ...]], ...]  # this round's counts so far, and who
    live_tally: tuple[tuple[str, int], ...]  # classic only: the live vote is open
    live_ballots: tuple[tuple[str, str], ...]  # classic only: who votes against whom
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
        language=state.language,
        options=MappingProxyType(state.options),
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
        deleted=state.table.deleted,
        speaker=state.day.speaker,
        floor_mode=state.day.floor_mode,
        next_speaker=day.next_speaker(ctx),
        nominees=state.day.nominees,
        candidates=state.vote.candidates,
        vote_round=state.vote.round,
        count_index=state.vote.count_index,
        hands=tuple(p for p in state.table.seats if p in state.vote.hands),
        votes=tuple(state.vote.votes.items()),
        counted=finished_counts(state),
        live_tally=tuple((p, tally[p]) for p in state.table.seats if p in tally),
        live_ballots=tuple(state.vote.ballots.items()) if live else (),
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


def player_view(state: GameState, player: str, public: PublicView | None = None) -> PlayerView:
    """`player`'s own view (`public`: the state's public view, when at hand)."""
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
        public=public or public_view(state),
        player=player,
        role=role,
        alive=state.table.is_alive(player),
        family=family,
        learned=tuple(state.night.learned_all.get(player, {}).items()),
        night_options=options,
        plan=state.night.plan if role.is_mafia else (),
        ballot=state.vote.ballots.get(player),
    )


# ----- the team, the host, the end ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class TeamView:
    """What the mafia share: who they are, who of them is still at the table
    (whom the family's messages and news reach), the Don's list, and their
    shots tonight as they stand (each sees the others' picks)."""

    members: tuple[tuple[str, Role], ...]  # in seat order
    living: tuple[str, ...]
    plan: tuple[str, ...]
    shots: tuple[tuple[str, str | None], ...]  # mafioso -> target chosen so far (None: none)


@dataclass(frozen=True, slots=True)
class HostView:
    """What a human host sees: every role, tonight's moves as they stand, the
    Don's list, what each checker learned at the last dawn, the party's
    secret ballots."""

    public: PublicView
    roles: tuple[tuple[str, Role], ...]  # in seat order
    moves: tuple[tuple[str, str, str | None], ...]  # (player, move, target) chosen tonight
    plan: tuple[str, ...]
    learned: tuple[tuple[str, tuple[tuple[str, CheckAnswer], ...]], ...]  # checker -> answers
    ballots: tuple[tuple[str, str], ...]  # voter -> target


@dataclass(frozen=True, slots=True)
class EndView:
    """A game over, where nothing is secret any more: every role, how each
    player left the table (in order), and who won (None: nobody)."""

    roles: tuple[tuple[str, Role], ...]  # in seat order
    causes: tuple[tuple[str, Cause], ...]
    winner: Side | None


def team_view(state: GameState) -> TeamView:
    table = state.table
    members = table.mafia_members()
    choices = state.night.choices
    return TeamView(
        members=tuple((p, table.roles[p]) for p in members),
        living=tuple(p for p in members if table.is_alive(p)),
        plan=state.night.plan,
        shots=tuple(
            (p, choices[key])
            for p in members
            if (key := night.choice_key(p, NightMove.KILL)) in choices
        ),
    )


def host_view(state: GameState, public: PublicView | None = None) -> HostView:
    roles = state.table.roles
    moves = []
    for key, target in state.night.choices.items():
        player, move = key.split(":", 1)
        moves.append((player, move, target))
    return HostView(
        public=public or public_view(state),
        roles=tuple((p, roles[p]) for p in state.table.seats),
        moves=tuple(moves),
        plan=state.night.plan,
        learned=tuple((c, tuple(a.items())) for c, a in state.night.learned.items()),
        ballots=tuple(state.vote.ballots.items()),
    )


def end_view(state: GameState) -> EndView | None:
    """The end's view; None while the game runs (or waits for its host's word)."""
    if state.phase is not Phase.ENDED:
        return None
    roles = state.table.roles
    return EndView(
        roles=tuple((p, roles[p]) for p in state.table.seats),
        causes=tuple(state.table.dead.items()),
        winner=state.outcome.winner,
    )
