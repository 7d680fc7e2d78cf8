"""The game's public events as the page lists them: who was killed at night,
who spoke, warnings, nominations, each count and the vote's result, who left
the table, the end. Built from the engine's own events replayed from the
stored action log, and from those whose audience is the whole group only
(what the group chat is told), in the group's words (the chat's texts).

A game's chronicle is kept while its pages are open and extended by the
actions written since; each entry is numbered by its place among the game's
public events, the same on every replica and after every reconnection, so a
page never shows one twice nor skips one."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from engine import FloorMode, IllegalAction, PublicView, Stage, action_from_dict
from engine import events as ev
from engine.events import Event
from tg_mafia.i18n import Translator, translator
from tg_mafia.miniapp import words
from tg_mafia.miniapp.snapshot import plain
from tg_mafia.render import texts
from tg_mafia.render.protocol.build import start_game
from tg_mafia.render.texts import sport as sport_texts
from tg_mafia.render.texts.table import Table
from tg_mafia.runtime.gameview import mask_of, table_of
from tg_mafia.storage import ActionRecord, GameRecord

log = logging.getLogger(__name__)

KEEP: Final = 50  # entries a page lists: the oldest drop off (the protocol keeps them all)


@dataclass(frozen=True, slots=True)
class Entry:
    n: int  # its place among the game's public events, from 1
    text: str  # plain text, in the game's language


@dataclass(frozen=True, slots=True)
class Said:
    """What a line is written with: the game's words and table, and the public
    views before and after the action that caused the event."""

    t: Translator
    table: Table
    record: GameRecord
    before: PublicView | None
    after: PublicView


Line = Callable[[Said, Any], str | None]


class Chronicle:
    """One game's public events so far, and the game its replay has reached."""

    def __init__(self, record: GameRecord) -> None:
        stored = (record.state or {}).get("options")
        self.game, events = start_game(
            record.variant,
            tuple(str(p.user_id) for p in record.players),
            {**record.options, "host": "human" if record.host_user_id else "auto"},
            record.seed,
            record.language,
            set(stored) if isinstance(stored, dict) else None,
        )
        self.seq = 0  # the last action applied
        self.count = 0  # public events listed so far
        self.entries: deque[Entry] = deque(maxlen=KEEP)
        self.broken = False  # the stored log does not replay: nothing more is listed
        t, table = translator(record.language), table_of(record)
        self._note(Said(t, table, record, None, self.game.views.public), events)

    def follows(self, actions: Sequence[ActionRecord]) -> bool:
        """Whether `actions` (a tail of the log, in order) leaves no gap after
        what was applied."""
        return not actions or actions[0].seq <= self.seq + 1

    def extend(self, record: GameRecord, actions: Sequence[ActionRecord]) -> None:
        """The actions after the last one applied (those before are skipped)."""
        t, table = translator(record.language), table_of(record)
        for stored in actions:
            if self.broken or stored.seq <= self.seq:
                continue
            try:
                after, events = self.game.apply(action_from_dict(dict(stored.action)))
            except (IllegalAction, ValueError, KeyError, TypeError) as error:
                log.warning("mini app: game %s's log does not replay: %s", record.id, error)
                self.broken = True
                return
            self._note(Said(t, table, record, self.game.views.public, after.views.public), events)
            self.game, self.seq = after, stored.seq

    def shown(self) -> tuple[Entry, ...]:
        return tuple(self.entries)

    def _note(self, said: Said, events: Sequence[Event]) -> None:
        for event in events:
            if not event.audience.is_public:
                continue  # a role, a night move, a private prompt: never listed
            line = LINES.get(type(event))
            text = line(said, event) if line is not None else None
            if text:
                self.count += 1
                self.entries.append(Entry(self.count, plain(text)))


# ----- the lines: the group chat's own texts ------------------------------------------------


def _started(said: Said, event: ev.GameStarted) -> str:
    return said.t.gettext("🎭 The game begins. Your roles are in your private chats.")


def _night(said: Said, event: ev.NightStarted) -> str:
    return texts.night_started(said.t, said.after.variant, event.night, mask_of(said.record))


def _day(said: Said, event: ev.DayStarted) -> str:
    night = said.before.night if said.before is not None else said.after.night
    quiet = texts.quiet_night(said.after.variant, night)
    shown = dict(event.shown)
    return texts.day_started(
        said.t, said.table, event.day, event.victims, shown, event.missed, quiet=quiet
    )


def _blocked(said: Said, event: ev.PlayerBlocked) -> str:
    return texts.blocked(said.t, said.table, event.player)


def _floor(said: Said, event: ev.FloorGiven) -> str:
    head = texts.floor_head(said.t, event.stage, event.mode, event.day)
    return f"{head} — {said.table.label(event.player)}"


def _farewell(said: Said, event: ev.FarewellGiven) -> str:
    head = texts.floor_head(said.t, Stage.FAREWELL, FloorMode.NORMAL, event.day)
    return f"{head} — {said.table.label(event.player)}"


def _warned(said: Said, event: ev.Warned) -> str:
    return texts.warned(said.t, said.table, event.player, event.count, event.limit, event.reason)


def _fouled(said: Said, event: ev.Fouled) -> str:
    return sport_texts.fouled(
        said.t, said.table, event.player, event.count, event.limit, event.reason, event.effect
    )


def _vote_cancelled(said: Said, event: ev.VoteCancelled) -> str:
    return sport_texts.vote_cancelled(said.t, event.when)


def _nominated(said: Said, event: ev.Nominated) -> str:
    return texts.nominated(said.t, said.table, event.player, event.target)


def _no_vote(said: Said, event: ev.NoVote) -> str:
    return texts.no_vote(said.t, said.table, event.reason, event.target)


def _vote_started(said: Said, event: ev.VoteStarted) -> str:
    return texts.vote_started(said.t, said.table, event.candidates, event.round)


def _count_ended(said: Said, event: ev.CountEnded) -> str:
    return texts.count_result(said.t, said.table, event.candidate, event.voters)


def _vote_result(said: Said, event: ev.VoteResult) -> str:
    return texts.vote_result(
        said.t, said.table, event.outcome, event.tally, event.target, event.leaders, event.silent
    )


def _decider(said: Said, event: ev.DeciderNamed) -> str:
    return texts.decide_public(said.t, said.table, event.decider, event.seconds)


def _eliminated(said: Said, event: ev.Eliminated) -> str:
    return texts.eliminated(said.t, said.table, event.player, event.cause, event.role)


def _discussion(said: Said, event: ev.DiscussionStarted) -> str:
    return words.discussion_name(said.t, event.day)


def _ballot(said: Said, event: ev.BallotStarted) -> str:
    return words.vote_name(said.t, event.day)


def _best_move(said: Said, event: ev.BestMoveMade) -> str:
    return sport_texts.best_move_made(said.t, said.table, event.player, event.targets)


def _lift(said: Said, event: ev.LiftEnded) -> str:
    return sport_texts.lift_result(
        said.t, said.table, event.candidates, event.voters, event.living, event.leave
    )


def _timer(said: Said, event: ev.TimerChanged) -> str:
    return texts.timer_note(said.t, event.change, event.seconds)


def _drawn(said: Said, event: ev.Drawn) -> str:
    return sport_texts.drawn(said.t, event.nights)


def _suspended(said: Said, event: ev.Suspended) -> str:
    return texts.topic_closed_pause(said.t, said.record.title, event.limit)


def _unsuspended(said: Said, event: ev.Unsuspended) -> str:
    return texts.topic_reopened(said.t)


def _ended(said: Said, event: ev.GameEnded) -> str:
    dead = set(said.after.dead)
    return texts.end_screen(said.t, said.table, event.winner, event.roles, dead)


LINES: Mapping[type[Event], Line] = MappingProxyType(
    {
        ev.GameStarted: _started,
        ev.NightStarted: _night,
        ev.DayStarted: _day,
        ev.PlayerBlocked: _blocked,
        ev.FloorGiven: _floor,
        ev.FarewellGiven: _farewell,
        ev.Warned: _warned,
        ev.Fouled: _fouled,
        ev.VoteCancelled: _vote_cancelled,
        ev.Nominated: _nominated,
        ev.NoVote: _no_vote,
        ev.VoteStarted: _vote_started,
        ev.CountEnded: _count_ended,
        ev.VoteResult: _vote_result,
        ev.DeciderNamed: _decider,
        ev.Eliminated: _eliminated,
        ev.DiscussionStarted: _discussion,
        ev.BallotStarted: _ballot,
        ev.BestMoveMade: _best_move,
        ev.LiftEnded: _lift,
        ev.TimerChanged: _timer,
        ev.Drawn: _drawn,
        ev.Suspended: _suspended,
        ev.Unsuspended: _unsuspended,
        ev.GameEnded: _ended,
    }
)

# Public events the list leaves out: the seats, the timer and the live vote on the
# page show them as they stand (a hand, a count under way, a ballot counted), or the
# chat itself shows nothing of them (a post deleted).
UNLISTED: Final = frozenset(
    {
        ev.PostDeleted,
        ev.CountStarted,
        ev.HandChanged,
        ev.LiveVoteChanged,
        ev.BallotCounted,
        ev.LiftStarted,
        ev.LiftHandChanged,
    }
)
