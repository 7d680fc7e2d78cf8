"""What players wait on in a stored call (outbox/order.py: need), and a chat's claim on
the bot's next slot: live before inherited, then by need, then the longest waiting."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from engine.actions import Pass, Timeout
from tg_mafia.render.calls import Clear, Edit, Permissions, Pin, Priority, Send, Timer
from tg_mafia.runtime.outbox.order import Need, Replan, Turn, Turns, need, turn_of
from tg_mafia.runtime.runner import due
from tg_mafia.storage import OutboxRecord

BUTTONS = [[{"text": "Vote", "data": "vt:1:1"}]]
LINK = [[{"text": "Open", "url": "https://t.me/x"}]]


def test_what_players_wait_on() -> None:
    timer = Timer(game=1, token="1", seconds=30)
    assert need(Send("Vote", keyboard=BUTTONS)) is Need.PROMPT
    assert need(Send("Night", timer=timer)) is Need.PROMPT
    floor = Edit("Boris speaks", key="floor", keyboard=BUTTONS, timer=replace(timer, token="2"))
    assert need(floor) is Need.PROMPT  # the next speaker's floor
    assert need(Edit("Votes", key="board", keyboard=BUTTONS), chat=-100) is Need.COSMETIC
    live_vote = Edit("Votes", key="board", keyboard=BUTTONS, every=4.0)
    assert need(live_vote, chat=-100) is Need.PROMPT  # the live vote, the table watches it
    night = Edit("Whom?", key="night", keyboard=BUTTONS)
    # A private chat has one reader: their prompt as their choice left it, to press
    # again; their choice taken, or the stage's end.
    assert need(night, chat=42) is Need.PROMPT
    assert need(Edit("Whom? You chose Anna.", key="night"), chat=42) is Need.ANNOUNCEMENT
    assert need(Clear("nominate"), chat=42) is Need.ANNOUNCEMENT
    assert need(Edit("Whom? You chose Anna.", key="night"), chat=-100) is Need.COSMETIC
    assert need(Edit("Help", key="h"), Priority.REMINDER, chat=42) is Need.COSMETIC
    assert need(Send("Anna is eliminated.")) is Need.ANNOUNCEMENT
    assert need(Send("Open the table", keyboard=LINK)) is Need.ANNOUNCEMENT
    assert need(Permissions()) is Need.ANNOUNCEMENT
    lobby = Edit("3 players", key="lobby", keyboard=BUTTONS)
    assert need(lobby) is Need.COSMETIC  # a name more, the same buttons
    assert need(Clear("floor")) is Need.COSMETIC
    assert need(Pin("lobby")) is Need.COSMETIC
    assert need(Send("Help"), Priority.ANSWER) is Need.ANNOUNCEMENT
    assert need(Send("again", keyboard=BUTTONS), Priority.REMINDER) is Need.COSMETIC


def record(n: int, op: dict[str, Any], created: float) -> OutboxRecord:
    return OutboxRecord(n, -5, 1, Priority.GAME, op, created, 0)


def test_a_chat_claims_by_its_most_needed_call_and_its_oldest() -> None:
    """A prompt behind a cosmetic edit makes the chat's claim a prompt's."""
    turn = turn_of(
        [
            record(1, {"m": "clear", "key": "floor"}, 10.0),
            record(2, {"m": "send", "text": "Vote", "keyboard": BUTTONS}, 11.0),
        ]
    )
    assert turn == Turn(Need.PROMPT, 10.0)


def test_a_prompt_deep_behind_a_groups_edits_still_counts() -> None:
    """A busy minute leaves a group a dozen cosmetic calls; the next speaker's floor
    behind them makes the whole chat a prompt's claim, or the table waits on them."""
    edits = [record(n, {"m": "clear", "key": f"m{n}"}, 10.0 + n) for n in range(12)]
    prompt = record(12, {"m": "send", "text": "Vote", "keyboard": BUTTONS}, 30.0)
    assert turn_of(edits) == Turn(Need.COSMETIC, 10.0)
    assert turn_of([*edits, prompt]) == Turn(Need.PROMPT, 10.0)


def test_live_before_inherited_then_need_then_age() -> None:
    began = 100.0  # the sender's start
    inherited_prompt = Turn(Need.PROMPT, began - 1)
    live_edit = Turn(Need.COSMETIC, began + 1)
    live_prompt = Turn(Need.PROMPT, began + 5)
    older_live_prompt = Turn(Need.PROMPT, began + 2)
    claims = [inherited_prompt, live_edit, live_prompt, older_live_prompt]
    ranked = sorted(claims, key=lambda t: t.key(began))
    assert ranked == [older_live_prompt, live_prompt, live_edit, inherited_prompt]


class OneASecond:
    """A budget of one slot a second, on the loop's (virtual) clock."""

    def __init__(self) -> None:
        self.last = -10.0

    def room(self) -> float:
        return max(0.0, self.last + 1.0 - asyncio.get_running_loop().time())

    def spend(self) -> None:
        self.last = asyncio.get_running_loop().time()


async def test_an_inherited_backlog_drains_while_live_calls_keep_coming() -> None:
    """Live claims always waiting: the inherited one still gets a slot of every three."""
    budget = OneASecond()
    turns = Turns(budget.room, budget.spend, lambda: None)
    turns.begin(asyncio.get_running_loop().time())
    served: list[str] = []

    async def claim(name: str, turn: Turn) -> None:
        await turns.take(turn)
        served.append(name)

    await claim("first", Turn(Need.PROMPT, 0.0))  # the budget is spent now
    now = asyncio.get_running_loop().time()
    tasks = [asyncio.ensure_future(claim("inherited", Turn(Need.PROMPT, now - 60.0)))]
    for n in range(6):
        tasks.append(asyncio.ensure_future(claim(f"live {n}", Turn(Need.PROMPT, now))))
    await asyncio.gather(*tasks)
    assert served[0] == "first" and served.index("inherited") <= 3
    assert set(served) == {"first", "inherited", *(f"live {n}" for n in range(6))}


async def test_slots_go_by_need_when_all_are_live() -> None:
    budget = OneASecond()
    turns = Turns(budget.room, budget.spend, lambda: None)
    served: list[Need] = []

    async def claim(need: Need) -> None:
        await turns.take(Turn(need, asyncio.get_running_loop().time()))
        served.append(need)

    await claim(Need.COSMETIC)  # the budget is spent now
    await asyncio.gather(*(claim(n) for n in (Need.COSMETIC, Need.ANNOUNCEMENT, Need.PROMPT)))
    assert served == [Need.COSMETIC, Need.PROMPT, Need.ANNOUNCEMENT, Need.COSMETIC]


async def test_a_chats_waiting_claim_is_withdrawn_when_calls_arrive_behind_it() -> None:
    """A group's cosmetic claim waits behind others; the game writes the next speaker's
    floor behind it: the claim is withdrawn (its worker claims anew, as a prompt's);
    a prompt's claim and other chats' claims stay."""
    budget = OneASecond()
    turns = Turns(budget.room, budget.spend, lambda: None)
    now = asyncio.get_running_loop().time()
    await turns.take(Turn(Need.PROMPT, now))  # the budget is spent now
    cosmetic = asyncio.ensure_future(turns.take(Turn(Need.COSMETIC, now), chat=-5))
    prompt = asyncio.ensure_future(turns.take(Turn(Need.PROMPT, now), chat=-5))
    other = asyncio.ensure_future(turns.take(Turn(Need.COSMETIC, now), chat=-6))
    await asyncio.sleep(0)
    turns.replan(-5)
    with pytest.raises(Replan):
        await cosmetic
    await asyncio.gather(prompt, other)  # both still served
    assert turns.waiting == 0


def test_an_overdue_stage_timers_calls_fall_due_at_its_deadline() -> None:
    """After a restart a stage that ended while the bot was down moves at once: its calls
    belong with the crash's backlog, not before the live games' (runner.due)."""
    record: Any = SimpleNamespace(stage_deadline=50.0)
    assert due(record, Timeout("clock", 3), now=120.0) == 50.0
    assert due(record, Timeout("clock", 3), now=49.0) == 49.0  # fired on time
    assert due(record, Pass("7"), now=120.0) == 120.0  # a player's move: now
