"""A bot on the sandbox with the Mini App on its web server, for the page's tests."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from engine import GameState
from tests.bot.harness import Harness, running_bot
from tg_mafia.config import Address
from tg_mafia.miniapp.routes import MiniApp, MiniAppConfig
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.sandbox import SimUser
from tg_mafia.sandbox.webapp import init_data
from tg_mafia.storage import GameRecord
from tg_mafia.telegram.webhook import WebhookListener

THEME = {"bg_color": "#17212b", "text_color": "#f5f5f5", "button_color": "#5288c1"}


@dataclass
class Table:
    """A running game with its Mini App served."""

    h: Harness
    app: MiniApp
    port: int
    game_id: int
    scheduler: ManualScheduler

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/app"

    def record(self) -> GameRecord:
        record = self.h.db.get_game(self.game_id)
        assert record is not None
        return record

    def state(self) -> GameState:
        return GameState.from_dict(self.record().state or {})

    def url(self, init_data: str) -> str:
        """The page as Telegram opens it: the signed data and the theme in the fragment."""
        fragment = f"tgWebAppData={quote(init_data)}&tgWebAppThemeParams={quote(json.dumps(THEME))}"
        return f"{self.base}?game={self.game_id}#{fragment}"

    def page_url(self, user: SimUser) -> str:
        return self.url(self.signed(user))

    def signed(self, user: SimUser) -> str:
        """The user's initData signed now by the bot's clock (the sandbox's runs
        ahead of it when a test speeds it up)."""
        now = int(self.h.service.clock.now())
        return init_data(user.user, self.h.sb.token, now, f"g{self.game_id}")


@contextlib.asynccontextmanager
async def served_table(
    tmp_path: Path,
    players: int = 7,
    settings: dict[str, Any] | None = None,
    **options: Any,
) -> AsyncIterator[Table]:
    """A moscow game in English (or as `settings` say), started, with its Mini App."""
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, players, scheduler=scheduler, **options) as h:
        given = {"variant": "moscow", "language": "en"} | (settings or {})
        h.db.save_settings(h.group.id, **given)
        game_id = await h.open_and_fill()
        await h.press_start()
        async with serving(h, game_id, scheduler) as table:
            yield table


@contextlib.asynccontextmanager
async def serving(h: Harness, game_id: int, scheduler: ManualScheduler) -> AsyncIterator[Table]:
    """The Mini App on the webhook listener of the bot `h` runs, for game `game_id`."""
    app = MiniApp(
        h.service,
        h.app.bot_data.input_limiter,
        MiniAppConfig(token=h.sb.token, telegram_script=False),
    )
    listener = WebhookListener(
        Address("127.0.0.1", 0),
        "/bot",
        h.app.bot,
        h.app.process_update,
        "s3cret",
        routes=app.routes(),
    )
    listener.start()
    app.start()
    try:
        yield Table(h, app, listener.port, game_id, scheduler)
    finally:
        app.stop()
        await listener.stop()
