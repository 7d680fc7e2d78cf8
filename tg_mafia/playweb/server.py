"""The play page's web server (tornado, on loopback only): the page itself
(in the table's language), a stream of server-sent events that keeps it
live, the pictures and files of its messages, and a small JSON API to act
as any user of the table."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import tornado.template
import tornado.web
from tornado.httpserver import HTTPServer
from tornado.iostream import StreamClosedError
from tornado.netutil import bind_sockets

from tg_mafia.i18n import translator
from tg_mafia.playweb.session import PlayConfig, PlaySession
from tg_mafia.playweb.words import Refused, page_words
from tg_mafia.sandbox import SimulationError

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
HEARTBEAT = 15.0  # real seconds: a comment line keeps an idle stream open
BATCH = 0.05  # real seconds: changes that come together reach the page together


def check_loopback(host: str) -> None:
    """The page acts as every user of the table: it is served to this machine only."""
    if host == "localhost":
        return
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise ValueError(f"--host {host}: the play page is served on loopback only (127.0.0.1)")


class Tables:
    """One table at a time; a restart closes it and opens the next."""

    def __init__(self, config: PlayConfig) -> None:
        self.config = config
        self.session: PlaySession | None = None
        self.number = 0
        self.error: str | None = None  # why the last table did not open
        self.closing = False  # the server is stopping: tables and streams end
        self._restart = asyncio.Event()
        self._ready = asyncio.Event()

    async def run(self) -> None:
        """Serves tables until `closing`."""
        while not self.closing:
            self.number += 1
            self._restart.clear()
            try:
                async with PlaySession.open(self.config, self.number) as session:
                    self.session, self.error = session, None
                    self._ready.set()
                    await self._restart.wait()
                    # Nobody may reach the table while it closes.
                    self._ready.clear()
                    self.session = None
            except Exception as error:  # a table that failed to open must not stop the server
                log.exception("the table did not open")
                t = translator(self.config.language)
                self.error = t.pgettext("play page", "The table did not open: {error}").format(
                    error=error
                )
                await self._restart.wait()
            finally:
                self.session = None
                self._ready.clear()

    def restart(self, data: dict[str, Any]) -> PlayConfig:
        """A new table with these settings; Refused in the page's language."""
        self.config = self.config.changed(data, translator(self.config.language))
        self._restart.set()
        return self.config

    async def current(self) -> PlaySession:
        while self.session is None:
            await self._ready.wait()
        return self.session

    @contextlib.asynccontextmanager
    async def serving(self) -> AsyncIterator[Tables]:
        task = asyncio.create_task(self.run())
        try:
            yield self
        finally:
            # Asked, not cancelled: a cancellation can be lost while the table
            # opens (asyncio.wait_for in Python 3.11), and the table never closes.
            self.closing = True
            self._restart.set()
            await task


class _Handler(tornado.web.RequestHandler):
    def initialize(self, tables: Tables) -> None:
        self.tables = tables

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")


class PageHandler(_Handler):
    """The page, in the language of the table (play.js follows a new one)."""

    template = tornado.template.Loader(str(STATIC)).load("index.html")

    def get(self) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'",
        )
        language = self.tables.config.language
        self.write(self.template.generate(lang=language, words=page_words(translator(language))))


class MediaHandler(_Handler):
    """GET /media/<chat id>/<message id>: a picture or a file a message shows."""

    def get(self, chat_id: str, message_id: str) -> None:
        session = self.tables.session
        if session is None:
            raise tornado.web.HTTPError(404)
        try:
            content, name = session.media(int(chat_id), int(message_id))
        except (Refused, SimulationError):
            raise tornado.web.HTTPError(404) from None
        if content.startswith(b"\x89PNG"):
            self.set_header("Content-Type", "image/png")
        elif content.startswith(b"\xff\xd8"):
            self.set_header("Content-Type", "image/jpeg")
        else:
            self.set_header("Content-Type", "application/octet-stream")
            self.set_header("Content-Disposition", f"attachment; filename*=UTF-8''{quote(name)}")
        self.write(content)


class EventsHandler(_Handler):
    """Server-sent events: `reset` with the whole table when the page connects
    or the table is new, then `update` with what changed."""

    closed = False

    def on_connection_close(self) -> None:
        self.closed = True

    async def get(self) -> None:
        self.set_header("Content-Type", "text/event-stream")
        shown: dict[str, Any] | None = None
        try:
            while not self._over():
                try:
                    session = await asyncio.wait_for(self.tables.current(), 1.0)
                except TimeoutError:
                    continue
                snapshot = session.snapshot()
                if shown is None or shown["session"] != session.number:
                    await self._send("reset", snapshot)
                else:
                    change = diff(shown, snapshot)
                    if change:
                        await self._send("update", change)
                shown = snapshot
                if not await self._wait_change(session):
                    self.write(": idle\n\n")
                    await self.flush()
                await asyncio.sleep(BATCH)
        except StreamClosedError:
            return

    def _over(self) -> bool:
        return self.closed or self.tables.closing

    async def _send(self, event: str, data: dict[str, Any]) -> None:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        self.write(f"event: {event}\ndata: {text}\n\n")
        await self.flush()

    async def _wait_change(self, session: PlaySession) -> bool:
        """Until the table changes or is replaced; False after HEARTBEAT without."""
        seen = session.signature()
        try:
            await session.h.sb.wait_for(
                lambda: (
                    self.closed or self.tables.session is not session or session.signature() != seen
                ),
                timeout=HEARTBEAT,
            )
        except TimeoutError:
            return False
        return True


def diff(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What the page must change: messages new or changed, ids gone, and the
    seats and status when they changed."""
    change: dict[str, Any] = {}
    chats: dict[str, Any] = {}
    for key, messages in after["chats"].items():
        old = {m["id"]: m for m in before["chats"].get(key, [])}
        upsert = [m for m in messages if old.get(m["id"]) != m]
        gone = sorted(set(old) - {m["id"] for m in messages})
        if upsert or gone:
            chats[key] = {"upsert": upsert, "remove": gone}
    if chats:
        change["chats"] = chats
    for key in ("seats", "status", "headline"):
        if before[key] != after[key]:
            change[key] = after[key]
    return change


class ActionHandler(_Handler):
    """POST /api/<action> with a JSON body; 400 and {"error"} when refused."""

    async def post(self, action: str) -> None:
        if not self.request.headers.get("Content-Type", "").startswith("application/json"):
            # A page elsewhere can post a form here, but not JSON.
            raise tornado.web.HTTPError(415)
        try:
            data = json.loads(self.request.body or b"{}")
            if not isinstance(data, dict):
                raise ValueError("send a JSON object")
            result = await self._act(action, data)
        except (ValueError, SimulationError) as error:  # Refused is a ValueError
            self.set_status(400)
            self.write({"error": str(error)})
            return
        self.write({"ok": True, **result})

    async def _act(self, action: str, data: dict[str, Any]) -> dict[str, Any]:
        if action == "restart":
            return {"config": self.tables.restart(data).to_json()}
        session = self.tables.session
        if session is None:
            t = translator(self.tables.config.language)
            opening = t.pgettext("play page", "The table is opening: try again in a moment.")
            raise Refused(self.tables.error or opening)
        user, where = data.get("user_id"), data.get("chat")
        if action == "send":
            session.send(user, where, data.get("text"))
            return {}
        if action == "press":
            answer = await session.press(
                user, where, data.get("message_id"), data.get("row"), data.get("column")
            )
            return {"answer": answer}
        if action == "autoplay":
            session.set_autoplay(user, data.get("on"))
            return {}
        raise tornado.web.HTTPError(404)


def make_app(tables: Tables) -> tornado.web.Application:
    args = {"tables": tables}
    return tornado.web.Application(
        [
            (r"/", PageHandler, args),
            (r"/events", EventsHandler, args),
            (r"/media/(-?\d+)/(\d+)", MediaHandler, args),
            (r"/api/(send|press|autoplay|restart)", ActionHandler, args),
            (r"/static/(play\.js|play\.css)", tornado.web.StaticFileHandler, {"path": STATIC}),
        ],
    )


@contextlib.asynccontextmanager
async def serve(config: PlayConfig, host: str, port: int) -> AsyncIterator[tuple[Tables, int]]:
    """The page on http://host:port/ (port 0: any free one) while inside; yields
    the tables and the port."""
    check_loopback(host)
    config.check()
    tables = Tables(config)
    sockets = bind_sockets(port, address=host)
    server = HTTPServer(make_app(tables))
    server.add_sockets(sockets)
    bound = int(sockets[0].getsockname()[1])
    async with tables.serving():
        try:
            yield tables, bound
        finally:
            tables.closing = True
            server.stop()
            await server.close_all_connections()
