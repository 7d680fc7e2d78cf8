"""/metrics: after a whole game on the sandbox, read back with prometheus_client's own
parser; every number checked against what the sandbox saw or the database holds."""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from pathlib import Path

import pytest
import sqlalchemy as sa
from prometheus_client.parser import text_string_to_metric_families

from tests.bot.autoplay import AutoPlayers
from tests.bot.harness import running_bot
from tg_mafia.bootstrap import scrape_metrics
from tg_mafia.ops.metrics import BotMetrics, Snapshot, api_result
from tg_mafia.ops.status import read_snapshot
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.sandbox import Sandbox
from tg_mafia.sandbox.transport.faults import Fault
from tg_mafia.storage import GameStatus, open_database
from tg_mafia.telegram.metered import api_method

Samples = list[tuple[str, dict[str, str], float]]


def parse(text: bytes) -> Samples:
    return [
        (sample.name, dict(sample.labels), sample.value)
        for family in text_string_to_metric_families(text.decode())
        for sample in family.samples
    ]


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum of `name`'s samples whose labels include `labels`."""
    return sum(
        value
        for found, given, value in samples
        if found == name and labels.items() <= given.items()
    )


async def test_the_metrics_of_a_whole_game(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        game_id = await h.open_and_fill()
        await h.press_start()
        during = parse(await scrape_metrics(h.app))
        assert total(during, "tg_mafia_games", variant="classic", stage="night") == 1
        assert total(during, "tg_mafia_timers_pending") == 1
        assert total(during, "tg_mafia_outbox_calls") == 0  # settled: everything sent

        # Telegram answers two sends with 429, then one with 502: counted apart.
        h.sb.faults.add(Fault("429", 2, method="sendMessage", retry_after=1))
        h.sb.faults.add(Fault("5xx", 1, method="sendMessage"))
        record = await AutoPlayers(h, scheduler, seed=3).play(game_id)
        assert record.status is GameStatus.ENDED
        await h.settle()
        after = parse(await scrape_metrics(h.app))
        log = list(h.sb.log)

    assert {labels["replica"] for _, labels, _ in after} == {"sandbox"}
    assert total(after, "tg_mafia_build_info") == 1
    assert total(after, "process_resident_memory_bytes") > 0

    # Every call the sandbox answered, by method and result (getUpdates may be in flight).
    seen = Counter(
        (r.method, api_result(r.error_code or 200)) for r in log if r.method != "getUpdates"
    )
    counted = Counter(
        {
            (labels["method"], labels["result"]): int(value)
            for name, labels, value in after
            if name == "tg_mafia_api_calls_total" and labels["method"] != "getUpdates"
        }
    )
    assert +counted == seen
    assert counted["sendMessage", "429"] == 2 and counted["sendMessage", "5xx"] == 1
    assert counted["sendMessage", "ok"] > 20

    # Every update the sandbox delivered was handled and timed, by kind.
    updates = [u for r in log if r.method == "getUpdates" and r.ok for u in r.result]
    kinds = Counter(next(k for k in u if k != "update_id") for u in updates)
    assert kinds["callback_query"] > 5 and kinds["message"] >= 8  # presses; commands, joins
    for kind, count in kinds.items():
        assert total(after, "tg_mafia_update_seconds_count", kind=kind) == count, kind
    assert total(after, "tg_mafia_update_seconds_count") == len(updates)
    assert total(after, "tg_mafia_update_seconds_bucket", le="+Inf") == len(updates)
    assert total(after, "tg_mafia_update_errors_total") == 0

    # The game is over: no game, nothing waiting, no timer.
    assert total(after, "tg_mafia_games") == 0
    assert total(after, "tg_mafia_outbox_calls") == 0
    assert total(after, "tg_mafia_outbox_oldest_seconds") == 0
    assert total(after, "tg_mafia_timers_pending") == 0
    assert total(after, "tg_mafia_draining") == 0


async def test_the_outbox_backlog_and_its_age(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 2) as h:
        await h.hold_calls()  # the sender stops: Telegram unreachable, say
        h.admin.command(h.group, "help", mention=True)
        h.users[0].command(h.group, "rules", mention=True)
        await h.handled()
        await asyncio.sleep(90)  # virtual: free
        samples = parse(await scrape_metrics(h.app))
        assert total(samples, "tg_mafia_outbox_calls") == 2
        assert 90 <= total(samples, "tg_mafia_outbox_oldest_seconds") < 91


async def test_database_errors_are_counted_by_kind(tmp_path: Path) -> None:
    async with running_bot(tmp_path, 1) as h:
        # A missing table is an OperationalError to SQLite, a ProgrammingError to PostgreSQL.
        missing = (
            sa.exc.OperationalError
            if h.db.engine.dialect.name == "sqlite"
            else sa.exc.ProgrammingError
        )
        with pytest.raises(missing), h.db.engine.connect() as connection:
            connection.execute(sa.text("SELECT * FROM no_such_table"))
        samples = parse(await scrape_metrics(h.app))
        assert total(samples, "tg_mafia_database_errors_total", kind=missing.__name__) == 1
    # Once the bot stopped, the database is no longer watched.
    metrics: BotMetrics = h.app.bot_data.metrics
    # (On PostgreSQL the test's database is dropped by then: the connection fails.)
    with pytest.raises(sa.exc.DBAPIError), h.db.engine.connect() as connection:
        connection.execute(sa.text("SELECT * FROM no_such_table"))
    assert total(parse(metrics.exposition()), "tg_mafia_database_errors_total") == 1


def test_a_database_that_does_not_answer_shows_unknown_not_stale(tmp_path: Path) -> None:
    metrics = BotMetrics("r1")
    metrics.observe(Snapshot({("moscow", "vote"): 2}, 5, 70.0, 2), 3, draining=True)
    before = parse(metrics.exposition())
    assert total(before, "tg_mafia_games", variant="moscow", stage="vote") == 2
    assert total(before, "tg_mafia_outbox_oldest_seconds") == 70
    assert total(before, "tg_mafia_updates_waiting") == 3
    assert total(before, "tg_mafia_draining") == 1
    metrics.observe(None, 0, draining=False)
    after = parse(metrics.exposition())
    assert not [s for s in after if s[0] == "tg_mafia_games"]
    assert math.isnan(total(after, "tg_mafia_outbox_oldest_seconds"))
    assert math.isnan(total(after, "tg_mafia_outbox_calls"))


def test_two_bots_in_one_process_keep_their_own_counts() -> None:
    first, second = BotMetrics("a"), BotMetrics("b")
    first.api_call("sendMessage", "ok")
    assert total(parse(first.exposition()), "tg_mafia_api_calls_total") == 1
    assert total(parse(second.exposition()), "tg_mafia_api_calls_total") == 0


@pytest.mark.parametrize(
    ("status", "result"),
    [(200, "ok"), (400, "4xx"), (403, "4xx"), (429, "429"), (502, "5xx"), (None, "network")],
)
def test_api_results(status: int | None, result: str) -> None:
    assert api_result(status) == result


def test_api_method_names() -> None:
    assert api_method("https://api.telegram.org/bot1:AA/sendMessage") == "sendMessage"
    assert api_method("http://127.0.0.1:8081/bot1:AA/getUpdates/") == "getUpdates"
    assert api_method("https://api.telegram.org/file/bot1:AA/photos/x.jpg") == "file"


async def test_calls_that_get_no_answer_count_as_network(tmp_path: Path) -> None:
    class Quick(Sandbox):
        def request(self, read_timeout: float = 0.5):  # type: ignore[no-untyped-def]
            return super().request(read_timeout)

    sb = Quick()
    async with running_bot(tmp_path, 1, sb=sb) as h:
        h.sb.faults.add(Fault("hang", 1, method="sendMessage", hang_seconds=5))
        h.users[0].command(h.group, "help", mention=True)
        await h.settle()
        samples = parse(await scrape_metrics(h.app))
    assert total(samples, "tg_mafia_api_calls_total", method="sendMessage", result="network") == 1
    assert total(samples, "tg_mafia_api_calls_total", method="sendMessage", result="ok") >= 1


def test_the_oldest_call_leaves_out_users_who_blocked_the_bot(tmp_path: Path) -> None:
    with open_database(f"sqlite:///{tmp_path / 'x.db'}") as db:
        with db.transaction() as tx:
            tx.enqueue(-100, {"m": "send", "text": "a"}, now=150.0)
            tx.enqueue(7, {"m": "send", "text": "b"}, now=50.0)  # to a user who blocked us
            tx.enqueue(-100, {"m": "send", "text": "c"}, now=160.0)
        assert read_snapshot(db, 200.0, parked={7}) == Snapshot({}, 3, 50.0, 0)
        assert read_snapshot(db, 200.0).outbox_oldest_seconds == 150.0
        with db.transaction() as tx:
            tx.done([e.id for e in tx.pending(-100)])
        assert read_snapshot(db, 200.0, parked={7}) == Snapshot({}, 1, None, 0)
