"""Admission: whether one bot token can take one more game without slowing the others.

Telegram lets a token make about 30 calls a second in all (`TokenBudget`). A lobby
needs its opening (the joins' answers and list, then the deal's role cards) over the
opening's minutes; a running game, the rest of its calls over the rest of its length,
the calls a minute its variant measured (`GAME_COSTS`) once its opening is out: a fifth
to a quarter of a lobby's rate. The games open in the database need the sum (`Tables`).
A new game, a lobby, is admitted while that sum with its opening stays within a share
of the token's calls a minute (ADMISSION_SHARE, 0.9 by default): past it the outbox
grows and every game's messages come late (docs/benchmarks.md, Load at network latency:
lobbies counted at a whole game's average let an evening's openings fill the tokens,
and the night choices' private edits waited over a minute).

A group's own limit (20 calls a minute) is the sender's to keep: one game at a time per
chat (per forum topic) and the sender's pacing of it (sender.py's GROUP_BUDGET).

Pure arithmetic: the counts come from the database (storage/waitlist.py), the decision
about a queue from bot/waitlist.py."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
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
    sends, edits, pins) and its length, from /newgame to the end screen; and of them
    its opening's, from /newgame until its deal is out, and that opening's length."""

    calls: int
    minutes: float
    opening: int
    opening_minutes: float

    @property
    def opening_per_minute(self) -> float:
        return self.opening / self.opening_minutes

    @property
    def running_per_minute(self) -> float:
        """Once the opening is out: a lobby is counted its opening already, and a game
        counted its whole average while it runs would count the opening twice
        (docs/benchmarks.md, the admission's estimate against the calls spent)."""
        return (self.calls - self.opening) / (self.minutes - self.opening_minutes)


# The benchmark run the figures below come from (tests/bot/test_admission.py reads it).
SOURCE: Final = "benchmarks/results/calls_per_game-2026-12-05.json"
# benchmarks/calls_per_game.py, that run (median of 5 games at the standard table):
# sendMessage + editMessageText + pin + unpin + other (mostly free membership checks with
# a few keyboard edits: counted whole, an estimate on the safe side), "minutes",
# "opening" (the charged calls until 10 s after Start) and "opening_minutes" (the
# benchmark's players join within a minute: a lobby slower to fill spends its opening
# more slowly than counted, on the safe side).
GAME_COSTS: Final[Mapping[str, GameCost]] = {
    "classic": GameCost(143, 20.37, 34, 1.25),
    "moscow": GameCost(258, 32.17, 37, 1.19),
    "party": GameCost(129, 18.87, 40, 1.25),
    "club": GameCost(262, 30.70, 37, 1.25),
    "sport": GameCost(248, 29.32, 38, 1.25),
}
# A variant the benchmark has not measured costs as much as the dearest one.
DEAREST: Final = max(cost.running_per_minute for cost in GAME_COSTS.values())
DEAREST_OPENING: Final = max(cost.opening_per_minute for cost in GAME_COSTS.values())


@dataclass
class Tables:
    """The games open on one token, by variant: lobbies (a table held for a waiting
    group opens as one) and running games."""

    lobbies: Counter[str] = field(default_factory=Counter)
    running: Counter[str] = field(default_factory=Counter)

    def add(self, variant: str, *, lobby: bool, count: int = 1) -> None:
        """`count` tables of `variant`, lobbies or running games."""
        (self.lobbies if lobby else self.running)[variant] += count


def game_rate(variant: str) -> float:
    """The calls a minute one running game of `variant` needs, on average from its
    opening's end to its end screen."""
    cost = GAME_COSTS.get(variant)
    return cost.running_per_minute if cost is not None else DEAREST


def opening_rate(variant: str) -> float:
    """The calls a minute one lobby of `variant` needs until its deal is out."""
    cost = GAME_COSTS.get(variant)
    return cost.opening_per_minute if cost is not None else DEAREST_OPENING


def load(tables: Tables) -> float:
    """The calls a minute of `tables` together."""
    lobbies = sum(count * opening_rate(variant) for variant, count in tables.lobbies.items())
    running = sum(count * game_rate(variant) for variant, count in tables.running.items())
    return lobbies + running


def fits(budget: TokenBudget, tables: Tables, variant: str) -> bool:
    """Whether a new lobby of `variant` keeps `tables` within the budget's ceiling."""
    return load(tables) + opening_rate(variant) <= budget.ceiling
