"""SQLite's writer thread commits the calls queued together at once, and
answers each only after that commit; one call's failure is its own."""

from __future__ import annotations

import asyncio
import functools
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from tg_mafia.bot.dbthread import AsyncDb
from tg_mafia.bot.groupcommit import GroupCommitter, Lane
from tg_mafia.storage import Database, DatabaseUnavailableError, open_database


def lobby(db: Database, chat: int) -> int:
    with db.transaction() as tx:
        return tx.create_lobby(chat, opened_by=1).id


def rename(db: Database, game_id: int, title: str) -> str | None:
    record = db.get_game(game_id)
    assert record is not None
    return db.update_game(game_id, record.version, host_name=title).host_name


def fail(db: Database, game_id: int) -> None:
    with db.transaction() as tx:
        tx.drop_living(game_id, 0, "x")
        raise ValueError("this call's own failure")


async def test_calls_queued_together_share_one_commit(tmp_path: Path) -> None:
    db = open_database(f"sqlite:///{tmp_path / 'bot.db'}")
    games = [lobby(db, -100 - n) for n in range(40)]
    commits: list[int] = []
    event.listen(db.engine, "commit", lambda connection: commits.append(1))
    adb = AsyncDb(db)
    try:
        titles = await asyncio.gather(*(adb.run(rename, g, f"game {g}") for g in games))
        assert titles == [f"game {g}" for g in games]
        assert 1 <= len(commits) < len(games) / 4  # each call alone would be 40 commits
        with pytest.raises(ValueError, match="own failure"):
            await asyncio.gather(adb.run(rename, games[0], "kept"), adb.run(fail, games[1]))
        assert [db.get_game(g).host_name for g in games[:2]] == ["kept", f"game {games[1]}"]  # type: ignore[union-attr]
    finally:
        adb.close()
        db.close()


async def test_an_answer_comes_after_the_commit(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    db, outside = open_database(url), open_database(url)
    game = lobby(db, -100)
    adb = AsyncDb(db)
    try:
        assert await adb.run(rename, game, "seen") == "seen"
        # another connection (another process) sees what the answer said
        assert outside.get_game(game).host_name == "seen"  # type: ignore[union-attr]
    finally:
        adb.close()
        db.close()
        outside.close()


async def test_a_failed_commit_fails_every_call_of_the_group(tmp_path: Path) -> None:
    class Failing(Database):
        def grouped(self) -> Any:
            inner = super().grouped()

            class Context:
                def __enter__(self) -> None:
                    inner.__enter__()

                def __exit__(self, *exc: object) -> bool:
                    inner.__exit__(KeyboardInterrupt, KeyboardInterrupt(), None)
                    raise DatabaseUnavailableError("disk I/O error")

            return Context()

    good = open_database(f"sqlite:///{tmp_path / 'bot.db'}")
    game = lobby(good, -100)
    db = Failing(good.engine)
    committer = GroupCommitter(db)
    loop = asyncio.get_running_loop()
    try:
        calls = [loop.run_in_executor(committer, rename, db, game, f"t{n}") for n in range(5)]
        outcomes = await asyncio.gather(*calls, return_exceptions=True)
        assert all(isinstance(o, DatabaseUnavailableError) for o in outcomes)
        assert good.get_game(game).host_name is None  # type: ignore[union-attr]
    finally:
        committer.shutdown()
        good.close()
    with pytest.raises(RuntimeError, match="shut down"):
        committer.submit(rename, db, game, "late")


def blocked_committer(db: Database) -> tuple[GroupCommitter, threading.Event]:
    """A committer whose thread is held in a first call until the event is set,
    so that the calls queued meanwhile make one batch."""
    committer = GroupCommitter(db)
    release, started = threading.Event(), threading.Event()

    def hold() -> None:
        started.set()
        release.wait(10)

    committer.submit(hold)
    assert started.wait(10)
    return committer, release


async def test_presses_go_first_then_moves_then_the_background_none_starved(
    tmp_path: Path,
) -> None:
    db = open_database(f"sqlite:///{tmp_path / 'bot.db'}")
    game = lobby(db, -100)
    order: list[str] = []
    committer, release = blocked_committer(db)
    committer.max_batch = 4
    event.listen(db.engine, "commit", lambda connection: order.append("commit"))
    try:
        queued = [
            committer.submit_in(lane, functools.partial(order.append, f"{lane.name[0]}{n}"))
            for lane, count in ((Lane.BACKGROUND, 3), (Lane.MOVE, 3), (Lane.PRESS, 5))
            for n in range(count)
        ]
        release.set()
        for future in queued:
            await asyncio.wrap_future(future)
        # The presses join the batch in progress (the held call's); then a batch of 4
        # keeps a place for each lane that waits, the rest to the lanes in their order.
        assert order == [
            *("P0", "P1", "P2", "P3", "P4", "commit"),
            *("M0", "M1", "M2", "B0", "commit"),
            *("B1", "B2", "commit"),
        ]
        lookup = committer.submit_in(Lane.PRESS, lambda: db.get_game(game))
        assert await asyncio.wrap_future(lookup)
    finally:
        committer.shutdown()
        db.close()


async def test_a_press_queued_while_a_batch_runs_joins_it_after_the_call_in_progress(
    tmp_path: Path,
) -> None:
    db = open_database(f"sqlite:///{tmp_path / 'bot.db'}")
    order: list[str] = []
    started, gate = threading.Event(), threading.Event()

    def first_move() -> None:
        order.append("m0")
        started.set()
        gate.wait(10)

    committer, release = blocked_committer(db)
    try:
        moves = [committer.submit_in(Lane.MOVE, first_move)]
        moves += [
            committer.submit_in(Lane.MOVE, functools.partial(order.append, f"m{n}")) for n in (1, 2)
        ]
        release.set()  # the moves' batch begins, and holds in its first call
        assert await asyncio.get_running_loop().run_in_executor(None, started.wait, 10)
        press = committer.submit_in(Lane.PRESS, functools.partial(order.append, "p"))
        gate.set()
        for future in [*moves, press]:
            await asyncio.wrap_future(future)
        assert order == ["m0", "p", "m1", "m2"]
    finally:
        committer.shutdown()
        db.close()


async def test_a_press_says_what_it_decided_before_its_batch_commits(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    db, outside = open_database(url), open_database(url)
    game = lobby(db, -100)
    adb = AsyncDb(db)
    told: list[tuple[str | None, str | None]] = []
    held, release, waiting, pressed, heard = (threading.Event() for _ in range(5))

    def decided(title: str | None) -> None:
        # on the event loop, while the batch is still open: another connection
        # (another process) does not see the write yet
        told.append((title, outside.get_game(game).host_name))  # type: ignore[union-attr]
        heard.set()

    def hold(db: Database) -> None:
        held.set()
        release.wait(10)

    def until_pressed(db: Database) -> None:
        waiting.set()
        pressed.wait(10)

    def after_the_loop_heard(db: Database, game_id: int, title: str) -> str | None:
        heard.wait(10)  # the batch stays open until the loop has heard of the press
        return rename(db, game_id, title)

    loop = asyncio.get_running_loop()
    try:
        holding = asyncio.ensure_future(adb.run(hold))
        assert await loop.run_in_executor(None, held.wait, 10)
        # one batch once the held call returns: the press joins it after the first
        first = asyncio.ensure_future(adb.run(until_pressed))
        late = asyncio.ensure_future(adb.run(after_the_loop_heard, game, "after"))
        await asyncio.sleep(0)  # both queued: each task's first step submits its call
        release.set()
        assert await loop.run_in_executor(None, waiting.wait, 10)  # that batch runs
        press = asyncio.ensure_future(adb.run_move(rename, game, "early", decided=decided))
        await asyncio.sleep(0)
        pressed.set()
        outcomes = list(await asyncio.gather(holding, first, press, late))
        assert outcomes == [None, None, "early", "after"]
        assert told == [("early", None)]
        assert outside.get_game(game).host_name == "after"  # type: ignore[union-attr]
        # A press that fails says nothing early: its caller hears of the failure only.
        with pytest.raises(ValueError, match="own failure"):
            await adb.run_move(fail, game, decided=decided)
        assert len(told) == 1
    finally:
        adb.close()
        db.close()
        outside.close()
