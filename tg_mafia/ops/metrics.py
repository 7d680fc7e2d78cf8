"""The running bot's Prometheus metrics, in a registry the bot owns (never the global one).

Counters and histograms move as things happen (an update handled, a Bot API call answered,
a database error); the gauges that describe the database (games, the outbox, timers) are
set from a `Snapshot` just before each scrape. Every sample carries the replica's name
(REPLICA_ID), so several processes of one bot can be told apart.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping
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
    def __init__(self, replica: str, registry: CollectorRegistry | None = None) -> None:
        self.replica = replica
        self.version = package_version()
        self.started = time.monotonic()
        own = CollectorRegistry()
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
        ProcessCollector(registry=own)
        # What /metrics shows: the above, each sample labelled with the replica.
        self.registry = registry if registry is not None else CollectorRegistry()
        self.registry.register(_Labelled(own, {REPLICA_LABEL: replica}))

    # ----- as things happen ----------------------------------------------------------------

    def update_handled(self, update: object, seconds: float) -> None:
        self.update_seconds.labels(update_kind(update)).observe(seconds)

    def api_call(self, method: str, result: str) -> None:
        self.api_calls.labels(method, result).inc()

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


class _Labelled(Collector):
    """Another registry's metrics with fixed labels added to every sample."""

    def __init__(self, inner: CollectorRegistry, labels: Mapping[str, str]) -> None:
        self.inner = inner
        self.labels = dict(labels)

    def collect(self) -> Iterable[Metric]:
        return self._collect()

    def _collect(self) -> Iterator[Metric]:
        for family in self.inner.collect():
            out = Metric(family.name, family.documentation, family.type, family.unit)
            out.samples = [s._replace(labels={**self.labels, **s.labels}) for s in family.samples]
            yield out
