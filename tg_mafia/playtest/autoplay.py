"""Simulated players who play through the Telegram interface only: they
press the buttons the bot shows and post in the group. Their choices come
from the engine's seeded random policy at the stored game's table (they
hold the game only as the engine hands it out: `engine.Game`); the public
view tells them where the buttons are. Timers are fired by the test."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable

from engine import Game, PublicView
from engine.actions import (
    Action,
    Best,
    Decide,
    Hand,
    HostConfirm,
    Leave,
    Lower,
    NightChoice,
    Nominate,
    Pass,
    Say,
    Timeout,
    Unvote,
    Vote,
)
from tg_mafia.i18n import LANGUAGES, translator
from tg_mafia.playtest.harness import Harness
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render import texts
from tg_mafia.render.callbacks import Kind, decode
from tg_mafia.render.texts import Answer
from tg_mafia.sandbox import SimUser
from tg_mafia.sandbox.errors import SimulationError
from tg_mafia.storage import GameRecord, GameStatus
from tg_mafia.telegram.limiter import InputLimiter


def find_buttons(h: Harness, chat_id: int, match: Callable[[str], bool]) -> list[tuple[int, str]]:
    """The live messages of the chat with a button whose data matches, newest first."""
    chat = h.chat(chat_id)
    found = []
    for message in sorted(chat.messages.values(), key=lambda m: -m.message_id):
        if message.deleted or not message.reply_markup:
            continue
        for row in message.reply_markup.get("inline_keyboard", []):
            for button in row:
                data = button.get("callback_data")
                if data and match(data):
                    found.append((message.message_id, str(button["text"])))
    return found


def find_button(h: Harness, chat_id: int, match: Callable[[str], bool]) -> tuple[int, str] | None:
    """The latest live message in the chat with a button whose data matches."""
    found = find_buttons(h, chat_id, match)
    return found[0] if found else None


def press(h: Harness, user: SimUser, chat_id: int, match: Callable[[str], bool]) -> bool:
    found = find_button(h, chat_id, match)
    if found is None:
        return False
    message_id, label = found
    user.press(h.chat(chat_id), label, message_id=message_id)
    return True


def prefix(kind: Kind, record: GameRecord, *args: str) -> Callable[[str], bool]:
    """Buttons of `kind` for this game with these arguments."""

    def match(data: str) -> bool:
        button = decode(data)
        return (
            button is not None
            and button.kind is kind
            and button.game == record.id
            and button.args == args
        )

    return match


def seats_arg(view: PublicView, players: tuple[str, ...]) -> str:
    """Players as a best-move button names them: their seats, "3_5_9"."""
    return "_".join(str(view.seats.index(p) + 1) for p in players)


UNLIMITED = 10**9


class AutoPlayers:
    def __init__(
        self,
        h: Harness,
        scheduler: ManualScheduler,
        seed: int,
        chatter: float = 0.03,
        lines: tuple[str, ...] = (),
    ) -> None:
        self.h = h
        self.scheduler = scheduler
        self.rng = random.Random(seed)
        self.chatter = chatter
        self.lines = lines
        self.users = {str(u.id): u for u in [*h.users, h.admin]}
        self.stale_popups = {texts.popup(translator(lang), Answer.STALE) for lang in LANGUAGES}
        self.steps = 0
        # They press at machine speed, many times a second of the game's clock: the limit
        # on what a person sends (telegram/limiter.py) is not theirs; its tests keep one.
        h.app.bot_data.input_limiter = InputLimiter(rate=UNLIMITED)

    def user(self, player: str) -> SimUser:
        return self.users[player]

    async def play(self, record_id: int, max_steps: int = 3000) -> GameRecord:
        while True:
            await self.h.settle()
            record = self.h.db.get_game(record_id)
            assert record is not None
            if record.status is not GameStatus.RUNNING:
                return record
            self.steps += 1
            assert self.steps < max_steps, "the game did not end"
            assert record.state is not None
            game = Game.stored(record.state)
            action = game.random_move(self.rng, self.chatter)
            await self.perform(record, game.views.public, action)

    async def perform(self, record: GameRecord, view: PublicView, action: Action) -> None:
        h = self.h
        if isinstance(action, Timeout):
            await self.scheduler.fire(f"game-{record.id}")
            return
        if isinstance(action, HostConfirm):
            host = self.user(str(record.host_user_id))
            await self.press(host, host.id, prefix(Kind.HOST, record, "confirm"), action)
            return
        actor = self.user(action.actor)
        if isinstance(action, Say):
            text = self.rng.choice(self.lines) if self.lines else action.text
            # Telegram refuses a post from whom the chat is closed (the masked night).
            with contextlib.suppress(SimulationError):
                actor.send(h.group.id, text)
            return
        if isinstance(action, Nominate):
            # Nominate… in the group opens the list in private.
            await self.press(actor, h.group.id, prefix(Kind.NOMINATE_MENU, record), action)
            await h.settle()
        if isinstance(action, Best):
            await self.pick_best_move(record, view, action)
        chat, match = self.button_for(record, view, action)
        await self.press(actor, chat, match, action)

    async def pick_best_move(self, record: GameRecord, view: PublicView, action: Best) -> None:
        """The best-move menu: one name tapped at a time (each tap redraws it);
        Done follows (`button_for`)."""
        actor = self.user(action.actor)
        for count in range(1, len(action.targets) + 1):
            selection = seats_arg(view, action.targets[:count])
            await self.press(actor, actor.id, prefix(Kind.BEST, record, "t", selection), action)
            await self.h.settle()

    def button_for(
        self, record: GameRecord, view: PublicView, action: Action
    ) -> tuple[int, Callable[[str], bool]]:
        """Where the button for `action` is (the group, or the actor's private
        chat), and how to know it."""

        def seat(player: str | None) -> str:
            return str(view.seats.index(player) + 1) if player else "0"

        group, own = self.h.group.id, int(action.actor)
        if isinstance(action, NightChoice):
            return own, prefix(Kind.NIGHT, record, action.move.value, seat(action.target))
        if isinstance(action, Nominate):
            return own, prefix(Kind.NOMINATE, record, seat(action.target))
        if isinstance(action, Decide):
            return own, prefix(Kind.DECIDE, record, seat(action.target))
        if isinstance(action, Best):
            return own, prefix(Kind.BEST, record, "d", seats_arg(view, action.targets))
        if isinstance(action, Vote):
            return group, prefix(Kind.VOTE, record, seat(action.target))
        kinds: dict[type[Action], Kind] = {
            Pass: Kind.PASS,
            Hand: Kind.HAND,
            Lower: Kind.LOWER,
            Leave: Kind.LEAVE,
            Unvote: Kind.UNVOTE,
        }
        kind = kinds.get(type(action))
        if kind is None:
            raise AutoplayError(f"the autoplayer cannot do {action}")
        return group, prefix(kind, record)

    async def press(
        self, user: SimUser, chat: int, match: Callable[[str], bool], action: Action
    ) -> None:
        """Presses the newest button for `action`; as a person would, tries an
        older copy when the bot answers that one is out of date (a call that
        Telegram carried out after the bot had given up on it leaves a copy)."""
        found = find_buttons(self.h, chat, match)
        if not found:
            raise AutoplayError(f"no button for {action} in chat {chat}")
        for message_id, label in found:
            pressed = user.press(self.h.chat(chat), label, message_id=message_id)
            if len(found) == 1:
                return
            await self.h.handled()
            if pressed.answer.get("text") not in self.stale_popups:
                return


class AutoplayError(AssertionError):
    """The bot showed no button for a move the engine says is legal."""
