"""The live pages: which page watches which game, and a fresh snapshot for
each when its game changes.

A game changes when this process writes it (GameService.watchers), when its
messages show other buttons or its timer moves (Sender.on_settled), and, with
several replicas on PostgreSQL, when another process does either: every game
write and button change is notified on the database's channel (storage/tx.py's
`game:` and `page:` payloads), which each replica serving pages listens to. So
any replica serves any game's page: it reads the game from the database.

A page's event id is its snapshot's digest (with the game's version in front):
a page reconnecting with the id it last had is sent nothing until the game
changes again; with another id, the snapshot as it is now. A snapshot holds the
game's latest public events (chronicle.py), each with its number: the page
shows them as the snapshot lists them, so a reconnection neither repeats nor
skips one."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from sqlalchemy import Engine

from tg_mafia.miniapp.chronicle import Chronicle, Entry
from tg_mafia.miniapp.snapshot import Json, Viewer, chats_of, snapshot
from tg_mafia.runtime.clock import BotClock
from tg_mafia.runtime.db.thread import AsyncDb
from tg_mafia.storage import ActionRecord, ButtonsRecord, Database, GameRecord

log = logging.getLogger(__name__)

POLL: Final = 1.0  # seconds between checks of the listening connection
IDLE_CHRONICLES: Final = 64  # chronicles kept of games with no page open (a page opening soon)


def event_id(content: Json) -> str:
    """The snapshot's id: its game's version and a digest of what it shows (the
    server's clock, `now`, left out: it is not content)."""
    shown = {k: v for k, v in content.items() if k != "now"}
    digest = hashlib.blake2b(json.dumps(shown, sort_keys=True).encode(), digest_size=8)
    return f"{content['v']}-{digest.hexdigest()}"


@dataclass(eq=False)
class Page:
    """One open page: what it was last sent, and the snapshot waiting for it."""

    game_id: int
    viewer: Viewer
    last_id: str = ""
    waiting: Json | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def offer(self, content: Json) -> None:
        if event_id(content) == self.last_id:
            return  # nothing new for this viewer
        self.waiting = content
        self.wake.set()

    def take(self) -> tuple[str, Json] | None:
        content, self.waiting = self.waiting, None
        self.wake.clear()
        if content is None:
            return None
        self.last_id = event_id(content)
        return self.last_id, content


@dataclass(frozen=True)
class Game:
    """One read of a game: the record, the messages that take presses, and its
    latest public events."""

    record: GameRecord
    buttons: list[ButtonsRecord]
    events: tuple[Entry, ...] = ()


Stored = tuple[GameRecord | None, list[ButtonsRecord], list[ActionRecord]]


def read_game(db: Database, game_id: int, after: int = 0) -> Stored:
    """The game, its buttons, and its actions after the seq `after` (none for a lobby)."""
    with db.transaction() as tx:
        record = tx.game(game_id)
        if record is None:
            return None, [], []
        started = record.state is not None
        return record, tx.game_buttons(game_id), tx.actions(game_id, after) if started else []


def content_for(game: Game, viewer: Viewer, clock: BotClock) -> Json:
    chats = chats_of(game.record, viewer)
    mine = [b for b in game.buttons if b.chat_id in chats]
    content = snapshot(game.record, viewer, mine, clock, game.events)
    return {**content, "now": round(clock.now(), 3)}


class Hub:
    def __init__(self, adb: AsyncDb, clock: BotClock) -> None:
        self.adb = adb
        self.clock = clock
        self.pages: dict[int, set[Page]] = {}
        self.chronicles: dict[int, Chronicle] = {}  # by game, the last used last
        self._due: set[int] = set()  # games changed, their pages not refreshed yet
        self._tasks: set[asyncio.Task[None]] = set()
        self.listener: ChannelListener | None = None
        self.delivered: Callable[[int], None] | None = None  # (game): a refresh went out

    # ----- pages ---------------------------------------------------------------------------

    def open(self, page: Page) -> None:
        self.pages.setdefault(page.game_id, set()).add(page)

    def close(self, page: Page) -> None:
        pages = self.pages.get(page.game_id)
        if pages is not None:
            pages.discard(page)
            if not pages:
                del self.pages[page.game_id]

    async def read(self, game_id: int) -> Game | None:
        """The game as it is now, with its public events (None: no such game)."""
        for _ in range(3):
            kept = self.chronicles.get(game_id)
            after = kept.seq if kept is not None else 0
            record, buttons, actions = await self.adb.run(read_game, game_id, after)
            if record is None:
                return None
            if record.state is None:
                return Game(record, buttons)  # a lobby: nothing has happened yet
            chronicle = self.chronicles.pop(game_id, None)
            if chronicle is None and after == 0:
                chronicle = Chronicle(record)
            if chronicle is None or not chronicle.follows(actions):
                continue  # its chronicle went or changed meanwhile: the whole log again
            chronicle.extend(record, actions)
            self.chronicles[game_id] = chronicle  # the last used last
            self._forget_idle()
            return Game(record, buttons, chronicle.shown())
        raise RuntimeError(f"game {game_id}'s chronicle keeps changing under the reads")

    def _forget_idle(self) -> None:
        """The chronicles of games without a page beyond the few kept, the least
        recently used first."""
        idle = [g for g in self.chronicles if g not in self.pages]
        for game_id in idle[: max(0, len(idle) - IDLE_CHRONICLES)]:
            del self.chronicles[game_id]

    # ----- changes ---------------------------------------------------------------------------

    def changed(self, game_id: int) -> None:
        """Game `game_id` changed: its pages are refreshed once, however many
        changes come meanwhile."""
        if game_id not in self.pages or game_id in self._due:
            return
        self._due.add(game_id)
        task = asyncio.get_running_loop().create_task(self._refresh(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def noted(self, payload: str) -> None:
        """A notification of the database's channel (another replica's write)."""
        kind, _, number = payload.partition(":")
        if kind in ("game", "page") and number.isdigit():
            self.changed(int(number))

    async def _refresh(self, game_id: int) -> None:
        try:
            await asyncio.sleep(0)  # the changes of this moment, taken together
            self._due.discard(game_id)
            game = await self.read(game_id)
        except Exception:
            self._due.discard(game_id)
            log.exception("mini app: cannot read game %s", game_id)
            return
        if game is None:
            return
        made: dict[object, Json] = {}  # by who sees alike: every spectator the same
        for page in list(self.pages.get(game_id, ())):
            key = page.viewer.alike
            if key not in made:
                made[key] = content_for(game, page.viewer, self.clock)
            page.offer(made[key])
        if self.delivered is not None:
            self.delivered(game_id)

    # ----- other replicas ----------------------------------------------------------------------

    def listen(self, engine: Engine) -> None:
        """On PostgreSQL: the channel every replica notifies its writes on."""
        if engine.dialect.name != "postgresql" or self.listener is not None:
            return
        loop = asyncio.get_running_loop()

        def soon(payload: str) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed: shutting down
                loop.call_soon_threadsafe(self.noted, payload)

        self.listener = ChannelListener(engine, soon)
        self.listener.start()

    def stop(self) -> None:
        if self.listener is not None:
            self.listener.stop()
            self.listener = None
        for pages in self.pages.values():
            for page in pages:
                page.wake.set()


class ChannelListener:
    """LISTEN on the bot's channel, on a connection of its own, in a thread."""

    def __init__(self, engine: Engine, note: Callable[[str], None]) -> None:
        self.engine = engine
        self.note = note
        self._stop = threading.Event()
        self.listening = threading.Event()  # set while LISTEN holds on a live connection
        self._thread = threading.Thread(target=self._run, name="tg-mafia-pages", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        from tg_mafia.runtime.db.leader import current_scope

        while not self._stop.is_set():
            try:
                channel = current_scope(self.engine).channel
                raw = self.engine.raw_connection()
                try:
                    connection: Any = raw.driver_connection
                    connection.autocommit = True
                    connection.execute(f"LISTEN {channel}")
                    self.listening.set()
                    while not self._stop.is_set():
                        for notice in connection.notifies(timeout=POLL, stop_after=256):
                            self.note(notice.payload)
                        connection.execute("SELECT 1")  # a broken connection raises here
                finally:
                    self.listening.clear()
                    with contextlib.suppress(Exception):
                        raw.invalidate()
            except Exception as error:
                log.warning("mini app: the listening connection failed: %s", error)
                time.sleep(POLL)
