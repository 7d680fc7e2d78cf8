"""What every handler is handed: python-telegram-bot's context with the application's
own objects typed (`BotData`, PTB's `bot_data`) instead of kept in a dictionary, and the
options the bot is built with. bootstrap.py fills `BotData` in; the game service is in
it while the bot runs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from telegram.ext import Application, CallbackContext, ContextTypes, ExtBot

from engine import Views
from tg_mafia.ops.budget import TokenBudget
from tg_mafia.ops.logs import RecentErrors
from tg_mafia.ops.metrics import BotMetrics
from tg_mafia.runtime.db.shared import SharedDb
from tg_mafia.runtime.service import GameService
from tg_mafia.storage import Database
from tg_mafia.telegram.limiter import InputLimiter


@dataclass(frozen=True)
class BotOptions:
    speed: float = 1.0  # > 1 only in tests and the demo: every timer runs faster
    lobby_seconds: int = 600
    rate_limiter: bool = True  # PTB's AIORateLimiter, on real time (off when speed > 1)
    lobby_seed: int | None = None  # the demo: a seeded deal, to replay a game; None: random
    replica_id: str = "local"  # this process's name on its metrics
    owner_id: int | None = None  # the operator: /status and /drain in private
    drain_seconds: float = 1800.0  # how long a drain lets running games finish
    closed_topic_seconds: int = 1800  # how long a game waits for its closed topic (runner.py)
    retention_days: int = 90  # finished games anonymised after this (docs/privacy.md); 0: never
    mode: str = "polling"  # or webhook: several replicas may share a database (leader.py)
    webhook_secret: str | None = None  # as set by the operator; None when made up at start
    miniapp_name: str | None = None  # BotFather's short name of the table's Mini App
    app_url: str | None = None  # the Mini App's page, served with the webhook
    # The play page: the stages its person plays run at real time at most (clock.py).
    own_pace: Callable[[Views], bool] | None = None
    # The bot token's: how many games it takes (ops/budget.py).
    budget: TokenBudget = field(default_factory=TokenBudget)
    # The first of the process's tokens (or the only one): it takes the rows stored
    # before there were several, and keeps the daily retention (runtime/service.py).
    first_token: bool = True


class NotRunningError(RuntimeError):
    """The game service was asked for while the bot is not running."""


@dataclass
class BotData:
    """The application's own objects (PTB makes one with the application, empty;
    bootstrap.py fills it in)."""

    options: BotOptions = field(default_factory=BotOptions)
    # Every update, Bot API call and refusal counted (replaced by the process's own).
    metrics: BotMetrics = field(default_factory=lambda: BotMetrics(BotOptions.replica_id))
    input_limiter: InputLimiter = field(default_factory=InputLimiter)  # commands and presses
    db: Database | None = None  # the game service's, when it starts
    service: GameService | None = None  # while the bot runs
    errors: RecentErrors | None = None  # the last errors logged, for /status, while it runs
    # Several tokens in one process (bootstrap.Fleet): what its bots share of the
    # database, and who they are (bot id -> username, each filled in at its start).
    shared: SharedDb | None = None
    bots: dict[int, str] = field(default_factory=dict)
    # Every bot of the process, this one too (several tokens): /status and /metrics
    # show them all. Empty: the one bot.
    fleet: list[App] = field(default_factory=list)

    @property
    def running(self) -> GameService:
        """The game service: a handler runs only while the bot does."""
        if self.service is None:
            raise NotRunningError("the game service is not running")
        return self.service


Context = CallbackContext[ExtBot[Any], dict[Any, Any], dict[Any, Any], BotData]
CONTEXT_TYPES = ContextTypes(bot_data=BotData)
App = Application[ExtBot[Any], Context, dict[Any, Any], dict[Any, Any], BotData, Any]
