"""A whole demo game: the bot on the sandbox, simulated players, every random
choice from one seed; shown at the end or line by line as it happens
(`tg-mafia demo`)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import PublicView
from engine.actions import Action, Pass
from engine.options import OptionValue
from tg_mafia.playtest.autoplay import AutoPlayers
from tg_mafia.playtest.cast import LINES, names
from tg_mafia.playtest.harness import BOT_RIGHTS, Harness, running_bot
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.playtest.watch import Watch, replayed_reason
from tg_mafia.render.protocol import build_protocol, protocol_json
from tg_mafia.storage import GameRecord, GameStatus
from tg_mafia.storage.tx import SEED_BITS

Lines = Callable[[list[str]], None]


class ThankfulPlayers(AutoPlayers):
    """With the thanks rule on, a speaker ends half their floors by saying
    thanks instead of pressing Pass: so that the demo shows the rule."""

    async def perform(self, record: GameRecord, view: PublicView, action: Action) -> None:
        if isinstance(action, Pass) and view.options.get("thanks_rule") and self.rng.random() < 0.5:
            self.user(action.actor).send(self.h.group.id, self.lines[-1])
            return
        await super().perform(record, view, action)


class Demo:
    def __init__(
        self,
        variant: str,
        players: int,
        language: str,
        options: dict[str, OptionValue],
        seed: int,
        speed: float = 1.0,
        forum: bool = False,
    ) -> None:
        self.variant = variant
        self.players = players
        self.language = language
        self.options = options
        self.seed = seed
        self.speed = speed  # of the bot's and the sandbox's clocks; timers are fired by hand
        self.forum = forum  # the game in a topic of a forum group
        # The played game's protocol (the JSON document /protocol sends), once it has ended.
        self.protocol: dict[str, Any] | None = None

    async def play(self, show_private: bool = False, on_lines: Lines | None = None) -> str:
        """The final view of the chats; with `on_lines`, the game line by line as
        it happens instead (and an empty result)."""
        # Every random choice comes from the seed: the deal, then the players' moves.
        rng = random.Random(self.seed)
        deal_seed, play_seed = rng.getrandbits(SEED_BITS), rng.getrandbits(64)
        scheduler = ManualScheduler()
        with tempfile.TemporaryDirectory() as folder:
            async with running_bot(
                Path(folder),
                self.players,
                scheduler=scheduler,
                names=names(self.language),
                language=self.language,
                lobby_seed=deal_seed,
                speed=self.speed,
                forum=self.forum,
                rights={**BOT_RIGHTS, "can_manage_topics": True} if self.forum else None,
            ) as h:
                h.db.save_settings(
                    h.group.id,
                    variant=self.variant,
                    language=self.language,
                    options=self.options,
                    title="Demo",
                )
                topic = h.sb.create_topic(h.group, "Mafia", by=h.admin) if self.forum else 0
                game_id = await h.open_and_fill(topic=topic)
                table = ThankfulPlayers(
                    h, scheduler, play_seed, chatter=0.02, lines=LINES[self.language]
                )
                if on_lines is None:
                    await h.press_start()
                    self.keep_protocol(h, await table.play(game_id))
                    return final_view(h, show_private)
                watch = Watch(h.sb, lambda _chat, index: replayed_reason(h.db, game_id, index))
                follower = asyncio.create_task(follow(watch, on_lines))
                try:
                    await h.press_start()
                    self.keep_protocol(h, await table.play(game_id))
                finally:
                    follower.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await follower
                on_lines(watch.new_lines())
                return ""

    def keep_protocol(self, h: Harness, record: GameRecord) -> None:
        if record.status is GameStatus.ENDED:
            self.protocol = protocol_json(build_protocol(record, h.db.actions(record.id)))


def final_view(h: Harness, show_private: bool) -> str:
    parts = [f"===== {h.group.title} (group) =====", h.sb.render(h.admin, h.group)]
    for user in h.users if show_private else h.users[:1]:
        parts.append(f"\n===== {user.name} (private chat with the bot) =====")
        parts.append(h.sb.render(user, user.private_chat))
    return "\n".join(parts)


async def follow(watch: Watch, on_lines: Lines) -> None:
    """Hands over new lines after every call the bot makes, until cancelled."""
    sb = watch.sb
    while True:
        lines = watch.new_lines()
        if lines:
            on_lines(lines)
        with contextlib.suppress(TimeoutError):
            await sb.wait_for(lambda: len(sb.log) > watch.seen_calls, timeout=1.0)
