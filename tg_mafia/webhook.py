"""The webhook listener: each POST from Telegram is answered once its update is handled.

PTB's own webhook server answers 200 as soon as the update is queued. A replica that dies
in the next moment (SIGKILL, a lost host) takes the update with it: Telegram, told it was
delivered, never sends it again, and the player's press is lost. Here the answer waits for
the handling (the move written, the press answered): an update whose replica died before
that gets no 200, and Telegram delivers it again, through the load balancer to another
replica. A repeated update is harmless: the engine refuses or ignores a repeated move.

Telegram holds up to `max_connections` (default 40) deliveries open at once, so waiting
for the handling does not make the updates of different chats wait for each other."""

from __future__ import annotations

import json
import logging
import socket
from http import HTTPStatus
from typing import Any

from telegram import Update
from telegram.ext import Application
from tornado.httpserver import HTTPServer
from tornado.web import Application as WebApplication
from tornado.web import RequestHandler

from tg_mafia.config import Address

log = logging.getLogger(__name__)

App = Application[Any, Any, Any, Any, Any, Any]
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class _UpdateHandler(RequestHandler):
    app: App
    secret: str | None

    def initialize(self, app: App, secret: str | None) -> None:
        self.app = app
        self.secret = secret

    async def post(self) -> None:
        if self.secret is not None and self.request.headers.get(SECRET_HEADER) != self.secret:
            self.send_error(HTTPStatus.FORBIDDEN)
            return
        try:
            update = Update.de_json(json.loads(self.request.body), self.app.bot)
        except (ValueError, TypeError, KeyError) as error:
            log.warning("webhook: a request that is not an update: %r", error)
            self.send_error(HTTPStatus.BAD_REQUEST)
            return
        await self.app.process_update(update)  # handled before Telegram hears of it
        self.finish()


class _Quiet(WebApplication):
    def log_request(self, handler: RequestHandler) -> None:
        """One line per update would drown the log; the handlers log what matters."""


class WebhookListener:
    """Binds at `start` (OSError when the address is taken), inside a running event loop."""

    def __init__(self, app: App, address: Address, path: str, secret: str | None) -> None:
        self.app = app
        self.address = address
        self.path = "/" + path.strip("/")
        self.secret = secret
        self.port = address.port
        self._server: HTTPServer | None = None

    async def start(self) -> None:
        routes: list[Any] = [
            (rf"{self.path}/?", _UpdateHandler, {"app": self.app, "secret": self.secret})
        ]
        family = socket.AF_INET6 if ":" in self.address.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.address.host, self.address.port))
            sock.listen(128)
        except OSError:
            sock.close()
            raise
        sock.setblocking(False)
        self.port = sock.getsockname()[1]
        self._server = HTTPServer(_Quiet(routes))
        self._server.add_sockets([sock])

    async def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            await self._server.close_all_connections()
            self._server = None
