"""The running bot's Prometheus metrics, in a registry the bot owns (never the global one).

Counters and histograms move as things happen (an update handled, a Bot API call answered,
a database error); the gauges that describe the database (games, the outbox, timers) are
set from a `Snapshot` just before each scrape. Every sample carries the replica's name
(REPLICA_ID), so several processes of one bot can be told apart, and the bot's id (the
`bot` label: one process may serve several tokens, each with its own `BotMetrics`, shown
together by `exposition`).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Final

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Metric,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.registry import Collector
from sqlalchemy import Engine, event

REPLICA_LABEL: Final = "replica"
BOT_LABEL: Final = "bot"
RATE_WINDOW: Final = 60.0  # seconds over which /status reads a token's calls a second
# The calls that cost no message budget (long polling, the start-up's): not in the rate.
FREE_CALLS: Final = frozenset({"getUpdates", "getMe", "setWebhook", "deleteWebhook",
                               "getWebhookInfo", "setMyCommands"})  # fmt: skip
CONTENT_TYPE: Final = "text/plain; version=0.0.4; charset=utf-8"
# The kinds of update the bot handles; anything else counts as "other".
UPDATE_KINDS: Final = (
    "message",
    "edited_message",
    "callback_query",
    "my_chat_member",
    "chat_member",
)
# Results of a Bot API call, as the alerts tell them apart.
API_RESULTS: Final = ("ok", "4xx", "429", "5xx", "network")


def package_version() -> str:
    try:
        return version("tg-mafia")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


@dataclass(frozen=True)
class Snapshot:
    """What the database says about the bot now: read for each scrape and for /status."""

    games: Mapping[tuple[str, str], int] = field(default_factory=dict)  # (variant, stage)
    outbox_calls: int = 0
    outbox_oldest_seconds: float | None = None  # None: nothing waits (blocked users aside)
    timers_pending: int = 0
    groups_waiting: int = 0  # for a table: the token's budget was full (bot/waitlist.py)

    @property
    def running(self) -> int:
        return sum(n for (_, stage), n in self.games.items() if stage != "lobby")

    @property
    def lobbies(self) -> int:
        return sum(n for (_, stage), n in self.games.items() if stage == "lobby")


class BotMetrics:
    """One bot's (one token's) metrics in one process; `bot` its label (its id)."""

    def __init__(
        self,
        replica: str,
        registry: CollectorRegistry | None = None,
        bot: str = "",
        process: bool = True,
    ) -> None:
        self.replica = replica
        self.bot = bot
        self.version = package_version()
        self.started = time.monotonic()
        self._calls: deque[float] = deque()  # when each call of the last RATE_WINDOW went
        self.refused = 0  # /newgame turned away by admission since the start
        own = CollectorRegistry()
        self.own = own
        self.build_info = Gauge(
            "tg_mafia_build_info", "Always 1: the running version.", ["version"], registry=own
        )
        self.build_info.labels(self.version).set(1)
        self.update_seconds = Histogram(
            "tg_mafia_update_seconds",
            "Time to handle one update, from its handler's start to its end (its _count: "
            "updates handled).",
            ["kind"],
            registry=own,
        )
        self.update_errors = Counter(
            "tg_mafia_update_errors", "Updates whose handler raised an error.", registry=own
        )
        self.updates_waiting = Gauge(
            "tg_mafia_updates_waiting", "Updates received and not yet handled.", registry=own
        )
        self.api_calls = Counter(
            "tg_mafia_api_calls",
            "Bot API calls by method and result: ok, 4xx, 429, 5xx, network (no answer).",
            ["method", "result"],
            registry=own,
        )
        self.games = Gauge(
            "tg_mafia_games", "Unfinished games by variant and stage.", ["variant", "stage"],
            registry=own,
        )  # fmt: skip
        self.outbox_calls = Gauge(
            "tg_mafia_outbox_calls", "Bot API calls waiting in the outbox.", registry=own
        )
        self.outbox_oldest = Gauge(
            "tg_mafia_outbox_oldest_seconds",
            "How long the oldest call in the outbox has waited (0: none waits), leaving out "
            "the calls to users who blocked the bot, which wait for them.",
            registry=own,
        )
        self.timers_pending = Gauge(
            "tg_mafia_timers_pending", "Unfinished games with a stage timer running.", registry=own
        )
        self.database_errors = Counter(
            "tg_mafia_database_errors",
            "Errors the database driver raised, by kind (IntegrityError: a race the code "
            "expects and handles).",
            ["kind"],
            registry=own,
        )
        self.refused_presses = Counter(
            "tg_mafia_refused_presses",
            "Presses the gate refused, by reason: no_message (an inline message), "
            "unknown_message (no buttons of ours recorded on it), not_offered (data that "
            "is not one of its buttons), other_game (a button of another game).",
            ["reason"],
            registry=own,
        )
        self.limited_inputs = Counter(
            "tg_mafia_limited_inputs",
            "Commands and presses refused by the per-user limit, by kind.",
            ["kind"],
            registry=own,
        )
        self.draining = Gauge(
            "tg_mafia_draining", "1 while draining for a deploy: no new games.", registry=own
        )
        self.admissions_refused = Counter(
            "tg_mafia_admissions_refused",
            "/newgame turned away because the token's budget was full (the group queued).",
            registry=own,
        )
        if process:  # the process's own figures: once for all its bots
            ProcessCollector(registry=own)
        # What /metrics shows: the above, each sample labelled with the replica (and bot).
        self.registry = registry if registry is not None else CollectorRegistry()
        self.registry.register(_Merged([self]))

    @property
    def labels(self) -> dict[str, str]:
        """The labels every sample of this bot carries."""
        labels = {REPLICA_LABEL: self.replica}
        if self.bot:
            labels[BOT_LABEL] = self.bot
        return labels

    # ----- as things happen ----------------------------------------------------------------

    def update_handled(self, update: object, seconds: float) -> None:
        self.update_seconds.labels(update_kind(update)).observe(seconds)

    def api_call(self, method: str, result: str) -> None:
        self.api_calls.labels(method, result).inc()
        if method not in FREE_CALLS:
            now = time.monotonic()
            self._calls.append(now)
            while self._calls and self._calls[0] < now - RATE_WINDOW:
                self._calls.popleft()

    def admission_refused(self) -> None:
        """A /newgame turned away: the token's budget was full (thread-safe)."""
        self.admissions_refused.inc()
        self.refused += 1

    def calls_per_second(self) -> float:
        """The bot's Bot API calls a second over the last minute (long polling left out)."""
        now = time.monotonic()
        while self._calls and self._calls[0] < now - RATE_WINDOW:
            self._calls.popleft()
        return len(self._calls) / min(RATE_WINDOW, max(1.0, now - self.started))

    def watch(self, engine: Engine) -> None:
        """Counts the errors the database driver raises on `engine`, until `unwatch`."""
        event.listen(engine, "handle_error", self._database_error)

    def unwatch(self, engine: Engine) -> None:
        if event.contains(engine, "handle_error", self._database_error):
            event.remove(engine, "handle_error", self._database_error)

    def _database_error(self, context: Any) -> None:
        error = context.sqlalchemy_exception or context.original_exception
        self.database_errors.labels(type(error).__name__).inc()

    # ----- at each scrape ------------------------------------------------------------------

    def observe(self, snapshot: Snapshot | None, updates_waiting: int, draining: bool) -> None:
        """Sets the gauges. A None snapshot (the database did not answer) shows the
        database's gauges as NaN, unknown, rather than stale numbers."""
        self.updates_waiting.set(updates_waiting)
        self.draining.set(1 if draining else 0)
        self.games.clear()
        if snapshot is None:
            for gauge in (self.outbox_calls, self.outbox_oldest, self.timers_pending):
                gauge.set(float("nan"))
            return
        for (variant, stage), count in sorted(snapshot.games.items()):
            self.games.labels(variant, stage).set(count)
        self.outbox_calls.set(snapshot.outbox_calls)
        self.outbox_oldest.set(snapshot.outbox_oldest_seconds or 0.0)
        self.timers_pending.set(snapshot.timers_pending)

    def exposition(self) -> bytes:
        """The metrics in Prometheus' text format."""
        return generate_latest(self.registry)


def exposition(every: Sequence[BotMetrics]) -> bytes:
    """Several bots' metrics (one process, several tokens) in one text: each family
    once, with every bot's samples under their own labels."""
    registry = CollectorRegistry()
    registry.register(_Merged(every))
    return generate_latest(registry)


def update_kind(update: object) -> str:
    return next((k for k in UPDATE_KINDS if getattr(update, k, None) is not None), "other")


def api_result(status: int | None) -> str:
    """The result label of a Bot API answer's HTTP status (None: no answer at all)."""
    if status is None:
        return "network"
    if 200 <= status < 300:
        return "ok"
    if status == 429:
        return "429"
    return "4xx" if status < 500 else "5xx"


class _Merged(Collector):
    """Bots' own registries as one: each family once, every bot's samples with its
    labels (replica, bot) added."""

    def __init__(self, every: Sequence[BotMetrics]) -> None:
        self.every = list(every)

    def collect(self) -> Iterable[Metric]:
        return self._collect()

    def _collect(self) -> Iterator[Metric]:
        families: dict[str, Metric] = {}
        for metrics in self.every:
            labels = metrics.labels
            for family in metrics.own.collect():
                out = families.get(family.name)
                if out is None:
                    out = Metric(family.name, family.documentation, family.type, family.unit)
                    families[family.name] = out
                out.samples += [s._replace(labels={**labels, **s.labels}) for s in family.samples]
        yield from families.values()
