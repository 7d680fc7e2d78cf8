"""The Sandbox: one small Telegram, the Bot API entry point and the simulated users."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .clock import SandboxClock
from .errors import ApiError, SandboxBug, SimulationError, not_found
from .faults import Fault, FaultPlan
from .limits import Limits, RateLimiter
from .methods import CallContext, Methods, PendingQuery
from .records import CallLog, CallRecord
from .schema import Schema
from .state import (
    CHANNEL_BOT_ID,
    GROUP_ANONYMOUS_BOT_ID,
    Chat,
    Member,
    Message,
    User,
    admin_rights,
    full_admin_rights,
)
from .textfmt import command_entities
from .updates import UpdateQueue
from .webhook import WebhookConfig, WebhookDeliverer
from .world import World

if TYPE_CHECKING:
    from telegram import Bot
    from telegram.ext import ApplicationBuilder

    from .transport_inprocess import SandboxRequest

DEFAULT_BOT_ID = 7_000_000_001


@dataclass(frozen=True)
class VisibleMessage:
    """A message as a user sees it in the app, after edits and deletions."""

    message_id: int
    sender_id: int | None
    sender: str
    text: str | None
    buttons: list[list[str]]
    edited: bool
    pinned: bool
    service: str | None = None


@dataclass(frozen=True)
class Press:
    """A button press: the callback query the bot received, and how the bot answered it."""

    sandbox: Sandbox
    query_id: str

    @property
    def answered(self) -> bool:
        return self.sandbox.callback_queries[self.query_id].answered

    @property
    def answer(self) -> dict[str, Any]:
        return self.sandbox.callback_queries[self.query_id].answer


class Sandbox:
    def __init__(
        self,
        *,
        speed: float = 1.0,
        limits: Limits | None = None,
        bot_username: str = "mafia_sandbox_bot",
        bot_name: str = "Mafia Sandbox",
        bot_id: int = DEFAULT_BOT_ID,
        privacy_mode: bool = True,
        strict: bool = True,
        start_time: float | None = None,
        schema: Schema | None = None,
    ) -> None:
        self.clock = SandboxClock(speed, start_time)
        self.limits = limits or Limits()
        self.limiter = RateLimiter(self.limits)
        self.schema = schema or Schema.bundled()
        self.world = World(User(bot_id, bot_name, username=bot_username, is_bot=True))
        self.token = f"{bot_id}:SANDBOX-{bot_username}-token"
        self.privacy_mode = privacy_mode
        self.strict = strict
        self.log = CallLog()
        self.faults = FaultPlan()
        self.updates = UpdateQueue()
        self.callback_queries: dict[str, PendingQuery] = {}
        self.commands: dict[str, list[dict[str, str]]] = {}
        self.webhook: WebhookDeliverer | None = None
        self._query_ids = itertools.count(4_242_000_000_000_001)
        self._methods = Methods(self)
        self._called: asyncio.Event | None = None

    @property
    def bot_user(self) -> User:
        return self.world.bot

    @property
    def bot_username(self) -> str:
        return self.world.bot.username or ""

    # == the Bot API ==============================================================

    async def call(
        self, method: str, raw: Mapping[str, Any] | None = None, token: str | None = None
    ) -> tuple[int, dict[str, Any]]:
        """Answer one Bot API request: (HTTP status, JSON body). Every call is recorded."""
        raw = dict(raw or {})
        spec = self.schema.method(method)
        name = spec.name if spec else method
        ctx = CallContext(name)
        unknown: list[str] = []
        params: dict[str, Any] = raw
        fault_kind: str | None = None
        try:
            if token is not None and token != self.token:
                raise ApiError(401, "Unauthorized")
            if spec is None:
                raise not_found()
            fault = self.faults.take(name)
            if fault is not None:
                fault_kind = fault.kind
                await self._apply_fault(fault)
            params, unknown = self.schema.parse_params(spec, raw)
            handler = self._methods.handlers.get(name)
            if handler is None:
                raise ApiError(501, f"Not Implemented: the sandbox does not model {name}")
            result = await handler(params, ctx)
            if name != "getUpdates":  # updates are checked when built; injected ones may be raw
                problems = self.schema.problems(spec.returns, result)
                if problems:
                    raise SandboxBug(f"{name} built an invalid result: {problems[:3]}")
        except ApiError as error:
            self._record(ctx, params, unknown, error=error, fault=fault_kind)
            return error.code, error.payload()
        except SandboxBug as bug:
            self._record(ctx, params, unknown, error=ApiError(500, str(bug)))
            if self.strict:
                raise
            return 500, {"ok": False, "error_code": 500, "description": str(bug)}
        self._record(ctx, params, unknown, result=result, fault=fault_kind)
        return 200, {"ok": True, "result": result}

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

    async def start_webhook(self, url: str, secret_token: str | None) -> None:
        await self.stop_webhook()
        self.webhook = WebhookDeliverer(WebhookConfig(url, secret_token), self.updates, self.clock)
        self.webhook.start()

    async def stop_webhook(self) -> None:
        if self.webhook is not None:
            await self.webhook.stop()
            self.webhook = None

    async def close(self) -> None:
        await self.stop_webhook()

    # -- wiring a python-telegram-bot Bot ------------------------------------------

    def request(self, read_timeout: float = 5.0) -> SandboxRequest:
        from .transport_inprocess import SandboxRequest

        return SandboxRequest(self, read_timeout=read_timeout)

    def bot(self) -> Bot:
        from telegram import Bot

        return Bot(self.token, request=self.request(), get_updates_request=self.request())

    def application_builder(self) -> ApplicationBuilder[Any, Any, Any, Any, Any, Any]:
        """An ApplicationBuilder already wired to this sandbox in-process."""
        from telegram.ext import ApplicationBuilder

        return (
            ApplicationBuilder()
            .token(self.token)
            .request(self.request())
            .get_updates_request(self.request())
        )

    async def wait_for(
        self, predicate: Callable[[], bool], timeout: float = 5.0, poll: float = 0.02
    ) -> None:
        """Wait (real seconds) until `predicate()` holds; re-checked after every bot call."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError("the sandbox condition did not come true in time")
            if self._called is None:
                self._called = asyncio.Event()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._called.wait(), min(poll * 10, remaining))

    # == building the world =========================================================

    def add_user(
        self,
        first_name: str,
        *,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "en",
        started: bool = False,
    ) -> SimUser:
        user = self.world.add_user(
            first_name,
            last_name=last_name,
            username=username,
            language_code=language_code,
            started=started,
        )
        return SimUser(self, user)

    def add_users(
        self, count: int, *, started: bool = False, prefix: str = "Player"
    ) -> list[SimUser]:
        return [
            self.add_user(f"{prefix}{i + 1}", username=f"{prefix.lower()}{i + 1}", started=started)
            for i in range(count)
        ]

    def user(self, user_id: int) -> SimUser:
        return SimUser(self, self.world.users[user_id])

    def add_group(
        self,
        title: str,
        *,
        members: Iterable[SimUser | User] = (),
        supergroup: bool = True,
        owner: SimUser | User | None = None,
        bot_member: bool = True,
        bot_rights: Mapping[str, bool] | None = None,
        username: str | None = None,
    ) -> Chat:
        """A group (supergroup by default) holding `members`; the bot is an administrator
        with `bot_rights` (see `state.admin_rights`) or, when None, a plain member."""
        chat = self.world.add_chat("supergroup" if supergroup else "group", title, username)
        if owner is not None:
            chat.members[owner.id] = Member(owner.id, status="creator", rights=full_admin_rights())
        for member in members:
            chat.members.setdefault(member.id, Member(member.id))
        if bot_member:
            self.set_bot_rights(chat, bot_rights)
        return chat

    def add_channel(self, title: str, username: str | None = None) -> Chat:
        return self.world.add_chat("channel", title, username)

    def set_bot_rights(self, chat: Chat, rights: Mapping[str, bool] | None) -> None:
        """Make the bot an administrator with `rights`, or a plain member when None."""
        bot_id = self.world.bot.id
        if rights is None:
            chat.members[bot_id] = Member(bot_id)
        else:
            chat.members[bot_id] = Member(
                bot_id, status="administrator", rights=admin_rights(**rights)
            )

    def promote(
        self, chat: Chat, user: SimUser | User, *, anonymous: bool = False, **rights: bool
    ) -> None:
        chat.members[user.id] = Member(
            user.id, status="administrator", rights=admin_rights(**rights), is_anonymous=anonymous
        )

    def join(self, chat: Chat, user: SimUser | User) -> Message:
        """`user` joins `chat`: a member, and a new_chat_members service message."""
        chat.members[user.id] = Member(user.id)
        message = self.post(chat, user.id, None, new_members=[user.id])
        self._deliver(chat, message, service=True)
        return message

    def chat(self, chat_id: int) -> Chat:
        return self.world.chats[chat_id]

    # == messages =====================================================================

    def post(
        self,
        chat: Chat,
        from_id: int | None,
        text: str | None,
        *,
        entities: list[dict[str, Any]] | None = None,
        markup: dict[str, Any] | None = None,
        reply_to: int | None = None,
        sender_chat_id: int | None = None,
        pinned: int | None = None,
        new_members: list[int] | None = None,
        automatic_forward: bool = False,
    ) -> Message:
        message = Message(
            chat_id=chat.id,
            message_id=chat.new_message_id(),
            date=self.clock.date(),
            from_id=from_id,
            text=text,
            entities=entities or [],
            reply_markup=markup,
            sender_chat_id=sender_chat_id,
            reply_to=reply_to,
            pinned_message_id=pinned,
            new_chat_member_ids=new_members or [],
            is_automatic_forward=automatic_forward,
        )
        chat.messages[message.message_id] = message
        return message

    def _push(self, kind: str, payload: dict[str, Any]) -> dict[str, Any] | None:
        problems = self.schema.problems(("Update",), {"update_id": 1, kind: payload})
        if problems:
            raise SandboxBug(f"built an invalid {kind} update: {problems[:3]}")
        return self.updates.push(kind, payload)

    def _bot_sees(self, chat: Chat, message: Message) -> bool:
        """Whether Telegram delivers this group message to the bot (privacy mode)."""
        if chat.type == "private":
            return True
        bot = self.world.bot_member(chat)
        if not bot.is_present:
            return False
        if not self.privacy_mode or bot.is_admin or message.text is None:
            return True
        for entity in message.entities:
            if entity["type"] == "bot_command":
                command = (message.text or "")[entity["offset"] :][: entity["length"]]
                _, _, target = command.partition("@")
                if not target or target.lower() == self.bot_username.lower():
                    return True
        replied = chat.messages.get(message.reply_to) if message.reply_to else None
        return replied is not None and replied.from_id == self.world.bot.id

    def _deliver(self, chat: Chat, message: Message, *, service: bool = False) -> None:
        if service or self._bot_sees(chat, message):
            kind = "channel_post" if chat.type == "channel" else "message"
            self._push(kind, self.world.message_api(message))

    def inject_update(self, update: dict[str, Any]) -> dict[str, Any]:
        """Queue a raw update as given, even a malformed one (for fuzzing the bot)."""
        return self.updates.push_raw(update)

    # == what users see ===============================================================

    def view(self, user: SimUser | User, chat: Chat | int) -> list[VisibleMessage]:
        chat = chat if isinstance(chat, Chat) else self.world.resolve_chat(chat)
        if chat.type == "private" and chat.id != user.id:
            raise SimulationError("a private chat is seen only by its user")
        out = []
        for message in chat.messages.values():
            if message.deleted:
                continue
            if message.sender_chat_id is not None:
                sender = self.world.chats[message.sender_chat_id].title or ""
            elif message.from_id is not None:
                sender = self.world.users[message.from_id].first_name
            else:
                sender = ""
            service = None
            if message.new_chat_member_ids:
                service = "joined"
            elif message.pinned_message_id is not None:
                service = f"pinned {message.pinned_message_id}"
            buttons = [
                [str(b.get("text", "")) for b in row]
                for row in (message.reply_markup or {}).get("inline_keyboard", [])
            ]
            out.append(
                VisibleMessage(
                    message_id=message.message_id,
                    sender_id=message.from_id,
                    sender=sender,
                    text=message.text,
                    buttons=buttons,
                    edited=message.edit_date is not None,
                    pinned=message.message_id in chat.pinned,
                    service=service,
                )
            )
        return out

    def render(self, user: SimUser | User, chat: Chat | int) -> str:
        """The chat as plain text, one message per block (for demos and failing tests)."""
        lines = []
        for m in self.view(user, chat):
            mark = " (edited)" if m.edited else ""
            body = m.service or m.text or ""
            lines.append(f"[{m.message_id}] {m.sender}{mark}: {body}")
            lines.extend("    " + " | ".join(f"[{b}]" for b in row) for row in m.buttons)
        return "\n".join(lines)

    # == users acting ================================================================

    def user_send(
        self,
        user: SimUser | User,
        chat: Chat | int,
        text: str,
        *,
        reply_to: int | None = None,
        anonymous: bool = False,
    ) -> Message:
        user = self.world.users[user.id]
        chat = chat if isinstance(chat, Chat) else self.world.resolve_chat(chat)
        now = self.clock.date()
        if chat.type == "private":
            if chat.id != user.id:
                raise SimulationError("users write to the bot only in their own private chat")
            if not text.startswith("/start"):
                if user.blocked:
                    raise SimulationError(f"{user.first_name} blocked the bot; unblock first")
                if not user.started:
                    raise SimulationError(f"{user.first_name} must press Start (send /start) first")
            elif user.blocked:
                self._set_blocked(user, False)
            user.started = True
        elif chat.type == "channel":
            raise SimulationError("users do not post in channels here; use post_as_channel")
        else:
            member = self.world.member(chat, user.id)
            if not member.is_present:
                raise SimulationError(f"{user.first_name} is not a member of {chat.title}")
            if not member.is_admin:
                allowed = chat.permissions.get("can_send_messages", False)
                if _status(member, now) == "restricted":
                    allowed = allowed and member.restrictions.get("can_send_messages", False)
                if not allowed:
                    raise SimulationError(f"{user.first_name} may not post in {chat.title}")
            if anonymous and not member.is_admin:
                raise SimulationError("only administrators can post anonymously")
        if reply_to is not None and chat.live_message(reply_to) is None:
            raise SimulationError(f"no message {reply_to} to reply to")
        entities = command_entities(text)
        if anonymous:
            message = self.post(
                chat, GROUP_ANONYMOUS_BOT_ID, text, entities=entities,
                reply_to=reply_to, sender_chat_id=chat.id,
            )  # fmt: skip
        else:
            message = self.post(chat, user.id, text, entities=entities, reply_to=reply_to)
        self._deliver(chat, message)
        return message

    def post_as_channel(self, chat: Chat, channel: Chat, text: str) -> Message:
        """A message in group `chat` sent on behalf of `channel` (sender_chat = the channel)."""
        message = self.post(
            chat, CHANNEL_BOT_ID, text, entities=command_entities(text), sender_chat_id=channel.id
        )
        self._deliver(chat, message)
        return message

    def user_edit(self, user: SimUser | User, message: Message, text: str) -> Message:
        """The user edits their message: an edited_message update."""
        chat = self.world.chats[message.chat_id]
        if message.deleted or message.from_id != user.id:
            raise SimulationError("users edit only their own live messages")
        message.text = text
        message.entities = command_entities(text)
        message.edit_date = self.clock.date()
        if self._bot_sees(chat, message):
            self._push("edited_message", self.world.message_api(message))
        return message

    def open_deep_link(self, user: SimUser | User, link_or_payload: str) -> Message:
        """Open `t.me/<bot>?start=<payload>` (or just the payload): /start <payload> in private."""
        match = re.search(r"t\.me/([A-Za-z0-9_]+)\?start=([A-Za-z0-9_-]+)", link_or_payload)
        if match:
            if match.group(1).lower() != self.bot_username.lower():
                raise SimulationError(f"{link_or_payload} is not a link to this bot")
            payload = match.group(2)
        else:
            payload = link_or_payload
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", payload):
            raise SimulationError(f"Telegram would not pass start parameter {payload!r}")
        chat = self.world.private_chat(self.world.users[user.id])
        return self.user_send(user, chat, f"/start {payload}")

    def deep_link(self, payload: str) -> str:
        return f"https://t.me/{self.bot_username}?start={payload}"

    def press(
        self,
        user: SimUser | User,
        chat: Chat | int,
        button_text: str,
        *,
        message_id: int | None = None,
    ) -> Press:
        """Press the inline button labelled `button_text` on the latest message showing it
        (or on `message_id`)."""
        user = self.world.users[user.id]
        chat = chat if isinstance(chat, Chat) else self.world.resolve_chat(chat)
        if chat.type == "private" and chat.id != user.id:
            raise SimulationError("a private chat is seen only by its user")
        if chat.is_group and not self.world.member(chat, user.id).is_present:
            raise SimulationError(f"{user.first_name} is not in {chat.title}")
        candidates = (
            [chat.live_message(message_id)]
            if message_id is not None
            else sorted(
                (m for m in chat.messages.values() if not m.deleted),
                key=lambda m: -m.message_id,
            )
        )
        for message in candidates:
            if message is None or message.reply_markup is None:
                continue
            for row in message.reply_markup.get("inline_keyboard", []):
                for button in row:
                    if button.get("text") == button_text:
                        return self._press(user, chat, message, button)
        raise SimulationError(f"no button {button_text!r} visible in {chat.title or chat.id}")

    def _press(self, user: User, chat: Chat, message: Message, button: dict[str, Any]) -> Press:
        if "url" in button:
            self.open_deep_link(user, str(button["url"]))
            return Press(self, "")
        if "callback_data" not in button:
            raise SimulationError("the sandbox presses only callback and deep-link buttons")
        query_id = str(next(self._query_ids))
        data = str(button["callback_data"])
        self.callback_queries[query_id] = PendingQuery(
            query_id, user.id, chat.id, message.message_id, data, self.clock.now()
        )
        self._push(
            "callback_query",
            {
                "id": query_id,
                "from": user.to_api(),
                "message": self.world.message_api(message),
                "chat_instance": chat.chat_instance,
                "data": data,
            },
        )
        return Press(self, query_id)

    def block(self, user: SimUser | User) -> None:
        self._set_blocked(self.world.users[user.id], True)

    def unblock(self, user: SimUser | User) -> None:
        self._set_blocked(self.world.users[user.id], False)

    def _set_blocked(self, user: User, blocked: bool) -> None:
        if user.blocked == blocked:
            return
        user.blocked = blocked
        chat = self.world.private_chat(user)
        bot = self.world.bot.to_api()
        member = {"status": "member", "user": bot}
        kicked = {"status": "kicked", "user": bot, "until_date": 0}
        self._push(
            "my_chat_member",
            {
                "chat": self.world.chat_api(chat),
                "from": user.to_api(),
                "date": self.clock.date(),
                "old_chat_member": member if blocked else kicked,
                "new_chat_member": kicked if blocked else member,
            },
        )


def _status(member: Member, now: int) -> str:
    from .world import effective_status

    return effective_status(member, now)


class SimUser:
    """A simulated Telegram user: a handle on the sandbox acting as them."""

    def __init__(self, sandbox: Sandbox, user: User) -> None:
        self.sandbox = sandbox
        self.user = user

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.first_name

    @property
    def private_chat(self) -> Chat:
        return self.sandbox.world.private_chat(self.user)

    def send(self, chat: Chat | int, text: str, **kwargs: Any) -> Message:
        return self.sandbox.user_send(self, chat, text, **kwargs)

    def command(
        self, chat: Chat | int, command: str, args: str = "", mention: bool = False
    ) -> Message:
        """Send `/command` (as `/command@bot` when `mention`), with optional arguments."""
        text = "/" + command.lstrip("/")
        if mention:
            text += "@" + self.sandbox.bot_username
        return self.send(chat, f"{text} {args}".strip())

    def start(self, payload: str | None = None) -> Message:
        if payload is None:
            return self.send(self.private_chat, "/start")
        return self.sandbox.open_deep_link(self, payload)

    def open_deep_link(self, link: str) -> Message:
        return self.sandbox.open_deep_link(self, link)

    def press(self, chat: Chat | int, button_text: str, message_id: int | None = None) -> Press:
        return self.sandbox.press(self, chat, button_text, message_id=message_id)

    def edit(self, message: Message, text: str) -> Message:
        return self.sandbox.user_edit(self, message, text)

    def block(self) -> None:
        self.sandbox.block(self)

    def unblock(self) -> None:
        self.sandbox.unblock(self)

    def view(self, chat: Chat | int | None = None) -> list[VisibleMessage]:
        """What this user sees in `chat` (their private chat with the bot by default)."""
        return self.sandbox.view(self, self.private_chat if chat is None else chat)

    def texts(self, chat: Chat | int | None = None) -> list[str]:
        return [m.text for m in self.view(chat) if m.text is not None]

    def __repr__(self) -> str:
        return f"SimUser({self.user.id}, {self.user.first_name!r})"
