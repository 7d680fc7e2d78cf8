"""GET /healthz for the running bot: 200 {"ok": true, "games": N}, else 503 with a reason;
and GET /metrics, the bot's Prometheus metrics.

A listener of its own (HEALTH_LISTEN), so it works in polling mode as well as webhook mode
and never sits on the public webhook port. N is the number of unfinished games; reading it
also proves the database answers. While the bot drains for a deploy the answer is still 200,
with "draining": true: it is healthy, and finishing its games.
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
from tg_mafia.ops.metrics import CONTENT_TYPE

log = logging.getLogger(__name__)

HEALTH_PATH: Final = "/healthz"
METRICS_PATH: Final = "/metrics"

# Returns the number of unfinished games; raises when the bot is not healthy.
Probe = Callable[[], Awaitable[int]]
# Returns the metrics in Prometheus' text format.
Scrape = Callable[[], Awaitable[bytes]]


class NotReadyError(Exception):
    """The bot is starting or stopping; the message says which."""


class _HealthHandler(RequestHandler):
    probe: Probe
    draining: Callable[[], bool]

    def initialize(self, probe: Probe, draining: Callable[[], bool]) -> None:
        self.probe = probe
        self.draining = draining

    async def get(self) -> None:
        try:
            games = await self.probe()
        except Exception as error:  # any failure is "unhealthy", never a 500 page
            # The full error goes to the (redacted) log, only its kind to the caller.
            reason = str(error) if isinstance(error, NotReadyError) else type(error).__name__
            log.warning("health check failed: %r", error)
            self._send(503, {"ok": False, "error": reason})
            return
        payload: dict[str, Any] = {"ok": True, "games": games}
        if self.draining():
            payload["draining"] = True
        self._send(200, payload)

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps(payload))


class _MetricsHandler(RequestHandler):
    scrape: Scrape

    def initialize(self, scrape: Scrape) -> None:
        self.scrape = scrape

    async def get(self) -> None:
        body = await self.scrape()
        self.set_header("Content-Type", CONTENT_TYPE)
        self.set_header("Cache-Control", "no-store")
        self.finish(body)


class _Quiet(Application):
    def log_request(self, handler: RequestHandler) -> None:
        """Probes every few seconds would drown the log; failures are logged by the handler."""


class HealthServer:
    """Binds at `start` (OSError when the address is taken), inside a running event loop."""

    def __init__(
        self,
        address: Address,
        probe: Probe,
        scrape: Scrape | None = None,
        draining: Callable[[], bool] = lambda: False,
    ) -> None:
        self.address = address
        self.probe = probe
        self.scrape = scrape
        self.draining = draining
        self.port = address.port
        self._server: HTTPServer | None = None

    async def start(self) -> None:
        routes: list[Any] = [
            (HEALTH_PATH, _HealthHandler, {"probe": self.probe, "draining": self.draining})
        ]
        if self.scrape is not None:
            routes.append((METRICS_PATH, _MetricsHandler, {"scrape": self.scrape}))
        app = _Quiet(routes)
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
