"""One table on the play page: the sandbox, the real bot on it with its own
timers, the simulated players and the admin in a group, a full lobby that
waits for Start, and the seats that autoplay. The page acts through it as
any of its users."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import VARIANTS, SetupError, find_variant, resolve_options
from engine.options import SPECS_BY_NAME, OptionValue
from tg_mafia.i18n import LANGUAGES, Translator, translator
from tg_mafia.playtest.cast import names
from tg_mafia.playtest.harness import Harness, running_bot
from tg_mafia.playweb import words
from tg_mafia.playweb.autoplay import Autoplay
from tg_mafia.playweb.pace import People
from tg_mafia.playweb.view import chat_messages
from tg_mafia.playweb.words import Refused
from tg_mafia.render.texts import variant_name
from tg_mafia.render.texts.options import language_name
from tg_mafia.sandbox import SimulationError, SimUser
from tg_mafia.sandbox.world.state import Chat
from tg_mafia.storage import GameStatus

MAX_SPEED = 200.0
MAX_TEXT = 4096
ANSWER_WAIT = 3.0  # real seconds a press waits for the bot's popup


@dataclass(frozen=True)
class PlayConfig:
    """How a table is set up; `check` refuses what the engine would refuse."""

    language: str = "en"
    variant: str = "moscow"
    players: int = 9
    options: Mapping[str, str] = field(default_factory=dict)
    speed: float = 1.0  # the simulated players' timers run this many times faster
    seed: int | None = None  # the deal; None: a random one
    person: int = 1  # the seat the person plays at first (0: every seat autoplays)

    def check(self, t: Translator | None = None) -> dict[str, OptionValue]:
        """The variant's resolved options; Refused with a message for the
        person, in `t`'s language (English by default: the command line)."""
        t = t or translator("en")
        if self.language not in LANGUAGES:
            raise Refused(
                t.pgettext("play page", "Language {code}: use one of {codes}.").format(
                    code=self.language, codes=", ".join(LANGUAGES)
                )
            )
        if self.variant not in VARIANTS:
            raise Refused(
                t.pgettext("play page", "Variant {name}: use one of {names}.").format(
                    name=self.variant, names=", ".join(VARIANTS)
                )
            )
        if not 0 < self.speed <= MAX_SPEED:
            raise Refused(
                t.pgettext(
                    "play page", "Speed {speed}: use a number above 0 and up to {top}."
                ).format(speed=f"{self.speed:g}", top=f"{MAX_SPEED:g}")
            )
        _check_players(t, self.variant, self.players)
        if not 0 <= self.person <= self.players:
            raise Refused(
                t.npgettext(
                    "play page",
                    "Seat {seat}: there is {n} seat.",
                    "Seat {seat}: there are {n} seats.",
                    self.players,
                ).format(seat=self.person, n=self.players)
            )
        for name, value in self.options.items():
            _check_option(t, self.variant, name, value)
        try:
            resolved = resolve_options(self.variant, dict(self.options))
            find_variant(self.variant).deck(self.players, resolved)  # the engine's checks
            return resolved
        except SetupError as error:  # the checks above mirror the engine's: not expected
            raise Refused(str(error)) from None

    def to_json(self) -> dict[str, Any]:
        return {
            "language": self.language,
            "variant": self.variant,
            "players": self.players,
            "options": dict(self.options),
            "speed": self.speed,
            "person": self.person,
        }

    def changed(self, data: Mapping[str, Any], t: Translator | None = None) -> PlayConfig:
        """This configuration with what the page sent; Refused on a bad value."""
        t = t or translator("en")
        options = data.get("options", self.options)
        if not isinstance(options, Mapping):
            raise Refused(t.pgettext("play page", "Write the options as NAME=VALUE, one a line."))
        try:
            config = PlayConfig(
                language=str(data.get("language", self.language)),
                variant=str(data.get("variant", self.variant)),
                players=int(data.get("players", self.players)),
                options={str(k): str(v) for k, v in options.items()},
                speed=float(data.get("speed", self.speed)),
                seed=self.seed,
                person=int(data.get("person", self.person)),
            )
        except (TypeError, ValueError):
            raise Refused(
                t.pgettext("play page", "Players, speed and seat are numbers: fill them in.")
            ) from None
        config.check(t)
        return config


def _check_players(t: Translator, variant: str, players: int) -> None:
    low, high = find_variant(variant).min_players, find_variant(variant).max_players
    if low <= players <= high:
        return
    name = variant_name(t, variant)
    if low == high:
        text = t.npgettext(
            "play page",
            "{variant} needs exactly {n} player.",
            "{variant} needs exactly {n} players.",
            low,
        ).format(variant=name, n=low)
    else:
        text = t.pgettext("play page", "{variant} needs {low} to {high} players.").format(
            variant=name, low=low, high=high
        )
    raise Refused(text)


def _check_option(t: Translator, variant: str, name: str, value: str) -> None:
    """The engine's checks of one option, said in the page's language."""
    spec = SPECS_BY_NAME.get(name)
    if spec is None:
        raise Refused(t.pgettext("play page", "There is no option {name}.").format(name=name))
    if variant not in spec.variants:
        raise Refused(
            t.pgettext("play page", "{variant} has no option {name}.").format(
                variant=variant_name(t, variant), name=name
            )
        )
    try:
        spec.parse(value)
    except SetupError:
        if isinstance(spec.default, bool):
            text = t.pgettext("play page", "Option {name}: write on or off.")
        elif isinstance(spec.default, int):
            text = t.pgettext("play page", "Option {name}: a whole number from {low} to {high}.")
        else:
            text = t.pgettext("play page", "Option {name}: one of {choices}.")
        raise Refused(
            text.format(
                name=name, low=spec.minimum, high=spec.maximum, choices=", ".join(spec.choices)
            )
        ) from None


class PlaySession:
    def __init__(self, h: Harness, config: PlayConfig, number: int, people: People) -> None:
        self.h = h
        self.config = config
        self.number = number  # the page starts afresh when it changes
        self.t = translator(config.language)
        self.people = people  # the seats a person plays; the others autoplay
        self.acted = 0  # the person's actions: the page is told after each
        self.autoplay = Autoplay(h, self.autoplays, config.seed, pace=max(0.02, 0.8 / config.speed))

    def autoplays(self, user_id: int) -> bool:
        return user_id not in self.people

    @classmethod
    @contextlib.asynccontextmanager
    async def open(cls, config: PlayConfig, number: int) -> AsyncIterator[PlaySession]:
        """A table with a full lobby, waiting for Start; closed on leaving."""
        options = config.check()
        people = People(())
        t = translator(config.language)
        with tempfile.TemporaryDirectory(prefix="tg-mafia-play-") as folder:
            async with running_bot(
                Path(folder),
                config.players,
                speed=config.speed,
                database_url=f"sqlite:///{Path(folder) / 'play.db'}",
                lobby_seconds=0,  # the lobby waits for Start, however late the page opens
                names=names(config.language),
                language=config.language,
                lobby_seed=config.seed,
                own_pace=people.own_stage,
                # TRANSLATORS: the first name of the group's administrator on the play page.
                admin_name=t.pgettext("play page", "Admin"),
            ) as h:
                if config.person:
                    people.set(h.users[config.person - 1].id, True)
                # The group's name, as a group of this language would call itself.
                h.group.title = t.pgettext("play page", "Friday club")
                h.db.save_settings(
                    h.group.id,
                    variant=config.variant,
                    language=config.language,
                    options=options,
                )
                session = cls(h, config, number, people)
                await session.open_lobby()
                task = asyncio.create_task(session.autoplay.run())
                try:
                    yield session
                finally:
                    session.autoplay.stopped = True  # should the cancellation be lost
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task

    async def open_lobby(self) -> None:
        """/newgame by the person (who may then press Start) or, when every
        seat autoplays, by the admin; every seat joins, in order."""
        h = self.h
        opener = next((u for u in h.users if u.id in self.people), h.admin)
        opener.send(h.group, f"/newgame@{h.sb.bot_username}")
        await h.settle()
        record = h.db.active_game(h.group.id)
        assert record is not None, "the lobby did not open"
        for user in h.users:
            user.open_deep_link(h.sb.deep_link(f"join_{h.group.id}"))
            await h.settle()
        self.autoplay.filled.add(record.id)

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
                "autoplay": self.autoplays(user.id),
            }
            for seat, user in enumerate(self.h.users, 1)
        ]
        out.append(
            {"user_id": self.h.admin.id, "name": self.h.admin.name, "seat": 0, "autoplay": False}
        )
        return out

    def chats(self) -> dict[str, list[dict[str, Any]]]:
        """The group, and each player's private chat, as that player sees it."""
        sb, t = self.h.sb, self.t
        out = {"group": chat_messages(sb, self.h.admin.user, self.h.group, t)}
        for user in self.h.users:
            out[str(user.id)] = chat_messages(sb, user.user, user.private_chat, t)
        return out

    def status(self) -> str:
        record = self.h.db.active_game(self.h.group.id)
        if record is None:
            return "no game"
        return "lobby" if record.status is GameStatus.LOBBY else "playing"

    def headline(self, status: str) -> str:
        c = self.config
        return words.headline(self.t, status, c.variant, c.players, c.speed)

    def snapshot(self) -> dict[str, Any]:
        status = self.status()
        t = self.t
        return {
            "session": self.number,
            "config": self.config.to_json(),
            "choices": {
                "languages": [{"code": c, "name": language_name(c)} for c in LANGUAGES],
                "variants": [{"code": v, "name": variant_name(t, v)} for v in VARIANTS],
            },
            "words": words.page_words(t),
            "group": {"id": self.h.group.id, "title": self.h.group.title},
            "status": status,
            "headline": self.headline(status),
            "seats": self.seats(),
            "chats": self.chats(),
        }

    def media(self, chat_id: int, message_id: int) -> tuple[bytes, str]:
        """The picture or file of a message the page shows, and its file name."""
        chats = [self.h.group, *(user.private_chat for user in self.h.users)]
        chat = next((c for c in chats if c.id == chat_id), None)
        message = chat.live_message(message_id) if chat is not None else None
        if message is None or message.media_kind not in ("photo", "document"):
            raise Refused(self.t.pgettext("play page", "That message is gone."))
        if message.media_kind == "photo":
            size = message.media["photo"][-1]
            return self.h.sb.file_bytes(size["file_id"]), "picture"
        document = message.media["document"]
        return self.h.sb.file_bytes(document["file_id"]), str(document.get("file_name", "file"))

    # ----- acting as a user -----------------------------------------------------

    def user(self, user_id: object) -> SimUser:
        for user in (*self.h.users, self.h.admin):
            if user.id == user_id:
                return user
        raise Refused(self.t.pgettext("play page", "There is no such seat."))

    def chat(self, user: SimUser, where: object) -> Chat:
        if where == "group":
            return self.h.group
        if where == "private" and user is not self.h.admin:
            return user.private_chat
        raise Refused(
            self.t.pgettext("play page", "{name} has no such chat here.").format(name=user.name)
        )

    def send(self, user_id: object, where: object, text: object) -> None:
        """A message typed by the user; Refused when Telegram would not send it."""
        user = self.user(user_id)
        chat = self.chat(user, where)
        if not isinstance(text, str) or not text.strip():
            raise Refused(self.t.pgettext("play page", "Type a message first."))
        if len(text) > MAX_TEXT:
            raise Refused(
                self.t.pgettext("play page", "A message holds up to {limit} characters.").format(
                    limit=MAX_TEXT
                )
            )
        try:
            user.send(chat, text)
        except SimulationError:
            # As the app shows it: the chat is closed to this user now (the masked night).
            raise Refused(
                self.t.pgettext("play page", "You cannot write in this chat now.")
            ) from None
        self.acted += 1

    async def press(
        self, user_id: object, where: object, message_id: object, row: object, column: object
    ) -> dict[str, Any]:
        """The user presses a button; the bot's popup, if it shows one in time."""
        user = self.user(user_id)
        chat = self.chat(user, where)
        message = chat.live_message(message_id) if isinstance(message_id, int) else None
        if message is None:
            raise Refused(self.t.pgettext("play page", "That message is gone."))
        keyboard = (message.reply_markup or {}).get("inline_keyboard", [])
        try:
            button = keyboard[int(str(row))][int(str(column))]
        except (IndexError, ValueError):
            raise Refused(self.t.pgettext("play page", "That button is gone.")) from None
        try:
            press = user.press(chat, button["text"], message_id=message.message_id)
        except SimulationError:
            raise Refused(self.t.pgettext("play page", "That button is gone.")) from None
        self.acted += 1
        if "callback_data" not in button:
            return {}
        with contextlib.suppress(TimeoutError):
            await self.h.sb.wait_for(lambda: press.answered, timeout=ANSWER_WAIT)
        return press.answer if press.answered else {}

    def set_autoplay(self, user_id: object, on: object) -> None:
        user = self.user(user_id)
        if user is self.h.admin:
            raise Refused(self.t.pgettext("play page", "The admin does not play."))
        if not isinstance(on, bool):
            raise Refused(self.t.pgettext("play page", "Autoplay is on or off."))
        self.people.set(user.id, not on)
        self.acted += 1
