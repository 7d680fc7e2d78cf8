"""The game service: the one place where Telegram input meets the engine.

Every update for a game is applied under that chat's lock, in order: load
the game, apply the engine, write the action and the new state (one
transaction), then send what the events say and re-arm the timer. A game
is never half-written: what is sent is sent after the write."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from html import escape
from typing import Any

from telegram import Bot, ChatPermissions, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import TelegramError

from engine import (
    HOST,
    Action,
    GameState,
    IllegalAction,
    Phase,
    SetupError,
    Stage,
    apply,
    find_variant,
    new_game,
    resolve_options,
)
from engine.actions import HostExtend, HostPause, HostResume, MafiaChat, Say, Timeout
from tg_mafia.bot import keyboards, texts
from tg_mafia.bot.callbacks import Button
from tg_mafia.bot.clock import BotClock
from tg_mafia.bot.outbox import Op, Outboxes
from tg_mafia.bot.presenter import LOBBY_KEY, GameView, Presenter, clock_text
from tg_mafia.bot.table import Table
from tg_mafia.bot.timers import Scheduler
from tg_mafia.i18n import translator
from tg_mafia.storage import (
    Database,
    GameAlreadyRunningError,
    GameRecord,
    GameStatus,
    Player,
    PlayerOutcome,
)

log = logging.getLogger(__name__)

RIGHTS = ("can_delete_messages", "can_restrict_members", "can_pin_messages")


@dataclass(frozen=True)
class ServiceConfig:
    lobby_seconds: int = 600
    bot_username: str = "tg_mafia_bot"
    lobby_seed: int | None = None  # every lobby deals from this seed (the demo); None: random


@dataclass
class Outcome:
    """What became of an input: None error means it was taken."""

    error: str | None = None
    state: GameState | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class GameService:
    def __init__(
        self, bot: Bot, db: Database, clock: BotClock, scheduler: Scheduler, config: ServiceConfig
    ) -> None:
        self.bot = bot
        self.db = db
        self.clock = clock
        self.scheduler = scheduler
        self.config = config
        self.outboxes = Outboxes(bot, clock, on_forbidden=self._forbidden)
        self.presenter = Presenter(self.outboxes)
        self.locks: dict[int, asyncio.Lock] = {}
        self.unreachable: set[int] = set()

    def lock(self, chat_id: int) -> asyncio.Lock:
        return self.locks.setdefault(chat_id, asyncio.Lock())

    def _forbidden(self, chat_id: int) -> None:
        # A player blocked the bot: the game goes on; their night move is "none".
        self.unreachable.add(chat_id)

    # ----- views of a stored game ---------------------------------------------------

    def view(self, record: GameRecord) -> GameView:
        names = {str(p.user_id): p.name for p in record.players}
        seats = tuple(str(p.user_id) for p in record.players)
        rights = record.messages.get("rights", {})
        return GameView(
            game_id=record.id,
            chat_id=record.chat_id,
            title=str(record.messages.get("title", "")),
            table=Table(seats, names),
            t=translator(record.language),
            host_id=record.host_user_id,
            deadline=record.stage_deadline,
            can_delete=bool(rights.get("can_delete_messages")),
        )

    @staticmethod
    def state_of(record: GameRecord) -> GameState:
        assert record.state is not None
        return GameState.from_dict(record.state)

    # ----- the lobby --------------------------------------------------------------------

    async def open_lobby(
        self, chat_id: int, title: str, user_id: int, user_name: str, host: bool = False
    ) -> str | None:
        """/newgame (and /host): None when the lobby is open, else a reason to show."""
        async with self.lock(chat_id):
            settings = self.db.get_settings(chat_id)
            t = translator(settings.language)
            if self.db.active_game(chat_id) is not None:
                return t.gettext("A game is already open in this chat.")
            try:
                options = resolve_options(settings.variant, settings.options)
            except SetupError:
                options = resolve_options(settings.variant, {})
            rights = await self._bot_rights(chat_id)
            deadline = self.clock.deadline(self.config.lobby_seconds)
            messages: dict[str, Any] = {"title": title, "rights": rights, "opener_name": user_name}
            try:
                record = self.db.create_lobby(
                    chat_id,
                    opened_by=user_id,
                    variant=settings.variant,
                    language=settings.language,
                    options=dict(options),
                    host_user_id=user_id if host else None,
                    seed=self.config.lobby_seed,
                    messages=messages,
                )
            except GameAlreadyRunningError:
                return t.gettext("A game is already open in this chat.")
            record = self.db.update_game(record.id, record.version, stage_deadline=deadline)
            view = self.view(record)
            self._put_lobby(record, "send")
            if rights.get("can_pin_messages"):
                self.outboxes.put(chat_id, Op("pin", key=LOBBY_KEY))
            missing = [r for r in RIGHTS if not rights.get(r)]
            if missing:
                note = view.t.gettext(
                    "⚠️ I am not an administrator with the rights to delete messages, restrict "
                    "members and pin messages. The game runs, but I cannot close the chat at "
                    "night or remove posts out of turn: I will only warn."
                )
                self.outboxes.put(chat_id, Op("send", mergeable=True, text=note))
            self._arm_lobby(record)
            return None

    async def _bot_rights(self, chat_id: int) -> dict[str, bool]:
        try:
            member = await self.bot.get_chat_member(chat_id, self.bot.id)
        except TelegramError:
            return {}
        status = getattr(member, "status", "")
        if status == "creator":
            return dict.fromkeys(RIGHTS, True)
        return {r: bool(getattr(member, r, False)) for r in RIGHTS}

    def _lobby_text(self, record: GameRecord) -> str:
        t = translator(record.language)
        variant = find_variant(record.variant)
        names = [p.name for p in record.players]
        opener = next(
            (p.name for p in record.players if p.user_id == record.opened_by),
            str(record.messages.get("opener_name", "")),
        )
        host = record.messages.get("host_name") if record.host_user_id else None
        return texts.lobby(
            t,
            record.variant,
            variant.min_players,
            variant.max_players,
            names,
            opener or t.gettext("the opener"),
            clock_text(record.stage_deadline),
            host,
        )

    def _lobby_markup(self, record: GameRecord) -> InlineKeyboardMarkup:
        t = translator(record.language)
        link = f"https://t.me/{self.config.bot_username}?start=join_{record.chat_id}"

        def lobby_button(verb: str) -> InlineKeyboardButton:
            data = Button("L", record.id, "-", (verb,)).encode()
            return InlineKeyboardButton(texts.button(t, verb), callback_data=data)

        return keyboards.rows(
            [InlineKeyboardButton(texts.button(t, "join"), url=link)],
            [lobby_button("leave"), lobby_button("start"), lobby_button("cancel")],
            [lobby_button("rules")],
        )

    def _put_lobby(self, record: GameRecord, method: str) -> None:
        """The lobby message, sent or edited in place."""
        text, markup = self._lobby_text(record), self._lobby_markup(record)
        self.outboxes.put(record.chat_id, Op(method, key=LOBBY_KEY, text=text, markup=markup))

    def _refresh_lobby(self, record: GameRecord) -> None:
        self._put_lobby(record, "edit")

    def _arm_lobby(self, record: GameRecord) -> None:
        if record.stage_deadline is None:
            return
        game_id, chat_id = record.id, record.chat_id

        async def fire() -> None:
            await self.lobby_timeout(chat_id, game_id)

        self.scheduler.arm(f"game-{game_id}", record.stage_deadline - self.clock.now(), fire)

    async def join(self, chat_id: int, user_id: int, name: str) -> str:
        """The deep link: answers in the private chat."""
        async with self.lock(chat_id):
            record = self.db.active_game(chat_id)
            if record is None or record.status is not GameStatus.LOBBY:
                settings = self.db.get_settings(chat_id)
                return translator(settings.language).gettext(
                    "There is no open lobby in that chat. Ask for /newgame there."
                )
            t = translator(record.language)
            title = escape(str(record.messages.get("title", "")))  # replies are HTML
            if record.host_user_id == user_id:
                return t.gettext("You host this game: the host does not play.")
            if any(p.user_id == user_id for p in record.players):
                return t.gettext("You are in already — game in «{title}».").format(title=title)
            if len(record.players) >= find_variant(record.variant).max_players:
                return texts.popup(t, "lobby_full")
            players = (*record.players, Player(user_id, name))
            record = self.db.update_game(record.id, record.version, players=players)
            self.unreachable.discard(user_id)
            self._refresh_lobby(record)
            return t.gettext("You're in — game in «{title}». Your role will come here.").format(
                title=title
            )

    async def lobby_button(
        self, record: GameRecord, user_id: int, verb: str, is_admin: bool
    ) -> str:
        """Leave / Start / Cancel pressed on the lobby: the popup text."""
        t = translator(record.language)
        async with self.lock(record.chat_id):
            current = self.db.get_game(record.id)
            if current is None or current.status is not GameStatus.LOBBY:
                return texts.popup(t, "stale")
            if verb == "leave":
                if not any(p.user_id == user_id for p in current.players):
                    return texts.popup(t, "not_a_player")
                players = tuple(p for p in current.players if p.user_id != user_id)
                current = self.db.update_game(current.id, current.version, players=players)
                self._refresh_lobby(current)
                return texts.popup(t, "ok")
            if user_id != current.opened_by and not is_admin:
                return texts.popup(t, "only_opener")
            if verb == "cancel":
                self.db.abort_game(current.id)
                self.scheduler.cancel(f"game-{current.id}")
                self._close_lobby(current, "cancelled")
                return texts.popup(t, "ok")
            if verb == "start":
                if len(current.players) < find_variant(current.variant).min_players:
                    return texts.popup(t, "lobby_few")
                if current.options.get("host") == "human" and current.host_user_id is None:
                    return texts.popup(t, "host_wanted")
                await self._start(current)
                return texts.popup(t, "ok")
        return texts.popup(t, "stale")

    async def set_host(self, chat_id: int, user_id: int, name: str) -> str:
        """/host: the caller hosts the open lobby (and leaves its players)."""
        async with self.lock(chat_id):
            record = self.db.active_game(chat_id)
            settings = self.db.get_settings(chat_id)
            t = translator(record.language if record else settings.language)
            if record is None or record.status is not GameStatus.LOBBY:
                return t.gettext("Open a lobby with /newgame first, then send /host.")
            if record.host_user_id not in (None, user_id):
                return t.gettext("This game has a host already.")
            players = tuple(p for p in record.players if p.user_id != user_id)
            messages = {**record.messages, "host_name": name}
            record = self.db.update_game(
                record.id, record.version, players=players, host_user_id=user_id, messages=messages
            )
            self._refresh_lobby(record)
            return t.gettext(
                "{name} hosts this game. Roles and night moves will reach them in private."
            ).format(name=escape(name))

    async def lobby_timeout(self, chat_id: int, game_id: int) -> None:
        async with self.lock(chat_id):
            record = self.db.get_game(game_id)
            if record is None or record.status is not GameStatus.LOBBY:
                return
            no_host = record.options.get("host") == "human" and record.host_user_id is None
            if no_host:
                self.db.abort_game(record.id)
                self._close_lobby(record, "no_host")
            elif len(record.players) >= find_variant(record.variant).min_players:
                await self._start(record)
            else:
                self.db.abort_game(record.id)
                self._close_lobby(record, "too_few")

    def _close_lobby(self, record: GameRecord, reason: str) -> None:
        t = translator(record.language)
        self.outboxes.put(
            record.chat_id, Op("edit", key=LOBBY_KEY, text=texts.lobby_closed(t, reason))
        )
        if record.messages.get("rights", {}).get("can_pin_messages"):
            self.outboxes.put(record.chat_id, Op("unpin", key=LOBBY_KEY))

    async def _start(self, record: GameRecord) -> None:
        options = dict(record.options)
        options["host"] = "human" if record.host_user_id else "auto"
        players = tuple(str(p.user_id) for p in record.players)
        state, events = new_game(record.variant, players, options, record.seed, record.language)
        deadline = self._timer_deadline(None, None, state, None)
        record = self.db.start_game(
            record.id,
            record.version,
            state.to_dict(),
            stage_deadline=deadline,
            timer_token=str(state.timer_id),
        )
        self._close_lobby(record, "started")
        view = self.view(record)
        if state.phase is Phase.NIGHT:
            record = await self._save_permissions(record)
        self.presenter.present(view, state, events)
        if state.phase is Phase.NIGHT:
            self._close_group(record)
        if record.host_user_id is not None:
            self.presenter.host_panel(view, state)
        self._arm(record, state)

    # ----- playing ---------------------------------------------------------------------

    async def act(
        self,
        chat_id: int,
        action: Action,
        *,
        post_message_id: int | None = None,
        game_id: int | None = None,
    ) -> Outcome:
        async with self.lock(chat_id):
            return await self._act(chat_id, action, post_message_id, game_id)

    async def _act(
        self, chat_id: int, action: Action, post_message_id: int | None, game_id: int | None
    ) -> Outcome:
        record = self.db.active_game(chat_id)
        if record is None or record.status is not GameStatus.RUNNING:
            return Outcome("no_game")
        if game_id is not None and record.id != game_id:
            return Outcome("stale")
        before = self.state_of(record)
        try:
            after, events = apply(before, action)
        except IllegalAction as error:
            return Outcome(error.code, before)
        deadline = self._timer_deadline(record, before, after, action)
        final = self._final(record, after)
        messages = dict(record.messages)
        if isinstance(action, HostPause) and record.stage_deadline is not None:
            messages["paused_left"] = self.clock.left(record.stage_deadline)
        record = self.db.record_action(
            record.id,
            record.version,
            action.to_dict(),
            after.to_dict(),
            stage_deadline=deadline,
            timer_token=str(after.timer_id),
            final=final,
            messages=messages,
        )
        await self._after(record, before, after, events, post_message_id)
        return Outcome(None, after)

    async def _after(
        self,
        record: GameRecord,
        before: GameState,
        after: GameState,
        events: list[Any],
        post_message_id: int | None,
    ) -> None:
        view = self.view(record)
        nightfall = after.phase is Phase.NIGHT and before.phase is not Phase.NIGHT
        if nightfall:
            record = await self._save_permissions(record)
        self.presenter.present(view, after, events, post_message_id)
        if nightfall:
            self._close_group(record)
        if before.phase is Phase.NIGHT and after.phase is not Phase.NIGHT:
            self._open_group(record, final=after.phase is Phase.ENDED)
        elif after.phase is Phase.ENDED:
            self._open_group(record, final=True)
        self._arm(record, after)

    def _timer_deadline(
        self,
        record: GameRecord | None,
        before: GameState | None,
        after: GameState,
        action: Action | None,
    ) -> float | None:
        if after.timer_seconds is None or after.paused:
            return None
        old = record.stage_deadline if record else None
        if isinstance(action, HostExtend) and old is not None and before is not None:
            return old + self.clock.real(after.timer_seconds - (before.timer_seconds or 0))
        if isinstance(action, HostResume) and record is not None:
            left = float(record.messages.get("paused_left", after.timer_seconds))
            return self.clock.deadline(left)
        if before is None or after.timer_id != before.timer_id or old is None:
            return self.clock.deadline(after.timer_seconds)
        return old

    def _final(
        self, record: GameRecord, state: GameState
    ) -> tuple[str, list[PlayerOutcome]] | None:
        if state.phase is not Phase.ENDED or state.winner is None:
            return None
        names = {str(p.user_id): p.name for p in record.players}
        results = [
            PlayerOutcome(
                int(p),
                names.get(p, p),
                state.roles[p].value,
                state.roles[p].side.value,
                state.roles[p].side is state.winner,
            )
            for p in state.seats
        ]
        return state.winner.value, results

    def _arm(self, record: GameRecord, state: GameState) -> None:
        name = f"game-{record.id}"
        if state.stage in (Stage.ENDED, Stage.CONFIRM) or record.stage_deadline is None:
            self.scheduler.cancel(name)
            return
        chat_id, game_id, timer = record.chat_id, record.id, state.timer_id

        async def fire() -> None:
            await self.on_timer(chat_id, game_id, timer)

        self.scheduler.arm(name, record.stage_deadline - self.clock.now(), fire)

    async def on_timer(self, chat_id: int, game_id: int, timer_id: int) -> None:
        outcome = await self.act(chat_id, Timeout("clock", timer_id), game_id=game_id)
        if outcome.error not in (None, "stale_timer", "paused", "no_game", "stale", "no_timer"):
            log.warning("timer of game %s refused: %s", game_id, outcome.error)

    # ----- the masked night: the group's permissions ------------------------------------

    async def _save_permissions(self, record: GameRecord) -> GameRecord:
        """Before the first night: keep the group's permissions, to restore
        them exactly each morning and at the end (also after a crash)."""
        rights = record.messages.get("rights", {})
        if not rights.get("can_restrict_members"):
            return record
        if record.saved_permissions is None:
            try:
                chat = await self.bot.get_chat(record.chat_id)
            except TelegramError as error:
                log.warning("cannot read the permissions of %s: %s", record.chat_id, error)
                return record
            saved = chat.permissions.to_dict() if chat.permissions else {}
            record = self.db.update_game(record.id, record.version, saved_permissions=saved)
        return record

    def _close_group(self, record: GameRecord) -> None:
        if record.saved_permissions is None:
            return
        chat_id = record.chat_id

        async def close(bot: Bot) -> None:
            await bot.set_chat_permissions(chat_id, ChatPermissions.no_permissions())

        self.outboxes.put(chat_id, Op("call", call=close))

    def _open_group(self, record: GameRecord, final: bool) -> None:
        saved = record.saved_permissions
        if saved is None:
            return
        chat_id, game_id, db = record.chat_id, record.id, self.db

        async def reopen(bot: Bot) -> None:
            try:
                await bot.set_chat_permissions(
                    chat_id,
                    ChatPermissions.de_json(saved, bot) or ChatPermissions(),
                    use_independent_chat_permissions=True,
                )
            except TelegramError as error:
                if "not modified" not in str(error).lower().replace("_", " "):  # CHAT_NOT_MODIFIED
                    raise
            if final:
                db.clear_saved_permissions(game_id)

        self.outboxes.put(chat_id, Op("call", call=reopen))

    # ----- inputs ------------------------------------------------------------------------

    async def group_post(self, chat_id: int, user_id: int, message_id: int, text: str) -> None:
        record = self.db.active_game(chat_id)
        if record is None or record.status is not GameStatus.RUNNING:
            return
        if record.host_user_id == user_id:
            actor = HOST
        elif any(p.user_id == user_id for p in record.players):
            actor = str(user_id)
        else:
            return  # spectators are not the game's business
        await self.act(chat_id, Say(actor, text), post_message_id=message_id)

    async def private_text(self, user_id: int, text: str) -> str | None:
        """A mafioso's message at night goes to the family."""
        for record in self.db.unfinished_games():
            if record.status is not GameStatus.RUNNING:
                continue
            if not any(p.user_id == user_id for p in record.players):
                continue
            state = self.state_of(record)
            role = state.roles.get(str(user_id))
            if role is None or not role.is_mafia:
                continue
            outcome = await self.act(record.chat_id, MafiaChat(str(user_id), text))
            if outcome.error is None:
                return None
            t = translator(record.language)
            return t.gettext("The family talks only at night, while the mafia are awake.")
        return None

    async def cancel(self, chat_id: int) -> str:
        async with self.lock(chat_id):
            record = self.db.active_game(chat_id)
            settings = self.db.get_settings(chat_id)
            t = translator(record.language if record else settings.language)
            if record is None:
                return t.gettext("There is no game to cancel.")
            self.scheduler.cancel(f"game-{record.id}")
            self.db.abort_game(record.id)
            if record.status is GameStatus.LOBBY:
                self._close_lobby(record, "cancelled")
            else:
                self._open_group(record, final=True)
            return t.gettext("The game was cancelled by an administrator.")

    # ----- start-up --------------------------------------------------------------------------

    async def resume_all(self) -> int:
        """Re-arm every unfinished game's timer and restore what a crash left closed."""
        for record in self.db.pending_permission_restores():
            if record.status is GameStatus.ENDED and record.state is not None:
                # The group was still closed: the crash came between the last
                # write and the sends, so the end screen may be lost as well.
                self.presenter.end_again(self.view(record), self.state_of(record))
            if record.status in (GameStatus.ENDED, GameStatus.ABORTED):
                self._open_group(record, final=True)
        count = 0
        for record in self.db.unfinished_games():
            count += 1
            if record.status is GameStatus.LOBBY:
                self._arm_lobby(record)
                continue
            state = self.state_of(record)
            view = self.view(record)
            self.outboxes.put(
                record.chat_id,
                Op(
                    "send",
                    mergeable=True,
                    text=view.t.gettext("♻️ I was restarted; the game goes on where it was."),
                ),
            )
            self.presenter.reminder(view, state)
            if state.phase is Phase.NIGHT:
                # A crash may have come before the chat was closed: close it
                # (again: closing a closed chat changes nothing).
                record = await self._save_permissions(record)
                self._close_group(record)
            self._arm(record, state)
        return count

    async def drain(self) -> None:
        await self.outboxes.drain()

    async def close(self) -> None:
        await self.outboxes.close()
