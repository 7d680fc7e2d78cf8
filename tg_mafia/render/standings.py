"""A group's rating from its stored results: the leaderboard of
tg_mafia/ratings.py (docs/ratings.md) over the group's finished games, in
the order they were played, and each player's latest name.

Every game counts in the rating, but the leaderboard lists only the players
named in a result: a result loses its name at the end of the retention
period, or when its player sends /forget (docs/privacy.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import Role, Side
from tg_mafia.ratings import (
    FinishedGame,
    Leaderboard,
    PlayerResult,
    RatingInputError,
    leaderboard,
    validate,
)
from tg_mafia.records import GameResult


@dataclass(frozen=True)
class Standings:
    board: Leaderboard
    names: dict[int, str]  # each player's latest name in the group


def standings(history: Sequence[GameResult]) -> Standings:
    """The group's leaderboard; a stored game the rating cannot take (a
    malformed one) is left out rather than hiding every other."""
    games = []
    names: dict[int, str] = {}
    for result in history:
        try:
            game = FinishedGame(
                result.game_id,
                result.variant,
                tuple(
                    PlayerResult(p.user_id, Role(p.role), Side(p.side), p.won)
                    for p in result.players
                ),
            )
            validate(game)
        except (RatingInputError, ValueError):
            continue
        games.append(game)
        names.update((p.user_id, p.name) for p in result.players if p.name)
    board = leaderboard(games)
    listed = tuple(player for player in board.players if player.user_id in names)
    return Standings(Leaderboard(players=listed, advantages=board.advantages), names)
