"""A whole game of `moscow` with every other move pressed in the Mini App (the
page's own request: a message of the chat and one of its choices, signed with
the player's initData) and the rest in the chat, ends exactly as the same seeds
played all in the chat: the same moves in the same order, the same winner. One
path for a press, whichever way it comes."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tornado.httpclient import AsyncHTTPClient, HTTPClientError

from engine import Action
from tests.bot.autoplay import AutoPlayers
from tests.miniapp.conftest import served_table
from tg_mafia.playtest.demo import SEED_BITS
from tg_mafia.render.callbacks import decode
from tg_mafia.runtime.service import is_move
from tg_mafia.sandbox import SimUser

# On the virtual clock (as the chat's whole-game tests): the page's requests are on
# loopback, within the loop.
SEED = 11


def seeds(seed: int) -> tuple[int, int]:
    """The deal's seed and the players' seed, drawn as the demo draws them."""
    rng = random.Random(seed)
    return rng.getrandbits(SEED_BITS), rng.getrandbits(64)


class HalfInThePage(AutoPlayers):
    """Every other move goes through the page's POST /app/press instead of the chat."""

    def __init__(self, *args: Any, base: str, game: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.base = base
        self.game = game
        self.turn = 0
        self.in_page = 0
        self.in_chat = 0

    async def press(
        self, user: SimUser, chat: int, match: Callable[[str], bool], action: Action
    ) -> None:
        found = _buttons(self.h, chat, match)
        self.turn += 1
        if self.turn % 2 or not found or not is_move(decode(found[0][1]) or _never()):
            self.in_chat += 1
            await super().press(user, chat, match, action)
            return
        message_id, data = found[0]
        init = user.web_app_data(f"g{self.game}")
        body = json.dumps({"game": self.game, "m": f"{chat}:{message_id}", "d": data})
        try:
            answer = await AsyncHTTPClient().fetch(
                f"{self.base}/press",
                method="POST",
                body=body,
                headers={"Authorization": f"tma {init}"},
            )
        except HTTPClientError as error:
            raise AssertionError(f"the page's press of {action} was refused: {error}") from error
        assert json.loads(answer.body)["ok"]
        self.in_page += 1


def _never() -> Any:
    raise AssertionError("a button of ours that does not decode")


def _buttons(h: Any, chat_id: int, match: Callable[[str], bool]) -> list[tuple[int, str]]:
    chat = h.sb.world.resolve_chat(chat_id)
    found = []
    for message in sorted(chat.messages.values(), key=lambda m: -m.message_id):
        if message.deleted or not message.reply_markup:
            continue
        for row in message.reply_markup.get("inline_keyboard", []):
            for button in row:
                data = button.get("callback_data")
                if data and match(data):
                    found.append((message.message_id, str(data)))
    return found


async def play(tmp_path: Path, page: bool) -> tuple[list[dict[str, Any]], str | None, int]:
    deal, players = seeds(SEED)
    tmp_path.mkdir()
    async with served_table(tmp_path, 8, lobby_seed=deal) as table:
        h = table.h
        kind = HalfInThePage if page else AutoPlayers
        extra = {"base": table.base, "game": table.game_id} if page else {}
        auto = kind(h, table.scheduler, players, chatter=0.0, **extra)
        record = await auto.play(table.game_id)
        actions = [a.action for a in h.db.actions(table.game_id)]
        pressed = auto.in_page if isinstance(auto, HalfInThePage) else 0
        return actions, record.winner, pressed


async def test_a_game_played_half_in_the_page_ends_as_in_the_chat(tmp_path: Path) -> None:
    chat_only, chat_winner, _ = await play(tmp_path / "chat", page=False)
    half, half_winner, in_page = await play(tmp_path / "page", page=True)
    assert in_page >= 10  # the page took its half of the presses
    assert half_winner == chat_winner and chat_winner
    assert half == chat_only
