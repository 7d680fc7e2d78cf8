"""What the handlers read and change outside a game's move: a chat's settings and its
game, the statistics, /forget, /nextgame and the operator's snapshot. Each is one call in
the database's worker thread (db/thread.py), so the handlers never touch the storage."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from tg_mafia.ops.metrics import Snapshot
from tg_mafia.ops.status import read_snapshot
from tg_mafia.records import (
    ChatSettingsRecord,
    ChatStats,
    Forgotten,
    GameRecord,
    GameResult,
    PlayerStats,
    StillPlaying,
)
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.storage import Database


class Queries:
    def __init__(self, adb: AsyncDb) -> None:
        self.adb = adb

    async def settings(self, chat_id: int) -> ChatSettingsRecord:
        return await self.adb.run(Database.get_settings, chat_id)

    async def save_settings(
        self,
        chat_id: int,
        *,
        language: str,
        variant: str,
        options: Mapping[str, Any],
        title: str | None,
        autostart: bool,
    ) -> None:
        await self.adb.run(
            Database.save_settings,
            chat_id,
            language=language,
            variant=variant,
            options=dict(options),
            title=title,
            autostart=autostart,
        )

    async def game(self, game_id: int) -> GameRecord | None:
        return await self.adb.run(Database.get_game, game_id)

    async def active_game(self, chat_id: int, topic: int = 0) -> GameRecord | None:
        """The chat's (topic's) lobby or running game."""
        return await self.adb.run(Database.active_game, chat_id, topic)

    async def other_bots_game(self, chat_id: int, topic: int = 0) -> int | None:
        """The bot (its id) that runs the chat's game when it is not this one (several
        tokens, one game a chat); None when the chat's game, if any, is this bot's."""

        def whose(db: Database) -> int | None:
            with db.transaction() as tx:
                record = tx.active_game(chat_id, topic, any_bot=True)
            if record is None or record.bot_id in (None, db.bot_id):
                return None
            return record.bot_id

        return await self.adb.run(whose)

    async def chat_stats(self, chat_id: int) -> ChatStats:
        return await self.adb.run(Database.chat_stats, chat_id)

    async def player_stats(self, user_id: int) -> PlayerStats:
        return await self.adb.run(Database.player_stats, user_id)

    async def player_chats(self, user_id: int, limit: int) -> tuple[tuple[int, str], ...]:
        """The groups the user played in last (id and title), the latest first."""
        return await self.adb.run(Database.player_chats, user_id, limit=limit)

    async def results_history(self, chat_id: int) -> tuple[GameResult, ...]:
        return await self.adb.run(Database.results_history, chat_id)

    async def forget(self, user_id: int) -> Forgotten | StillPlaying:
        """/forget: what the bot keeps about the user erased (storage/erasure.py)."""
        return await self.adb.run(Database.forget, user_id)

    async def toggle_next_game(self, chat_id: int, topic: int, user_id: int) -> bool:
        """/nextgame: True when the user is now told of the next lobby, False no longer."""

        def toggle(db: Database) -> bool:
            with db.transaction() as tx:
                return tx.toggle_next_game(chat_id, topic, user_id)

        return await self.adb.run(toggle)

    async def snapshot(self, now: float, parked: Collection[int]) -> Snapshot:
        """The database as /status and /metrics show it (ops/status.py)."""
        return await self.adb.run(read_snapshot, now, parked)
