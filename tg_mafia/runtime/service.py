"""The game service: what the handlers call. It wires the lobby, the
runner (a move under the game's lock, written with its calls in one
transaction), the sender (the outbox, within Telegram's limits) and the
timers (armed from the stored deadlines)."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from telegram import Bot
from telegram.constants import ChatAction
from telegram.error import TelegramError

from engine import HOST, Action, Phase, Views
from engine.actions import MafiaChat, Nominate, Say, Timeout
from engine.errors import Reason
from tg_mafia.i18n import translator
from tg_mafia.ops.budget import TokenBudget
from tg_mafia.ops.draining import Draining
from tg_mafia.render import screens, texts
from tg_mafia.render.callbacks import STEPPED, Button, Kind
from tg_mafia.render.calls import Delete, Op, Priority, Send
from tg_mafia.render.calls_json import to_json
from tg_mafia.render.presses import SUCCESS, is_toggle, picked, stale, to_action
from tg_mafia.render.scene import Scene
from tg_mafia.render.texts import RELAY_LIMIT, Answer, Popup
from tg_mafia.runtime.admission.waitlist import Waitlist
from tg_mafia.runtime.clock import BotClock
from tg_mafia.runtime.db.leader import PostgresLeader, Replica, SoleLeader, leader_for
from tg_mafia.runtime.db.shared import SharedDb
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.runtime.gameview import game_view, table_of, views_of
from tg_mafia.runtime.lobby import Lobbies, LobbyConfig
from tg_mafia.runtime.members import MemberCheck
from tg_mafia.runtime.membership import Membership
from tg_mafia.runtime.outbox.sender import Sender
from tg_mafia.runtime.queries import Queries
from tg_mafia.runtime.runner import CURRENT_UPDATE, Outcome, Quiet, Runner
from tg_mafia.runtime.timers.keeper import COUNTDOWN_SECONDS, TimerKeeper
from tg_mafia.runtime.timers.retention import Retention
from tg_mafia.runtime.timers.scheduler import Scheduler
from tg_mafia.storage import Database, GameRecord, GameStatus
from tg_mafia.utf16 import utf16_len

log = logging.getLogger(__name__)


def default_replica_id() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


# The timer outcomes that only mean the game moved on meanwhile.
FIRST_LEAD_WAIT = 5.0  # seconds a lone replica waits for its lock at start
QUIET_TIMER_ERRORS: frozenset[Popup] = frozenset(
    {Reason.STALE_TIMER, Reason.PAUSED, Answer.NO_GAME, Reason.NO_TIMER}
)


@dataclass(frozen=True)
class ServiceConfig:
    lobby_seconds: int = 600
    bot_username: str = "tg_mafia_bot"
    lobby_seed: int | None = None  # a fixed deal (the demo's --seed); None: random
    miniapp_name: str | None = None  # the table's Mini App (t.me/<bot>/<name>); None: no link
    app_url: str | None = None  # its page (https://<webhook host>/app); None: no button
    replica: Replica = field(default_factory=lambda: Replica(default_replica_id(), "polling"))
    drain_seconds: float = 1800.0  # how long a drain lets running games finish
    closed_topic_seconds: int = 1800  # how long a game waits for its closed topic
    retention_days: int = 90  # finished games' action logs pruned after this; 0: never
    # The bot token's: new games past it wait (waitlist.py).
    budget: TokenBudget = field(default_factory=TokenBudget)
    # The first of the process's tokens (or the only one): it takes the rows stored
    # before there were several (Database.adopt) and keeps the daily retention.
    first: bool = True


class GameService:
    """One bot's games: `db` is that bot's handle on the database (Database.for_bot);
    `shared`, what the bots of one process share of it (several tokens)."""

    def __init__(
        self,
        bot: Bot,
        db: Database,
        clock: BotClock,
        scheduler: Scheduler,
        config: ServiceConfig,
        shared: SharedDb | None = None,
    ) -> None:
        self.bot = bot
        self.db = db  # for reads outside the hot path (settings, stats)
        self.shared = shared
        self.adb = shared.attach(db) if shared is not None else AsyncDb(db)
        self.queries = Queries(self.adb)  # the handlers' reads and small writes
        self.clock = clock
        self.config = config
        sole = shared.sole_leader() if shared is not None else None
        self.leader = leader_for(db.engine, config.replica, db.bot_id, sole)
        self.leading = False
        self.on_lead: Callable[[], Awaitable[None]] | None = None  # one-off work of a new leader
        self.sender = Sender(
            bot, self.adb, clock, self._deadline_moved, self._unreachable, self._migrated
        )
        self.sender.on_topic_gone = self._topic_gone
        self.keeper = TimerKeeper(scheduler, clock, self._timer_fired, self._countdown)
        self.runner = Runner(self.adb, clock, self._written, config.app_url)
        self.lobbies = Lobbies(
            bot,
            self.adb,
            clock,
            LobbyConfig(
                config.lobby_seconds,
                config.bot_username,
                config.lobby_seed,
                config.miniapp_name,
                config.budget,
            ),
            self.runner,
            self._written,
        )
        self.members = MemberCheck(bot, clock.now)  # who belongs to a group, asked of Telegram
        self.membership = Membership(
            bot,
            self.adb,
            clock,
            self.runner,
            self.lobbies,
            self._written,
            config.closed_topic_seconds,
        )
        self.unreachable: set[int] = set()
        self.tasks: set[asyncio.Task[None]] = set()  # work started by a callback, kept alive
        self.draining = Draining(clock.now, config.drain_seconds)
        # The first token's: one prune a day is enough for every bot's games.
        self.retention = Retention(self.adb, scheduler, config.retention_days * config.first)
        self.waitlist = Waitlist(
            self.adb,
            scheduler,
            clock,
            config.budget,
            lambda: self.draining.active,
            self.sender.wake,
        )
        self.led = threading.Event()  # set once this process has led (timers armed, sender on)
        # Told of every game this process writes (the Mini App's live pages).
        self.watchers: list[Callable[[int], None]] = []

    # ----- after every write ------------------------------------------------------------

    def _written(self, record: GameRecord, calls: int) -> None:
        """After a write by this process. The leader sends and keeps the
        timers; another process's write reaches it as a notification."""
        for watch in self.watchers:
            watch(record.id)
        if not self.leading:
            return
        if calls:
            self.sender.wake(record.chat_id)  # its group's claim counts what it wrote
        self._arm(record)

    def _arm(self, record: GameRecord) -> None:
        if record.status in (GameStatus.LOBBY, GameStatus.RUNNING):
            self.keeper.arm(record.id, record.stage_deadline, int(record.timer_token or 0))
        else:
            self.keeper.cancel(record.id)
            self.draining.game_changed()
            self.waitlist.game_ended()

    # ----- leadership (leader.py) ----------------------------------------------------------

    def _gained(self) -> None:
        """This process leads: it sends the outbox, keeps every game's timer
        (armed from the stored deadlines), and does the one-off work."""
        self.leading = True
        self._spawn(self._lead())

    async def _lead(self) -> None:
        running = await self._arm_all()
        # A replica that leads while games run may follow a leader that sent a moment ago.
        self.sender.start(taking_over=running > 0 and isinstance(self.leader, PostgresLeader))
        self.retention.start()
        self.waitlist.start()
        self.led.set()
        if self.on_lead is not None:
            await self.on_lead()

    async def _arm_all(self) -> int:
        records = await self.adb.run(Database.unfinished_games)
        for record in records:
            self._arm(record)
        return len(records)

    def _lost(self) -> None:
        """Another process leads now: this one stops sending and timing."""
        self.leading = False
        self.keeper.cancel_all()
        self.retention.stop()
        self.waitlist.stop()
        self._spawn(self.sender.stop())

    def _noted(self, payload: str) -> None:
        """Another process wrote: calls to send, or a game's new deadline."""
        if not self.leading:
            return
        if payload == "outbox":
            self.sender.wake()
        elif payload.startswith("game:"):
            self._spawn(self._arm_one(int(payload.removeprefix("game:"))))

    async def _arm_one(self, game_id: int) -> None:
        record = await self.adb.run(Database.get_game, game_id)
        if record is not None and record.bot_id == self.db.bot_id:  # another bot's: its own
            self._arm(record)

    def _deadline_moved(self, game_id: int, token: str, deadline: float) -> None:
        self.keeper.arm(game_id, deadline, int(token))

    def _unreachable(self, user_id: int) -> None:
        self.unreachable.add(user_id)
        self._spawn(self.membership.unreachable(user_id))

    def _migrated(self, old: int, new: int) -> None:
        self._spawn(self.membership.migrated(old, new))

    def _topic_gone(self, chat_id: int, topic: int) -> None:
        self._spawn(self.membership.topic_deleted(chat_id, topic))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def reachable(self, user_id: int) -> None:
        """The user unblocked the bot, pressed /start or joined: their waiting
        messages (a role, a prompt) go out."""
        self.unreachable.discard(user_id)
        self.sender.unpark(user_id)

    async def can_write_to(self, user_id: int) -> bool:
        """Whether the bot may write to the user now (they started it and did
        not block it): asked with a chat action, which shows nothing."""
        try:
            await self.bot.send_chat_action(user_id, ChatAction.TYPING)
        except TelegramError:
            return False
        self.reachable(user_id)
        return True

    async def _timer_fired(self, game_id: int, timer_id: int) -> None:
        record = await self.adb.run(Database.get_game, game_id)
        if record is None:
            return
        if record.status is GameStatus.LOBBY:
            if self.draining.active:
                return  # no game starts now: the lobby's timer fires again at the next start
            await self.lobbies.timeout(game_id)
            return
        outcome = await self.runner.act(game_id, Timeout("clock", timer_id))
        if outcome.error not in (None, *QUIET_TIMER_ERRORS):
            log.warning("timer of game %s refused: %s", game_id, outcome.error)

    async def _countdown(self, game_id: int, timer_id: int) -> None:
        await self.runner.countdown(game_id, timer_id, COUNTDOWN_SECONDS)

    # ----- answers ----------------------------------------------------------------------------

    async def answer(self, chat_id: int, text: str, topic: int = 0) -> None:
        """A reply to a command: through the chat's outbox, behind the game's own calls."""
        data = to_json(Send(text), topic)
        await self.adb.run(_enqueue, chat_id, data, self.clock.now())
        self.sender.wake(chat_id)

    async def show_plain(self, chat_id: int, op: Op, topic: int = 0) -> None:
        """A call tied to no game (the settings menu, a picture of /stats), behind the
        games' own, into the forum topic `topic` (0: none)."""
        await self.adb.run(_enqueue, chat_id, to_json(op, topic), self.clock.now())
        self.sender.wake(chat_id)

    async def show(self, record: GameRecord, chat_id: int, op: Op) -> None:
        """A screen drawn now from the game's state (a menu someone opened)."""
        data = to_json(op)
        await self.adb.run(_enqueue, chat_id, data, self.clock.now(), record.id, Priority.GAME)
        self.sender.wake(chat_id)

    # ----- playing ------------------------------------------------------------------------------

    async def act(
        self, game_id: int, action: Any, *, post_message_id: int | None = None
    ) -> Outcome:
        return await self.runner.act(
            game_id, action, post_message_id=post_message_id, update_id=CURRENT_UPDATE.get()
        )

    async def press_move(self, game_id: int, button: Button, user_id: int) -> str:
        """A button whose press is a move (`is_move`) on a message of the game
        `game_id` (the gate's word): the popup that answers it. The press is checked
        and the move made on one read of the game, in one database call (under load a
        second call waited for another batch's commit)."""
        return (await self.move_pressed(game_id, button, user_id))[1]

    async def move_pressed(self, game_id: int, button: Button, user_id: int) -> tuple[bool, str]:
        """`press_move`, and whether the move was made (the Mini App says so)."""

        def decide(record: GameRecord, views: Views) -> Action | Popup:
            return move_of(record, views, user_id, button)

        outcome = await self.runner.act(game_id, decide, update_id=CURRENT_UPDATE.get())
        t = translator(outcome.record.language if outcome.record else "en")
        if outcome.error is None:
            return True, texts.popup(t, SUCCESS.get(button.kind, Answer.OK))
        error = outcome.error
        if error is Answer.NO_GAME or isinstance(error, Quiet):  # Quiet: never a press's
            return False, texts.popup(t, Answer.STALE)
        return False, texts.popup(t, error)

    async def press(self, record: GameRecord, user_id: int, button: Button) -> str:
        """A game button that is no move (`press_move` takes those): the popup that
        answers the press."""
        t = translator(record.language)
        if record.status is not GameStatus.RUNNING:
            return texts.popup(t, Answer.STALE)
        views = views_of(record)
        if button.kind in STEPPED and stale(button, views.public):
            return texts.popup(t, Answer.STALE)
        if button.kind is Kind.TIME:
            return self._time_left(record, views)
        if button.kind in HOST_KINDS:
            if record.host_user_id != user_id:
                return texts.popup(t, Reason.NOT_HOST)
            if button.kind is Kind.HOST_WARN_MENU:
                scene = Scene(game_view(record, self.clock.speed, self.runner.app_url), views)
                await self.show(record, user_id, screens.warn_menu(scene))
                return texts.popup(t, Answer.SEE_PRIVATE)
        if button.kind is Kind.NOMINATE_MENU:
            return await self._nominate_menu(record, views, user_id)
        if is_toggle(button):  # a name in the best-move menu: the menu is redrawn
            scene = Scene(game_view(record, self.clock.speed, self.runner.app_url), views)
            op, code = screens.best_move_menu(scene, str(user_id), picked(button, table_of(record)))
            if op is not None:
                await self.show(record, user_id, op)
            return texts.popup(t, code)
        return await self.press_move(record.id, button, user_id)

    def _time_left(self, record: GameRecord, views: Views) -> str:
        t, view = translator(record.language), views.public
        if view.suspended:
            return texts.popup(t, Reason.SUSPENDED)
        if view.paused or record.stage_deadline is None:
            return texts.time_left(t, 0, paused=view.paused)
        left = self.clock.stage(views).left(record.stage_deadline)
        return texts.time_left(t, round(left), False)

    async def _nominate_menu(self, record: GameRecord, views: Views, user_id: int) -> str:
        """Nominate…: the list in private, when the engine takes a nomination
        from the presser now; else what it says against one."""
        t = translator(record.language)
        actor = str(user_id)
        refusal = None
        for target in views.public.alive:
            code = views.refusal(Nominate(actor, target))
            if code is not None:
                refusal = refusal or code
                continue
            scene = Scene(game_view(record, self.clock.speed, self.runner.app_url), views)
            await self.show(record, user_id, screens.nominate_menu(scene, actor))
            return texts.popup(t, Answer.SEE_PRIVATE)
        return texts.popup(t, refusal or Reason.NOT_YOUR_FLOOR)

    async def group_post(
        self,
        chat_id: int,
        topic: int,
        user_id: int,
        message_id: int,
        text: str,
        album: str | None = None,
        forum: bool = False,
    ) -> None:
        """A post (or an edit, a command, a photo with its caption) in a group
        where a game runs: the engine decides whether it stands (and may end a
        floor) or is deleted and warned. An album is one post. In a `forum`, a
        post in a topic without a game may be a player's at night."""
        if album is not None:
            # An album's messages come at once: the first is judged, the others wait.
            async with self.runner.locks.hold(("album", album)):
                await self._post(chat_id, topic, user_id, message_id, text, album, forum)
        else:
            await self._post(chat_id, topic, user_id, message_id, text, None, forum)

    async def _post(
        self,
        chat_id: int,
        topic: int,
        user_id: int,
        message_id: int,
        text: str,
        album: str | None,
        forum: bool,
    ) -> None:
        def say(record: GameRecord, views: Views) -> Action | Quiet:
            if record.host_user_id == user_id:
                return Say(HOST, text)
            if record.seat_of(user_id) is not None:
                return Say(str(user_id), text)
            return Quiet.SPECTATOR  # not the game's business

        # Judged on the one read of the chat's running game that its move makes.
        outcome = await self.runner.act(
            (chat_id, topic),
            say,
            post_message_id=message_id,
            album=album,
            update_id=CURRENT_UPDATE.get(),
        )
        if forum and outcome.error is Answer.NO_GAME:
            await self._post_elsewhere_at_night(chat_id, topic, user_id, message_id, text, album)

    async def _post_elsewhere_at_night(
        self, chat_id: int, topic: int, user_id: int, message_id: int, text: str, album: str | None
    ) -> None:
        """A forum's other topic, where no game runs: a player of the forum's game
        posting there at night (one the bot could not restrict, an administrator)
        is judged by their game as if they had posted in its topic."""
        record = await self.adb.run(Database.game_of_user, user_id)
        if (
            record is None
            or record.chat_id != chat_id
            or record.topic == topic
            or record.status is not GameStatus.RUNNING
        ):
            return

        def at_night(record: GameRecord, views: Views) -> Action | Quiet:
            if views.public.phase is not Phase.NIGHT or record.seat_of(user_id) is None:
                return Quiet.SPECTATOR  # by day the other topics are theirs
            return Say(str(user_id), text)

        await self.runner.act(
            record.id,
            at_night,
            post_message_id=message_id,
            album=album,
            update_id=CURRENT_UPDATE.get(),
        )

    async def foreign_post(self, chat_id: int, topic: int, message_id: int) -> None:
        """A post as a channel or as an anonymous administrator: nobody to warn,
        but it is deleted where only a player may post (a floor, a count, the
        night)."""
        record = await self.adb.run(Database.active_game, chat_id, topic)
        if record is None or record.status is not GameStatus.RUNNING:
            return
        if (
            record.bot_rights.get("can_delete_messages")
            and not views_of(record).public.posting_free
        ):
            await self.show(record, chat_id, Delete(message_id=message_id))

    async def private_text(self, user_id: int, text: str) -> str | None:
        """A mafioso's message at night goes to the family of their game."""
        record = await self.adb.run(Database.game_of_user, user_id)
        if record is None or record.status is not GameStatus.RUNNING:
            return None
        views, player = views_of(record), str(user_id)
        if player not in views.public.seats or not views.seat(player).role.is_mafia:
            return None
        t = translator(record.language)
        if utf16_len(text) > RELAY_LIMIT:
            # With the sender's name and the group's in front, it would pass Telegram's
            # 4,096: refused whole rather than cut or lost.
            return t.gettext(
                "Too long for the family: at most {n} characters a message. Send it in parts."
            ).format(n=RELAY_LIMIT)
        outcome = await self.act(record.id, MafiaChat(str(user_id), text))
        if outcome.error is None:
            return None
        if outcome.error is Reason.SUSPENDED:
            return texts.popup(t, Reason.SUSPENDED)
        return t.gettext("The family talks only at night, while the mafia are awake.")

    async def cancel(self, chat_id: int, topic: int) -> str:
        """/cancel by an administrator: the lobby or the game ends, unscored."""
        record = await self.adb.run(Database.active_game, chat_id, topic)
        if record is None:
            settings = await self.adb.run(Database.get_settings, chat_id)
            return translator(settings.language).gettext("There is no game to cancel.")
        if record.status is GameStatus.LOBBY:
            await self.lobbies.cancel(record.id)
        else:
            await self.runner.cancel(record.id)
        return translator(record.language).gettext("The game was cancelled by an administrator.")

    # ----- life ------------------------------------------------------------------------------

    async def resume_all(self) -> int:
        """Joins the replicas: the leader (the only process, on SQLite) arms
        every unfinished game's timer again and starts the sender, so the
        calls a crash left in the outbox go out as they were decided. The first
        token takes the rows of no bot first (stored before there were several)."""
        if self.config.first and self.db.bot_id is not None:
            adopted = await self.adb.run(Database.adopt, self.db.bot_id)
            if adopted:
                log.info("bot %s takes the %d games stored with no bot", self.db.bot_id, adopted)
        count = await self.adb.run(Database.count_unfinished)
        if isinstance(self.leader, SoleLeader):
            self.leading = True  # the only process: it leads from the start
            await self._lead()
        else:
            self.leader.start(self._gained, self._lost, self._noted)
            if isinstance(self.leader, PostgresLeader):
                await self._first_lead(self.leader)
        return count

    async def _first_lead(self, leader: PostgresLeader) -> None:
        """Alone on the database, a replica leads before its start returns, as the
        only process on SQLite does: its games' timers are armed when it answers."""
        loop = asyncio.get_running_loop()
        if await loop.run_in_executor(None, leader.peers):
            return  # another replica leads: this one waits its turn
        # Waited in a thread, in real seconds: the lock is taken in real time, by the
        # leader's own thread, whatever clock the event loop keeps.
        await loop.run_in_executor(None, self.led.wait, FIRST_LEAD_WAIT)

    async def drain(self) -> None:
        await self.sender.drain()

    async def own_running_games(self) -> int:
        """The running games a drain waits for: with one process, every running game in
        the database. Replicas own no game: while another replica runs, it takes the
        lead (the sending and the timers) when this one exits, so none waits."""
        leader = self.leader
        if isinstance(leader, PostgresLeader):
            peers = await asyncio.get_running_loop().run_in_executor(None, leader.peers)
            if peers:
                return 0
        records = await self.adb.run(Database.unfinished_games)
        return sum(1 for record in records if record.status is GameStatus.RUNNING)

    async def close(self) -> None:
        self.waitlist.stop()
        if self.shared is None or isinstance(self.leader, PostgresLeader):
            self.leader.stop()  # SQLite's shared lock goes with the process's last bot
        await self.sender.stop()
        self.adb.close()
        if self.shared is not None:
            self.shared.detach()


# The buttons whose press is a move of the game (or refused as one): those of a
# step but the one that opens the nomination list, and the host's.
MOVE_KINDS = (STEPPED - {Kind.NOMINATE_MENU}) | {Kind.HOST, Kind.HOST_WARN}
HOST_KINDS = frozenset({Kind.HOST, Kind.HOST_WARN, Kind.HOST_WARN_MENU})


def is_move(button: Button) -> bool:
    """Whether the press is a move (a name in the best-move menu only redraws it)."""
    return button.kind in MOVE_KINDS and not is_toggle(button)


def move_of(record: GameRecord, views: Views, user_id: int, button: Button) -> Action | Popup:
    """The move a press makes, or the code of the popup that refuses it."""
    if button.kind in STEPPED and stale(button, views.public):
        return Answer.STALE
    if button.kind in HOST_KINDS and record.host_user_id != user_id:
        return Reason.NOT_HOST
    action = to_action(button, user_id, views, table_of(record))
    if action is None:
        return Answer.STALE
    if action.actor != HOST and record.seat_of(user_id) is None:
        return Reason.NOT_A_PLAYER
    return action


def _enqueue(
    db: Database,
    chat_id: int,
    op: dict[str, object],
    now: float,
    game_id: int | None = None,
    priority: int = Priority.ANSWER,
) -> None:
    with db.transaction() as tx:
        tx.enqueue(chat_id, dict(op), now=now, game_id=game_id, priority=priority)
