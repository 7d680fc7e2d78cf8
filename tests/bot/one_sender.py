"""A sender alone on a fresh database and the sandbox: a test enqueues calls in a
game's name and waits until they are made."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from tg_mafia.render.calls import Op
from tg_mafia.render.calls_json import to_json
from tg_mafia.runtime.clock import BotClock
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.runtime.outbox.sender import Sender
from tg_mafia.sandbox import Sandbox
from tg_mafia.sandbox.virtual_time import current_time_source
from tg_mafia.storage import Database, open_database


@dataclass
class OneSender:
    db: Database
    sender: Sender
    chat_id: int
    game: int

    async def calls(self, *ops: Op) -> None:
        """`ops` to the chat, in the game's name; back once every one is made."""
        with self.db.transaction() as tx:
            for op in ops:
                tx.enqueue(self.chat_id, to_json(op), now=0.0, game_id=self.game)
        await self.sender.drain()


@asynccontextmanager
async def one_sender(
    sb: Sandbox, tmp_path: Path, chat_id: int, opened_by: int, lobby_chat: int | None = None
) -> AsyncIterator[OneSender]:
    """A sender for calls to `chat_id`, of a game whose lobby is in `lobby_chat` (the
    same chat unless given)."""
    db = open_database(f"sqlite:///{tmp_path / 'bot.db'}")
    adb = AsyncDb(db)
    bot = sb.bot()
    await bot.initialize()
    with db.transaction() as tx:
        game = tx.create_lobby(lobby_chat or chat_id, opened_by=opened_by).id
    sender = Sender(bot, adb, BotClock(1.0, current_time_source()))
    sender.start()
    try:
        yield OneSender(db, sender, chat_id, game)
    finally:
        await sender.stop()
        await bot.shutdown()
        adb.close()
        db.close()
