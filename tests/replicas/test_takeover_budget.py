"""A new leader keeps within the group budget that the replica before it spent.

The budgets live in the sending process's memory: the leader that takes over
after a SIGKILL does not know what its predecessor sent in the last minute.
Here the leader sends a group its minute's budget (15 calls) and dies; the
next leader must still keep that group within Telegram's 20 calls a minute.
The clock runs 4 times faster (a minute is 15 s), so that the takeover, about
a second, falls well inside the window."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.replicas.driver import ReplicaRun, peak
from tg_mafia.runtime.outbox.budgets import GROUP_BUDGET
from tg_mafia.sandbox.limits import CHARGED_METHODS

pytestmark = pytest.mark.real_time

SPEED = 3.0


async def test_a_new_leader_keeps_the_budget_its_predecessor_spent(
    tmp_path: Path, postgres_url: str
) -> None:
    async with ReplicaRun(tmp_path, SPEED, random.Random(1), postgres_url, count=2) as run:
        assert run.replicas is not None
        table = run.add_table("classic", 7, 0)
        group = table.group.id
        asked = GROUP_BUDGET.calls + 6  # /help answers: 21 in a minute, if sent at once

        def sent() -> int:  # charged calls: the lobby's message and pin, then the answers
            calls = run.sb.log.calls(chat_id=group, ok=True)
            return sum(1 for r in calls if r.method in CHARGED_METHODS)

        table.admin.command(table.group, "newgame", mention=True)  # a game: work to take over
        await run.until(lambda: run.db.active_game(group) is not None)
        for n in range(asked):  # from the players in turn: one user's commands are limited
            table.users[n % len(table.users)].command(table.group, "help", mention=True)
        await run.until(lambda: sent() >= GROUP_BUDGET.calls)
        leader = await run.replicas.wait_for_leader()
        await run.replicas.kill_and_restart(leader, "leader")
        await run.until(lambda: sent() >= asked + 2)
        assert run.sb.log.count_429() == 0
        assert peak(run.sb.log, 60.0, lambda chat: chat == group) <= 20
