"""With several replicas on one PostgreSQL, any replica serves any game's page:
a move another replica writes reaches a page here through the database's
channel (LISTEN/NOTIFY), and the page's snapshot is read from the database."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from engine import new_game
from engine.actions import Pass
from tests.database_ops import create_lobby, start_game
from tests.replicas.conftest import postgres_url  # noqa: F401 (a fixture)
from tg_mafia.miniapp.hub import Hub, Page
from tg_mafia.miniapp.snapshot import Viewer
from tg_mafia.runtime.clock import BotClock
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.runtime.runner import Runner
from tg_mafia.storage import GameRecord, Player, open_database

pytestmark = pytest.mark.real_time


async def test_a_move_on_another_replica_reaches_a_page_here(
    postgres_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    here, there = open_database(postgres_url), open_database(postgres_url)
    ids = [700 + i for i in range(7)]
    lobby = create_lobby(
        there,
        -100_777,
        opened_by=ids[0],
        players=[Player(u, f"P{u}") for u in ids],
        variant="moscow",
    )
    state, _ = new_game("moscow", [str(u) for u in ids], seed=1)
    game = start_game(
        there,
        lobby.id,
        lobby.version,
        state.to_dict(),
        stage_deadline=time.time() + 600,
        timer_token=str(state.clock.timer_id),
    )
    hub = Hub(AsyncDb(here), BotClock())
    hub.listen(here.engine)
    try:
        assert hub.listener is not None
        loop = asyncio.get_running_loop()
        assert await loop.run_in_executor(None, hub.listener.listening.wait, 30)
        page = Page(game.id, Viewer(ids[1], str(ids[1])))
        hub.open(page)
        elsewhere = Runner(AsyncDb(there), BotClock(), _nothing)

        def speaker_passes(record: GameRecord, now: object) -> object:
            return Pass(str(state.day.speaker))

        outcome = await elsewhere.act(game.id, speaker_passes)  # type: ignore[arg-type]
        assert outcome.error is None and outcome.record is not None
        await asyncio.wait_for(page.wake.wait(), 30)
        taken = page.take()
        assert taken is not None
        _, content = taken
        assert content["v"] == outcome.record.version
        assert content["me"]["seat"] == 2
    finally:
        hub.stop()
        here.close()
        there.close()


def _nothing(record: GameRecord, calls: int) -> None:
    return None
