"""The protocol from the stored game: its setup and action log replayed in
the engine, read from the public views along the way, the end's view (every
role, once the game is over) and the engine's typed events only (the
players' posts are not kept after the end, and are not needed)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime
from types import MappingProxyType
from typing import Any

from engine import Cause, EndView, Game, Phase, PublicView, Role, action_from_dict
from engine import events as ev
from engine.events import Event
from engine.options import OptionValue
from engine.replay import stand_in
from engine.vocab import CancelledVote, EndReason, FoulEffect, NoVoteReason, VoteOutcome
from tg_mafia.records import ActionRecord, GameRecord
from tg_mafia.render.fate import Fate
from tg_mafia.render.protocol.model import (
    BestMove,
    Count,
    Elimination,
    LiftOutcome,
    LogEntry,
    Moment,
    NightMove,
    Position,
    Protocol,
    Round,
    SeatRecord,
    TimerNote,
    Vote,
    VoteKind,
    Warning,
)
from tg_mafia.render.protocol.model import Phase as RoundPhase

FATES = {
    Cause.KILLED: Fate.KILLED,
    Cause.VOTE: Fate.ELIMINATED,
    Cause.LEFT: Fate.LEFT,
    Cause.WARNINGS: Fate.WARNINGS,
    Cause.FOULS: Fate.FOULS,
    Cause.DEPARTED: Fate.DEPARTED,
    Cause.IDLE: Fate.IDLE,
}


class GameNotOverError(ValueError):
    """The game has not ended: its protocol would tell its secrets."""


def build_protocol(record: GameRecord, actions: Sequence[ActionRecord]) -> Protocol:
    """The protocol of an ended game. Raises GameNotOverError for a game
    still running (or waiting for its host to confirm the end)."""
    options = dict(record.options)
    options["host"] = "human" if record.host_user_id else "auto"
    players = tuple(str(p.user_id) for p in record.players)
    stored = (record.state or {}).get("options")
    # A game set up before an option existed played without it (Ctx.later_option):
    # its replay must too.
    game, events = start_game(
        record.variant,
        players,
        options,
        record.seed,
        record.language,
        set(stored) if isinstance(stored, dict) else None,
    )
    notes = _Notes()
    notes.take(None, game.views.public, game.views.public, events)
    log: list[LogEntry] = []
    for entry in actions:
        action = dict(entry.action)
        before = game.views.public
        game, events = game.apply(action_from_dict(action))
        after = game.views.public
        notes.take(entry.created_at, before, after, events)
        log.append(LogEntry(forget_text(action, record.language), position(before, after)))
    end, view = game.views.end, game.views.public
    if end is None or view.phase is not Phase.ENDED:
        raise GameNotOverError(f"game {record.id} has not ended")
    notes.finish(dict(end.roles))  # public now: the night's moves get their actors' roles
    if notes.rounds and notes.rounds[-1].phase is RoundPhase.DAY and _empty(notes.rounds[-1]):
        notes.rounds.pop()  # the game ended at dawn: the day it opened never began
    return Protocol(
        game_id=record.id,
        title=record.title,
        variant=record.variant,
        language=record.language,
        options=dict(view.options),
        host=record.host_name if record.host_user_id else None,
        opened_at=record.created_at,
        ended_at=record.ended_at,
        seats=_seats(record, view, end, notes),
        rounds=tuple(notes.rounds),
        winner=end.winner,
        ended=notes.rounds[-1].moment if notes.rounds else None,
        seed=record.seed,
        log=tuple(log),
        reason=notes.reason,
    )


def _seats(
    record: GameRecord, view: PublicView, end: EndView, notes: _Notes
) -> tuple[SeatRecord, ...]:
    """Each seat as the game ended: its role, whether it won, how it left the table."""
    names = {str(p.user_id): p.name for p in record.players}
    roles, warnings = dict(end.roles), dict(view.warnings)
    return tuple(
        SeatRecord(
            player=player,
            seat=index,
            name=names.get(player, player),
            role=roles[player],
            won=end.winner is not None and roles[player].side is end.winner,
            fate=notes.fates.get(player, (Fate.SURVIVED, None))[0],
            when=notes.fates.get(player, (Fate.SURVIVED, None))[1],
            warnings=warnings.get(player, 0),
        )
        for index, player in enumerate(view.seats, 1)
    )


def start_game(
    variant: str,
    players: tuple[str, ...],
    options: Mapping[str, OptionValue],
    seed: int,
    language: str,
    played: Collection[str] | None = None,
) -> tuple[Game, list[Event]]:
    """The game as it was dealt; `played`: the options it was played with,
    when it was set up before some option existed (the others are left out,
    so that the engine reads them as off, as it did then)."""
    return Game.deal(variant, players, options, seed, language, played=played)


def position(before: PublicView, after: PublicView) -> Position:
    """Where an action left the game: the replay compares it, action by action."""
    return Position(
        day=after.day,
        night=after.night,
        stage=after.stage.value,
        speaker=after.speaker,
        out=tuple(p for p in after.dead if p not in before.dead),
    )


def forget_text(action: dict[str, Any], language: str) -> dict[str, Any]:
    """The action with no player's words: a post or a family message keeps
    only what the rules read in it (runner.stand_in), as the stored log does
    once the game is over."""
    if "text" not in action:
        return action
    return {**action, "text": stand_in(action, language)}


def _empty(day: Round) -> bool:
    return not (
        day.nominations
        or day.votes
        or day.farewells
        or day.warnings
        or day.eliminations
        or day.timer
    )


class _Notes:
    """What the protocol keeps, noted event by event."""

    def __init__(self) -> None:
        self.rounds: list[Round] = []
        self.fates: dict[str, tuple[Fate, Moment]] = {}
        self.live: dict[str, str] = {}  # classic's open vote: voter -> target
        self.reason = EndReason.DECIDED  # how the game ended
        # Each night's moves as dawn recorded them, until the end tells their actors' roles.
        self.moves: list[tuple[Round, tuple[ev.MoveOutcome, ...]]] = []

    def take(
        self, at: datetime | None, before: PublicView, after: PublicView, events: list[Event]
    ) -> None:
        self.at, self.before, self.after = at, before, after
        for event in events:
            handler = HANDLERS.get(type(event))
            if handler is not None:
                handler(self, event)

    # ----- where a note goes ------------------------------------------------------------

    def round(self, phase: RoundPhase) -> Round:
        """The round under way, or a new one of `phase` (a day begun without a
        dawn: the first day of a variant that starts by day)."""
        if self.rounds and self.rounds[-1].phase is phase:
            return self.rounds[-1]
        number = self.after.night if phase is RoundPhase.NIGHT else self.after.day
        return self.open(phase, number)

    def open(self, phase: RoundPhase, number: int) -> Round:
        self.rounds.append(Round(phase, number, self.at))
        return self.rounds[-1]

    def current(self) -> Round:
        return self.rounds[-1] if self.rounds else self.round(RoundPhase.DAY)

    def last_night(self) -> Round:
        return next(r for r in reversed(self.rounds) if r.phase is RoundPhase.NIGHT)

    def vote(self) -> Vote | None:
        """The day's latest vote still without its outcome."""
        votes = self.current().votes
        return votes[-1] if votes and votes[-1].outcome is None else None

    # ----- the night ------------------------------------------------------------------

    def night_started(self, event: ev.NightStarted) -> None:
        self.open(RoundPhase.NIGHT, event.night)

    def plan_set(self, event: ev.PlanSet) -> None:
        self.round(RoundPhase.NIGHT).plan = event.targets

    def night_resolved(self, event: ev.NightResolved) -> None:
        self.moves.append((self.round(RoundPhase.NIGHT), event.moves))

    def finish(self, roles: Mapping[str, Role]) -> None:
        """The game is over, every role public: the nights' moves are written."""
        for night, moves in self.moves:
            night.moves = [
                NightMove(m.player, roles[m.player], m.move, m.target, m.result) for m in moves
            ]

    def day_started(self, event: ev.DayStarted) -> None:
        night = self.round(RoundPhase.NIGHT)
        night.killed, night.missed = event.victims, event.missed
        for victim in event.victims:
            night.eliminations.append(Elimination(victim, Cause.KILLED))
            self.fates[victim] = (Fate.KILLED, night.moment)
        self.open(RoundPhase.DAY, event.day)

    def player_blocked(self, event: ev.PlayerBlocked) -> None:
        self.last_night().blocked = event.player

    # ----- the day --------------------------------------------------------------------

    def floor_given(self, event: ev.FloorGiven) -> None:
        self.round(RoundPhase.DAY)

    def nominated(self, event: ev.Nominated) -> None:
        self.round(RoundPhase.DAY).nominations.append((event.player, event.target))

    def vote_started(self, event: ev.VoteStarted) -> None:
        self.round(RoundPhase.DAY).votes.append(Vote(event.round, event.candidates))

    def count_ended(self, event: ev.CountEnded) -> None:
        vote = self.vote()
        if vote is not None:
            vote.counts.append(Count(event.candidate, event.voters))

    def discussion_started(self, event: ev.DiscussionStarted) -> None:
        day = self.round(RoundPhase.DAY)
        if event.live_vote:
            self.live = {}
            day.votes.append(Vote(VoteKind.LIVE))

    def live_vote_changed(self, event: ev.LiveVoteChanged) -> None:
        if event.target is None:
            self.live.pop(event.voter, None)
        else:
            self.live[event.voter] = event.target
        vote = self.vote()
        if vote is not None and vote.kind is VoteKind.LIVE:
            self._live_counts(vote)

    def _live_counts(self, vote: Vote) -> None:
        """Classic's board is public: who voted for whom, as it stood last."""
        seats = self.after.seats
        targets = sorted(set(self.live.values()), key=seats.index)
        vote.counts = [Count(t, tuple(v for v in seats if self.live.get(v) == t)) for t in targets]
        vote.tally = tuple((c.candidate, len(c.voters)) for c in vote.counts)
        vote.candidates = tuple(targets)

    def ballot_started(self, event: ev.BallotStarted) -> None:
        # Party's ballot is secret: the protocol keeps its tally, not who voted how.
        self.round(RoundPhase.DAY).votes.append(Vote(VoteKind.BALLOT))

    def no_vote(self, event: ev.NoVote) -> None:
        vote = self.vote()
        if (
            event.reason is NoVoteReason.NO_DECISION
            and vote is not None
            and vote.kind is VoteKind.DECIDE
        ):
            vote.outcome = event.reason
            return
        candidates = event.candidates or ((event.target,) if event.target else ())
        self.round(RoundPhase.DAY).votes.append(
            Vote(VoteKind.NONE, candidates, outcome=event.reason)
        )

    def decider_named(self, event: ev.DeciderNamed) -> None:
        self.round(RoundPhase.DAY).votes.append(
            Vote(VoteKind.DECIDE, event.candidates, decider=event.decider)
        )

    def lift_started(self, event: ev.LiftStarted) -> None:
        self.round(RoundPhase.DAY).votes.append(Vote(VoteKind.LIFT, event.candidates))

    def lift_ended(self, event: ev.LiftEnded) -> None:
        vote = self.vote()
        if vote is not None and vote.kind is VoteKind.LIFT:
            vote.voters, vote.living = event.voters, event.living
            vote.outcome = LiftOutcome.LEAVE if event.leave else LiftOutcome.STAY

    def vote_cancelled(self, event: ev.VoteCancelled) -> None:
        """sport: a removal during a count, a re-speech or the lift ends that vote."""
        if event.when is not CancelledVote.NOW:
            return  # the vote still to come is not held: NoVote says so then
        vote = self.vote()
        if vote is None:
            self.round(RoundPhase.DAY).votes.append(
                Vote(VoteKind.NONE, outcome=NoVoteReason.CANCELLED)
            )
        else:
            vote.outcome = NoVoteReason.CANCELLED

    def farewell_given(self, event: ev.FarewellGiven) -> None:
        self.round(RoundPhase.DAY).farewells.append(event.player)

    def best_move_made(self, event: ev.BestMoveMade) -> None:
        self.round(RoundPhase.DAY).best_move = BestMove(event.player, event.targets)

    def best_move_lapsed(self, event: ev.BestMoveLapsed) -> None:
        self.round(RoundPhase.DAY).best_move = BestMove(event.player, ())

    def vote_result(self, event: ev.VoteResult) -> None:
        vote = self.vote()
        if vote is None:
            vote = Vote(VoteKind.NONE)
            self.round(RoundPhase.DAY).votes.append(vote)
        vote.outcome = event.outcome
        if vote.kind not in (VoteKind.LIVE, VoteKind.DECIDE):
            vote.tally = event.tally
            vote.silent = event.silent
            if vote.kind is VoteKind.BALLOT:
                vote.candidates = tuple(c for c, _ in event.tally)

    # ----- both -----------------------------------------------------------------------

    def eliminated(self, event: ev.Eliminated) -> None:
        here = self.current()
        here.eliminations.append(Elimination(event.player, event.cause))
        self.fates[event.player] = (FATES[event.cause], here.moment)
        if event.cause not in (Cause.VOTE, Cause.LEFT):
            return
        votes = here.votes
        if not votes:
            return
        vote = votes[-1]
        if vote.kind is VoteKind.LIVE and vote.outcome is None:
            vote.outcome = VoteOutcome.ELIMINATED
        vote.eliminated.append(event.player)

    def warned(self, event: ev.Warned) -> None:
        removed = bool(event.limit) and event.count >= event.limit
        self.current().warnings.append(
            Warning(
                event.player,
                event.count,
                event.reason,
                FoulEffect.REMOVED if removed else FoulEffect.NONE,
            )
        )

    def fouled(self, event: ev.Fouled) -> None:
        self.current().warnings.append(
            Warning(event.player, event.count, event.reason, event.effect)
        )

    def timer_changed(self, event: ev.TimerChanged) -> None:
        self.current().timer.append(TimerNote(event.change, event.seconds))

    def game_ended(self, event: ev.GameEnded) -> None:
        self.reason = event.reason


Handler = Callable[[_Notes, Any], None]
HANDLERS: Mapping[type[Event], Handler] = MappingProxyType(
    {
        ev.NightStarted: _Notes.night_started,
        ev.PlanSet: _Notes.plan_set,
        ev.NightResolved: _Notes.night_resolved,
        ev.DayStarted: _Notes.day_started,
        ev.PlayerBlocked: _Notes.player_blocked,
        ev.FloorGiven: _Notes.floor_given,
        ev.Nominated: _Notes.nominated,
        ev.VoteStarted: _Notes.vote_started,
        ev.CountEnded: _Notes.count_ended,
        ev.DiscussionStarted: _Notes.discussion_started,
        ev.LiveVoteChanged: _Notes.live_vote_changed,
        ev.BallotStarted: _Notes.ballot_started,
        ev.NoVote: _Notes.no_vote,
        ev.DeciderNamed: _Notes.decider_named,
        ev.VoteResult: _Notes.vote_result,
        ev.Eliminated: _Notes.eliminated,
        ev.Warned: _Notes.warned,
        ev.Fouled: _Notes.fouled,
        ev.LiftStarted: _Notes.lift_started,
        ev.LiftEnded: _Notes.lift_ended,
        ev.VoteCancelled: _Notes.vote_cancelled,
        ev.FarewellGiven: _Notes.farewell_given,
        ev.BestMoveMade: _Notes.best_move_made,
        ev.BestMoveLapsed: _Notes.best_move_lapsed,
        ev.TimerChanged: _Notes.timer_changed,
        ev.GameEnded: _Notes.game_ended,
    }
)
