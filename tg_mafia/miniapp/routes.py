"""The Mini App's routes on the bot's web server (webhook.py): the page, its
files, the viewer's snapshot, its live events (Server-Sent Events) and its
presses. Every request but the page's own files carries Telegram's initData:
unsigned, forged or expired is 401; a user who may not see the game (not a
player, not its host, not a member of its group) is 403; in either case nothing
is read of the game nor changed. A press that is not one of the viewer's moves
now (another's chat, another's turn, the host's panel pressed by a player, a
spectator's press) is 403 too, and a press of a stage gone by 409: nothing
changes."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any, Final

from tornado.iostream import StreamClosedError
from tornado.web import RequestHandler, StaticFileHandler

from tg_mafia.i18n import Translator, resolve_language, translator
from tg_mafia.miniapp.hub import Game, Hub, Page, content_for, event_id
from tg_mafia.miniapp.initdata import DEFAULT_MAX_AGE, Rejection, SignedUser, verify
from tg_mafia.miniapp.snapshot import chats_of, choices, viewer_of
from tg_mafia.render import texts
from tg_mafia.render.presses import stale
from tg_mafia.render.texts import Answer
from tg_mafia.runtime.gameview import table_of, views_of
from tg_mafia.runtime.gate import Refusal, admit_data
from tg_mafia.runtime.service import GameService, is_move
from tg_mafia.storage import Database, GameRecord, GameStatus
from tg_mafia.telegram.handlers.common import too_fast
from tg_mafia.telegram.limiter import InputLimiter
from tg_mafia.waiting import wait_set

log = logging.getLogger(__name__)

STATIC: Final = Path(__file__).with_name("static")
KEEPALIVE: Final = 15.0  # seconds between comments on a quiet stream (proxies close idle ones)
RETRY_MS: Final = 1000  # how soon a page's EventSource reconnects
TELEGRAM_SCRIPT: Final = '<script src="https://telegram.org/js/telegram-web-app.js"></script>'


@dataclass(frozen=True)
class MiniAppConfig:
    token: str  # the bot's: initData is signed with a key derived from it
    max_age: float = DEFAULT_MAX_AGE  # seconds a signed page stays good
    prefix: str = "/app"
    telegram_script: bool = True  # off in tests: the browser there has no Internet
    # The process's other bots (several tokens): a page opened from one is signed with
    # its token.
    more_tokens: tuple[str, ...] = ()


class MiniApp:
    """The routes and the live pages of one bot process: with several tokens, `others`
    are the other bots' services, and each game is answered by its own bot's."""

    def __init__(
        self,
        service: GameService,
        limiter: InputLimiter,
        config: MiniAppConfig,
        others: Sequence[GameService] = (),
    ) -> None:
        self.service = service
        self.limiter = limiter
        self.config = config
        self.hub = Hub(service.adb, service.clock)
        self.services = {each.db.bot_id: each for each in (service, *others)}
        for each in self.services.values():
            each.watchers.append(self.hub.changed)
            each.sender.on_settled = self.hub.changed

    def service_of(self, record: GameRecord) -> GameService:
        """The service of the bot that runs the game."""
        return self.services.get(record.bot_id, self.service)

    def start(self) -> None:
        """Listens for the other replicas' writes (PostgreSQL); call on the event loop."""
        self.hub.listen(self.service.db.engine)

    def stop(self) -> None:
        self.hub.stop()

    def routes(self) -> list[tuple[str, type[RequestHandler], dict[str, Any]]]:
        p = self.config.prefix.rstrip("/")
        mine = {"app": self}
        return [
            (rf"{p}/?", _PageHandler, mine),
            (rf"{p}/static/(app\.js|app\.css)", StaticFileHandler, {"path": str(STATIC)}),
            (rf"{p}/state", _StateHandler, mine),
            (rf"{p}/events", _EventsHandler, mine),
            (rf"{p}/press", _PressHandler, mine),
        ]

    # ----- authority ------------------------------------------------------------------------

    def signed(self, init_data: str) -> SignedUser | Rejection:
        """The page's user, signed by one of the process's bots (the first that vouches
        for it); else why not, as the first token says."""
        now = self.service.clock.now()
        first = verify(init_data, self.config.token, now, self.config.max_age)
        for token in self.config.more_tokens:
            if not isinstance(first, Rejection):
                break
            other = verify(init_data, token, now, self.config.max_age)
            if not isinstance(other, Rejection):
                return other
        return first

    async def may_see(self, record: GameRecord, user_id: int) -> bool:
        """Its players, its host, and the members of its group (as Telegram says now)."""
        if record.seat_of(user_id) is not None or record.host_user_id == user_id:
            return True
        return await self.service_of(record).members.is_member(record.chat_id, user_id)

    async def press(
        self, user: SignedUser, game: Game, chat: int, message: int, data: str
    ) -> tuple[HTTPStatus, str]:
        """A press from the page: the same gate (gate.admit_data) and the same call
        as a button's press in the chat (GameService.press_move for a move,
        GameService.press for a menu), once it is known to be one of the viewer's
        moves now."""
        record = game.record
        t = translator(record.language)
        viewer = viewer_of(record, user.user_id)
        if chat not in chats_of(record, viewer):
            return HTTPStatus.FORBIDDEN, texts.popup(t, Answer.NOT_YOURS)  # another's private chat
        limited = await self.limiter.take(user.user_id)
        if limited is not None:
            return HTTPStatus.TOO_MANY_REQUESTS, too_fast(t, limited.wait)
        service = self.service_of(record)
        verdict = await admit_data(service.adb, chat, message, data, user.user_id)
        if isinstance(verdict, Refusal) or verdict.game_id != record.id:
            log.info("mini app: press of user %s refused: %s", user.user_id, verdict)
            return HTTPStatus.CONFLICT, texts.popup(t, Answer.STALE)  # the message shows it no more
        button = verdict.button
        views = views_of(record) if record.status is GameStatus.RUNNING else None
        if views is None or stale(button, views.public):
            return HTTPStatus.CONFLICT, texts.popup(t, Answer.STALE)
        mine = [b for b in game.buttons if b.chat_id in chats_of(record, viewer)]
        if data not in {c["d"] for c in choices(t, table_of(record), record, views, viewer, mine)}:
            log.info("mini app: user %s may not press %s now", user.user_id, data)
            return HTTPStatus.FORBIDDEN, texts.popup(t, Answer.NOT_YOURS)
        if not is_move(button):  # a menu it opens in private, as the chat's button does
            return HTTPStatus.OK, await service.press(record, user.user_id, button)
        made, popup = await service.move_pressed(record.id, button, user.user_id)
        return (HTTPStatus.OK if made else HTTPStatus.CONFLICT), popup


def refusal_text(t: Translator, status: HTTPStatus) -> str:
    if status is HTTPStatus.UNAUTHORIZED:
        return t.gettext(
            "This page was not opened from Telegram, or too long ago: open it again from the chat."
        )
    if status is HTTPStatus.NOT_FOUND:
        return t.gettext("There is no such game.")
    return t.gettext("Only the game's players and the members of its group see this table.")


class _AppHandler(RequestHandler):
    app: MiniApp

    def initialize(self, app: MiniApp) -> None:
        self.app = app

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")

    async def authorize(self, init_data: str, game: str) -> tuple[SignedUser, Game] | None:
        """The signed user and the game they may see; else the refusal is answered."""
        signed = self.app.signed(init_data)
        if isinstance(signed, Rejection):
            log.info("mini app: refused (%s)", signed.value)
            self.refuse(HTTPStatus.UNAUTHORIZED, translator("en"), signed.value)
            return None
        t = translator(resolve_language(signed.language))
        number = game or signed.start_param.removeprefix("g")
        record = None
        if number.isdigit() and len(number) < 19:
            record = await self.app.service.adb.run(Database.get_game, int(number))
        if record is None:
            self.refuse(HTTPStatus.NOT_FOUND, t, "no_game")
            return None
        if not await self.app.may_see(record, signed.user_id):
            self.refuse(HTTPStatus.FORBIDDEN, t, "not_a_member")
            return None
        found = await self.app.hub.read(record.id)  # its buttons and events: for them only
        if found is None:
            self.refuse(HTTPStatus.NOT_FOUND, t, "no_game")
            return None
        return signed, found

    def refuse(self, status: HTTPStatus, t: Translator, code: str) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": code, "text": refusal_text(t, status)}))

    def init_data(self) -> str:
        header = self.request.headers.get("Authorization", "")
        return header.removeprefix("tma ") if header.startswith("tma ") else ""

    def log_exception(self, *args: Any) -> None:
        log.warning("mini app: a request failed: %s", args[1] if len(args) > 1 else "?")


class _PageHandler(_AppHandler):
    def get(self) -> None:
        page = (STATIC / "index.html").read_text(encoding="utf-8")
        script = TELEGRAM_SCRIPT if self.app.config.telegram_script else ""
        page = page.replace("{{telegram}}", script).replace("{{prefix}}", self.app.config.prefix)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(page)


class _StateHandler(_AppHandler):
    async def get(self) -> None:
        found = await self.authorize(self.init_data(), self.get_query_argument("game", ""))
        if found is None:
            return
        user, game = found
        viewer = viewer_of(game.record, user.user_id)
        content = content_for(game, viewer, self.app.service.clock)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"id": event_id(content), "table": content}))


class _EventsHandler(_AppHandler):
    """The viewer's snapshots as Server-Sent Events; `Last-Event-ID` (sent by the
    browser on reconnecting) names the one the page has."""

    page: Page | None = None

    async def get(self) -> None:
        # EventSource sends no headers of its own: initData comes in the query.
        init_data = self.get_query_argument("auth", "")
        found = await self.authorize(init_data, self.get_query_argument("game", ""))
        if found is None:
            return
        user, game = found
        record = game.record
        last = self.request.headers.get("Last-Event-ID") or self.get_query_argument("last", "")
        page = self.page = Page(record.id, viewer_of(record, user.user_id), last_id=last)
        hub = self.app.hub
        hub.open(page)
        self.set_header("Content-Type", "text/event-stream; charset=utf-8")
        self.set_header("X-Accel-Buffering", "no")  # nginx: pass each event on at once
        try:
            self.write(f"retry: {RETRY_MS}\n\n")
            await self.flush()
            current = await hub.read(record.id)
            if current is not None:
                page.offer(content_for(current, page.viewer, self.app.service.clock))
            await self._stream(page)
        except StreamClosedError:
            pass
        finally:
            hub.close(page)

    async def _stream(self, page: Page) -> None:
        while self.request.connection is not None and not self._finished:
            if page.waiting is None and not await wait_set(page.wake, KEEPALIVE):
                self.write(": keepalive\n\n")
                await self.flush()
                continue
            if self.page is None:
                return  # the connection closed
            taken = page.take()
            if taken is None:
                continue
            ident, content = taken
            data = json.dumps(content, ensure_ascii=False, separators=(",", ":"))
            self.write(f"id: {ident}\nevent: table\ndata: {data}\n\n")
            await self.flush()

    def on_connection_close(self) -> None:
        page, self.page = self.page, None
        if page is not None:
            self.app.hub.close(page)
            page.wake.set()


class _PressHandler(_AppHandler):
    async def post(self) -> None:
        try:
            body = json.loads(self.request.body or b"{}")
            chat_text, _, message_text = str(body.get("m", "")).partition(":")
            chat, message, data = int(chat_text), int(message_text), str(body.get("d", ""))
        except (ValueError, TypeError, AttributeError):
            self.set_status(HTTPStatus.BAD_REQUEST)
            self.finish(json.dumps({"error": "bad_request"}))
            return
        found = await self.authorize(self.init_data(), str(body.get("game", "")))
        if found is None:
            return
        user, game = found
        status, popup = await self.app.press(user, game, chat, message, data)
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"ok": status is HTTPStatus.OK, "text": popup}))
