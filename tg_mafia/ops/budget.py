"""Admission: whether one bot token can take one more game without slowing the others.

Telegram lets a token make about 30 calls a second in all (`TokenBudget`). Each game
needs, on average over its length, the calls a minute its variant measured
(`GAME_COSTS`); the games open in the database (running, or in their lobby) need the
sum. A new game is admitted while that sum with the new game's stays within a share of
the token's calls a minute (ADMISSION_SHARE, 0.9 by default): past it the outbox grows
and every game's messages come late (docs/benchmarks.md, Load at network latency).

A group's own limit (20 calls a minute) is the sender's to keep: one game at a time per
chat (per forum topic) and the sender's pacing of it (sender.py's GROUP_BUDGET).

Pure arithmetic: the counts come from the database (storage/waitlist.py), the decision
about a queue from bot/waitlist.py."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from tg_mafia.config import DEFAULT_ADMISSION_SHARE

TELEGRAM_CALLS_PER_SECOND: Final = 30.0  # one token's calls a second, every chat together


@dataclass(frozen=True)
class TokenBudget:
    """One bot token's budget: several tokens would have one each."""

    calls_per_second: float = TELEGRAM_CALLS_PER_SECOND
    share: float = DEFAULT_ADMISSION_SHARE  # of the budget the games' estimate may fill

    @property
    def per_minute(self) -> float:
        """The token's calls a minute."""
        return self.calls_per_second * 60

    @property
    def ceiling(self) -> float:
        """The calls a minute the games' estimate may reach: past it no game opens."""
        return self.per_minute * self.share


@dataclass(frozen=True)
class GameCost:
    """One whole game's charged calls (those Telegram counts against the budget:
    sends, edits, pins) and its length, from /newgame to the end screen."""

    calls: int
    minutes: float

    @property
    def per_minute(self) -> float:
        return self.calls / self.minutes


# The benchmark run the figures below come from (tests/bot/test_admission.py reads it).
SOURCE: Final = "benchmarks/results/calls_per_game-2026-12-04.json"
# benchmarks/calls_per_game.py, that run (median of 5 games at the standard table):
# sendMessage + editMessageText + pin + unpin + other (mostly free membership checks with
# a few keyboard edits: counted whole, an estimate on the safe side), and "minutes".
GAME_COSTS: Final[Mapping[str, GameCost]] = {
    "classic": GameCost(144, 20.37),
    "moscow": GameCost(272, 32.45),
    "party": GameCost(130, 18.87),
    "club": GameCost(263, 30.70),
    "sport": GameCost(249, 29.32),
}
# A variant the benchmark has not measured costs as much as the dearest one.
DEAREST: Final = max(cost.per_minute for cost in GAME_COSTS.values())


def game_rate(variant: str) -> float:
    """The calls a minute one game of `variant` needs, on average over its length."""
    cost = GAME_COSTS.get(variant)
    return cost.per_minute if cost is not None else DEAREST


def load(games: Mapping[str, int]) -> float:
    """The calls a minute of `games` (how many of each variant) together."""
    return sum(count * game_rate(variant) for variant, count in games.items())


def fits(budget: TokenBudget, games: Mapping[str, int], variant: str) -> bool:
    """Whether one more game of `variant` keeps `games` within the budget's ceiling."""
    return load(games) + game_rate(variant) <= budget.ceiling
