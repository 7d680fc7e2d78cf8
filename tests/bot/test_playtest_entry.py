"""tg_mafia.playtest is the documented entry point of the end-to-end harness
(docs/testing.md): its example runs as written, and its names are the ones the
modules behind it define, so tests written against either keep working."""

from __future__ import annotations

from pathlib import Path

import tg_mafia.playtest as playtest
from tg_mafia.playtest import AutoPlayers, ManualScheduler, running_bot
from tg_mafia.playtest.autoplay import AutoPlayers as AutoPlayersThere
from tg_mafia.playtest.harness import BOT_RIGHTS, Harness
from tg_mafia.playtest.harness import running_bot as running_bot_there
from tg_mafia.playtest.scheduler import ManualScheduler as ManualSchedulerThere


async def test_a_whole_game(tmp_path: Path) -> None:
    """docs/testing.md's example, as written there."""
    timers = ManualScheduler()  # the test fires the game's timers, never a clock
    async with running_bot(tmp_path, 7, scheduler=timers, lobby_seed=1) as h:
        game = await h.open_and_fill()  # /newgame, then every player through the Join link
        await h.press_start()
        record = await AutoPlayers(h, timers, seed=1).play(game)  # buttons and posts only
        assert record.winner is not None


def test_the_entry_point_names_the_modules_objects() -> None:
    assert (running_bot, AutoPlayers, ManualScheduler) == (
        running_bot_there,
        AutoPlayersThere,
        ManualSchedulerThere,
    )
    assert playtest.Harness is Harness and playtest.BOT_RIGHTS is BOT_RIGHTS
    assert all(hasattr(playtest, name) for name in playtest.__all__)
