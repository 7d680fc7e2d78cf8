"""The Sandbox's core: the Bot API entry point, the call record, faults, the webhook, the
wiring of python-telegram-bot, and how a message is posted and delivered to the bot.

The simulation (users acting, membership, forums, migration, views) lives in mixins that
build on this class; `core.Sandbox` assembles them.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Any, cast

from tg_mafia.sandbox.clock import SandboxClock
from tg_mafia.sandbox.errors import ApiError, SandboxBug, SimulationError, not_found
from tg_mafia.sandbox.limits import Limits, RateLimiter
from tg_mafia.sandbox.methods.table import CallContext, Methods, PendingQuery
from tg_mafia.sandbox.records import CallLog, CallRecord
from tg_mafia.sandbox.schema import MethodSpec, Schema
from tg_mafia.sandbox.transport.faults import Fault, FaultPlan
from tg_mafia.sandbox.transport.network import Network, Wire
from tg_mafia.sandbox.transport.updates import UpdateQueue
from tg_mafia.sandbox.transport.webhook import WebhookConfig, WebhookDeliverer
from tg_mafia.sandbox.world.bots import SandboxBot, new_bot
from tg_mafia.sandbox.world.files import FileStore, Upload
from tg_mafia.sandbox.world.registry import World
from tg_mafia.sandbox.world.state import CHANNEL_BOT_ID, GROUP_ANONYMOUS_BOT_ID, Chat, Message, User
from tg_mafia.waiting import wait_set

if TYPE_CHECKING:
    from telegram import Bot
    from telegram.ext import ApplicationBuilder

    from tg_mafia.sandbox.core import Sandbox
    from tg_mafia.sandbox.transport.inprocess import SandboxRequest

DEFAULT_BOT_ID = 7_000_000_001
_FAKE_SENDERS = (GROUP_ANONYMOUS_BOT_ID, CHANNEL_BOT_ID)  # users with is_bot, not bots


class SandboxBase:
    def __init__(
        self,
        *,
        speed: float = 1.0,
        limits: Limits | None = None,
        bot_username: str = "mafia_sandbox_bot",
        bot_name: str = "Mafia Sandbox",
        bot_id: int = DEFAULT_BOT_ID,
        privacy_mode: bool = True,
        bot_to_bot: bool = False,
        strict: bool = True,
        start_time: float | None = None,
        schema: Schema | None = None,
        network: Network | None = None,
    ) -> None:
        """One world with one bot (its default: `bot_id`, `bot_username`, its
        `privacy_mode` and `bot_to_bot`); `create_bot` makes more."""
        self.clock = SandboxClock(speed, start_time)
        # the simulated round trip of every call (benchmarks); None: instant
        self.wire = Wire(network) if network is not None else None
        self.limits = limits or Limits()
        self.schema = schema or Schema.bundled()
        first = new_bot(
            bot_id, bot_name, bot_username, self.limits,
            privacy_mode=privacy_mode, bot_to_bot=bot_to_bot,
        )  # fmt: skip
        self.default_bot = first
        self.world = World(first.user)
        self.bots: dict[int, SandboxBot] = {}
        # strict: an unmodelled method or an invalid object raises SandboxBug (and is kept
        # in `bugs`); otherwise the bot gets a 501 / 500 answer
        self.strict = strict
        self.bugs: list[str] = []
        self.log = CallLog()
        self.faults = FaultPlan()
        self.files = FileStore()
        self.callback_queries: dict[str, PendingQuery] = {}
        self._query_ids = itertools.count(4_242_000_000_000_001)
        self._media_groups = itertools.count(13_800_000_000_000_001)
        self._called: asyncio.Event | None = None
        self._enlist(first)

    def _enlist(self, bot: SandboxBot) -> SandboxBot:
        self.world.users[bot.id] = bot.user
        bot.methods = Methods(cast("Sandbox", self), bot)  # the mixins make self a Sandbox
        self.bots[bot.id] = bot
        return bot

    def create_bot(
        self,
        username: str,
        name: str | None = None,
        *,
        privacy_mode: bool = True,
        bot_to_bot: bool = False,
    ) -> SandboxBot:
        """Another bot in the same world (BotFather's /newbot): its own id, token,
        updates, webhook and flood limits; users and groups are shared with the others."""
        if any(b.username.lower() == username.lower() for b in self.bots.values()):
            raise SimulationError(f"@{username} is taken")
        bot_id = max(self.bots) + 1
        while bot_id in self.world.users:
            bot_id += 1
        made = new_bot(
            bot_id, name or username, username, self.limits,
            privacy_mode=privacy_mode, bot_to_bot=bot_to_bot,
        )  # fmt: skip
        return self._enlist(made)

    def bot_named(self, bot: SandboxBot | None) -> SandboxBot:
        """`bot`, or the default one."""
        return self.default_bot if bot is None else bot

    def bot_by_username(self, username: str) -> SandboxBot | None:
        wanted = username.lower()
        return next((b for b in self.bots.values() if b.username.lower() == wanted), None)

    # -- the default bot, as the single-bot API names it ---------------------------

    @property
    def bot_user(self) -> User:
        return self.world.bot

    @property
    def bot_username(self) -> str:
        return self.default_bot.username

    @property
    def token(self) -> str:
        return self.default_bot.token

    @property
    def updates(self) -> UpdateQueue:
        return self.default_bot.updates

    @property
    def webhook(self) -> WebhookDeliverer | None:
        return self.default_bot.webhook

    @property
    def commands(self) -> dict[str, list[dict[str, str]]]:
        return self.default_bot.commands

    @property
    def limiter(self) -> RateLimiter:
        return self.default_bot.limiter

    @property
    def privacy_mode(self) -> bool:
        return self.default_bot.privacy_mode

    @privacy_mode.setter
    def privacy_mode(self, value: bool) -> None:
        self.default_bot.privacy_mode = value

    @property
    def bot_to_bot(self) -> bool:
        return self.default_bot.bot_to_bot

    @bot_to_bot.setter
    def bot_to_bot(self, value: bool) -> None:
        self.default_bot.bot_to_bot = value

    # == the Bot API ==============================================================

    async def call(
        self,
        method: str,
        raw: Mapping[str, Any] | None = None,
        token: str | None = None,
        files: Mapping[str, Upload] | None = None,
    ) -> tuple[int, dict[str, Any]]:
        """Answer one Bot API request: (HTTP status, JSON body). Every call is recorded.

        `files` are the request's multipart file parts, by field name. With a simulated
        network, the request travels one leg before it is carried out and the answer
        one leg back."""
        if self.wire is None:
            return await self._call(method, raw, token, files)
        await self.wire.travel()
        answer = await self._call(method, raw, token, files)
        await self.wire.travel()
        return answer

    def _caller(self, token: str | None) -> SandboxBot | None:
        """The bot a token is (None: the default bot's own calls, a webhook's answer)."""
        if token is None:
            return self.default_bot
        return next((b for b in self.bots.values() if b.token == token), None)

    async def _call(
        self,
        method: str,
        raw: Mapping[str, Any] | None,
        token: str | None,
        files: Mapping[str, Upload] | None,
        bot: SandboxBot | None = None,
    ) -> tuple[int, dict[str, Any]]:
        raw = _with_files(raw, files or {})
        spec = self.schema.method(method)
        name = spec.name if spec else method
        caller = bot or self._caller(token)
        ctx = CallContext(name, bot_id=caller.id if caller else None)
        unknown: list[str] = []
        params: dict[str, Any] = raw
        fault_kind: str | None = None
        try:
            if caller is None:
                raise ApiError(401, "Unauthorized")
            if spec is None:
                raise not_found()
            fault = self.faults.take(name)
            if fault is not None:
                fault_kind = fault.kind
                await self._apply_fault(fault)
            params, unknown = self.schema.parse_params(spec, raw)
            result = await self._handle(spec, params, ctx, caller)
        except ApiError as error:
            self._record(ctx, params, unknown, error=error, fault=fault_kind)
            return error.code, error.payload()
        except SandboxBug as bug:
            self._record(ctx, params, unknown, error=ApiError(500, str(bug)))
            self.bugs.append(f"{name}: {bug}")
            if self.strict:
                raise
            return 500, {"ok": False, "error_code": 500, "description": str(bug)}
        self._record(ctx, params, unknown, result=result, fault=fault_kind)
        return 200, {"ok": True, "result": result}

    async def _handle(
        self, spec: MethodSpec, params: dict[str, Any], ctx: CallContext, bot: SandboxBot
    ) -> Any:
        """The modelled method's result (as `bot` calls it), checked against the schema."""
        name = spec.name
        handler = bot.methods.handlers.get(name)
        if handler is None:
            reason = f"the sandbox does not model {name}"
            if self.strict:
                raise SandboxBug(f"{reason}: model it, or run with strict=False")
            raise ApiError(501, f"Not Implemented: {reason}")
        result = await handler(params, ctx)
        if name != "getUpdates":  # updates are checked when built; injected ones may be raw
            problems = self.schema.problems(spec.returns, result)
            if problems:
                raise SandboxBug(f"{name} built an invalid result: {problems[:3]}")
        return result

    def check_bugs(self) -> None:
        """Raise SandboxBug if one was recorded in strict mode.

        python-telegram-bot turns any exception of its transport into a NetworkError that
        a bot may retry quietly; `wait_for` and `close` call this so the test fails."""
        if self.strict and self.bugs:
            raise SandboxBug("the sandbox recorded: " + " | ".join(self.bugs))

    async def _apply_fault(self, fault: Fault) -> None:
        if fault.kind == "429":
            raise ApiError(
                429, f"Too Many Requests: retry after {fault.retry_after}", fault.retry_after
            )
        if fault.kind == "5xx":
            raise ApiError(fault.status, "Internal Server Error")
        # a hang: the client gives up first; the call is carried out afterwards
        await asyncio.sleep(fault.hang_seconds)

    def _record(
        self,
        ctx: CallContext,
        params: dict[str, Any],
        unknown: list[str],
        *,
        result: Any = None,
        error: ApiError | None = None,
        fault: str | None = None,
    ) -> None:
        self.log.add(
            CallRecord(
                method=ctx.method,
                params=params,
                time=self.clock.now(),
                ok=error is None,
                error_code=error.code if error else None,
                description=error.description if error else None,
                chat_id=ctx.chat_id,
                result=result,
                unknown_params=tuple(unknown),
                retry_after=error.retry_after if error else None,
                fault=fault,
                bot_id=ctx.bot_id,
            )
        )
        if self._called is not None:
            self._called.set()
            self._called = None

    def fail_next(
        self,
        kind: str,
        count: int = 1,
        method: str | None = None,
        *,
        retry_after: int = 5,
        status: int = 502,
        hang_seconds: float = 30.0,
    ) -> Fault:
        """Make the next `count` calls (of `method`, or any) answer 429, 5xx, or hang."""
        return self.faults.add(Fault(kind, count, method, retry_after, status, hang_seconds))

    # -- webhook -------------------------------------------------------------------

    async def start_webhook(
        self,
        url: str,
        secret_token: str | None,
        max_connections: int = 40,
        bot: SandboxBot | None = None,
    ) -> None:
        bot = self.bot_named(bot)
        await self.stop_webhook(bot)
        config = WebhookConfig(url, secret_token, max_connections)

        async def carry_out(method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
            # A call the answer to a webhook delivery names: made as the bot's, recorded,
            # with no leg of its own (it came back with the answer).
            return await self._call(method, params, None, None, bot)

        bot.webhook = WebhookDeliverer(
            config,
            bot.updates,
            self.clock,
            self.wire,
            carry_out,
            retry_cap=self.limits.webhook_retry_cap,
        )
        bot.webhook.start()

    async def stop_webhook(self, bot: SandboxBot | None = None) -> None:
        bot = self.bot_named(bot)
        if bot.webhook is not None:
            await bot.webhook.stop()
            bot.webhook = None

    async def close(self) -> None:
        for bot in self.bots.values():
            await self.stop_webhook(bot)
        self.check_bugs()

    # -- wiring a python-telegram-bot Bot ------------------------------------------

    def request(self, read_timeout: float = 5.0) -> SandboxRequest:
        from tg_mafia.sandbox.transport.inprocess import SandboxRequest

        return SandboxRequest(self, read_timeout=read_timeout)

    def bot(self, account: SandboxBot | None = None) -> Bot:
        """A python-telegram-bot Bot of `account` (the default bot unless given)."""
        from telegram import Bot

        token = self.bot_named(account).token
        return Bot(token, request=self.request(), get_updates_request=self.request())

    def application_builder(
        self, bot: SandboxBot | None = None
    ) -> ApplicationBuilder[Any, Any, Any, Any, Any, Any]:
        """An ApplicationBuilder already wired to this sandbox in-process, for `bot`
        (the default bot unless given)."""
        from telegram.ext import ApplicationBuilder

        return (
            ApplicationBuilder()
            .token(self.bot_named(bot).token)
            .request(self.request())
            .get_updates_request(self.request())
        )

    async def wait_for(
        self, predicate: Callable[[], bool], timeout: float = 5.0, poll: float = 0.02
    ) -> None:
        """Wait (real seconds) until `predicate()` holds; re-checked after every bot call.
        Raises SandboxBug at once if the sandbox recorded one (strict mode)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            self.check_bugs()
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError("the sandbox condition did not come true in time")
            if self._called is None:
                self._called = asyncio.Event()
            await wait_set(self._called, min(poll * 10, remaining))
        self.check_bugs()

    # == messages =====================================================================

    def post(
        self, chat: Chat, from_id: int | None, text: str | None = None, **fields: Any
    ) -> Message:
        """Store a new message in `chat` (any Message field may be given)."""
        message = Message(
            chat_id=chat.id,
            message_id=chat.new_message_id(),
            date=self.clock.date(),
            from_id=from_id,
            text=text,
            bot_id=chat.bot_id,
            **fields,
        )
        chat.messages[message.message_id] = message
        sender = self.world.users.get(from_id) if from_id is not None else None
        if sender is not None and sender.is_bot and from_id not in _FAKE_SENDERS:
            chat.last_bot_poster = sender.id
        return message

    def _push(
        self, kind: str, payload: dict[str, Any], bot: SandboxBot | None = None
    ) -> dict[str, Any] | None:
        """An update for `bot` (the default bot unless named)."""
        problems = self.schema.problems(("Update",), {"update_id": 1, kind: payload})
        if problems:
            raise SandboxBug(f"built an invalid {kind} update: {problems[:3]}")
        return self.bot_named(bot).updates.push(kind, payload)

    def bots_in(self, chat: Chat) -> list[SandboxBot]:
        """The sandbox's bots that are members of `chat` (a private chat: its bot)."""
        if chat.type == "private":
            return [self.bots[chat.bot_id or self.default_bot.id]]
        return [b for b in self.bots.values() if self.world.bot_member(chat, b.id).is_present]

    def _bot_sees(self, chat: Chat, message: Message, bot: SandboxBot) -> bool:
        """Whether Telegram delivers this message to `bot`.

        Privacy mode (on by default): a bot that is not an administrator gets only
        service messages, commands meant for it (`/cmd@bot`, or a bare `/cmd` when it was
        the last bot to post in the group) and replies to its messages. Messages of other
        bots never reach it, unless Bot-to-Bot Communication Mode is on: then those
        addressed to it or replying to it do, and all of them when it is an administrator
        with privacy mode off."""
        if chat.type == "private":
            return chat.bot_id in (None, bot.id)
        member = self.world.bot_member(chat, bot.id)
        if not member.is_present or chat.migrated_to is not None:
            return False
        if message.is_service:
            return True
        if self._from_another_bot(message, bot):
            if not bot.bot_to_bot:
                return False
            if member.is_admin and not bot.privacy_mode:
                return True
            return self._addressed(chat, message, bot, bare_commands=False)
        if not bot.privacy_mode or member.is_admin:
            return True
        return self._addressed(chat, message, bot, bare_commands=True)

    def _from_another_bot(self, message: Message, bot: SandboxBot) -> bool:
        sender = self.world.users.get(message.from_id) if message.from_id else None
        return (
            sender is not None
            and sender.is_bot
            and sender.id != bot.id
            and sender.id not in _FAKE_SENDERS
        )

    def _addressed(
        self, chat: Chat, message: Message, bot: SandboxBot, *, bare_commands: bool
    ) -> bool:
        """A command meant for `bot`, or a reply to one of its messages."""
        body = message.text if message.text is not None else message.caption
        bare_ok = bare_commands and chat.last_bot_poster in (None, bot.id)
        for entity in message.entities:
            if entity["type"] == "bot_command" and body is not None:
                command = body[entity["offset"] :][: entity["length"]]
                _, _, target = command.partition("@")
                if target.lower() == bot.username.lower() or (not target and bare_ok):
                    return True
        replied = chat.messages.get(message.reply_to) if message.reply_to else None
        return replied is not None and replied.from_id == bot.id

    def _deliver(self, chat: Chat, message: Message, *, skip: Collection[int] = ()) -> None:
        """The message, to every bot of the sandbox that Telegram would send it to (but
        `skip`): in a group each bot in it sees it by its own rules."""
        kind = "channel_post" if chat.type == "channel" else "message"
        self._deliver_as(kind, chat, message, skip)

    def _deliver_edit(self, chat: Chat, message: Message) -> None:
        kind = "edited_channel_post" if chat.type == "channel" else "edited_message"
        self._deliver_as(kind, chat, message, ())

    def _deliver_as(self, kind: str, chat: Chat, message: Message, skip: Collection[int]) -> None:
        payload: dict[str, Any] | None = None
        for bot in self.bots_in(chat):
            if bot.id not in skip and self._bot_sees(chat, message, bot):
                payload = payload or self.world.message_api(message)
                self._push(kind, payload, bot)

    def new_media_group_id(self) -> str:
        return str(next(self._media_groups))

    def inject_update(
        self, update: dict[str, Any], bot: SandboxBot | None = None
    ) -> dict[str, Any]:
        """Queue a raw update as given, even a malformed one (for fuzzing the bot)."""
        return self.bot_named(bot).updates.push_raw(update)

    def file_bytes(self, file_id: str) -> bytes:
        """The bytes of a file the bot sent or a user sent (any PhotoSize's file_id)."""
        stored = self.files.get(file_id)
        if stored is None:
            raise SimulationError(f"no file {file_id!r} in the sandbox")
        return stored.content

    def performer(self, chat: Chat, by: Any | None) -> int:
        """The user id of whoever does an administrative act in `chat`: `by` (a SimUser or
        User), or else the chat's owner."""
        if by is not None:
            return int(by.id)
        for member in chat.members.values():
            if member.status == "creator":
                return member.user_id
        raise SimulationError(f"{chat.title or chat.id} has no owner: say who acts (by=...)")


def _with_files(raw: Mapping[str, Any] | None, files: Mapping[str, Upload]) -> dict[str, Any]:
    """The call's parameters with its file parts: each under its own name, and in place
    of any parameter that names it by "attach://<name>"."""
    params = dict(raw or {})
    for name, upload in files.items():
        params.setdefault(name, upload)
    for key, value in params.items():
        if isinstance(value, str) and value.startswith("attach://"):
            part = files.get(value.removeprefix("attach://"))
            if part is not None:
                params[key] = part
    return params
