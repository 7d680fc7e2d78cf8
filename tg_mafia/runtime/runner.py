"""One move of a game, from input to what it says: under the game's lock,
in one database transaction (in a worker thread), the game is read for
update, the engine applies the action, the events are rendered into calls,
and the action, the new state, its deadline and those calls are written
together. Nothing is sent here: the sender takes the calls from the outbox,
so a crash can lose nothing the game decided.

The move is the one place that holds a game's whole state: what it
renders, and what a press or a post is judged on (`Decide`), are the
engine's views of it (engine/seen.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from engine import Action, GameState, IllegalAction, Phase, Views, apply, new_game
from engine.actions import HostExtend, HostPause, MafiaChat, Say, Suspend, Timeout, Unsuspend
from engine.errors import Reason
from engine.replay import stand_in
from tg_mafia.render import presenter, screens
from tg_mafia.render.calls import (
    Clear,
    Op,
    Permissions,
    Restrict,
    Spare,
    Topic,
    Unpin,
    makes_a_message,
    timer_of,
)
from tg_mafia.render.calls_json import to_json
from tg_mafia.render.scene import Outgoing, Scene
from tg_mafia.render.texts import Answer, Popup
from tg_mafia.runtime import endgame
from tg_mafia.runtime.clock import BotClock
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.runtime.gameview import game_view, state_of, views_of
from tg_mafia.runtime.locks import KeyedLocks
from tg_mafia.storage import Database, GameRecord, GameStatus, PlayerOutcome, Tx

# A stage whose message has not reached the chat yet waits for it: its
# deadline is set when the message is sent (however long the chat's queue),
# and this much later than its timer at most if the message never goes out
# (the sender's patience with a failing network).
DELIVERY_GRACE = 900.0
# How late (seconds of the game) the countdown's "10 seconds left" may still go out.
SPARE_SLACK = 3.0


# A move decided from the game as it is read for the move (its views), under its lock and
# in the same transaction: the action, or the code of the popup that refuses the input.


class Quiet(StrEnum):
    """An input that made no move and that nobody is answered for."""

    ALBUM_JUDGED = "album_judged"  # a later part of an album already judged
    NO_COUNTDOWN = "no_countdown"  # a countdown with nothing to show
    SPECTATOR = "spectator"  # a post that is not the game's business


Decide = Callable[[GameRecord, Views], "Action | Popup | Quiet"]
# A game by its id, or as the running game of a chat (and forum topic): a post names
# its chat only, and is judged on the one read of the game its move makes.
GameRef = int | tuple[int, int]


@dataclass(frozen=True)
class Outcome:
    """What became of an input: `error` None means it was taken."""

    error: Popup | Quiet | None
    record: GameRecord | None = None
    calls: int = 0  # how many calls it wrote to the outbox


def results(record: GameRecord, state: GameState) -> tuple[str | None, list[PlayerOutcome]] | None:
    """The winning side (None: a draw, nobody won) and each player's result;
    None while the game runs, and for an unscored game (abandoned, or ended at
    a suspension's limit: it is not counted)."""
    if state.phase is not Phase.ENDED or state.unscored:
        return None
    names = {str(p.user_id): p.name for p in record.players}
    outcomes = [
        PlayerOutcome(
            int(p),
            names.get(p, p),
            state.table.roles[p].value,
            state.table.roles[p].side.value,
            state.table.roles[p].side is state.outcome.winner,
        )
        for p in state.table.seats
    ]
    return (state.outcome.winner.value if state.outcome.winner else None), outcomes


# An album's fate, stored with the game as a "living message" of chat 0 whose value
# is not a message id but the fate: kept, or deleted.
ALBUM_KEPT = 1
ALBUM_DELETED = 2


# The Telegram update being handled (set by the application for each update): the
# moves it makes carry its id, so that a second delivery of it changes nothing.
CURRENT_UPDATE: ContextVar[int | None] = ContextVar("current_update", default=None)

# The lobby's message (its living message's key); while the game runs it stays pinned
# with a link to the table's Mini App when TABLE_PINNED is stored with the game (as a
# living message of chat 0), and is unpinned at the end.
LOBBY_KEY = "lobby"
TABLE_PINNED = "table_pinned"

# The stage whose countdown was written, stored the same way (its timer id as the value).
COUNTDOWN_KEY = "countdown"


def _time_left(paused_left: float | None, seconds: int) -> float:
    """The seconds a paused stage had left (stored at the pause), else its whole time."""
    return paused_left if paused_left is not None else seconds


def _unpin_table(tx: Tx, record: GameRecord) -> list[Outgoing]:
    """The lobby kept pinned with the table's link, unpinned as the game ends."""
    if not tx.living_id(record.id, 0, TABLE_PINNED):
        return []
    tx.drop_living(record.id, 0, TABLE_PINNED)
    return [Outgoing(record.chat_id, Unpin(LOBBY_KEY), topic=record.topic)]


def _locked(tx: Tx, game: GameRef) -> GameRecord | None:
    """The game read for update: by its id, or as its chat's (topic's) active game."""
    if isinstance(game, int):
        return tx.game(game, for_update=True)
    return tx.active_game(*game, for_update=True)


def album_key(album: str) -> str:
    return f"album:{album}"[:64]


class Runner:
    def __init__(
        self,
        db: AsyncDb,
        clock: BotClock,
        after_write: Callable[[GameRecord, int], None],
        app_url: str | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.app_url = app_url  # the table's Mini App: a button on the private prompts
        self.after_write = after_write  # (the game as written, calls written)
        self.locks = KeyedLocks()

    # ----- moves -----------------------------------------------------------------------

    async def act(
        self,
        game: GameRef,
        action: Action | Decide,
        *,
        post_message_id: int | None = None,
        album: str | None = None,
        update_id: int | None = None,
    ) -> Outcome:
        """Applies the move in one transaction with its messages. A post that
        belongs to an album (`album`: its media group) is judged once for the
        whole album, whichever process takes each part: the album's fate is
        stored with the game, and the later parts follow it. A move made by a
        Telegram update (`update_id`) that made one already is not applied again:
        Telegram delivers an update again when its first delivery got no answer.
        `action` may be a `Decide`: a button's press is then checked and made in one
        database call, on one read of the game; so is a post, its game named by
        its chat (a chat has one running game: its lock is the chat's)."""
        key = ("game", game) if isinstance(game, int) else ("chat", *game)
        async with self.locks.hold(key):
            outcome = await self.db.run(
                self._act, game, action, post_message_id, album, update_id, self.clock.now()
            )
        if outcome.error is None and outcome.record is not None:
            self.after_write(outcome.record, outcome.calls)
        return outcome

    def _act(
        self,
        db: Database,
        game: GameRef,
        decide: Action | Decide,
        post_message_id: int | None,
        album: str | None,
        update_id: int | None,
        now: float,
    ) -> Outcome:
        with db.transaction() as tx:
            record = _locked(tx, game)
            if record is None or record.status is not GameStatus.RUNNING:
                return Outcome(Answer.NO_GAME, record)
            before = state_of(record)
            # After the game's row lock: a twin delivery waits here for the first to commit.
            if update_id is not None and tx.made_by_update(update_id):
                return Outcome(Answer.DUPLICATE, record)
            if album is not None and (fate := tx.living_id(record.id, 0, album_key(album))):
                return self._follow_album(tx, record, fate, post_message_id, now)
            seen = Views(before)
            action = decide if isinstance(decide, Action) else decide(record, seen)
            if not isinstance(action, Action):
                return Outcome(action, record)
            try:
                after, events = apply(before, action)
            except IllegalAction as error:
                return Outcome(error.code, record)
            shown = Views(after)
            outgoing = presenter.render(
                game_view(record, self.clock.stage(shown).speed, self.app_url),
                shown,
                events,
                seen,
                post_message_id,
            )
            if after.clock.suspended:
                outgoing = in_general(record, outgoing)
            return self._written(tx, record, before, after, action, outgoing, album, update_id, now)

    def _written(
        self,
        tx: Tx,
        record: GameRecord,
        before: GameState,
        after: GameState,
        action: Action,
        outgoing: Sequence[Outgoing],
        album: str | None,
        update_id: int | None,
        now: float,
    ) -> Outcome:
        """`action`'s move written: the log, the state, its timer and its calls."""
        deadline, paused_left = self._deadline(record, before, after, action, now, outgoing)
        written = tx.record_action(
            record.id,
            record.version,
            action.to_dict(),
            after.to_dict(),
            stage_deadline=deadline,
            timer_token=str(after.clock.timer_id),
            paused_left=paused_left,
            final=results(record, after),
            update_id=update_id,
        )
        if after.unscored:  # ended as not played: no result, as an administrator's /cancel
            written = tx.abort_game(written.id, expected_version=written.version)
        if after.phase is Phase.ENDED:
            outgoing = [*outgoing, *_unpin_table(tx, record)]
        calls = enqueue(tx, written, outgoing, due(record, action, now))
        if album is not None:
            deleted = after.table.deleted > before.table.deleted
            tx.set_living(record.id, 0, album_key(album), ALBUM_DELETED if deleted else ALBUM_KEPT)
        if after.phase is Phase.ENDED:
            forget_texts(tx, written)
        return Outcome(None, written, calls)

    def _follow_album(
        self, tx: Tx, record: GameRecord, fate: int, message_id: int | None, now: float
    ) -> Outcome:
        """A later part of an album already judged: deleted with it, never warned again."""
        calls = 0
        if fate == ALBUM_DELETED and message_id is not None:
            delete = presenter.deletion(
                game_view(record, self.clock.speed, self.app_url), message_id
            )
            calls = enqueue(tx, record, delete, now)
        return Outcome(Quiet.ALBUM_JUDGED, record, calls)

    def _deadline(
        self,
        record: GameRecord,
        before: GameState,
        after: GameState,
        action: Action,
        now: float,
        outgoing: Sequence[Outgoing],
    ) -> tuple[float | None, float | None]:
        """The stage's deadline after `action`, and the seconds left on a paused timer."""
        clock, old = _pace(self.clock, after), record.stage_deadline
        if isinstance(action, (Suspend, Unsuspend)) or after.clock.suspended:
            return self._suspension_deadline(record, before, after, action, now)
        if isinstance(action, HostPause):
            # The pause's own limit is the deadline meanwhile (stored: it survives a restart).
            left = (
                _pace(self.clock, before).left(old)
                if old is not None
                else after.clock.timer_seconds
            )
            return pause_deadline(self.clock, after, now), left
        if after.clock.timer_seconds is None or after.clock.paused:
            return (old if before.clock.paused else None), record.paused_left
        if isinstance(action, HostExtend) and old is not None:
            extra = after.clock.timer_seconds - (before.clock.timer_seconds or 0)
            return old + clock.real(extra), None
        if before.clock.paused and after.clock.timer_id == before.clock.timer_id:
            # Resumed, by the host or at the pause's limit: the time left runs again.
            left = _time_left(record.paused_left, after.clock.timer_seconds)
            return now + clock.real(left), None
        if after.clock.timer_id != before.clock.timer_id or old is None:
            return stage_deadline(self.clock, after, now, outgoing), None
        return old, None

    def _suspension_deadline(
        self, record: GameRecord, before: GameState, after: GameState, action: Action, now: float
    ) -> tuple[float | None, float | None]:
        """`_deadline` for a game suspended (a closed topic), resumed, or ended suspended."""
        clock, old = _pace(self.clock, after), record.stage_deadline
        if isinstance(action, Suspend):
            # The time left is kept (a host's pause kept it already); the suspension's
            # limit is the deadline meanwhile. Both are stored: a restart keeps them.
            if before.clock.paused:
                left = record.paused_left
            elif old is not None and before.clock.timer_seconds is not None:
                # At most the stage's time: a deadline still waiting for its message's
                # delivery (DELIVERY_GRACE) has not started counting.
                left = min(_pace(self.clock, before).left(old), float(before.clock.timer_seconds))
            else:
                left = None
            return now + clock.real(action.limit), left
        if isinstance(action, Unsuspend):
            if after.clock.paused:  # the host's pause goes on, and its limit runs again
                return pause_deadline(self.clock, after, now), record.paused_left
            left = (
                record.paused_left if record.paused_left is not None else after.clock.timer_seconds
            )
            return (now + clock.real(left) if left is not None else None), None
        return None, None  # the suspension's limit ran out: the game is over

    # ----- the countdown --------------------------------------------------------------

    async def countdown(self, game_id: int, timer_id: int, seconds: int) -> Outcome:
        """The running stage's message redrawn with `seconds` left, when the
        stage that timer was armed for still runs and its deadline is that
        near (not moved later by its message's delivery, not paused). The
        edit is SPARE: the sender drops it rather than send it late."""
        async with self.locks.hold(("game", game_id)):
            outcome = await self.db.run(
                self._countdown, game_id, timer_id, seconds, self.clock.now()
            )
        if outcome.calls and outcome.record is not None:
            self.after_write(outcome.record, outcome.calls)
        return outcome

    def _countdown(
        self, db: Database, game_id: int, timer_id: int, seconds: int, now: float
    ) -> Outcome:
        with db.transaction() as tx:
            record = tx.game(game_id, for_update=True)
            if record is None or record.status is not GameStatus.RUNNING:
                return Outcome(Answer.NO_GAME, record)
            deadline = record.stage_deadline
            if record.timer_token != str(timer_id) or deadline is None:
                return Outcome(Reason.STALE_TIMER, record)
            views = views_of(record)
            clock = self.clock.stage(views)
            left = deadline - now
            # Also too early: a stage on a faster clock than the slowest (the keeper's lead).
            if not 0 < left <= clock.real(seconds) + clock.real(1.0):
                return Outcome(Reason.STALE_TIMER, record)  # moved: a new countdown is armed
            if tx.living_id(game_id, 0, COUNTDOWN_KEY) == int(timer_id):
                return Outcome(Reason.STALE_TIMER, record)  # a duplicate firing: once a stage
            scene = Scene(game_view(record, clock.speed, self.app_url), views, before=views)
            op = screens.countdown(scene, seconds)
            if op is None or views.public.paused:  # by the host, or suspended
                return Outcome(Quiet.NO_COUNTDOWN, record)
            tx.set_living(game_id, 0, COUNTDOWN_KEY, int(timer_id))
            # Late once fewer than `seconds` - SPARE_SLACK are left.
            late = deadline - clock.real(seconds - SPARE_SLACK)
            scene.group(replace(op, spare=Spare(str(timer_id), late)))
            return Outcome(None, record, enqueue(tx, record, scene.out, now))

    # ----- the start --------------------------------------------------------------------

    async def start(
        self,
        record: GameRecord,
        saved_permissions: dict[str, Any] | None,
        also: Callable[[Tx, GameRecord, float], None] | None = None,
    ) -> Outcome:
        """The lobby becomes a game: the deal, the first stage, its calls
        (and `also`'s, in the same transaction: the lobby's closing)."""
        async with self.locks.hold(("game", record.id)):
            outcome = await self.db.run(
                self._start, record, saved_permissions, also, self.clock.now()
            )
        if outcome.error is None and outcome.record is not None:
            self.after_write(outcome.record, outcome.calls)
        return outcome

    def _start(
        self,
        db: Database,
        lobby: GameRecord,
        saved_permissions: dict[str, Any] | None,
        also: Callable[[Tx, GameRecord, float], None] | None,
        now: float,
    ) -> Outcome:
        options = dict(lobby.options)
        options["host"] = "human" if lobby.host_user_id else "auto"
        players = tuple(str(p.user_id) for p in lobby.players)
        state, events = new_game(lobby.variant, players, options, lobby.seed, lobby.language)
        with db.transaction() as tx:
            record = tx.game(lobby.id, for_update=True)
            if record is None or record.status is not GameStatus.LOBBY:
                return Outcome(Answer.STALE, record)
            if saved_permissions is not None:
                record = tx.update_game(
                    record.id, record.version, saved_permissions=saved_permissions
                )
            shown = Views(state)
            outgoing = presenter.render(
                game_view(record, self.clock.stage(shown).speed, self.app_url), shown, events
            )
            written = tx.start_game(
                record.id,
                record.version,
                state.to_dict(),
                stage_deadline=stage_deadline(self.clock, state, now, outgoing),
                timer_token=str(state.clock.timer_id),
            )
            if also is not None:
                also(tx, written, now)
            calls = enqueue(tx, written, outgoing, now)
            return Outcome(None, written, calls)

    async def cancel(self, game_id: int) -> Outcome:
        """An administrator's /cancel: the game ends unscored; the chat opens again."""
        async with self.locks.hold(("game", game_id)):
            outcome = await self.db.run(self._cancel, game_id, self.clock.now())
        if outcome.record is not None:
            self.after_write(outcome.record, outcome.calls)
        return outcome

    def _cancel(self, db: Database, game_id: int, now: float) -> Outcome:
        with db.transaction() as tx:
            record = tx.game(game_id, for_update=True)
            if record is None or record.status is not GameStatus.RUNNING:
                return Outcome(Answer.NO_GAME, record)
            aborted = tx.abort_game(record.id, expected_version=record.version)
            outgoing = [
                Outgoing(record.chat_id, Clear(key), topic=record.topic)
                for key in (screens.FLOOR, screens.COUNT, screens.BOARD)
            ]
            outgoing.append(
                Outgoing(
                    record.chat_id,
                    Permissions({}, final=True),
                    topic=record.topic,
                )
            )
            outgoing += _unpin_table(tx, record)
            return Outcome(None, aborted, enqueue(tx, aborted, outgoing, now))


def pause_deadline(clock: BotClock, state: GameState, now: float) -> float | None:
    """When a pause ends by itself (none for a game set up before pause_limit)."""
    limit = state.options.get("pause_limit")
    return now + _pace(clock, state).real(limit) if isinstance(limit, int) else None


def stage_deadline(
    clock: BotClock, state: GameState, now: float, outgoing: Sequence[Outgoing]
) -> float | None:
    """A new stage's deadline; when one of its messages carries its timer,
    the deadline waits for that message (DELIVERY_GRACE at most), which sets
    it when it reaches the chat."""
    if state.clock.timer_seconds is None or state.clock.paused or state.clock.suspended:
        return None
    clock = _pace(clock, state)
    deadline = now + clock.real(state.clock.timer_seconds)
    token = str(state.clock.timer_id)
    if any((timer := timer_of(o.op)) is not None and timer.token == token for o in outgoing):
        deadline += clock.real(DELIVERY_GRACE)
    return deadline


def _pace(clock: BotClock, state: GameState) -> BotClock:
    """The clock the timer of `state`'s stage runs on (BotClock.stage)."""
    return clock.stage(Views(state))


def due(record: GameRecord, action: Action, now: float) -> float:
    """When a move's calls fell due: a stage timer's at its deadline, however late it
    fired (after a restart, an overdue stage's calls belong with the backlog the crash
    left: outbox/order.py); any other move's now."""
    if isinstance(action, Timeout) and record.stage_deadline is not None:
        return min(now, record.stage_deadline)
    return now


def in_general(record: GameRecord, outgoing: Sequence[Outgoing]) -> list[Outgoing]:
    """A suspended game's topic is closed to the bot: what it says in the group goes to
    the forum's General topic instead (edits of its messages in the topic still work)."""
    return [
        replace(item, topic=0)
        if record.topic and item.topic == record.topic and makes_a_message(item.op)
        else item
        for item in outgoing
    ]


def enqueue(tx: Tx, record: GameRecord, outgoing: Sequence[Outgoing], now: float) -> int:
    """Writes the calls to the outbox, with the masked night made concrete
    and the end's picture drawn from the stored game."""
    count = 0
    for item in outgoing:
        ops = masked(record, item.op) if isinstance(item.op, Permissions) else [item.op]
        for op in ops:
            filled = endgame.filled(tx, record, op)
            if filled is None:
                continue
            data = to_json(filled, item.topic)
            tx.enqueue(item.chat_id, data, now=now, game_id=record.id, priority=item.priority)
            count += 1
    return count


def masked(record: GameRecord, op: Permissions) -> list[Op]:
    """The masked night in this game's chat. In a forum, the game's own topic
    is closed and reopened (the bot must manage topics), and the players may
    post in no other topic until morning (the bot must restrict members: the
    group's other members keep their topics); elsewhere the group's permissions
    are set to none, then restored to those saved at the start (the bot must
    restrict members). Without a right: no call for it (the bot only warns)."""
    rights = record.bot_rights
    closing = op.permissions is None
    if rights.get("forum"):
        ops: list[Op] = []
        if rights.get("can_manage_topics"):
            ops.append(Topic(not closing))
        if rights.get("can_restrict_members"):
            players = tuple(p.user_id for p in record.players)
            ops.append(Restrict(not closing, players))
        return ops
    if record.saved_permissions is None or not rights.get("can_restrict_members"):
        return []
    if not closing:
        op = replace(op, permissions=dict(record.saved_permissions))
    return [op]


def forget_texts(tx: Tx, record: GameRecord) -> None:
    """The game is over: what players wrote is not kept (the thanks rule
    needed it only while the game ran)."""
    keep = {
        entry.seq: stand_in(entry.action, record.language)
        for entry in tx.actions(record.id)
        if entry.action.get("verb") in (Say.verb, MafiaChat.verb)
    }
    if keep:
        tx.forget_texts(record.id, keep)
