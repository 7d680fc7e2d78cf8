"""The admission's estimate against what the tokens spent (load.py's real model).

Admission (tg_mafia/ops/budget.py) counts the tables open on a token at the calls a
minute they should need: a lobby (and a table held for a queued group) its opening's
rate, a running game its rate after the opening. Here the window's last minute is
sampled every few seconds (each group's table: a lobby, a held table, a running game)
and every charged call of that minute is put down to the table of its chat (a group's
own, or the table of the player, admin or spectator whose private chat it is) as that
table stood then. Out come, per token, the estimate's calls a second beside the calls
spent, and, for a lobby and for a running game, the calls a minute counted beside
those spent: where the estimate is wrong, and by how much."""

from __future__ import annotations

import bisect
import sqlite3
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Final

from tg_mafia.ops import budget
from tg_mafia.records import GameStatus

PHASES: Final = ("lobby", "held", "running")
LAST: Final = 60.0  # seconds: the window's last minute


@dataclass(frozen=True)
class Sample:
    at: float  # the sandbox's clock
    tables: dict[int, tuple[str, str, int]]  # group chat: (phase, variant, bot id)


@dataclass
class Samples:
    taken: list[Sample] = field(default_factory=list)

    def take(self, raw: sqlite3.Connection, at: float) -> None:
        """The tables as the database has them at `at`."""
        tables = {
            chat: (status, variant, bot)
            for chat, variant, status, bot in raw.execute(
                "SELECT chat_id, variant, status, bot_id FROM game WHERE status IN (?, ?)",
                (GameStatus.LOBBY.value, GameStatus.RUNNING.value),
            )
        }
        for chat, variant, bot in raw.execute(
            "SELECT chat_id, variant, bot_id FROM waiting_group WHERE held_until IS NOT NULL"
        ):
            tables.setdefault(chat, ("held", variant, bot))
        self.taken.append(Sample(at, tables))


def counted(tables: list[tuple[str, str]]) -> float:
    """Admission's calls a minute for `tables`, each (phase, variant): a held table
    counts as the lobby it will open."""
    counting = budget.Tables()
    for phase, variant in tables:
        counting.add(variant, lobby=phase != GameStatus.RUNNING.value)
    return budget.load(counting)


def estimate_per_s(sample: Sample, bot: int) -> float:
    """Admission's calls a second for `bot`'s tables in `sample`."""
    mine = [(phase, variant) for phase, variant, owner in sample.tables.values() if owner == bot]
    return counted(mine) / 60


def compare(
    samples: Samples, calls: list[Any], group_of: dict[int, int], bots: list[int], ended: float
) -> dict[str, Any]:
    """The last minute's estimate against its charged `calls` (the sandbox's records)."""
    last = [s for s in samples.taken if s.at > ended - LAST]
    if not last:
        return {}
    times = [s.at for s in last]
    spent: Counter[str] = Counter()
    for call in calls:
        if call.time <= ended - LAST or call.chat_id is None:
            continue
        where = bisect.bisect_right(times, call.time) - 1
        table = last[max(where, 0)].tables.get(group_of.get(call.chat_id, call.chat_id))
        spent[table[0] if table is not None else "other"] += 1
    out: dict[str, Any] = {
        "estimate_per_s_by_token": [
            round(statistics.fmean(estimate_per_s(s, bot) for s in last), 2) for bot in bots
        ],
        "spent_other_per_s": round(spent["other"] / LAST, 2),
    }
    for phase in PHASES:
        tables = [t for s in last for t in s.tables.values() if t[0] == phase]
        mean_count = len(tables) / len(last)
        each = counted([t[:2] for t in tables]) / len(tables) if tables else 0.0
        out[f"{phase}_tables"] = round(mean_count, 1)
        # calls a minute for one table: admission's count, and what one spent
        out[f"{phase}_per_min"] = [
            round(each, 1),
            round(spent[phase] / mean_count * 60 / LAST, 1) if mean_count else None,
        ]
    return out
