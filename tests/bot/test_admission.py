"""Admission before overload: the calls a minute each variant's game needs (from the
calls-per-game benchmark), the token's budget, and on the sandbox a /newgame past the
budget that opens nothing and puts the group in the queue, told when a game ends."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from tests.bot.autoplay import AutoPlayers, prefix, press
from tests.bot.harness import BOT_RIGHTS, Harness, running_bot
from tg_mafia.i18n import translator
from tg_mafia.ops.budget import (
    GAME_COSTS,
    SOURCE,
    Tables,
    TokenBudget,
    fits,
    game_rate,
    load,
    opening_rate,
)
from tg_mafia.ops.metrics import Snapshot
from tg_mafia.ops.status import load_text
from tg_mafia.playtest.scheduler import ManualScheduler
from tg_mafia.render import texts
from tg_mafia.render.callbacks import Kind
from tg_mafia.runtime.admission.waitlist import EVERY, JOB
from tg_mafia.sandbox.world.state import Chat
from tg_mafia.storage import GameStatus
from tg_mafia.storage import waitlist as store

ROOT = Path(__file__).resolve().parents[2]
T = translator("en")
QUEUED = "Every table I can run well is taken"
FREE = "A table is free for this group"


# ----- the arithmetic ---------------------------------------------------------------------


def test_each_variant_costs_its_benchmark_figures() -> None:
    """The constants are the named run's: charged calls (sends, edits, pins and the
    "other" column), minutes, opening and its minutes of the median game."""
    rows = json.loads((ROOT / SOURCE).read_text())["rows"]
    assert {row["variant"] for row in rows} == set(GAME_COSTS)
    for row in rows:
        charged = sum(
            row[m] for m in ("sendMessage", "editMessageText", "pinChatMessage", "unpinChatMessage")
        )
        cost = GAME_COSTS[row["variant"]]
        assert cost.calls == charged + row["other"], row["variant"]
        assert cost.minutes == pytest.approx(row["minutes"], abs=0.01), row["variant"]
        assert cost.opening == row["opening"], row["variant"]
        assert cost.opening_minutes == pytest.approx(row["opening_minutes"], abs=0.01)


def test_a_lobby_needs_its_opening_and_a_running_game_the_rest_of_its_calls() -> None:
    # The opening is the lobby's: counted again in a running game's rate, it would be
    # counted twice.
    assert game_rate("classic") == pytest.approx((143 - 34) / (20.37 - 1.25))
    assert game_rate("moscow") == pytest.approx((258 - 37) / (32.17 - 1.19))
    assert opening_rate("classic") == pytest.approx(34 / 1.25)
    assert opening_rate("moscow") == pytest.approx(37 / 1.19)
    # An unmeasured variant counts as the dearest one.
    assert game_rate("unknown") == max(game_rate(v) for v in GAME_COSTS) == game_rate("club")
    assert opening_rate("unknown") == max(opening_rate(v) for v in GAME_COSTS)
    assert opening_rate("unknown") == opening_rate("party")
    assert load(Tables(running=Counter(classic=2, club=1))) == pytest.approx(
        2 * game_rate("classic") + game_rate("club")
    )
    assert load(Tables(Counter(moscow=1), Counter(moscow=1))) == pytest.approx(
        opening_rate("moscow") + game_rate("moscow")
    )
    assert load(Tables()) == 0


def test_the_budget_is_thirty_calls_a_second_and_new_games_stop_at_its_share() -> None:
    budget = TokenBudget()
    assert (budget.per_minute, budget.share, budget.ceiling) == (1800, 0.9, pytest.approx(1620))
    # A new game opens as a lobby: (1,620 - 34 / 1.25) / (109 / 19.12) = 279.4 running.
    assert fits(budget, Tables(running=Counter(classic=279)), "classic")
    assert not fits(budget, Tables(running=Counter(classic=280)), "classic")
    assert not fits(budget, Tables(running=Counter(classic=264, moscow=15)), "classic")  # dearer
    # Lobbies filling at once: 1,620 / (34 / 1.25) = 59.6.
    assert fits(budget, Tables(lobbies=Counter(classic=58)), "classic")
    assert not fits(budget, Tables(lobbies=Counter(classic=59)), "classic")
    half = TokenBudget(share=0.5)
    assert half.ceiling == 900
    assert fits(half, Tables(running=Counter(classic=153)), "classic")
    assert not fits(half, Tables(running=Counter(classic=154)), "classic")


def test_status_shows_the_load_against_the_budget_and_the_groups_waiting() -> None:
    games = {("classic", "lobby"): 1, ("classic", "night"): 2, ("club", "day"): 1}
    line = load_text(T, Snapshot(games, groups_waiting=3), TokenBudget())
    expected = round(opening_rate("classic") + 2 * game_rate("classic") + game_rate("club"))
    assert line == (
        f"Load on the bot token: about {expected} of 1800 calls a minute (new games wait "
        "past 1620). Groups waiting for a table: 3."
    )


# ----- on the sandbox -------------------------------------------------------------------

# 60 calls a minute: a classic game running and a lobby, or two lobbies, but not a game
# running and two lobbies.
SMALL = TokenBudget(calls_per_second=1.0, share=1.0)


def add_group(h: Harness, title: str) -> Chat:
    members = [*h.users, h.admin]
    return h.sb.add_group(title, members=members, owner=h.admin, bot_rights=BOT_RIGHTS)


async def newgame(h: Harness, group: Chat) -> str:
    h.admin.command(group, "newgame", mention=True)
    await h.settle()
    return last(h, group)


def last(h: Harness, group: Chat) -> str:
    return [m.text or "" for m in h.admin.view(group)][-1]


async def test_a_newgame_past_the_budget_waits_in_the_queue_until_a_game_ends(
    tmp_path: Path,
) -> None:
    assert 2 * opening_rate("classic") <= SMALL.ceiling
    assert SMALL.ceiling < game_rate("classic") + 2 * opening_rate("classic")
    scheduler = ManualScheduler()
    async with running_bot(tmp_path, 7, scheduler=scheduler, budget=SMALL) as h:
        h.db.save_settings(h.group.id, variant="classic", language="en")
        second, third, fourth = (add_group(h, name) for name in ("Second", "Third", "Fourth"))
        # A member of the third group asks to be told in private (/nextgame).
        watcher = h.users[0]
        watcher.start()
        watcher.command(third, "nextgame", mention=True)
        await h.settle()
        # Two tables: a game in the first group, a lobby in the second.
        game_id = await h.open_and_fill()
        await h.press_start()
        await newgame(h, second)
        lobby = h.db.active_game(second.id)
        assert lobby is not None and lobby.status is GameStatus.LOBBY

        # The third group's /newgame: one message, nothing opened.
        before = len(h.admin.view(third))
        answer = await newgame(h, third)
        assert QUEUED in answer and "number 1 in the queue" in answer
        assert len(h.admin.view(third)) == before + 2  # the command and the one answer
        assert h.db.active_game(third.id) is None
        assert "number 2 in the queue" in await newgame(h, fourth)
        assert "number 1 in the queue" in await newgame(h, third)  # its place kept
        assert waiting(h) == [(third.id, None), (fourth.id, None)]

        # The leader looks every 15 s: no table is free yet.
        assert scheduler.armed[JOB][0] == 0.0  # armed at the lead's start
        await scheduler.fire(JOB)
        assert scheduler.armed[JOB][0] == EVERY
        ended = await AutoPlayers(h, scheduler, seed=3).play(game_id)
        assert ended.status is GameStatus.ENDED
        assert scheduler.armed[JOB][0] == 0.0  # the game's end asked for a look at once

        await scheduler.fire(JOB)
        await h.settle()
        assert FREE in last(h, third)
        assert not any(FREE in text for text in group_texts(h, fourth))  # one table only
        pinged = [m.text or "" for m in watcher.view()]
        assert any("A table is free in «Third»" in text for text in pinged)
        (held,) = [row for row in waiting(h) if row[1] is not None]
        assert held[0] == third.id

        # The end screen's New game button in the first group: the table is held for
        # the third, so the answer (too long for a popup) goes to the group.
        record = h.db.get_game(game_id)
        assert record is not None
        before = len(h.admin.view(h.group))
        assert press(h, h.users[1], h.group.id, prefix(Kind.NEW_GAME, record))
        await h.settle()
        popup = h.sb.callback_queries[max(h.sb.callback_queries)].answer
        assert popup.get("text") == texts.popup(T, "see_group")
        assert QUEUED in last(h, h.group) and "number 2 in the queue" in last(h, h.group)
        assert len(h.admin.view(h.group)) == before + 1
        assert h.db.active_game(h.group.id) is None

        # The third group takes its table.
        await newgame(h, third)
        opened = h.db.active_game(third.id)
        assert opened is not None and opened.status is GameStatus.LOBBY
        assert waiting(h) == [(fourth.id, None), (h.group.id, None)]


def waiting(h: Harness) -> list[tuple[int, float | None]]:
    with h.db.transaction() as tx:
        return [(row.chat_id, row.held_until) for row in store.queue(tx)]


def group_texts(h: Harness, group: Chat) -> list[str]:
    return [m.text or "" for m in h.admin.view(group)]
