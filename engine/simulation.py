"""Random play: a seeded policy that picks a legal action, and whole games
played with it (for the simulator, the property tests and the benchmarks).

The policy builds only the action it picks, instead of listing every legal
action, so that a full game costs a few milliseconds."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from engine import farewell, handvote, night, openvote
from engine.actions import (
    HOST,
    Action,
    Best,
    Decide,
    Hand,
    HostConfirm,
    Leave,
    Lower,
    NightChoice,
    Nominate,
    Pass,
    Say,
    Timeout,
    Unvote,
    Vote,
)
from engine.context import Ctx
from engine.errors import IllegalAction
from engine.game import apply
from engine.replay import GameSetup
from engine.roles import Side
from engine.state import FLOOR_STAGES, GameState, Stage
from engine.variants import NightMove

CHATTER_LINES = ("I am a simple citizen.", "Thank you.", "спасибо", "merci", "hmm")


def random_action(state: GameState, rng: random.Random, chatter: float = 0.0) -> Action:
    """A legal action (or, with probability `chatter`, a post in the group,
    which the rules may delete and warn)."""
    if state.stage is Stage.CONFIRM:
        return HostConfirm(HOST)
    if chatter and rng.random() < chatter:
        return Say(rng.choice(state.table.seats), rng.choice(CHATTER_LINES))
    action = _stage_action(Ctx(state), rng)
    return _timeout(state) if action is None else action


def _stage_action(ctx: Ctx, rng: random.Random) -> Action | None:
    """A move of the stage, or None to let its timer run out."""
    state = ctx.state
    stage = state.stage
    if stage is Stage.NIGHT:
        return _night(ctx, rng)
    if stage in FLOOR_STAGES and state.day.speaker is not None:
        return _floor(ctx, rng, state.day.speaker)
    if stage is Stage.VOTE:
        return _hands(ctx, rng)
    if stage is Stage.LIFT:
        return _lift_hands(ctx, rng)
    if stage is Stage.DECIDE and state.vote.decider is not None:
        if rng.random() < 0.8:
            return Decide(state.vote.decider, rng.choice(state.vote.candidates))
        return None
    if openvote.voting_open(ctx):
        return _open_vote(ctx, rng)
    return None


def _floor(ctx: Ctx, rng: random.Random, speaker: str) -> Action | None:
    """The speaker's move: now and then the timer, the best move when it is theirs,
    a nomination while they may make one, else they pass the floor."""
    state = ctx.state
    roll = rng.random()
    if roll < 0.05:
        return None
    if farewell.may_make_best_move(ctx, speaker) and roll < 0.7:
        return _best_move(ctx, rng, speaker)
    nominations_open = not state.day.nominated_this_floor and not state.vote.cancelled
    if state.stage is Stage.SPEECH and nominations_open and roll < 0.45:
        nominees = state.day.nominees
        targets = [t for t in state.table.alive if t != speaker and t not in nominees]
        if targets:
            return Nominate(speaker, rng.choice(targets))
    return Pass(speaker)


def lively_action(state: GameState, rng: random.Random, chatter: float = 0.0) -> Action:
    """`random_action`, except that a table which has let a whole day or
    night pass in silence acts in the next phase when anyone can: tests and
    benchmarks that play games to their end are not meant to see them
    abandoned (engine/abandon.py), which pure chance does now and then."""
    action = random_action(state, rng, chatter)
    for _ in range(LIVELY_TRIES):
        if not (state.activity.quiet and isinstance(action, Timeout)):
            break
        action = random_action(state, rng)
    return action


LIVELY_TRIES = 50  # a phase where nobody can act still times out


def _timeout(state: GameState) -> Timeout:
    return Timeout("clock", state.clock.timer_id)


def _night(ctx: Ctx, rng: random.Random) -> Action | None:
    state = ctx.state
    pending = _pending_night_moves(ctx)
    if not pending or rng.random() < 0.03:
        return None
    player, move = rng.choice(pending)
    targets = night.valid_targets(ctx, player, move)
    if not targets or rng.random() < 0.1:
        return NightChoice(player, move, None)
    # The mafia tend to agree, as a real family does after talking.
    if move is NightMove.KILL and state.table.roles[player].is_mafia and rng.random() < 0.7:
        agreed_targets = _family_targets(state, targets)
        if agreed_targets:
            return NightChoice(player, move, agreed_targets[0])
    return NightChoice(player, move, rng.choice(targets))


def _pending_night_moves(ctx: Ctx) -> list[tuple[str, NightMove]]:
    """The night moves still to be made, by living player."""
    state = ctx.state
    # It is night and these players live: their moves are night.actor_moves.
    moves = ctx.variant.night_moves
    roles, tonight = state.table.roles, state.night
    return [
        (player, move)
        for player in state.table.alive
        for move in moves(roles[player], tonight.number)
        if night.choice_key(player, move) not in tonight.choices
    ]


def _family_targets(state: GameState, targets: tuple[str, ...]) -> list[str]:
    """The living mafiosi's picks so far, among `targets`."""
    agreed = [
        state.night.choices.get(night.choice_key(m, NightMove.KILL))
        for m in state.table.alive
        if state.table.roles[m].is_mafia
    ]
    return [t for t in agreed if t in targets]


def _hands(ctx: Ctx, rng: random.Random) -> Action | None:
    state = ctx.state
    two_way_first_count = len(state.vote.candidates) == 2 and state.vote.count_index == 0
    if ctx.variant.has_leave_table and two_way_first_count and rng.random() < 0.01:
        return Leave(rng.choice(state.vote.candidates))
    if state.vote.hands and rng.random() < 0.05:
        return Lower(rng.choice(sorted(state.vote.hands)))
    hands = state.vote.hands
    eligible = [p for p in state.table.alive if handvote.may_vote(ctx, p) and p not in hands]
    if not eligible or rng.random() < 0.35:
        return None
    return Hand(rng.choice(eligible))


def _lift_hands(ctx: Ctx, rng: random.Random) -> Action | None:
    """sport's lift vote: about half of the lifts pass under random play."""
    state = ctx.state
    if state.vote.hands and rng.random() < 0.05:
        return Lower(rng.choice(sorted(state.vote.hands)))
    eligible = [p for p in state.table.alive if p not in state.vote.hands]
    if not eligible or rng.random() < 0.15:
        return None
    return Hand(rng.choice(eligible))


def _best_move(ctx: Ctx, rng: random.Random, player: str) -> Best:
    """One to three living players, in seat order (as the shell sends them)."""
    living = ctx.state.table.alive
    picked = set(rng.sample(living, rng.randint(1, min(farewell.BEST_MOVE_MOST, len(living)))))
    return Best(player, tuple(p for p in living if p in picked))


def _open_vote(ctx: Ctx, rng: random.Random) -> Action | None:
    state = ctx.state
    living = state.table.alive
    if rng.random() < 1.5 / len(living):
        return None
    voter = rng.choice(living)
    if voter in state.vote.ballots and rng.random() < 0.1:
        return Unvote(voter)
    ballot = state.vote.ballots.get(voter)
    targets = [t for t in living if t != voter and t != ballot]
    if not targets:
        return None
    # A table leans towards whoever is already accused, as people do.
    leaders = Counter(state.vote.ballots.values()).most_common(1)
    if leaders and leaders[0][0] in targets and rng.random() < 0.5:
        return Vote(voter, leaders[0][0])
    return Vote(voter, rng.choice(targets))


@dataclass(frozen=True, slots=True)
class GameRecord:
    setup: GameSetup
    state: GameState
    actions: tuple[Action, ...]
    events: int

    @property
    def winner(self) -> Side | None:
        return self.state.outcome.winner

    @property
    def days(self) -> int:
        return self.state.day.number


def play_random_game(
    setup: GameSetup, rng: random.Random, chatter: float = 0.0, max_actions: int = 20_000
) -> GameRecord:
    """Plays until the end; refuses to loop forever (`max_actions`)."""
    state = setup.start()
    actions: list[Action] = []
    events = 0
    while state.stage is not Stage.ENDED:
        if len(actions) >= max_actions:
            raise RuntimeError(f"game did not end after {max_actions} actions: {setup}")
        action = random_action(state, rng, chatter)
        try:
            state, new_events = apply(state, action)
        except IllegalAction as error:
            raise AssertionError(
                f"the random policy chose a refused action {action}: {error}"
            ) from error
        actions.append(action)
        events += len(new_events)
    return GameRecord(setup, state, tuple(actions), events)
