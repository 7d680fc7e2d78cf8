"""The lobby: opened by /newgame, joined through a deep link (so the bot can
write to every player), left, hosted, started by its opener or an admin,
cancelled, or closed by its timer. Its one message is pinned and edited in
place; every change and its calls are written in one transaction."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from html import escape
from typing import Any

from telegram import Bot
from telegram.error import TelegramError

from engine import SetupError, find_variant, resolve_options
from engine.errors import Reason
from tg_mafia.i18n import translator
from tg_mafia.ops.budget import TokenBudget
from tg_mafia.render import keyboards, texts
from tg_mafia.render.calls import (
    Drawn,
    Edit,
    Keyboard,
    Message,
    Method,
    Op,
    Pin,
    Priority,
    Send,
    Unpin,
    link,
    message,
)
from tg_mafia.render.calls_json import to_json
from tg_mafia.render.lobby import (
    already_at_a_table,
    blind_warning,
    join_payload,
    lobby_keyboard,
    lobby_text,
    missing_rights_warning,
)
from tg_mafia.render.texts import Answer
from tg_mafia.render.texts.names import person_name
from tg_mafia.render.texts.timefmt import deadline_html
from tg_mafia.runtime.admission import waitlist
from tg_mafia.runtime.clock import BotClock
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.runtime.runner import LOBBY_KEY, TABLE_PINNED, Runner
from tg_mafia.storage import (
    Database,
    GameAlreadyRunningError,
    GameRecord,
    GameStatus,
    Player,
    PlayerBusyError,
    Tx,
)

# A basic group's id is above this; a supergroup's (-100...) below it.
BASIC_GROUP_IDS = -(10**12)
EXTEND_SECONDS = 120  # /extend without a number
EXTEND_RANGE = (30, 600)  # what /extend N may add at once
MAX_WAIT = 3600  # a lobby never waits longer than this from now
RIGHTS = ("can_delete_messages", "can_restrict_members", "can_pin_messages", "can_manage_topics")
PRESENT = ("creator", "administrator", "member", "restricted")
GivePopup = Callable[[str], Awaitable[None]]  # a press's popup, given before the rest is done


@dataclass(frozen=True)
class OtherBot:
    """/newgame in a chat whose game another bot of ours runs (one game a chat): this
    bot opens nothing and says nothing of it unless asked by name (the handler's)."""

    bot_id: int | None


@dataclass(frozen=True)
class LobbyConfig:
    lobby_seconds: int = 600  # 0: the lobby waits for Start
    bot_username: str = "tg_mafia_bot"
    seed: int | None = None  # a fixed deal (the demo's --seed); None: a random one
    miniapp_name: str | None = None  # the table's Mini App: a Table link on the pinned lobby
    # The bot token's: a new game must fit (waitlist.py).
    budget: TokenBudget = field(default_factory=TokenBudget)


class Lobbies:
    def __init__(
        self,
        bot: Bot,
        db: AsyncDb,
        clock: BotClock,
        config: LobbyConfig,
        runner: Runner,
        after_write: Callable[[GameRecord, int], None],
    ) -> None:
        self.bot = bot
        self.db = db
        self.clock = clock
        self.config = config
        self.runner = runner
        self.after_write = after_write
        # Told of each /newgame the token's budget turned away (the metrics', ops/).
        self.on_refused: Callable[[], None] = lambda: None

    # ----- the message -----------------------------------------------------------------

    def text(self, record: GameRecord) -> str:
        return lobby_text(record)

    def keyboard(self, record: GameRecord) -> Keyboard:
        return lobby_keyboard(record, self.config.bot_username)

    def message(self, record: GameRecord, method: Drawn = Method.EDIT) -> Message:
        """The lobby's message, with its buttons."""
        return message(method, self.text(record), keyboard=self.keyboard(record), key=LOBBY_KEY)

    def _put(self, tx: Tx, record: GameRecord, method: Drawn, now: float) -> None:
        _enqueue(tx, record, self.message(record, method), now)

    def _close(self, tx: Tx, record: GameRecord, reason: str, now: float) -> None:
        t = translator(record.language)
        pinned = bool(record.bot_rights.get("can_pin_messages"))
        name = self.config.miniapp_name
        if reason == "started" and name:
            # The lobby stays pinned through the game with a link to its table: a URL
            # (web_app buttons are refused in groups); unpinned at the end (runner.py).
            url = f"https://t.me/{self.config.bot_username}/{name}?startapp=g{record.id}"
            keyboard = keyboards.row(link(texts.button(t, "table"), url))
            op = Edit(texts.lobby_closed(t, reason), keyboard=keyboard, key=LOBBY_KEY)
            _enqueue(tx, record, op, now)
            if pinned:
                tx.set_living(record.id, 0, TABLE_PINNED, 1)
            return
        op = Edit(texts.lobby_closed(t, reason), key=LOBBY_KEY)
        _enqueue(tx, record, op, now)
        if pinned:
            _enqueue(tx, record, Unpin(LOBBY_KEY), now)

    # ----- opening --------------------------------------------------------------------------

    async def open(
        self,
        chat_id: int,
        topic: int,
        title: str,
        user_id: int,
        user_name: str,
        forum: bool = False,
    ) -> str | OtherBot | None:
        """/newgame: None when the lobby is open, else a reason to show (or the other
        bot whose game the chat has)."""
        rights, admin = await self.bot_rights(chat_id)
        rights["forum"] = forum
        blind = not admin and not self._reads_all()
        outcome = await self.db.run(
            self._open, chat_id, topic, title, user_id, user_name, rights, blind, self.clock.now()
        )
        if isinstance(outcome, str | OtherBot):
            return outcome
        self.after_write(outcome, 1)
        return None

    def _open(
        self,
        db: Database,
        chat_id: int,
        topic: int,
        title: str,
        user_id: int,
        user_name: str,
        rights: dict[str, bool],
        blind: bool,
        now: float,
    ) -> GameRecord | str | OtherBot:
        settings = db.get_settings(chat_id)
        t = translator(settings.language)
        try:
            options = resolve_options(settings.variant, settings.options)
        except SetupError:
            options = resolve_options(settings.variant, {})
        try:
            with db.transaction() as tx:
                budget, variant = self.config.budget, settings.variant
                refused = waitlist.admit(tx, budget, chat_id, topic, variant, title, now, t)
                if refused is not None:
                    self.on_refused()
                    return refused
                record = tx.create_lobby(
                    chat_id,
                    opened_by=user_id,
                    topic=topic,
                    variant=settings.variant,
                    language=settings.language,
                    options=dict(options),
                    seed=self.config.seed,
                    title=title,
                    bot_rights=rights,
                    opener_name=user_name,
                    stage_deadline=self._deadline(now),
                )
                self._put(tx, record, Method.SEND, now)
                if rights.get("can_pin_messages"):
                    _enqueue(tx, record, Pin(LOBBY_KEY), now)
                missing = [r for r in needed_rights(rights) if not rights.get(r)]
                if blind:
                    _enqueue(tx, record, Send(blind_warning(t)), now)
                elif missing:
                    text = missing_rights_warning(t, missing, forum=bool(rights.get("forum")))
                    _enqueue(tx, record, Send(text), now)
                self._tell_watchers(tx, record, now)
                return record
        except GameAlreadyRunningError:
            return self._already_open(db, chat_id, topic, now) or t.gettext(
                "A game is already open in this chat."
            )

    def _already_open(
        self, db: Database, chat_id: int, topic: int, now: float
    ) -> GameRecord | OtherBot | None:
        """/newgame over an open lobby that this chat does not show (it followed the
        group to its new id as a supergroup): the lobby, shown here again. The chat's
        game may be another bot's (of this process's tokens): that bot's business."""
        with db.transaction() as tx:
            record = tx.active_game(chat_id, topic, any_bot=True)
            if record is not None and db.bot_id not in (None, record.bot_id):
                return OtherBot(record.bot_id)
            if (
                record is None
                or record.status is not GameStatus.LOBBY
                or tx.living_id(record.id, chat_id, LOBBY_KEY) is not None
            ):
                return None
            self._put(tx, record, Method.SEND, now)
            return record

    def _tell_watchers(self, tx: Tx, record: GameRecord, now: float) -> None:
        """/nextgame: everyone waiting for this chat's next game hears of it in
        private, in the lobby's own transaction (the list stays for the games after)."""
        t = translator(record.language)
        text = t.gettext(
            "🎭 A new game is open in «{title}». Join before it starts "
            "(send /nextgame in the group to stop these messages)."
        ).format(title=escape(record.title))
        url = f"https://t.me/{self.config.bot_username}?start="
        url += join_payload(record.chat_id, record.topic)
        op = Send(text, keyboard=keyboards.row(link(texts.button(t, "join"), url)))
        for user_id in tx.next_game_watchers(record.chat_id, record.topic):
            if user_id != record.opened_by:
                tx.enqueue(user_id, to_json(op), now=now, priority=Priority.ANSWER)

    def _deadline(self, now: float) -> float | None:
        """When a new lobby starts by itself; None: only on Start (the play page)."""
        if not self.config.lobby_seconds:
            return None
        return now + self.clock.real(self.config.lobby_seconds)

    async def bot_rights(self, chat_id: int) -> tuple[dict[str, bool], bool]:
        """The bot's rights in the chat, and whether it is an administrator there."""
        try:
            member = await self.bot.get_chat_member(chat_id, self.bot.id)
        except TelegramError:
            return {}, False
        status = getattr(member, "status", "")
        if status == "creator":
            return dict.fromkeys(RIGHTS, True), True
        return {r: bool(getattr(member, r, False)) for r in RIGHTS}, status == "administrator"

    def _reads_all(self) -> bool:
        """Whether privacy mode is off (BotFather's /setprivacy): getMe's
        can_read_all_group_messages. With it on, a bot that is not an administrator
        is shown only commands meant for it, replies to it and service messages."""
        try:
            return bool(self.bot.can_read_all_group_messages)
        except RuntimeError:  # not initialised: nothing known, nothing claimed
            return True

    # ----- joining and leaving --------------------------------------------------------------

    async def current_chat(self, chat_id: int) -> int:
        """The chat `chat_id` is now: a basic group's new id once it became a supergroup
        (only a basic group's id is looked up: a supergroup's never changes)."""
        if not BASIC_GROUP_IDS < chat_id < 0:
            return chat_id
        return await self.db.run(Database.moved_to, chat_id)

    async def join(self, chat_id: int, topic: int, user_id: int, name: str, language: str) -> str:
        """The deep link: the answer, in the private chat."""
        chat_id = await self.current_chat(chat_id)  # a link made before an upgrade
        if not await self._is_member(chat_id, user_id):
            # A stranger learns nothing about the group, its title included.
            return translator(language).gettext(
                "Only members of the group can join its games: ask them to add you first."
            )
        answer, record, full = await self.db.run(
            self._join, chat_id, topic, user_id, name, self.clock.now()
        )
        if record is not None and full:
            await self.start(record)  # the group's autostart: a full table starts
        elif record is not None:
            self.after_write(record, 1)
        return answer

    async def _is_member(self, chat_id: int, user_id: int) -> bool:
        try:
            member = await self.bot.get_chat_member(chat_id, user_id)
        except TelegramError:
            return False
        return getattr(member, "status", "") in PRESENT

    def _join(
        self, db: Database, chat_id: int, topic: int, user_id: int, name: str, now: float
    ) -> tuple[str, GameRecord | None, bool]:
        """The answer, the lobby as written, and whether it is to start now
        (full, in a group that starts full lobbies by itself)."""
        settings = db.get_settings(chat_id)
        with db.transaction() as tx:
            record = tx.active_game(chat_id, topic, for_update=True)
            if record is None or record.status is not GameStatus.LOBBY:
                t = translator(settings.language)
                return (
                    t.gettext("There is no open lobby in that chat. Ask for /newgame there."),
                    None,
                    False,
                )
            t = translator(record.language)
            title = escape(record.title)  # answers are HTML
            if record.host_user_id == user_id:
                return t.gettext("You host this game: the host does not play."), None, False
            if record.seat_of(user_id) is not None:
                answer = t.gettext("You are in already — game in «{title}».")
                return answer.format(title=title), None, False
            seats = find_variant(record.variant).max_players
            if len(record.players) >= seats:
                return texts.popup(t, Answer.LOBBY_FULL), None, False
            busy = tx.game_of_user(user_id)
            if busy is not None:
                return already_at_a_table(t, busy), None, False
            try:
                record = tx.update_game(
                    record.id, record.version, players=(*record.players, Player(user_id, name))
                )
            except PlayerBusyError:
                return already_at_a_table(t, None), None, False
            self._put(tx, record, Method.EDIT, now)
            text = t.gettext("You're in — game in «{title}». Your role will come here.")
            full = settings.autostart and len(record.players) == seats and not _needs_host(record)
            return text.format(title=title), record, full

    async def press(
        self, game_id: int, user_id: int, verb: str, is_admin: bool, first: GivePopup | None = None
    ) -> str:
        """Leave / Start / Cancel on the lobby: the popup's text; a start's given to
        `first` once decided, before the deal."""
        result = await self.db.run(self._press, game_id, user_id, verb, is_admin, self.clock.now())
        answer, record, start = result
        if start and record is not None:
            if first is not None:
                await first(answer)
            return await self.start(record) or answer
        if record is not None:
            self.after_write(record, 1)
        return answer

    def _press(
        self, db: Database, game_id: int, user_id: int, verb: str, is_admin: bool, now: float
    ) -> tuple[str, GameRecord | None, bool]:
        with db.transaction() as tx:
            record = tx.game(game_id, for_update=True)
            t = translator(record.language if record else "en")
            if record is None or record.status is not GameStatus.LOBBY:
                return texts.popup(t, Answer.STALE), None, False
            if verb == "leave":
                if record.seat_of(user_id) is None:
                    return texts.popup(t, Reason.NOT_A_PLAYER), None, False
                players = tuple(p for p in record.players if p.user_id != user_id)
                record = tx.update_game(record.id, record.version, players=players)
                self._put(tx, record, Method.EDIT, now)
                return texts.popup(t, Answer.OK), record, False
            if user_id != record.opened_by and not is_admin:
                return texts.popup(t, Answer.ONLY_OPENER), None, False
            if verb == "cancel":
                record = tx.abort_game(record.id)
                self._close(tx, record, "cancelled", now)
                return texts.popup(t, Answer.OK), record, False
            if verb == "start":
                if len(record.players) < find_variant(record.variant).min_players:
                    return texts.popup(t, Answer.LOBBY_FEW), None, False
                if _needs_host(record):
                    return texts.popup(t, Answer.HOST_WANTED), None, False
                return texts.popup(t, Answer.OK), record, True
            return texts.popup(t, Answer.STALE), None, False

    async def extend(
        self, chat_id: int, topic: int, user_id: int, is_admin: bool, seconds: int
    ) -> str:
        """/extend: the lobby waits `seconds` longer, by its opener's or an
        admin's word; the answer to show."""
        answer, record = await self.db.run(
            self._extend, chat_id, topic, user_id, is_admin, seconds, self.clock.now()
        )
        if record is not None:
            self.after_write(record, 1)
        return answer

    def _extend(
        self,
        db: Database,
        chat_id: int,
        topic: int,
        user_id: int,
        is_admin: bool,
        seconds: int,
        now: float,
    ) -> tuple[str, GameRecord | None]:
        with db.transaction() as tx:
            record = tx.active_game(chat_id, topic, for_update=True)
            t = translator(record.language if record else db.get_settings(chat_id).language)
            if record is None:
                return t.gettext("There is no open lobby here: /newgame opens one."), None
            if record.status is not GameStatus.LOBBY:
                return t.gettext("The game has started: only a lobby's time can be extended."), None
            if user_id != record.opened_by and not is_admin:
                return texts.popup(t, Answer.ONLY_OPENER), None
            ceiling = now + self.clock.real(MAX_WAIT)
            current = max(record.stage_deadline or now, now)
            if current >= ceiling - 1:
                return t.gettext("The lobby cannot wait any longer."), None
            deadline = min(current + self.clock.real(seconds), ceiling)
            record = tx.update_game(record.id, record.version, stage_deadline=deadline)
            self._put(tx, record, Method.EDIT, now)
            answer = t.gettext("⏱ The lobby waits longer: it starts at {time} at the latest.")
            return answer.format(time=deadline_html(deadline)), record

    async def set_host(
        self, chat_id: int, topic: int, user_id: int, name: str, is_admin: bool
    ) -> str:
        """/host: the caller, the lobby's opener or an administrator, hosts the
        open lobby (and leaves its players)."""
        answer, record = await self.db.run(
            self._set_host, chat_id, topic, user_id, name, is_admin, self.clock.now()
        )
        if record is not None:
            self.after_write(record, 1)
        return answer

    def _set_host(
        self,
        db: Database,
        chat_id: int,
        topic: int,
        user_id: int,
        name: str,
        is_admin: bool,
        now: float,
    ) -> tuple[str, GameRecord | None]:
        with db.transaction() as tx:
            record = tx.active_game(chat_id, topic, for_update=True)
            t = translator(record.language if record else db.get_settings(chat_id).language)
            if record is None or record.status is not GameStatus.LOBBY:
                return t.gettext("Open a lobby with /newgame first, then send /host."), None
            if record.host_user_id not in (None, user_id):
                return t.gettext("This game has a host already."), None
            if user_id != record.opened_by and not is_admin:
                return texts.popup(t, Answer.ONLY_OPENER), None  # no one else takes the game over
            players = tuple(p for p in record.players if p.user_id != user_id)
            record = tx.update_game(
                record.id, record.version, players=players, host_user_id=user_id, host_name=name
            )
            self._put(tx, record, Method.EDIT, now)
            text = t.gettext(
                "{name} hosts this game. Roles and night moves will reach them in private."
            )
            return text.format(name=escape(person_name(name, t))), record

    # ----- the start and the end of a lobby ------------------------------------------------

    async def start(self, record: GameRecord) -> str | None:
        """The lobby becomes a game (None), or why it cannot."""
        saved = await self._permissions(record)

        def closing(tx: Tx, started: GameRecord, now: float) -> None:
            self._close(tx, started, "started", now)

        outcome = await self.runner.start(record, saved, closing)
        return (
            None
            if outcome.error is None
            else texts.popup(translator(record.language), Answer.STALE)
        )

    async def _permissions(self, record: GameRecord) -> dict[str, Any] | None:
        """The group's own permissions, to restore exactly after each night
        and at the end (also after a crash): saved before the first night."""
        if not record.bot_rights.get("can_restrict_members"):
            return None
        try:
            chat = await self.bot.get_chat(record.chat_id)
        except TelegramError:
            return None
        return chat.permissions.to_dict() if chat.permissions else {}

    async def cancel(self, game_id: int) -> None:
        """An administrator's /cancel of the open lobby."""
        record = await self.db.run(self._cancel, game_id, self.clock.now())
        if record is not None:
            self.after_write(record, 1)

    def _cancel(self, db: Database, game_id: int, now: float) -> GameRecord | None:
        with db.transaction() as tx:
            record = tx.game(game_id, for_update=True)
            if record is None or record.status is not GameStatus.LOBBY:
                return None
            aborted = tx.abort_game(record.id)
            self._close(tx, aborted, "cancelled", now)
            return aborted

    async def timeout(self, game_id: int) -> None:
        """The lobby's timer: start if enough have joined, else close it."""
        result = await self.db.run(self._timeout, game_id, self.clock.now())
        if result is None:
            return
        record, start = result
        if start:
            await self.start(record)
        else:
            self.after_write(record, 1)

    def _timeout(self, db: Database, game_id: int, now: float) -> tuple[GameRecord, bool] | None:
        with db.transaction() as tx:
            record = tx.game(game_id, for_update=True)
            if record is None or record.status is not GameStatus.LOBBY:
                return None
            no_host = _needs_host(record)
            if not no_host and len(record.players) >= find_variant(record.variant).min_players:
                return record, True
            aborted = tx.abort_game(record.id)
            self._close(tx, aborted, "no_host" if no_host else "too_few", now)
            return aborted, False


def _enqueue(tx: Tx, record: GameRecord, op: Op, now: float) -> None:
    data = to_json(op, record.topic)
    tx.enqueue(record.chat_id, data, now=now, game_id=record.id, priority=Priority.GAME)


def needed_rights(rights: dict[str, bool]) -> tuple[str, ...]:
    """What the bot needs to run a game fully: delete and pin, and to mask the
    night, restrict members (a group's chat closed; a forum's players kept from
    every topic) and, in a forum, manage topics (the game's own closed)."""
    if rights.get("forum"):
        return (
            "can_delete_messages",
            "can_pin_messages",
            "can_restrict_members",
            "can_manage_topics",
        )
    return ("can_delete_messages", "can_pin_messages", "can_restrict_members")


def _needs_host(record: GameRecord) -> bool:
    """A group that plays with a human host, and nobody has sent /host yet."""
    return record.options.get("host") == "human" and record.host_user_id is None
