"""A page that loses its stream in the middle of a vote and reconnects with
its last event id is sent the vote as it stands now (the hands raised while it
was away), and nothing twice."""

from __future__ import annotations

import json
from pathlib import Path

from tornado.httpclient import AsyncHTTPClient

from engine import GameState, public_view
from engine.actions import Hand
from engine.legal import legal_actions
from engine.simulation import lively_action
from engine.state import Stage
from tests.bot.autoplay import AutoPlayers, prefix
from tests.miniapp.conftest import served_table
from tests.miniapp.test_live import stream
from tests.miniapp.test_page import events_of
from tg_mafia.render.callbacks import Kind

# On the virtual clock: the streams are on loopback, within the loop.


async def test_a_stream_reconnected_mid_vote_gets_the_hands_raised_meanwhile(
    tmp_path: Path,
) -> None:
    async with served_table(tmp_path, 8, lobby_seed=5) as table:
        h = table.h
        auto = AutoPlayers(h, table.scheduler, 5, chatter=0.0)
        for _ in range(400):  # the game, played until a hand-raise count is open
            await h.settle()
            state = table.state()
            if state.stage is Stage.VOTE and _can_raise(state):
                break
            await auto.perform(
                table.record(), public_view(state), lively_action(state, auto.rng, 0.0)
            )
        else:
            raise AssertionError("no vote came")
        viewer = h.admin  # a spectator's page: the public vote
        init = viewer.web_app_data(f"g{table.game_id}")
        answer = await AsyncHTTPClient().fetch(
            f"{table.base}/state?game={table.game_id}", headers={"Authorization": f"tma {init}"}
        )
        last = json.loads(answer.body)["id"]
        hands_before = [s["n"] for s in json.loads(answer.body)["table"]["seats"] if s["hand"]]
        # The page is away; meanwhile a player raises their hand in the chat.
        raiser = _can_raise(table.state())[0]
        record = table.record()
        await auto.press(auto.user(raiser), h.group.id, prefix(Kind.HAND, record), Hand(raiser))
        await h.settle()
        seat = table.state().table.seats.index(raiser) + 1
        (back,) = events_of(await stream(table, init, last, 1.5))
        hands = [s["n"] for s in back["seats"] if s["hand"]]
        assert seat in hands and seat not in hands_before
        assert back["v"] == table.record().version
        # Reconnected again with the id it now has: nothing comes twice.
        answer = await AsyncHTTPClient().fetch(
            f"{table.base}/state?game={table.game_id}", headers={"Authorization": f"tma {init}"}
        )
        assert events_of(await stream(table, init, json.loads(answer.body)["id"], 1.5)) == []


def _can_raise(state: GameState) -> list[str]:
    return [a.actor for a in legal_actions(state, include_host=False) if isinstance(a, Hand)]
