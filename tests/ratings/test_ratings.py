"""The skill rating: side advantage, records, the displayed score, bad input."""

from __future__ import annotations

import pytest

from engine import Role, Side
from tg_mafia.ratings import (
    NEWCOMER,
    AdvantageKey,
    FinishedGame,
    PlayerResult,
    RatingInputError,
    Skill,
    displayed_score,
    leaderboard,
)

TOWN_DECK = (Role.DETECTIVE, Role.DOCTOR, Role.CITIZEN, Role.CITIZEN, Role.CITIZEN)
MAFIA_DECK = (Role.GODFATHER, Role.MAFIA)


def game(
    game_id: int,
    town: tuple[int, ...],
    mafia: tuple[int, ...],
    winner: Side | None,
    variant: str = "classic",
    maniac: int | None = None,
) -> FinishedGame:
    players = [
        PlayerResult(u, r, Side.TOWN, winner is Side.TOWN)
        for u, r in zip(town, TOWN_DECK, strict=False)
    ] + [
        PlayerResult(u, r, Side.MAFIA, winner is Side.MAFIA)
        for u, r in zip(mafia, MAFIA_DECK, strict=False)
    ]
    if maniac is not None:
        players.append(PlayerResult(maniac, Role.MANIAC, Side.MANIAC, winner is Side.MANIAC))
    return FinishedGame(game_id, variant, tuple(players))


def mafia_dominates(games: int) -> list[FinishedGame]:
    """A history where the mafia wins every game, players rotating through seats."""
    history = []
    for g in range(games):
        seats = [100 + (g + i) % 12 for i in range(7)]
        history.append(game(g, tuple(seats[:5]), tuple(seats[5:]), Side.MAFIA))
    return history


def test_the_same_games_give_the_same_numbers() -> None:
    history = [*mafia_dominates(20), game(99, (1, 2, 3, 4, 5), (6, 7), Side.TOWN)]
    assert leaderboard(history) == leaderboard(list(history))


def test_a_side_that_keeps_winning_learns_an_advantage() -> None:
    board = leaderboard(mafia_dominates(30))
    advantage = {(a.side, a.deck is None): a for a in board.advantages}
    assert advantage[(Side.MAFIA, True)].skill.mu > 2
    assert advantage[(Side.TOWN, True)].skill.mu < -2
    assert advantage[(Side.MAFIA, True)].games == 30
    assert all(a.variant == "classic" for a in board.advantages)


def test_winning_with_the_weaker_side_counts_for_more() -> None:
    history = mafia_dominates(30)
    town_win = leaderboard([*history, game(99, (1, 2, 3, 4, 5), (6, 7), Side.TOWN)])
    mafia_win = leaderboard([*history, game(99, (11, 12, 13, 14, 15), (1, 2), Side.MAFIA)])
    gain_with_town = town_win.player(1)
    gain_with_mafia = mafia_win.player(1)
    assert gain_with_town is not None and gain_with_mafia is not None
    assert gain_with_town.skill.mu > gain_with_mafia.skill.mu > 0


def test_without_history_a_win_is_a_win_on_either_side() -> None:
    """Newcomers on both sides: the winners gain, the losers lose, and the
    side of equal advantage makes the gain alike for a mafioso and a citizen."""
    board = leaderboard([game(1, (1, 2, 3, 4, 5), (6, 7), Side.MAFIA)])
    winner, loser = board.player(6), board.player(1)
    assert winner is not None and loser is not None
    assert winner.skill.mu > 0 > loser.skill.mu
    assert winner.skill.sigma < NEWCOMER.sigma
    assert board.players[0].user_id in (6, 7)


def test_a_deck_has_its_own_correction() -> None:
    """Two table sizes of one variant: each deck's correction is kept apart."""
    small = game(1, (1, 2, 3, 4, 5), (6, 7), Side.TOWN)
    big = game(2, (1, 2, 3), (6, 7), Side.MAFIA)
    board = leaderboard([small, big])
    decks = {(a.side, a.deck) for a in board.advantages if a.deck is not None}
    assert decks == {
        (Side.TOWN, small.deck),
        (Side.MAFIA, small.deck),
        (Side.TOWN, big.deck),
        (Side.MAFIA, big.deck),
    }
    assert small.deck == "citizen×3 detective doctor godfather mafia"
    assert AdvantageKey("classic", Side.TOWN) != AdvantageKey("classic", Side.TOWN, small.deck)


def test_records_by_role_and_by_side() -> None:
    history = [
        game(1, (1, 2, 3, 4, 5), (6, 7), Side.TOWN),  # 1 detective, won
        game(2, (2, 3, 4, 5, 6), (1, 7), Side.TOWN),  # 1 godfather, lost
        game(3, (2, 3, 4, 5, 6), (7, 1), Side.MAFIA),  # 1 mafioso, won
        game(4, (2, 3, 4, 1, 6), (7, 5), Side.MAFIA),  # 1 citizen, lost
    ]
    player = leaderboard(history).player(1)
    assert player is not None
    assert (player.record.games, player.record.wins) == (4, 2)
    assert player.record.win_rate == 0.5
    roles = {role: (r.games, r.wins) for role, r in player.by_role.items()}
    assert roles == {
        Role.DETECTIVE: (1, 1),
        Role.GODFATHER: (1, 0),
        Role.MAFIA: (1, 1),
        Role.CITIZEN: (1, 0),
    }
    sides = {side: (r.games, r.wins) for side, r in player.by_side.items()}
    assert sides == {Side.TOWN: (2, 1), Side.MAFIA: (2, 1)}


def test_three_sides_the_maniac_wins_alone() -> None:
    board = leaderboard([game(1, (1, 2, 3, 4, 5), (6, 7), Side.MANIAC, "moscow", maniac=8)])
    maniac, mafioso, citizen = board.player(8), board.player(6), board.player(1)
    assert maniac is not None and mafioso is not None and citizen is not None
    assert maniac.skill.mu > 0 > citizen.skill.mu
    assert mafioso.skill.mu < 0
    assert board.players[0].user_id == 8


def test_a_draw_moves_nobody_much() -> None:
    draw = leaderboard([game(1, (1, 2, 3, 4, 5), (6, 7), None)])
    win = leaderboard([game(1, (1, 2, 3, 4, 5), (6, 7), Side.TOWN)])
    for user in (1, 6):
        drawn, won = draw.player(user), win.player(user)
        assert drawn is not None and won is not None
        assert abs(drawn.skill.mu) < abs(won.skill.mu)
    drawn_player = draw.player(1)
    assert drawn_player is not None and drawn_player.record.wins == 0


def test_leaderboard_order_and_lookups() -> None:
    board = leaderboard([*mafia_dominates(10), game(50, (1, 2, 3, 4, 5), (6, 7), Side.TOWN)])
    conservative = [p.skill.conservative for p in board.players]
    assert conservative == sorted(conservative, reverse=True)
    assert board.rank(board.players[0].user_id) == 1
    assert board.rank(424242) is None and board.player(424242) is None
    assert all(p.record.games >= 2 for p in board.top(5, min_games=2))
    assert len(board.top(3)) == 3


def test_displayed_score() -> None:
    assert displayed_score(NEWCOMER) == 1000
    assert displayed_score(Skill(0.0, 2.0)) == 2000 - 240
    assert displayed_score(Skill(1.0, 2.0)) == displayed_score(Skill(0.0, 2.0)) + 40
    assert displayed_score(Skill(-100.0, 1.0)) == 0
    assert displayed_score(Skill(100.0, 1.0)) == 3000


def test_no_games_no_players() -> None:
    board = leaderboard([])
    assert board.players == () and board.advantages == ()


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (FinishedGame(1, "classic", ()), "at least two sides"),
        (game(1, (1, 2, 3, 4, 5), (), Side.TOWN), "at least two sides"),
        (game(1, (1, 2, 3, 4, 5), (5, 6), Side.TOWN), "appears twice"),
        (
            FinishedGame(
                1,
                "classic",
                (
                    PlayerResult(1, Role.CITIZEN, Side.TOWN, True),
                    PlayerResult(2, Role.CITIZEN, Side.TOWN, False),
                    PlayerResult(3, Role.MAFIA, Side.MAFIA, False),
                ),
            ),
            "both won and lost",
        ),
        (
            FinishedGame(
                1,
                "classic",
                (
                    PlayerResult(1, Role.CITIZEN, Side.TOWN, True),
                    PlayerResult(3, Role.MAFIA, Side.MAFIA, True),
                ),
            ),
            "more than one side won",
        ),
    ],
)
def test_a_malformed_game_is_refused(bad: FinishedGame, message: str) -> None:
    with pytest.raises(RatingInputError, match=message):
        leaderboard([game(0, (1, 2, 3, 4, 5), (6, 7), Side.TOWN), bad])


def test_a_repeated_game_id_is_refused() -> None:
    with pytest.raises(RatingInputError, match="game id appears twice"):
        leaderboard([game(1, (1, 2, 3, 4, 5), (6, 7), Side.TOWN)] * 2)
