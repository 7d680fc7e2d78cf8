"""SQLite's writer thread commits the calls queued together at once, and
answers each only after that commit; one call's failure is its own."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from tests.database_ops import update_game
from tg_mafia.runtime.db.groupcommit import GroupCommitter
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.storage import Database, DatabaseUnavailableError, open_database


def lobby(db: Database, chat: int) -> int:
    with db.transaction() as tx:
        return tx.create_lobby(chat, opened_by=1).id


def rename(db: Database, game_id: int, title: str) -> str | None:
    record = db.get_game(game_id)
    assert record is not None
    return update_game(db, game_id, record.version, host_name=title).host_name


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
