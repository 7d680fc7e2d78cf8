"""A running bot on the sandbox, with simulated players, for end-to-end tests."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine, make_url, text
from telegram import Update

from engine import Views
from tg_mafia.bootstrap import App, BotOptions, bootstrap, start_service, stop_service
from tg_mafia.ops.budget import TokenBudget
from tg_mafia.ops.metrics import BotMetrics
from tg_mafia.render.callbacks import Kind, decode
from tg_mafia.runtime.service import GameService
from tg_mafia.runtime.timers.scheduler import Scheduler
from tg_mafia.sandbox import Sandbox, SandboxBot, SimUser
from tg_mafia.sandbox.world.state import Chat
from tg_mafia.storage import Database, open_database
from tg_mafia.telegram.metered import MeteredRequest

BOT_RIGHTS = {"can_delete_messages": True, "can_restrict_members": True, "can_pin_messages": True}


@dataclass
class Harness:
    sb: Sandbox
    app: App
    db: Database
    group: Chat
    users: list[SimUser]
    admin: SimUser
    bot: SandboxBot | None = None  # the sandbox's bot it runs as (None: the default one)

    @property
    def service(self) -> GameService:
        return self.app.bot_data.running

    @property
    def account(self) -> SandboxBot:
        return self.sb.bot_named(self.bot)

    def chat(self, chat_id: int) -> Chat:
        """The chat `chat_id` names for this bot (a user's id: their chat with it)."""
        return self.sb.world.resolve_chat(chat_id, self.account.id)

    async def settle(self, timeout: float = 900.0) -> None:
        """Until the bot has handled every update and sent everything (`timeout`
        in seconds of the loop's clock: virtual in tests, so a long one costs nothing)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        updates = self.account.updates
        while True:
            await self.sb.wait_for(lambda: not updates.pending, timeout=timeout)
            await asyncio.wait_for(self.app.update_queue.join(), timeout)
            await asyncio.wait_for(self.service.drain(), timeout)
            await asyncio.sleep(0)
            if not updates.pending and self.app.update_queue.empty():
                return
            if loop.time() > end:
                raise TimeoutError("the bot did not settle")

    async def handled(self, timeout: float = 900.0) -> None:
        """Until the bot has handled every update (what it decided may still
        wait in the outbox)."""
        updates = self.account.updates
        await self.sb.wait_for(lambda: not updates.pending, timeout=timeout)
        await asyncio.wait_for(self.app.update_queue.join(), timeout)

    async def hold_calls(self) -> None:
        """The sender stops: what the game decides from now on stays in the
        outbox (as if the process died before sending it)."""
        await self.service.sender.stop()

    async def crash(self) -> None:
        """The process dies here: nothing more is sent, nothing is drained
        (and its lock on the database file goes, as the kernel drops it)."""
        service, self.app.bot_data.service = self.app.bot_data.running, None
        service.leader.stop()
        await service.sender.stop()
        service.adb.close()

    def group_texts(self, user: SimUser | None = None) -> list[str]:
        return [m.text or "" for m in (user or self.admin).view(self.group)]

    def private_texts(self, user: SimUser) -> list[str]:
        return [m.text or "" for m in user.view(user.private_chat_with(self.account))]

    async def open_and_fill(self, players: list[SimUser] | None = None, topic: int = 0) -> int:
        """/newgame by the admin (in a forum `topic`, if given), every player
        through the deep link."""
        command = f"/newgame@{self.account.username}"
        self.admin.send(self.group, command, **({"topic": topic} if topic else {}))
        await self.settle()
        link = f"join_{self.group.id}_{topic}" if topic else f"join_{self.group.id}"
        for user in players if players is not None else self.users:
            user.open_deep_link(self.sb.deep_link(link, self.account))
            await self.settle()
        record = self.db.active_game(self.group.id, topic)
        assert record is not None
        return record.id

    async def press_start(self) -> None:
        """The lobby's Start button, found by what it does, in any language."""
        chat = self.sb.world.resolve_chat(self.group.id)
        for message in sorted(chat.messages.values(), key=lambda m: -m.message_id):
            for row in (message.reply_markup or {}).get("inline_keyboard", []):
                for button in row:
                    found = decode(str(button.get("callback_data", "")))
                    if found is not None and found.kind is Kind.LOBBY and found.args == ("start",):
                        self.admin.press(self.group, button["text"], message_id=message.message_id)
                        await self.settle()
                        return
        raise AssertionError("no lobby Start button in the group")


@contextlib.asynccontextmanager
async def running_bot(
    tmp_path: Path,
    players: int,
    *,
    speed: float = 1.0,
    database_url: str | None = None,
    sb: Sandbox | None = None,
    lobby_seconds: int = 3600,
    rights: dict[str, bool] | None = None,
    scheduler: Scheduler | None = None,
    names: list[str] | None = None,
    language: str = "en",
    lobby_seed: int | None = None,
    supergroup: bool = True,
    forum: bool = False,
    owner_id: int | None = None,
    drain_seconds: float = 1800.0,
    rate_limiter: bool = True,
    miniapp_name: str | None = None,
    app_url: str | None = None,
    own_pace: Callable[[Views], bool] | None = None,
    admin_name: str = "Admin",
    budget: TokenBudget | None = None,
) -> AsyncIterator[Harness]:
    sb = sb or Sandbox(speed=speed)
    if names:
        users = [sb.add_user(name, language_code=language) for name in names[:players]]
    else:
        users = sb.add_users(players)
    admin = sb.add_user(admin_name)
    group = sb.add_group(
        "Friday club",
        members=[*users, admin],
        owner=admin,
        bot_rights=BOT_RIGHTS if rights is None else rights,
        supergroup=supergroup,
        forum=forum,
    )
    with contextlib.ExitStack() as stack:
        url = database_url or stack.enter_context(scratch_database(tmp_path))
        db = open_database(url)
        stack.callback(db.close)
        metrics = BotMetrics("sandbox")
        builder = (
            sb.application_builder()
            .request(MeteredRequest(sb.request(), metrics.api_call))
            .get_updates_request(MeteredRequest(sb.request(), metrics.api_call))
        )
        options = BotOptions(
            speed=speed,
            lobby_seconds=lobby_seconds,
            lobby_seed=lobby_seed,
            owner_id=owner_id,
            drain_seconds=drain_seconds,
            rate_limiter=rate_limiter,
            miniapp_name=miniapp_name,
            app_url=app_url,
            own_pace=own_pace,
            budget=budget or TokenBudget(),
        )
        app = bootstrap(builder, db, options, metrics)
        async with running_app(app, scheduler) as started:
            # The bot's own view of the database: its games, and what a test writes is its.
            mine = db.for_bot(sb.default_bot.id)
            yield Harness(sb, started, mine, group, users, admin)


@contextlib.asynccontextmanager
async def running_app(
    app: App, scheduler: Scheduler | None, *, poll: bool = True
) -> AsyncIterator[App]:
    """`app` started as `tg-mafia run` starts it by long polling (without `poll`: as a
    replica behind a webhook, given no update here), until the block ends."""
    async with app:
        await start_service(app, scheduler)
        assert app.updater is not None
        if poll:  # every kind of update, as `tg-mafia run` asks for (chat_member included)
            await app.updater.start_polling(poll_interval=0, allowed_updates=Update.ALL_TYPES)
        await app.start()
        try:
            yield app
        finally:
            if app.updater.running:
                await app.updater.stop()
            await app.stop()
            await stop_service(app)


@contextlib.contextmanager
def scratch_database(tmp_path: Path, server: str | None = None) -> Iterator[str]:
    """A database of its own for one run: a SQLite file, or, when `server`
    (by default DATABASE_URL) names a PostgreSQL server, a new database
    created on it and dropped afterwards (the tests then run on PostgreSQL
    for real)."""
    base = server or os.environ.get("DATABASE_URL")
    if not base or not base.startswith("postgres"):
        yield f"sqlite:///{tmp_path / 'bot.db'}"
        return
    url = make_url(base.replace("postgres://", "postgresql+psycopg://", 1))
    if url.drivername == "postgresql":
        url = url.set(drivername="postgresql+psycopg")
    name = f"tg_mafia_t_{secrets.token_hex(6)}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        yield url.set(database=name).render_as_string(hide_password=False)
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()
