"""The sandbox's bots: each its own account (id, username, token), what Telegram sends
it (its pending updates, by long polling or to its webhook), what it may spend (its
own flood limits: 30 messages a second, 20 a minute in a group, one a second in a
private chat, all per bot), its command menus and BotFather's settings for it.

Users and groups are the world's, shared by every bot: a group holds the bots added
to it; a user's private chat with each bot is a chat of its own (world.privates), and
each bot must be started on its own before it may write there."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tg_mafia.sandbox.limits import Limits, RateLimiter
from tg_mafia.sandbox.transport.updates import UpdateQueue
from tg_mafia.sandbox.world.state import User

if TYPE_CHECKING:
    from tg_mafia.sandbox.transport.webhook import WebhookDeliverer


@dataclass(eq=False)
class SandboxBot:
    user: User
    token: str
    limiter: RateLimiter
    # BotFather's /setprivacy: on, a plain member sees only what is meant for it
    privacy_mode: bool = True
    # BotFather's Bot-to-Bot Communication Mode: off, it never sees other bots' messages
    bot_to_bot: bool = False
    updates: UpdateQueue = field(default_factory=UpdateQueue)
    commands: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    webhook: WebhookDeliverer | None = None
    # Its Bot API methods (methods/table.py's Methods), bound to it: set by the sandbox.
    methods: Any = None

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def username(self) -> str:
        return self.user.username or ""

    def __repr__(self) -> str:
        return f"SandboxBot({self.id}, @{self.username})"


def new_bot(
    bot_id: int, name: str, username: str, limits: Limits, *, privacy_mode: bool, bot_to_bot: bool
) -> SandboxBot:
    """A bot as BotFather makes it: its token is `<id>:<secret>`, as Telegram's are."""
    return SandboxBot(
        User(bot_id, name, username=username, is_bot=True),
        f"{bot_id}:SANDBOX-{username}-token",
        RateLimiter(limits),
        privacy_mode=privacy_mode,
        bot_to_bot=bot_to_bot,
    )
