"""The HTTP way in: the Bot API on 127.0.0.1, for `base_url` and for people."""

from __future__ import annotations

import json
import socket
from typing import TYPE_CHECKING, Any

from tornado.httpserver import HTTPServer
from tornado.web import Application, RequestHandler

from tg_mafia.sandbox.errors import SandboxBug
from tg_mafia.sandbox.world.files import Upload

if TYPE_CHECKING:
    from tg_mafia.sandbox.core import Sandbox

LOOPBACK = ("127.0.0.1", "localhost", "::1")


class _BotApiHandler(RequestHandler):
    sandbox: Sandbox

    def initialize(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox

    async def get(self, token: str, method: str) -> None:
        await self._answer(token, method)

    async def post(self, token: str, method: str) -> None:
        await self._answer(token, method)

    async def _answer(self, token: str, method: str) -> None:
        params: dict[str, Any] = {
            k: v[-1].decode("utf-8") for k, v in self.request.query_arguments.items()
        }
        content_type = self.request.headers.get("Content-Type", "")
        if content_type.startswith("application/json") and self.request.body:
            try:
                body = json.loads(self.request.body)
            except ValueError:
                body = None
            if not isinstance(body, dict):
                self._send(400, {"ok": False, "error_code": 400, "description": "Bad Request"})
                return
            params.update(body)
        else:
            # form-encoded and multipart bodies, already parsed by tornado
            for key, values in self.request.body_arguments.items():
                params[key] = values[-1].decode("utf-8")
        files = {
            name: Upload(parts[-1].filename, parts[-1].body, parts[-1].content_type)
            for name, parts in self.request.files.items()
        }
        try:
            status, payload = await self.sandbox.call(method, params, token, files)
        except SandboxBug as bug:
            # recorded in sandbox.bugs; the client gets the reason, not a bare HTML page
            status, payload = 500, {"ok": False, "error_code": 500, "description": str(bug)}
        self._send(status, payload)

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(payload))


class _NotFound(RequestHandler):
    def prepare(self) -> None:
        self.set_status(404)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"ok": False, "error_code": 404, "description": "Not Found"}))


class HttpTransport:
    """Serves `sandbox` over HTTP on the loopback interface (call `start` inside a loop)."""

    def __init__(self, sandbox: Sandbox, host: str = "127.0.0.1", port: int = 0) -> None:
        if host not in LOOPBACK:
            raise ValueError("the sandbox listens on the loopback interface only")
        self.sandbox = sandbox
        self.host = host
        self.port = port
        self._server: HTTPServer | None = None

    async def start(self) -> None:
        app = Application(
            [
                (r"/bot([^/]+)/([A-Za-z]+)/?", _BotApiHandler, {"sandbox": self.sandbox}),
                (r".*", _NotFound),
            ]
        )
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1" if self.host == "localhost" else self.host, self.port))
        sock.listen(128)
        sock.setblocking(False)
        self.port = sock.getsockname()[1]
        self._server = HTTPServer(app)
        self._server.add_sockets([sock])

    async def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            await self._server.close_all_connections()
            self._server = None

    @property
    def base_url(self) -> str:
        """For `Bot(token, base_url=...)`: the bot's methods are under `<base_url><token>/`."""
        return f"http://{self.host}:{self.port}/bot"

    async def __aenter__(self) -> HttpTransport:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
