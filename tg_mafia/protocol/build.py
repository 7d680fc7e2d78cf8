"""The protocol from the stored game: its setup and action log replayed in
the engine, read from the states and the engine's typed events only (the
players' posts are not kept after the end, and are not needed)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from types import MappingProxyType
from typing import Any

from engine import GameState, Phase, action_from_dict, apply, new_game
from engine import events as ev
from engine.events import Event
from engine.state import Cause
from tg_mafia.fate import Fate
from tg_mafia.protocol.model import (
    Check,
    Count,
    Elimination,
    Moment,
    NightMove,
    Protocol,
    Round,
    SeatRecord,
    TimerNote,
    Vote,
    Warning,
)
from tg_mafia.protocol.model import Phase as RoundPhase
from tg_mafia.storage import ActionRecord, GameRecord

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
    state, events = new_game(record.variant, players, options, record.seed, record.language)
    stored = (record.state or {}).get("options")
    if isinstance(stored, dict):
        # A game set up before an option existed played without it (Ctx.later_option):
        # its replay must too.
        for name in [n for n in state.options if n not in stored]:
            del state.options[name]
    notes = _Notes()
    notes.take(None, state, state, events)
    for entry in actions:
        after, events = apply(state, action_from_dict(dict(entry.action)))
        notes.take(entry.created_at, state, after, events)
        state = after
    if state.phase is not Phase.ENDED:
        raise GameNotOverError(f"game {record.id} has not ended")
    if notes.rounds and notes.rounds[-1].phase is RoundPhase.DAY and _empty(notes.rounds[-1]):
        notes.rounds.pop()  # the game ended at dawn: the day it opened never began
    names = {str(p.user_id): p.name for p in record.players}
    seats = tuple(
        SeatRecord(
            player=player,
            seat=index,
            name=names.get(player, player),
            role=state.roles[player],
            won=state.winner is not None and state.roles[player].side is state.winner,
            fate=notes.fates.get(player, (Fate.SURVIVED, None))[0],
            when=notes.fates.get(player, (Fate.SURVIVED, None))[1],
            warnings=state.warnings.get(player, 0),
        )
        for index, player in enumerate(state.seats, 1)
    )
    return Protocol(
        game_id=record.id,
        title=record.title,
        variant=record.variant,
        language=record.language,
        options=dict(state.options),
        host=record.host_name if record.host_user_id else None,
        opened_at=record.created_at,
        ended_at=record.ended_at,
        seats=seats,
        rounds=tuple(notes.rounds),
        winner=state.winner,
        ended=notes.rounds[-1].moment if notes.rounds else None,
    )


def _empty(day: Round) -> bool:
    return not (day.nominations or day.votes or day.warnings or day.eliminations or day.timer)


class _Notes:
    """What the protocol keeps, noted event by event."""

    def __init__(self) -> None:
        self.rounds: list[Round] = []
        self.fates: dict[str, tuple[Fate, Moment]] = {}
        self.live: dict[str, str] = {}  # classic's open vote: voter -> target

    def take(
        self, at: datetime | None, before: GameState, after: GameState, events: list[Event]
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

    def day_started(self, event: ev.DayStarted) -> None:
        night = self.round(RoundPhase.NIGHT)
        before = self.before
        for key, target in before.choices.items():
            player, move = key.split(":", 1)
            night.moves.append(NightMove(player, before.roles[player], move, target))
        night.moves.sort(key=lambda m: (before.seat_of(m.player), m.move))
        night.killed, night.missed = event.victims, event.missed
        for victim in event.victims:
            night.eliminations.append(Elimination(victim, Cause.KILLED.value))
            self.fates[victim] = (Fate.KILLED, night.moment)
        self.open(RoundPhase.DAY, event.day)

    def check_result(self, event: ev.CheckResult) -> None:
        self.last_night().checks.append(Check(event.player, event.target, event.answer))

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
            day.votes.append(Vote("live"))

    def live_vote_changed(self, event: ev.LiveVoteChanged) -> None:
        if event.target is None:
            self.live.pop(event.voter, None)
        else:
            self.live[event.voter] = event.target
        vote = self.vote()
        if vote is not None and vote.kind == "live":
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
        self.round(RoundPhase.DAY).votes.append(Vote("ballot"))

    def no_vote(self, event: ev.NoVote) -> None:
        vote = self.vote()
        if event.reason == "no_decision" and vote is not None and vote.kind == "decide":
            vote.outcome = event.reason
            return
        candidates = event.candidates or ((event.target,) if event.target else ())
        self.round(RoundPhase.DAY).votes.append(Vote("none", candidates, outcome=event.reason))

    def decider_named(self, event: ev.DeciderNamed) -> None:
        self.round(RoundPhase.DAY).votes.append(
            Vote("decide", event.candidates, decider=event.decider)
        )

    def vote_result(self, event: ev.VoteResult) -> None:
        vote = self.vote()
        if vote is None:
            vote = Vote("none")
            self.round(RoundPhase.DAY).votes.append(vote)
        vote.outcome = event.outcome
        if vote.kind not in ("live", "decide"):
            vote.tally = event.tally
            vote.silent = event.silent
            if vote.kind == "ballot":
                vote.candidates = tuple(c for c, _ in event.tally)

    # ----- both -----------------------------------------------------------------------

    def eliminated(self, event: ev.Eliminated) -> None:
        here = self.current()
        here.eliminations.append(Elimination(event.player, event.cause))
        self.fates[event.player] = (FATES[Cause(event.cause)], here.moment)
        if event.cause not in (Cause.VOTE.value, Cause.LEFT.value):
            return
        votes = here.votes
        if not votes:
            return
        vote = votes[-1]
        if vote.kind == "live" and vote.outcome is None:
            vote.outcome = "eliminated"
        vote.eliminated.append(event.player)

    def warned(self, event: ev.Warned) -> None:
        self.current().warnings.append(Warning(event.player, event.count, event.reason))

    def timer_changed(self, event: ev.TimerChanged) -> None:
        self.current().timer.append(TimerNote(event.change, event.seconds))


Handler = Callable[[_Notes, Any], None]
HANDLERS: Mapping[type[Event], Handler] = MappingProxyType(
    {
        ev.NightStarted: _Notes.night_started,
        ev.PlanSet: _Notes.plan_set,
        ev.DayStarted: _Notes.day_started,
        ev.CheckResult: _Notes.check_result,
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
        ev.TimerChanged: _Notes.timer_changed,
    }
)
