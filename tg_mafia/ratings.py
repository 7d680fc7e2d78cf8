"""A group's skill rating, recomputed from its finished games in order.

Pure: games in, a leaderboard out; no database, no Telegram. The definition,
the side advantage and the displayed score are explained in docs/ratings.md.

The model is OpenSkill's Plackett-Luce (Weng and Lin, 2011), with teams. Each
side of a game is a team: its players, plus two hidden "advantage" members
that stand for the side's odds rather than for anyone's skill:

- one per (variant, side), learned from every game of the variant;
- one per (variant, side, deck), the deck being the game's multiset of roles
  (so the table size, the number of mafiosi, a maniac or not): a correction
  learned from the games dealt exactly that deck, since balance depends on it.

Skills are centred on 0 (an average player adds nothing to a team), so a
team's strength is its side's advantage plus its players' skills, whatever
the team's size; and a side that keeps winning raises its own advantage, not
its players' skills. Winning with the side that usually loses moves a
player's rating more, because the model expected that side to lose.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from openskill.models import PlackettLuce, PlackettLuceRating

from engine import Role, Side

# OpenSkill's default constants, with the prior mean moved from 25 to 0.
PRIOR_SIGMA = 25 / 3
BETA = 25 / 6
TAU = 25 / 300
# The deck's correction starts more certain than the variant's advantage: it
# refines it, and should not swing on a deck's first few games.
DECK_PRIOR_SIGMA = PRIOR_SIGMA / 2

# Displayed score: SCORE_BASE + SCORE_SCALE * (mu - 3 sigma), so a newcomer
# (mu 0, sigma 25/3) shows 1000 and the order is that of mu - 3 sigma.
SCORE_SCALE = 40
SCORE_BASE = 1000 + SCORE_SCALE * 3 * PRIOR_SIGMA
SCORE_MIN, SCORE_MAX = 0, 3000

SIDE_ORDER = (Side.TOWN, Side.MAFIA, Side.MANIAC)


class RatingInputError(ValueError):
    """A game that cannot be rated; nothing is computed."""


@dataclass(frozen=True)
class PlayerResult:
    """One player's part in a finished game."""

    user_id: int
    role: Role
    side: Side
    won: bool


@dataclass(frozen=True)
class FinishedGame:
    game_id: int
    variant: str
    players: tuple[PlayerResult, ...]

    @property
    def deck(self) -> str:
        """The roles dealt, as a stable key: `citizen×5 detective godfather mafia×2`."""
        counts = Counter(p.role.value for p in self.players)
        return " ".join(name if n == 1 else f"{name}×{n}" for name, n in sorted(counts.items()))

    @property
    def winner(self) -> Side | None:
        """The winning side, or None for a draw."""
        won = {p.side for p in self.players if p.won}
        return next(iter(won)) if won else None


@dataclass(frozen=True)
class Skill:
    """A belief about a skill: mean and standard deviation, 0 for an average player."""

    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """The skill the player almost surely has at least (about 99.9%)."""
        return self.mu - 3 * self.sigma


NEWCOMER = Skill(0.0, PRIOR_SIGMA)


def displayed_score(skill: Skill) -> int:
    """The number players see: 1000 for a newcomer, 40 points per unit of
    mu - 3 sigma, within 0..3000."""
    raw = SCORE_BASE + SCORE_SCALE * skill.conservative
    return max(SCORE_MIN, min(SCORE_MAX, round(raw)))


@dataclass(frozen=True)
class Record:
    games: int = 0
    wins: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def add(self, won: bool) -> Record:
        return Record(self.games + 1, self.wins + int(won))


@dataclass(frozen=True)
class PlayerRating:
    user_id: int
    skill: Skill
    record: Record
    by_role: Mapping[Role, Record]
    by_side: Mapping[Side, Record]

    @property
    def score(self) -> int:
        return displayed_score(self.skill)


@dataclass(frozen=True)
class SideAdvantage:
    """A learned advantage: of a side in a variant (deck None), or the
    correction for one deck."""

    variant: str
    side: Side
    deck: str | None
    skill: Skill
    games: int


@dataclass(frozen=True)
class Leaderboard:
    players: tuple[PlayerRating, ...]  # best score first
    advantages: tuple[SideAdvantage, ...]

    def top(self, n: int, min_games: int = 1) -> tuple[PlayerRating, ...]:
        return tuple(p for p in self.players if p.record.games >= min_games)[:n]

    def player(self, user_id: int) -> PlayerRating | None:
        return next((p for p in self.players if p.user_id == user_id), None)

    def rank(self, user_id: int) -> int | None:
        """1 for the best; None for someone who has not played."""
        for rank, player in enumerate(self.players, 1):
            if player.user_id == user_id:
                return rank
        return None


@dataclass(frozen=True)
class AdvantageKey:
    """Whose advantage: a variant's side (deck None), or that side with one deck."""

    variant: str
    side: Side
    deck: str | None = None


@dataclass
class Ratings:
    """The skills learned so far: players by user id, and the advantages."""

    players: dict[int, Skill] = field(default_factory=dict)
    advantages: dict[AdvantageKey, Skill] = field(default_factory=dict)

    def player(self, user_id: int) -> Skill:
        return self.players.get(user_id, NEWCOMER)

    def advantage(self, key: AdvantageKey) -> Skill:
        prior = NEWCOMER if key.deck is None else Skill(0.0, DECK_PRIOR_SIGMA)
        return self.advantages.get(key, prior)


def validate(game: FinishedGame) -> None:
    """Raises RatingInputError if the game cannot be rated."""
    where = f"game {game.game_id}"
    users = [p.user_id for p in game.players]
    if len(set(users)) != len(users):
        raise RatingInputError(f"{where}: a player appears twice")
    sides = {p.side for p in game.players}
    if len(sides) < 2:
        raise RatingInputError(f"{where}: needs players on at least two sides")
    for side in sides:
        if len({p.won for p in game.players if p.side is side}) > 1:
            raise RatingInputError(f"{where}: the {side.value} side both won and lost")
    if len({p.side for p in game.players if p.won}) > 1:
        raise RatingInputError(f"{where}: more than one side won")


def model() -> PlackettLuce:
    # A fresh model per computation: PlackettLuce keeps settings that rate() may change.
    return PlackettLuce(mu=0.0, sigma=PRIOR_SIGMA, beta=BETA, tau=TAU)


def rate_game(game: FinishedGame, ratings: Ratings, plackett_luce: PlackettLuce) -> None:
    """Updates `ratings` with the result of `game`."""
    winner = game.winner
    sides = [side for side in SIDE_ORDER if any(p.side is side for p in game.players)]
    teams: list[tuple[AdvantageKey, AdvantageKey, list[int]]] = [
        (
            AdvantageKey(game.variant, side),
            AdvantageKey(game.variant, side, game.deck),
            sorted(p.user_id for p in game.players if p.side is side),
        )
        for side in sides
    ]
    before = [
        [
            _rating(plackett_luce, ratings.advantage(side_key)),
            _rating(plackett_luce, ratings.advantage(deck_key)),
            *(_rating(plackett_luce, ratings.player(user)) for user in users),
        ]
        for side_key, deck_key, users in teams
    ]
    # Rank 0 wins, and every losing side ties for rank 1; a draw ranks all 0.
    ranks = [0.0 if winner is None or side is winner else 1.0 for side in sides]
    after = plackett_luce.rate(before, ranks=ranks)
    for (side_key, deck_key, users), rated in zip(teams, after, strict=True):
        side_rating, deck_rating, *player_ratings = rated
        ratings.advantages[side_key] = Skill(side_rating.mu, side_rating.sigma)
        ratings.advantages[deck_key] = Skill(deck_rating.mu, deck_rating.sigma)
        for user, rating in zip(users, player_ratings, strict=True):
            ratings.players[user] = Skill(rating.mu, rating.sigma)


def _rating(plackett_luce: PlackettLuce, skill: Skill) -> PlackettLuceRating:
    return plackett_luce.rating(mu=skill.mu, sigma=skill.sigma)


def leaderboard(games: Iterable[FinishedGame]) -> Leaderboard:
    """Every player's rating and record after `games`, played in this order.

    Deterministic: the same games in the same order give the same numbers.
    Raises RatingInputError (and computes nothing) if a game is malformed or
    an id repeats."""
    history = tuple(games)
    ids = [g.game_id for g in history]
    if len(set(ids)) != len(ids):
        raise RatingInputError("a game id appears twice")
    for game in history:
        validate(game)
    plackett_luce = model()
    ratings = Ratings()
    advantage_games: Counter[AdvantageKey] = Counter()
    records: dict[int, Record] = {}
    by_role: dict[int, dict[Role, Record]] = {}
    by_side: dict[int, dict[Side, Record]] = {}
    for game in history:
        rate_game(game, ratings, plackett_luce)
        for side in {p.side for p in game.players}:
            advantage_games[AdvantageKey(game.variant, side)] += 1
            advantage_games[AdvantageKey(game.variant, side, game.deck)] += 1
        for p in game.players:
            records[p.user_id] = records.get(p.user_id, Record()).add(p.won)
            roles = by_role.setdefault(p.user_id, {})
            roles[p.role] = roles.get(p.role, Record()).add(p.won)
            sides = by_side.setdefault(p.user_id, {})
            sides[p.side] = sides.get(p.side, Record()).add(p.won)
    players = [
        PlayerRating(
            user_id=user,
            skill=ratings.player(user),
            record=record,
            by_role=MappingProxyType(by_role[user]),
            by_side=MappingProxyType(by_side[user]),
        )
        for user, record in records.items()
    ]
    # Best first; among equals, the one with more games, then the lower id.
    players.sort(key=lambda p: (-p.skill.conservative, -p.record.games, p.user_id))
    advantages = [
        SideAdvantage(key.variant, key.side, key.deck, skill, advantage_games[key])
        for key, skill in sorted(
            ratings.advantages.items(),
            key=lambda item: (item[0].variant, item[0].side, item[0].deck or ""),
        )
    ]
    return Leaderboard(players=tuple(players), advantages=tuple(advantages))
