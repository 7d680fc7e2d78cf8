"""GET /healthz for the running bot: 200 {"ok": true, "games": N}, else 503 with a reason.

A listener of its own (HEALTH_LISTEN), so it works in polling mode as well as webhook mode
and never sits on the public webhook port. N is the number of unfinished games; reading it
also proves the database answers.
"""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Awaitable, Callable
from typing import Any, Final

from tornado.httpserver import HTTPServer
from tornado.web import Application, RequestHandler

from tg_mafia.config import Address

log = logging.getLogger(__name__)

HEALTH_PATH: Final = "/healthz"

# Returns the number of unfinished games; raises when the bot is not healthy.
Probe = Callable[[], Awaitable[int]]


class NotReadyError(Exception):
    """The bot is starting or stopping; the message says which."""


class _HealthHandler(RequestHandler):
    probe: Probe

    def initialize(self, probe: Probe) -> None:
        self.probe = probe

    async def get(self) -> None:
        try:
            games = await self.probe()
        except Exception as error:  # any failure is "unhealthy", never a 500 page
            # The full error goes to the (redacted) log, only its kind to the caller.
            reason = str(error) if isinstance(error, NotReadyError) else type(error).__name__
            log.warning("health check failed: %r", error)
            self._send(503, {"ok": False, "error": reason})
            return
        self._send(200, {"ok": True, "games": games})

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps(payload))


class _Quiet(Application):
    def log_request(self, handler: RequestHandler) -> None:
        """Probes every few seconds would drown the log; failures are logged by the handler."""


class HealthServer:
    """Binds at `start` (OSError when the address is taken), inside a running event loop."""

    def __init__(self, address: Address, probe: Probe) -> None:
        self.address = address
        self.probe = probe
        self.port = address.port
        self._server: HTTPServer | None = None

    async def start(self) -> None:
        app = _Quiet([(HEALTH_PATH, _HealthHandler, {"probe": self.probe})])
        family = socket.AF_INET6 if ":" in self.address.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.address.host, self.address.port))
            sock.listen(16)
        except OSError:
            sock.close()
            raise
        sock.setblocking(False)
        self.port = sock.getsockname()[1]
        self._server = HTTPServer(app)
        self._server.add_sockets([sock])

    async def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            await self._server.close_all_connections()
            self._server = None
