"""Prints the worked example of docs/ratings.md: three games at a seven-seat
classic table, and every number after each (tests/ratings checks that the
document shows what this prints).

    .venv/bin/python docs/ratings_example.py
"""

from __future__ import annotations

import math

from engine import Role, Side
from tg_mafia.ratings import (
    BETA,
    DECK_PRIOR_SIGMA,
    PRIOR_SIGMA,
    TAU,
    AdvantageKey,
    FinishedGame,
    PlayerResult,
    leaderboard,
)

NAMES = {1: "Anna", 2: "Boris", 3: "Chloé", 4: "Dima", 5: "Eva", 6: "Farid", 7: "Gleb"}
C = Role.CITIZEN
DECK = (Role.GODFATHER, Role.MAFIA, Role.DETECTIVE, Role.DOCTOR, C, C, C)


def game(game_id: int, seating: tuple[int, ...], winner: Side) -> FinishedGame:
    """`seating`: the players dealt the roles of DECK, in that order."""
    return FinishedGame(
        game_id,
        "classic",
        tuple(
            PlayerResult(user, role, role.side, role.side is winner)
            for user, role in zip(seating, DECK, strict=True)
        ),
    )


GAMES = (
    ("Game 1: Anna and Boris are the mafia, and win.", game(1, (1, 2, 3, 4, 5, 6, 7), Side.MAFIA)),
    ("Game 2: Chloé and Dima are the mafia, and win.", game(2, (3, 4, 1, 2, 5, 6, 7), Side.MAFIA)),
    (
        "Game 3: Eva and Farid are the mafia; the town wins.",
        game(3, (5, 6, 1, 2, 3, 4, 7), Side.TOWN),
    ),
)


def first_game_by_hand() -> str:
    """The arithmetic of game 1, where every prior is known."""
    player = PRIOR_SIGMA**2 + TAU**2  # sigma² after the small per-game widening
    deck = DECK_PRIOR_SIGMA**2 + TAU**2
    town = 5 * player + player + deck  # five players, the side, the deck
    mafia = 2 * player + player + deck
    c = math.sqrt(town + mafia + 2 * BETA**2)
    p_mafia = 0.5  # every mu is 0
    step = player / c * (1 - p_mafia)
    shrink = math.sqrt(1 - player * p_mafia * (1 - p_mafia) * math.sqrt(mafia) / c**3)
    sigma = math.sqrt(player) * shrink
    return "\n".join(
        [
            "```text",
            f"a newcomer's sigma², plus tau²: {PRIOR_SIGMA:.4f}² + {TAU:.4f}² = {player:.3f}",
            f"town sigma²  (5 players, side, deck): 6 × {player:.3f} + {deck:.3f} = {town:.2f}",
            f"mafia sigma² (2 players, side, deck): 3 × {player:.3f} + {deck:.3f} = {mafia:.2f}",
            f"c = sqrt({town:.2f} + {mafia:.2f} + 2 × {BETA:.4f}²) = {c:.3f}",
            "P(mafia wins) = e^(0/c) / (e^(0/c) + e^(0/c)) = 0.5",
            f"each mafioso:  mu = 0 + {player:.3f} / {c:.3f} × (1 − 0.5) = +{step:.3f}",
            f"each citizen:  mu = 0 − {step:.3f} = −{step:.3f}",
            f"a mafioso's sigma = {math.sqrt(player):.4f} × sqrt(1 − {player:.3f} × 0.25 × "
            f"sqrt({mafia:.2f}) / {c:.3f}³) = {sigma:.4f}",
            f"a mafioso's score = 2000 + 40 × ({step:.3f} − 3 × {sigma:.4f}) = "
            f"{round(2000 + 40 * (step - 3 * sigma))}",
            "```",
        ]
    )


def after(games: int) -> str:
    board = leaderboard(game for _, game in GAMES[:games])
    lines = [
        "| player | role | mu | sigma | mu − 3 sigma | score |",
        "|---|---|---:|---:|---:|---:|",
    ]
    roles = {p.user_id: p.role for p in GAMES[games - 1][1].players}
    for player in board.players:
        skill = player.skill
        lines.append(
            f"| {NAMES[player.user_id]} | {roles[player.user_id].value} | {skill.mu:+.3f} "
            f"| {skill.sigma:.3f} | {skill.conservative:+.3f} | {player.score} |"
        )
    lines += ["", "| advantage | mu | sigma |", "|---|---:|---:|"]
    for advantage in board.advantages:
        key = AdvantageKey(advantage.variant, advantage.side, advantage.deck)
        label = f"{key.variant}, {key.side.value}" + (", this deck" if key.deck else "")
        lines.append(f"| {label} | {advantage.skill.mu:+.3f} | {advantage.skill.sigma:.3f} |")
    return "\n".join(lines)


def example() -> str:
    parts = [
        "Seven players, a classic deck (Godfather, mafioso, detective, doctor, "
        "three citizens); the table lists everyone best first, with the role "
        "of the game just played.",
        "",
        "The first game, by hand (every prior is known):",
        "",
        first_game_by_hand(),
    ]
    for number, (what, _) in enumerate(GAMES, 1):
        parts += ["", f"**{what}**", "", after(number)]
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    print(example(), end="")
