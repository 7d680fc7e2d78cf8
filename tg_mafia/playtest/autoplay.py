"""Simulated players who play through the Telegram interface only: they
press the buttons the bot shows and post in the group. Their choices come
from the engine's seeded random policy; timers are fired by the test."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable

from engine import GameState, Stage
from engine.actions import (
    Action,
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
from engine.simulation import random_action
from tg_mafia.bot.timers import ManualScheduler
from tg_mafia.playtest.harness import Harness
from tg_mafia.sandbox import SimUser
from tg_mafia.sandbox.errors import SimulationError
from tg_mafia.storage import GameRecord, GameStatus


def find_button(h: Harness, chat_id: int, match: Callable[[str], bool]) -> tuple[int, str] | None:
    """The latest live message in the chat with a button whose data matches."""
    chat = h.sb.world.resolve_chat(chat_id)
    for message in sorted(chat.messages.values(), key=lambda m: -m.message_id):
        if message.deleted or not message.reply_markup:
            continue
        for row in message.reply_markup.get("inline_keyboard", []):
            for button in row:
                data = button.get("callback_data")
                if data and match(data):
                    return message.message_id, str(button["text"])
    return None


def press(h: Harness, user: SimUser, chat_id: int, match: Callable[[str], bool]) -> bool:
    found = find_button(h, chat_id, match)
    if found is None:
        return False
    message_id, label = found
    user.press(chat_id, label, message_id=message_id)
    return True


def prefix(kind: str, record: GameRecord, *args: str) -> Callable[[str], bool]:
    def match(data: str) -> bool:
        parts = data.split(":")
        return parts[0] == kind and parts[1] == str(record.id) and tuple(parts[3:]) == args

    return match


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
        self.lines = lines
        self.users = {str(u.id): u for u in [*h.users, h.admin]}
        self.steps = 0

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
            state = GameState.from_dict(record.state)
            await self.perform(record, state, random_action(state, self.rng, self.chatter))

    async def perform(self, record: GameRecord, state: GameState, action: Action) -> None:
        h = self.h

        def seat(player: str) -> str:
            return str(state.seats.index(player) + 1)

        group = h.group.id
        if isinstance(action, Timeout):
            await self.scheduler.fire(f"game-{record.id}")
            return
        if isinstance(action, HostConfirm):
            host = self.user(str(record.host_user_id))
            assert press(h, host, host.id, prefix("H", record, "confirm"))
            return
        actor = self.user(action.actor)
        if isinstance(action, Say):
            text = self.rng.choice(self.lines) if self.lines else action.text
            # Telegram refuses a post from whom the chat is closed (the masked night).
            with contextlib.suppress(SimulationError):
                actor.send(group, text)
        elif isinstance(action, NightChoice):
            target = seat(action.target) if action.target else "0"
            assert press(h, actor, actor.id, prefix("n", record, action.move.value, target)), (
                f"no night button for {action}"
            )
        elif isinstance(action, Pass):
            assert press(h, actor, group, prefix("p", record))
        elif isinstance(action, Nominate):
            assert press(h, actor, group, prefix("m", record))
            await h.settle()
            assert press(h, actor, actor.id, prefix("N", record, seat(action.target)))
        elif isinstance(action, Hand):
            assert press(h, actor, group, prefix("h", record, "u"))
        elif isinstance(action, Lower):
            assert press(h, actor, group, prefix("h", record, "d"))
        elif isinstance(action, Leave):
            assert press(h, actor, group, prefix("x", record))
        elif isinstance(action, Vote):
            assert press(h, actor, group, prefix("v", record, seat(action.target)))
        elif isinstance(action, Unvote):
            assert press(h, actor, group, prefix("w", record))
        elif isinstance(action, Decide):
            assert press(h, actor, actor.id, prefix("d", record, seat(action.target)))
        else:
            raise AssertionError(f"the autoplayer cannot do {action}")
        _ = Stage
