"""The queue for a table on the database (SQLite and PostgreSQL): /newgame's admission in
its own transaction, the leader's look that tells the groups at its head, the held
tables, and replicas that admit at the same moment (PostgreSQL)."""

from __future__ import annotations

import threading
import time

import pytest
import sqlalchemy as sa

from tg_mafia.i18n import translator
from tg_mafia.ops.budget import TokenBudget, opening_rate
from tg_mafia.runtime.admission.waitlist import admit, offer
from tg_mafia.storage import Database, open_database
from tg_mafia.storage import waitlist as store

T = translator("en")
# Room for exactly one classic lobby.
ONE_GAME = TokenBudget(calls_per_second=opening_rate("classic") * 1.5 / 60, share=1.0)
CHATS = (-1001, -1002, -1003, -1004)


def try_open(db: Database, chat_id: int, now: float, budget: TokenBudget = ONE_GAME) -> str | None:
    """What /newgame's transaction does: admission, then the lobby when admitted."""
    with db.transaction() as tx:
        refused = admit(tx, budget, chat_id, 0, "classic", f"Group {chat_id}", now, T)
        if refused is None:
            tx.create_lobby(chat_id, opened_by=1, variant="classic", language="en")
        return refused


def queue(db: Database) -> list[tuple[int, float | None]]:
    with db.transaction() as tx:
        return [(row.chat_id, row.held_until) for row in store.queue(tx)]


def test_a_full_budget_queues_the_groups_and_a_free_table_goes_to_the_first(db: Database) -> None:
    first, second, third, fourth = CHATS
    with db.transaction() as tx:
        tx.toggle_next_game(second, 0, 77)  # someone there asked /nextgame
    assert try_open(db, first, 0.0) is None
    refused = try_open(db, second, 1.0)
    assert refused is not None and "number 1 in the queue" in refused
    assert db.active_game(second) is None  # nothing opened
    assert "number 2 in the queue" in (try_open(db, third, 2.0) or "")
    assert "number 1 in the queue" in (try_open(db, second, 3.0) or "")  # asked again
    assert queue(db) == [(second, None), (third, None)]
    assert offer(db, ONE_GAME, 4.0, 604.0) == 0  # the table is still taken
    with db.transaction() as tx:
        assert tx.pending(second) == []
        lobby = tx.active_game(first)
        assert lobby is not None
        tx.abort_game(lobby.id)

    assert offer(db, ONE_GAME, 5.0, 605.0) == 1  # only one table: the first group's
    assert queue(db) == [(second, 605.0), (third, None)]
    with db.transaction() as tx:
        (told,) = tx.pending(second)
        assert "A table is free for this group" in told.op["text"]
        (ping,) = tx.pending(77)
        assert "A table is free in «Group -1002»" in ping.op["text"]
        assert tx.pending(third) == []
    # The held table is the second group's: a newcomer waits behind the third.
    assert "number 2 in the queue" in (try_open(db, fourth, 6.0) or "")
    assert try_open(db, second, 7.0) is None
    assert db.active_game(second) is not None
    assert queue(db) == [(third, None), (fourth, None)]


def test_a_held_table_that_nobody_takes_goes_to_the_next(db: Database) -> None:
    first, second, third, _ = CHATS
    assert try_open(db, first, 0.0) is None
    try_open(db, second, 1.0)
    try_open(db, third, 2.0)
    with db.transaction() as tx:
        tx.abort_game(tx.active_game(first).id)  # type: ignore[union-attr]
    assert offer(db, ONE_GAME, 10.0, 610.0) == 1
    assert offer(db, ONE_GAME, 609.0, 1209.0) == 0  # still held
    assert offer(db, ONE_GAME, 610.0, 1210.0) == 1  # its time is over: the third's now
    assert queue(db) == [(third, 1210.0)]
    # The second group lost its turn: it queues again, behind none but a held table.
    assert "number 1 in the queue" in (try_open(db, second, 611.0) or "")


def test_without_a_queue_a_game_that_fits_opens(db: Database) -> None:
    roomy = TokenBudget()
    for chat_id in CHATS:
        assert try_open(db, chat_id, 0.0, roomy) is None
    assert queue(db) == []
    with db.transaction() as tx:
        assert store.open_games(tx) == ({"classic": len(CHATS)}, {})  # lobbies, running


def test_an_open_game_is_not_admissions_business(db: Database) -> None:
    first = CHATS[0]
    assert try_open(db, first, 0.0) is None
    with db.transaction() as tx:  # the lobby's own "already open" answers
        assert admit(tx, ONE_GAME, first, 0, "classic", "", 1.0, T) is None
    assert queue(db) == []


def test_replicas_admitting_at_once_take_turns(database_url: str, backend: str) -> None:
    """Two replicas' /newgame at the same moment, with room for one game: the second
    waits for the first's transaction and finds the table taken."""
    if backend != "postgresql":
        pytest.skip("SQLite has one process, whose database thread admits one at a time")
    with open_database(database_url) as one, open_database(database_url) as two:
        admitted = threading.Event()
        release = threading.Event()
        answers: dict[str, str | None] = {}

        def first() -> None:
            with one.transaction() as tx:
                answers["first"] = admit(tx, ONE_GAME, CHATS[0], 0, "classic", "", 0.0, T)
                tx.create_lobby(CHATS[0], opened_by=1, variant="classic", language="en")
                admitted.set()
                release.wait(30)

        def second() -> None:
            answers["second"] = try_open(two, CHATS[1], 0.0)

        threads = [threading.Thread(target=first), threading.Thread(target=second)]
        threads[0].start()
        assert admitted.wait(30)
        threads[1].start()
        _until_waiting_for_a_lock(one.engine)
        release.set()
        for thread in threads:
            thread.join(30)
        assert answers["first"] is None
        assert "number 1 in the queue" in (answers["second"] or "")
        assert one.active_game(CHATS[1]) is None


def _until_waiting_for_a_lock(engine: sa.Engine) -> None:
    """Until another session of this database waits for the advisory lock."""
    sql = sa.text(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with engine.connect() as connection:
            if connection.execute(sql).scalar_one():
                return
        time.sleep(0.01)
    raise AssertionError("the second replica never waited for the first")
