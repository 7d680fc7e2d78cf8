"""The bot's 30 charged calls a second hold when many chats have a call to make at once.

The sender serves up to 32 chats at once; each worker waits for the bot-wide window
before its call. A call that counted only once it was made left the window open to
every worker that looked meanwhile: 32 calls went out together, and Telegram refused
the ones past 30 (429). PTB's own limiter is off here, as it is whenever the clock is
sped up: the sender's budget must hold by itself."""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import BOT_RIGHTS, running_bot
from tg_mafia.runtime.outbox.budgets import BOT_BUDGET
from tg_mafia.sandbox import Sandbox
from tg_mafia.sandbox.limits import CHARGED_METHODS

GROUPS = 45  # more chats than the sender's workers, more calls than a second's budget


async def test_many_chats_at_once_stay_within_the_bots_budget(tmp_path: Path) -> None:
    sb = Sandbox()
    async with running_bot(tmp_path, 0, sb=sb, rate_limiter=False) as h:
        # One asker a group: a user's own commands are limited (telegram/limiter.py).
        owners = sb.add_users(GROUPS)
        groups = [
            sb.add_group(f"club {n}", owner=owner, bot_rights=BOT_RIGHTS)
            for n, owner in enumerate(owners)
        ]
        await h.settle()
        before = len(sb.log.records)
        for owner, group in zip(owners, groups, strict=True):
            owner.send(group, f"/help@{sb.bot_username}")
        await h.settle()
        calls = [r for r in sb.log.records[before:] if r.method in CHARGED_METHODS]
        assert sum(r.ok for r in calls) >= GROUPS  # every group got its answer
        assert [r for r in calls if r.error_code == 429] == []
        stamps = sorted(r.time for r in calls if r.ok)
        busiest = max(sum(1 for t in stamps if s <= t < s + 1.0) for s in stamps)
        assert busiest <= BOT_BUDGET.limit
