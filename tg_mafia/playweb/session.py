"""One table on the play page: the sandbox, the real bot on it with its own
timers, the simulated players and the admin in a group, a full lobby, and the
seats that autoplay. The page acts through it as any of its users."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import VARIANTS, SetupError
from engine.options import OptionValue
from tg_mafia.commands.table_args import check_table
from tg_mafia.i18n import LANGUAGES
from tg_mafia.playtest.cast import names
from tg_mafia.playtest.harness import Harness, running_bot
from tg_mafia.playweb.autoplay import Autoplay
from tg_mafia.playweb.view import chat_messages
from tg_mafia.sandbox import SimUser
from tg_mafia.sandbox.state import Chat
from tg_mafia.storage import GameStatus

MAX_SPEED = 200.0
MAX_TEXT = 4096
LOBBY_SECONDS = 600  # game seconds before a full lobby starts by itself
ANSWER_WAIT = 3.0  # real seconds a press waits for the bot's popup


@dataclass(frozen=True)
class PlayConfig:
    """How a table is set up; `check` refuses what the engine would refuse."""

    language: str = "en"
    variant: str = "moscow"
    players: int = 9
    options: Mapping[str, str] = field(default_factory=dict)
    speed: float = 1.0  # every timer of the bot runs this many times faster
    seed: int | None = None  # the deal; None: a random one
    person: int = 1  # the seat the person plays at first (0: every seat autoplays)

    def check(self) -> dict[str, OptionValue]:
        """The variant's resolved options; ValueError with a message for the person."""
        if self.language not in LANGUAGES:
            raise ValueError(f"language {self.language!r}: use one of {', '.join(LANGUAGES)}")
        if not 0 < self.speed <= MAX_SPEED:
            raise ValueError(f"speed {self.speed:g}: use a number above 0 and up to {MAX_SPEED:g}")
        if not 0 <= self.person <= self.players:
            raise ValueError(f"seat {self.person}: there are {self.players} seats")
        try:
            return check_table(self.variant, self.players, dict(self.options))
        except SetupError as error:
            raise ValueError(str(error)) from None

    def to_json(self) -> dict[str, Any]:
        return {
            "language": self.language,
            "variant": self.variant,
            "players": self.players,
            "options": dict(self.options),
            "speed": self.speed,
            "person": self.person,
        }

    def changed(self, data: Mapping[str, Any]) -> PlayConfig:
        """This configuration with what the page sent; ValueError on a bad value."""
        try:
            options = data.get("options", self.options)
            if not isinstance(options, Mapping):
                raise ValueError("options must be an object of NAME: VALUE")
            config = PlayConfig(
                language=str(data.get("language", self.language)),
                variant=str(data.get("variant", self.variant)),
                players=int(data.get("players", self.players)),
                options={str(k): str(v) for k, v in options.items()},
                speed=float(data.get("speed", self.speed)),
                seed=self.seed,
                person=int(data.get("person", self.person)),
            )
        except (TypeError, ValueError) as error:
            raise ValueError(f"bad settings: {error}") from None
        config.check()
        return config


class PlaySession:
    def __init__(self, h: Harness, config: PlayConfig, number: int) -> None:
        self.h = h
        self.config = config
        self.number = number  # the page starts afresh when it changes
        self.autoplaying = {
            user.id for seat, user in enumerate(h.users, 1) if seat != config.person
        }
        self.acted = 0  # the person's actions: the page is told after each
        self.autoplay = Autoplay(
            h, self.autoplaying.__contains__, config.seed, pace=max(0.02, 0.8 / config.speed)
        )

    @classmethod
    @contextlib.asynccontextmanager
    async def open(cls, config: PlayConfig, number: int) -> AsyncIterator[PlaySession]:
        """A table with a full lobby, waiting for Start; closed on leaving."""
        options = config.check()
        with tempfile.TemporaryDirectory(prefix="tg-mafia-play-") as folder:
            async with running_bot(
                Path(folder),
                config.players,
                speed=config.speed,
                database_url=f"sqlite:///{Path(folder) / 'play.db'}",
                lobby_seconds=LOBBY_SECONDS,
                names=names(config.language),
                language=config.language,
                lobby_seed=config.seed,
            ) as h:
                h.db.save_settings(
                    h.group.id,
                    variant=config.variant,
                    language=config.language,
                    options=options,
                )
                await h.open_and_fill()
                session = cls(h, config, number)
                task = asyncio.create_task(session.autoplay.run())
                try:
                    yield session
                finally:
                    session.autoplay.stopped = True  # should the cancellation be lost
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task

    # ----- what the page shows ------------------------------------------------

    def signature(self) -> tuple[int, int, int]:
        """Changes whenever anything on the page may have."""
        return (len(self.h.sb.log), len(self.h.sb.updates.pending), self.acted)

    def seats(self) -> list[dict[str, Any]]:
        out = [
            {
                "user_id": user.id,
                "name": user.name,
                "seat": seat,
                "autoplay": user.id in self.autoplaying,
            }
            for seat, user in enumerate(self.h.users, 1)
        ]
        out.append(
            {"user_id": self.h.admin.id, "name": self.h.admin.name, "seat": 0, "autoplay": False}
        )
        return out

    def chats(self) -> dict[str, list[dict[str, Any]]]:
        """The group, and each player's private chat, as that player sees it."""
        sb = self.h.sb
        out = {"group": chat_messages(sb, self.h.admin.user, self.h.group)}
        for user in self.h.users:
            out[str(user.id)] = chat_messages(sb, user.user, user.private_chat)
        return out

    def status(self) -> str:
        record = self.h.db.active_game(self.h.group.id)
        if record is None:
            return "no game"
        return "lobby" if record.status is GameStatus.LOBBY else "playing"

    def snapshot(self) -> dict[str, Any]:
        return {
            "session": self.number,
            "config": self.config.to_json(),
            "choices": {"languages": list(LANGUAGES), "variants": list(VARIANTS)},
            "group": {"id": self.h.group.id, "title": self.h.group.title},
            "status": self.status(),
            "seats": self.seats(),
            "chats": self.chats(),
        }

    # ----- acting as a user -----------------------------------------------------

    def user(self, user_id: object) -> SimUser:
        for user in (*self.h.users, self.h.admin):
            if user.id == user_id:
                return user
        raise ValueError(f"no seat for user {user_id!r}")

    def chat(self, user: SimUser, where: object) -> Chat:
        if where == "group":
            return self.h.group
        if where == "private" and user is not self.h.admin:
            return user.private_chat
        raise ValueError(f"{user.name} has no chat {where!r} here")

    def send(self, user_id: object, where: object, text: object) -> None:
        """A message typed by the user; SimulationError when Telegram would refuse it."""
        user = self.user(user_id)
        chat = self.chat(user, where)
        if not isinstance(text, str) or not text.strip():
            raise ValueError("type a message first")
        if len(text) > MAX_TEXT:
            raise ValueError(f"a message holds up to {MAX_TEXT} characters")
        user.send(chat, text)
        self.acted += 1

    async def press(
        self, user_id: object, where: object, message_id: object, row: object, column: object
    ) -> dict[str, Any]:
        """The user presses a button; the bot's popup, if it shows one in time."""
        user = self.user(user_id)
        chat = self.chat(user, where)
        message = chat.live_message(message_id) if isinstance(message_id, int) else None
        if message is None:
            raise ValueError(f"no message {message_id!r} in that chat")
        keyboard = (message.reply_markup or {}).get("inline_keyboard", [])
        try:
            button = keyboard[int(str(row))][int(str(column))]
        except (IndexError, ValueError):
            raise ValueError("no such button on that message") from None
        press = user.press(chat, button["text"], message_id=message.message_id)
        self.acted += 1
        if "callback_data" not in button:
            return {}
        with contextlib.suppress(TimeoutError):
            await self.h.sb.wait_for(lambda: press.answered, timeout=ANSWER_WAIT)
        return press.answer if press.answered else {}

    def set_autoplay(self, user_id: object, on: object) -> None:
        user = self.user(user_id)
        if user is self.h.admin:
            raise ValueError("the admin does not play")
        if on is True:
            self.autoplaying.add(user.id)
        elif on is False:
            self.autoplaying.discard(user.id)
        else:
            raise ValueError("autoplay is true or false")
        self.acted += 1
