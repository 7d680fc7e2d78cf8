"""Seats that play themselves on the play page: the engine's seeded random
policy picks a move, and the seat presses the bot's button for it. The bot's
own timers run, so a move that is a timeout is left to them, and so is any
move of a seat the person plays.

A new lobby (the end screen's "New game") is filled the same way: the
seats join through its link in their order, each autoplaying seat by
itself, while a seat a person plays waits for the person's Join (so that
the seats keep their numbers). Start is left to the person."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable

from engine import Game, PublicView
from engine.actions import Action, HostConfirm, Timeout
from tg_mafia.playtest.harness import Harness
from tg_mafia.render.lobby import join_payload
from tg_mafia.sandbox import SimulationError
from tg_mafia.storage import GameRecord, GameStatus

CHATTER = 0.02  # now and then a seat posts out of turn, as people do


async def press_for(
    h: Harness, record: GameRecord, view: PublicView, action: Action, rng: random.Random
) -> bool:
    """Carries out a player's `action` through the bot's buttons or a post.
    False when that could not be done: the game moved on meanwhile (a timer
    fired, the person pressed first) or the chat is closed.

    The one place that knows which button stands for which move: it borrows
    the test autoplayers' (tg_mafia/playtest/autoplay.py), which follow the
    bot's button protocol."""
    from tg_mafia.playtest.autoplay import AutoPlayers
    from tg_mafia.playtest.cast import LINES
    from tg_mafia.playtest.scheduler import ManualScheduler

    players = AutoPlayers(
        h, ManualScheduler(), rng.getrandbits(32), CHATTER, LINES.get(record.language, ())
    )
    try:
        await players.perform(record, view, action)
    except (AssertionError, SimulationError, TimeoutError):
        return False
    return True


class Autoplay:
    """Plays every seat `plays(user_id)` says yes to, one move per `pace`
    real seconds, until `stopped`."""

    def __init__(
        self, h: Harness, plays: Callable[[int], bool], seed: int | None, pace: float
    ) -> None:
        self.h = h
        self.plays = plays
        self.rng = random.Random(seed)
        self.pace = pace
        self.moves = 0
        self.stopped = False
        self.filled: set[int] = set()  # the lobbies every seat has joined

    async def join_next(self, record: GameRecord) -> bool:
        """The next seat joins the lobby, if it autoplays; True if one did."""
        if record.id in self.filled:
            return False
        joined = {player.user_id for player in record.players}
        waiting = [user for user in self.h.users if user.id not in joined]
        if not waiting:
            self.filled.add(record.id)
            return False
        user = waiting[0]
        if not self.plays(user.id):
            return False  # the person's seat: theirs to join
        with contextlib.suppress(SimulationError):
            user.open_deep_link(self.h.sb.deep_link(join_payload(record.chat_id, record.topic)))
        await self.h.handled()  # joined before the next look at the lobby
        return True

    async def run(self) -> None:
        while not self.stopped:
            await asyncio.sleep(self.pace)
            await self.step()

    async def step(self) -> bool:
        """One move if one of the autoplaying seats has one; True if made."""
        record = self.h.db.active_game(self.h.group.id)
        if record is not None and record.status is GameStatus.LOBBY:
            return await self.join_next(record)
        if record is None or record.status is not GameStatus.RUNNING or record.state is None:
            return False
        game = Game.stored(record.state)
        action = game.random_move(self.rng, CHATTER)
        if isinstance(action, Timeout | HostConfirm) or not self._mine(action):
            return False
        done = await press_for(self.h, record, game.views.public, action, self.rng)
        self.moves += done
        return done

    def _mine(self, action: Action) -> bool:
        try:
            return self.plays(int(action.actor))
        except ValueError:
            return False  # the host's
