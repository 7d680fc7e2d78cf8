"""What real groups do to a game, and what the game does about it:

- a player leaves the group or is removed from it: they leave the lobby, or
  the game at once (out as by warnings: the engine's `Depart`);
- the bot is removed from the group: its games there end, unscored, and the
  calls that cannot reach the group any more are dropped;
- the bot's rights change: the masked night follows them (warn-only without
  the right to restrict members; the group's permissions read and the night
  masked again when it comes back);
- the group becomes a supergroup (a new chat id): the games, their calls,
  settings and results move to the new id, and the game goes on there;
- a game's forum topic is closed by an admin: the bot reopens it if it may,
  else the game is suspended (said once in General) until the topic is reopened,
  or the bot given the right to reopen it, or else it ends unscored at the
  suspension's limit; the topic deleted: the game ends, said in General;
- a player blocked the bot: the group is told, their calls wait.

Every change is written with the calls it causes, in one transaction."""

from __future__ import annotations

import logging
from collections.abc import Callable
from html import escape
from typing import Any

from sqlalchemy.exc import IntegrityError
from telegram import Bot
from telegram.error import TelegramError

from engine import Phase
from engine.actions import CHAT, Depart, Suspend, Unsuspend
from engine.errors import Reason
from tg_mafia.i18n import translator
from tg_mafia.render.calls import Op, Permissions, Priority, Send, Topic
from tg_mafia.render.calls_json import to_json
from tg_mafia.render.texts import Answer, Popup
from tg_mafia.runtime.clock import BotClock
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.runtime.gameview import table_of, views_of
from tg_mafia.runtime.lobby import Lobbies
from tg_mafia.runtime.moved import said_again
from tg_mafia.runtime.runner import CURRENT_UPDATE, Runner
from tg_mafia.storage import Database, GameRecord, GameStatus

log = logging.getLogger(__name__)

Written = Callable[[GameRecord, int], None]
RESTRICT = "can_restrict_members"
TOPICS = "can_manage_topics"
# What a suspension or its lifting may meet that only means it has nothing to do.
SUSPENSION_NOOPS: frozenset[Popup] = frozenset(
    {Reason.SUSPENDED, Reason.NOT_SUSPENDED, Reason.GAME_OVER, Answer.NO_GAME, Answer.DUPLICATE}
)


class Membership:
    def __init__(
        self,
        bot: Bot,
        db: AsyncDb,
        clock: BotClock,
        runner: Runner,
        lobbies: Lobbies,
        written: Written,
        closed_topic_seconds: int = 1800,
    ) -> None:
        self.bot = bot
        self.db = db
        self.clock = clock
        self.runner = runner
        self.lobbies = lobbies
        self.written = written
        # How long a game whose topic was closed waits for it (the suspension's limit).
        self.closed_topic_seconds = closed_topic_seconds

    # ----- players ---------------------------------------------------------------------

    async def member_left(self, chat_id: int, user_id: int) -> None:
        """A member left the group, or was banned from it."""
        games = await self.db.run(_games_in_chat, chat_id)
        for record in games:
            if record.seat_of(user_id) is None:
                continue
            if record.status is GameStatus.LOBBY:
                await self.lobbies.press(record.id, user_id, "leave", is_admin=False)
            else:
                outcome = await self.runner.act(
                    record.id, Depart(str(user_id)), update_id=CURRENT_UPDATE.get()
                )
                if outcome.error not in (None, Reason.DEAD, Reason.GAME_OVER):
                    log.warning("game %s: %s left, refused: %s", record.id, user_id, outcome.error)

    async def unreachable(self, user_id: int) -> None:
        """A player blocked the bot: the group of their game is told once."""
        record = await self.db.run(Database.game_of_user, user_id)
        if record is None or record.status is not GameStatus.RUNNING:
            return
        if str(user_id) not in views_of(record).public.alive:
            return
        t = translator(record.language)
        text = t.gettext(
            "📵 I cannot write to {player}: until they open their private chat with me and "
            "press Start, their night moves and their vote count as none."
        ).format(player=table_of(record).label(str(user_id)))
        await self.db.run(_tell_group, record, text, self.clock.now())
        self.written(record, 1)

    # ----- the bot itself --------------------------------------------------------------

    async def bot_removed(self, chat_id: int) -> None:
        """The bot left the group or was removed: its games there end,
        unscored; what cannot reach the group any more is dropped."""
        ended = await self.db.run(_end_games_of_removed_bot, chat_id, self.clock.now())
        for record in ended:
            self.written(record, len(record.players))

    async def rights_changed(self, chat_id: int, rights: dict[str, bool]) -> None:
        """The bot was promoted or demoted: each game here follows its rights."""
        for record in await self.db.run(_games_in_chat, chat_id):
            saved = None
            if rights.get(RESTRICT) and record.saved_permissions is None:
                saved = await self._permissions(chat_id)
            updated = await self.db.run(_follow_rights, record.id, rights, saved, self.clock.now())
            if updated is not None:
                self.written(updated, 1)
                if rights.get(TOPICS):
                    await self._reopen_for_suspended(updated)

    async def _permissions(self, chat_id: int) -> dict[str, Any] | None:
        try:
            chat = await self.bot.get_chat(chat_id)
        except TelegramError:
            return None
        return chat.permissions.to_dict() if chat.permissions else {}

    # ----- forum topics -------------------------------------------------------------------

    async def topic_closed(self, chat_id: int, topic: int) -> None:
        """An admin closed a game's topic (the bot's own closing at night is not told to
        it): reopened when the bot may manage topics. Else a running game is suspended
        (engine/suspension.py: General hears it once, its timers stand still) until the
        topic is reopened, and a lobby says so in General."""
        record = await self.db.run(Database.active_game, chat_id, topic)
        if record is None:
            return
        running = record.status is GameStatus.RUNNING
        if running and not record.bot_rights.get(TOPICS):
            # At night too: the morning could not reopen it.
            await self._suspension(record, Suspend(CHAT, self.closed_topic_seconds))
            return
        if running and views_of(record).public.phase is Phase.NIGHT:
            return  # closed at night anyway: the morning reopens it
        await self.db.run(_topic_closed, record, self.clock.now())
        self.written(record, 1)

    async def topic_reopened(self, chat_id: int, topic: int) -> None:
        """Someone reopened a game's topic (the bot's own reopening is not told to it):
        a game suspended for its closing goes on, with the time its stage had left."""
        record = await self.db.run(Database.active_game, chat_id, topic)
        if record is not None and record.status is GameStatus.RUNNING:
            await self._suspension(record, Unsuspend(CHAT))

    async def _reopen_for_suspended(self, record: GameRecord) -> None:
        """The bot may manage topics now: the topic of a game suspended for its closing is
        reopened by the bot (which Telegram does not tell it), and the game goes on."""
        if record.status is not GameStatus.RUNNING or not record.topic:
            return
        if not views_of(record).public.suspended:
            return
        await self.db.run(_reopen_topic, record, self.clock.now())  # before the game's word
        self.written(record, 1)
        # Not as the update's move: one update of the bot's rights may lift several games.
        await self._suspension(record, Unsuspend(CHAT), by_update=False)

    async def _suspension(
        self, record: GameRecord, action: Suspend | Unsuspend, by_update: bool = True
    ) -> None:
        update = CURRENT_UPDATE.get() if by_update else None
        outcome = await self.runner.act(record.id, action, update_id=update)
        if outcome.error not in (None, *SUSPENSION_NOOPS):
            log.warning("game %s: %s refused: %s", record.id, action.verb, outcome.error)

    async def topic_deleted(self, chat_id: int, topic: int) -> None:
        """A game's topic was deleted (Telegram tells the bot nothing: a call into it
        answered "message thread not found"): the game ends, unscored, said in General;
        its calls that cannot go out are dropped, and /newgame works there again."""
        ended = await self.db.run(_end_game_of_deleted_topic, chat_id, topic, self.clock.now())
        if ended is not None:
            log.info("chat %s: topic %s deleted, game %s ended", chat_id, topic, ended.id)
            self.written(ended, 1)

    # ----- the upgrade to a supergroup ---------------------------------------------------

    async def migrated(self, old: int, new: int) -> None:
        """On the migration's service message in either chat or the first call refused
        with the new id, whichever comes first (the others find nothing left to move).
        They come at once and are handled side by side, here or on another replica:
        one moves, the others wait for it or find its move written down."""
        async with self.runner.locks.hold(("migrate", old)):
            try:
                moved = await self.db.run(
                    _migrate, old, new, self.lobbies.message, self.clock.speed, self.clock.now()
                )
            except IntegrityError:  # another replica wrote the same move first
                moved = []
        if not moved:
            return
        log.info("chat %s became %s: %d game(s) moved", old, new, len(moved))
        for record in moved:
            self.written(record, 1)
        # The bot's rights in the new chat come in an update of their own, which may
        # have been handled before the games got there: asked again now.
        rights, _ = await self.lobbies.bot_rights(new)
        await self.rights_changed(new, rights)


# ----- the database side (worker thread) ------------------------------------------------------


def _reopen_topic(db: Database, record: GameRecord, now: float) -> None:
    op = to_json(Topic(True), record.topic)
    with db.transaction() as tx:
        tx.enqueue(record.chat_id, op, now=now, game_id=record.id, priority=Priority.GAME)


def _topic_closed(db: Database, record: GameRecord, now: float) -> None:
    """Reopened when the bot may; else (a lobby) General hears it."""
    if record.bot_rights.get(TOPICS):
        _reopen_topic(db, record, now)
        return
    with db.transaction() as tx:
        t = translator(record.language)
        text = t.gettext(
            "⚠️ The topic of the game in «{title}» was closed, and I may not reopen it: "
            "nobody can play there until an administrator reopens it (or gives me the "
            "right to manage topics)."
        ).format(title=escape(record.title))
        op = to_json(Send(text))  # in General: the topic is closed
        tx.enqueue(record.chat_id, op, now=now, game_id=record.id, priority=Priority.GAME)


def _end_game_of_deleted_topic(
    db: Database, chat_id: int, topic: int, now: float
) -> GameRecord | None:
    with db.transaction() as tx:
        record = tx.active_game(chat_id, topic)
        if record is None:
            return None
        tx.drop_pending_of_game(record.id)
        ended = tx.abort_game(record.id)
        t = translator(record.language)
        text = t.gettext(
            "🛑 The topic of the game in «{title}» was deleted: the game has stopped, "
            "unscored. Send /newgame to start another."
        ).format(title=escape(record.title))
        op = to_json(Send(text))  # in General
        tx.enqueue(chat_id, op, now=now, game_id=record.id, priority=Priority.GAME)
        return ended


def _games_in_chat(db: Database, chat_id: int) -> list[GameRecord]:
    with db.transaction() as tx:
        return tx.active_games_in_chat(chat_id)


def _tell_group(db: Database, record: GameRecord, text: str, now: float) -> None:
    op = to_json(Send(text), record.topic)
    with db.transaction() as tx:
        tx.enqueue(record.chat_id, op, now=now, game_id=record.id, priority=Priority.GAME)


def _end_games_of_removed_bot(db: Database, chat_id: int, now: float) -> list[GameRecord]:
    ended = []
    with db.transaction() as tx:
        tx.drop_pending(chat_id)
        for record in tx.active_games_in_chat(chat_id):
            aborted = tx.abort_game(record.id)
            ended.append(aborted)
            if record.status is GameStatus.RUNNING:
                # The players hear it in private: the group cannot.
                t = translator(record.language)
                text = t.gettext(
                    "🛑 The game in «{title}» has stopped: I was removed from the group."
                ).format(title=escape(record.title))
                for player in record.players:
                    tx.enqueue(player.user_id, to_json(Send(text)), now=now)
    return ended


def _follow_rights(
    db: Database,
    game_id: int,
    rights: dict[str, bool],
    saved: dict[str, Any] | None,
    now: float,
) -> GameRecord | None:
    with db.transaction() as tx:
        record = tx.game(game_id, for_update=True)
        if record is None or not record.is_active:
            return None
        before = record.bot_rights.get(RESTRICT, False)
        kept = {**record.bot_rights, **rights}
        record = tx.set_bot_rights(record, kept, saved)
        if record.status is not GameStatus.RUNNING or before == kept.get(RESTRICT, False):
            return record
        t = translator(record.language)

        def group(op: Op) -> None:
            tx.enqueue(record.chat_id, to_json(op, record.topic), now=now, game_id=record.id)

        if not kept.get(RESTRICT):
            group(
                Send(
                    t.gettext(
                        "⚠️ I may no longer restrict members: the game goes on, but I cannot "
                        "close the chat at night; I only warn."
                    )
                )
            )
        elif record.saved_permissions is not None:
            # The right is back: the night is masked again, or the day's chat opened.
            night = views_of(record).public.phase is Phase.NIGHT
            group(Permissions(None if night else dict(record.saved_permissions)))
        return record


def _migrate(
    db: Database,
    old: int,
    new: int,
    lobby: Callable[[GameRecord], Op],
    speed: float,
    now: float,
) -> list[GameRecord]:
    with db.transaction() as tx:
        moved, living = tx.move_chat(old, new)
        for record in moved:
            for op in said_again(record, living.get(record.id, []), lobby, speed):
                data = to_json(op, record.topic)
                tx.enqueue(new, data, now=now, game_id=record.id, priority=Priority.GAME)
        return moved
