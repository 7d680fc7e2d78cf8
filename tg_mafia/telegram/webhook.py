"""The webhook listener: Telegram's POSTs of updates, checked before they cost anything.

PTB's own listener reads any body whole before it looks at the secret, and answers 500 to
malformed JSON. This one, in order:

- a wrong path or method is 404/405; a missing or wrong secret header is 403, answered
  from the headers alone (the body is never read);
- a body announced over MAX_BODY is refused (400) before it is read; a chunked body that
  grows past it closes the connection; a body that trickles in slower than BODY_TIMEOUT
  closes it too;
- malformed JSON, or JSON that is not an update, is 400 (Telegram would retry a 5xx
  forever); a good update is handled, then answered 200: a process killed before it
  answers leaves the update to Telegram, which delivers it again (to another replica).
  The answer carries the press's popup when the handling put one there
  (tg_mafia/telegram/webhook_reply.py).

The same server serves the table's Mini App (tg_mafia/miniapp/routes.py): no
process of its own, and Telegram opens it at the webhook's HTTPS address. With
long polling there is no webhook, and the Mini App has the same server to itself
(`WebServer`, on MINIAPP_LISTEN), in the bot's own process too.
"""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from http import HTTPStatus
from typing import Any, Final

from telegram import Bot, Update
from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets
from tornado.web import Application, RequestHandler, stream_request_body

from tg_mafia.config import Address
from tg_mafia.telegram import webhook_reply

log = logging.getLogger(__name__)

SECRET_HEADER: Final = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY: Final = 1024 * 1024  # an update is a few KB; Telegram's largest are far below this
BODY_TIMEOUT: Final = 10.0  # seconds for the whole body once the headers are in
IDLE_TIMEOUT: Final = 60.0  # a kept-alive connection with nothing on it
MAX_HEADERS: Final = 16 * 1024
# Deliveries Telegram may hold open at once (setWebhook's max_connections, 40 unless
# set): the most it allows. Each chat's updates come one at a time whatever the figure,
# and every open one is an update being handled: under load the default leaves little
# room for a slow moment (benchmarks/load.py --webhook).
WEBHOOK_CONNECTIONS: Final = 100

Rule = tuple[str, type[RequestHandler], dict[str, Any]]  # a route: (path, handler, its options)
Handle = Callable[[Update], Awaitable[None]]  # the application's process_update
Record = Callable[[str, str], None]  # (method, result): a call counted (BotMetrics.api_call)

# The result counted for a call the answer carried: Telegram tells nobody how it went.
IN_WEBHOOK_ANSWER: Final = "webhook_answer"


@stream_request_body
class _UpdateHandler(RequestHandler):
    SUPPORTED_METHODS = ("POST",)

    bot: Bot
    handle: Handle
    secret: str
    record: Record | None

    def initialize(self, bot: Bot, handle: Handle, secret: str, record: Record | None) -> None:
        self.bot = bot
        self.handle = handle
        self.secret = secret
        self.record = record
        self.chunks: list[bytes] = []
        self.size = 0

    def prepare(self) -> None:
        given = self.request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), self.secret.encode()):
            self._refuse(HTTPStatus.FORBIDDEN)
            return
        self._connection().set_max_body_size(MAX_BODY)

    def data_received(self, chunk: bytes) -> None:
        self.size += len(chunk)
        if self.size > MAX_BODY:  # a chunked body: no length announced
            self._refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
            return
        self.chunks.append(chunk)

    async def post(self) -> None:
        try:
            data = json.loads(b"".join(self.chunks))
            update = Update.de_json(data, self.bot) if isinstance(data, dict) else None
        except (ValueError, TypeError, KeyError) as error:
            log.warning("webhook: a body that is not an update (%s)", type(error).__name__)
            update = None
        if update is None:
            self._refuse(HTTPStatus.BAD_REQUEST)
            return
        slot, token = webhook_reply.open_slot()
        try:
            await self.handle(update)  # handled before Telegram hears of it
        finally:
            webhook_reply.close_slot(slot, token)
        self.set_status(HTTPStatus.OK)
        if slot.call is None:
            self.finish()
            return
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(slot.call))
        if self.record is not None:
            self.record(slot.call["method"], IN_WEBHOOK_ANSWER)

    def _refuse(self, status: HTTPStatus) -> None:
        self.set_status(status)
        self.set_header("Connection", "close")
        self.finish()
        self._connection().close()

    def _connection(self) -> Any:
        # tornado types it as the HTTPConnection interface; it is an HTTP1Connection.
        return self.request.connection

    def log_exception(self, *args: Any) -> None:
        # The body limit and a client gone mid-body end up here: not the bot's errors.
        log.warning("webhook: a request was dropped: %s", args[1] if len(args) > 1 else "?")


async def set_webhook(bot: Bot, url: str, secret: str) -> None:
    """Telegram's deliveries to `url`: every kind of update, the secret on each, and
    WEBHOOK_CONNECTIONS at once. Telegram's refusal raises, as PTB raises it."""
    await bot.set_webhook(
        url,
        secret_token=secret,
        allowed_updates=Update.ALL_TYPES,
        max_connections=WEBHOOK_CONNECTIONS,
    )


class WebServer:
    """The bot's web server on the event loop: the routes given, with the
    limits above on every request."""

    def __init__(self, address: Address, routes: Sequence[Rule]) -> None:
        self.address = address
        self.port = address.port
        app = Application(
            list(routes),
            log_function=lambda handler: None,  # the bot logs what matters, not each request
        )
        self._server = HTTPServer(
            app,
            max_body_size=MAX_BODY,
            body_timeout=BODY_TIMEOUT,
            idle_connection_timeout=IDLE_TIMEOUT,
            max_header_size=MAX_HEADERS,
        )

    def start(self) -> None:
        """Binds the address (an OSError when it is taken)."""
        sockets = bind_sockets(self.address.port, address=self.address.host)
        self._server.add_sockets(sockets)
        self.port = int(sockets[0].getsockname()[1])  # the one bound, when asked for 0

    async def stop(self) -> None:
        self._server.stop()
        await self._server.close_all_connections()


def hook_rule(
    path: str, bot: Bot, handle: Handle, secret: str, record: Record | None = None
) -> Rule:
    """One bot's updates at `path`, checked with its `secret`: a server may hold
    several (one process, several tokens: each bot its own path and secret)."""
    options = {"bot": bot, "handle": handle, "secret": secret, "record": record}
    return (path, _UpdateHandler, options)


class WebhookListener(WebServer):
    """Telegram's POSTs of updates at `path`, and `routes`: more of the bot's
    pages on the same server (the Mini App's)."""

    def __init__(
        self,
        address: Address,
        path: str,
        bot: Bot,
        handle: Handle,
        secret: str,
        record: Record | None = None,
        routes: Sequence[Rule] = (),
    ) -> None:
        super().__init__(address, [hook_rule(path, bot, handle, secret, record), *routes])
