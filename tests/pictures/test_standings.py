"""The leaderboard and a player's card."""

from __future__ import annotations

import pytest

from engine import Role, Side
from tests.pictures import checks
from tg_mafia.i18n import LANGUAGES, translator
from tg_mafia.ratings import FinishedGame, PlayerResult, leaderboard
from tg_mafia.render.pictures.fonts import clean
from tg_mafia.render.pictures.standings import WIDTH, render_leaderboard, render_player_card
from tg_mafia.render.texts import role_name

NAMES = {
    1: "Anna",
    2: "Борис Годунов-Ильич Длиннофамильный",
    3: "Người chơi Dân thường",
    4: "Ștefan Țepeș",
    5: "Hélène",
    6: "שרה כהן",
    7: "Oleg 👍🏽",
    8: "Дима",
    9: "Mai",
    10: "Ngọc Ánh",
    11: "Léa",
    12: "Kira",
}
DECK = (Role.DON, Role.MAFIA, Role.SHERIFF, Role.DOCTOR, Role.ESCORT, Role.CITIZEN, Role.CITIZEN)


def history(games: int = 40) -> list[FinishedGame]:
    """Twelve players taking turns at a seven-seat club table."""
    found = []
    for g in range(games):
        users = [1 + (g * 5 + i) % 12 for i in range(len(DECK))]
        town_wins = g % 3 != 0
        found.append(
            FinishedGame(
                g,
                "club",
                tuple(
                    PlayerResult(u, r, r.side, (r.side is Side.TOWN) == town_wins)
                    for u, r in zip(users, DECK, strict=True)
                ),
            )
        )
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_leaderboard(language: str) -> None:
    board = leaderboard(history())
    t = translator(language)
    picture = render_leaderboard(board, NAMES, "Friday club", t)
    image = checks.sound(picture)
    assert image.width == WIDTH
    shown = board.top(10)
    assert len(shown) == 10
    for rank, player in enumerate(shown, 1):
        row = {item.kind: item.text for item in picture.texts if item.group == rank}
        assert row["rank"] == str(rank)
        assert checks.shown_as(row["name"], clean(NAMES[player.user_id]))
        assert row["score"] == str(player.score)
        assert row["games"] == str(player.record.games)
        assert row["win_rate"] == t.gettext("{percent}%").format(
            percent=round(100 * player.record.win_rate)
        )
    scores = [int(item.text) for item in picture.of_kind("score")]
    assert scores == sorted(scores, reverse=True)


def test_leaderboard_without_games() -> None:
    picture = render_leaderboard(leaderboard([]), {}, "Friday club", translator("fr"))
    checks.sound(picture)
    assert [item.text for item in picture.of_kind("empty")] == [
        "Aucune partie terminée pour l’instant."
    ]


def test_a_player_without_a_name_shows_the_id() -> None:
    board = leaderboard(history(5))
    picture = render_leaderboard(board, {}, "Friday club", translator("en"), top=3)
    assert [item.text for item in picture.of_kind("name")] == [str(p.user_id) for p in board.top(3)]


def test_a_blank_name_shows_as_no_name() -> None:
    board = leaderboard(history(5))
    top = board.top(3)
    # A Hangul filler, and Devanagari (which no shipped font draws).
    names = {top[0].user_id: "\u3164", top[1].user_id: "\u0915\u093f", top[2].user_id: "Ann"}
    picture = render_leaderboard(board, names, "Friday club", translator("ru"), top=3)
    assert [item.text for item in picture.of_kind("name")] == ["(без имени)"] * 2 + ["Ann"]
    card = render_player_card(top[0], "\u200b", "Friday club", 1, 3, translator("fr"))
    (title,) = card.of_kind("title")
    assert title.text == "(sans nom)"


@pytest.mark.parametrize("language", LANGUAGES)
def test_player_card(language: str) -> None:
    board = leaderboard(history())
    player = board.players[0]
    t = translator(language)
    picture = render_player_card(
        player, NAMES[player.user_id], "Friday club", 1, len(board.players), t
    )
    checks.sound(picture)
    assert [item.text for item in picture.of_kind("score")] == [str(player.score)]
    assert [item.text for item in picture.of_kind("games")] == [str(player.record.games)]
    (wins,) = picture.of_kind("wins")
    assert wins.text.startswith(f"{player.record.wins} · ")
    roles = [item.text for item in picture.of_kind("role")]
    assert roles == [role_name(t, role) for role in Role if role in player.by_role]
    records = [item.text for item in picture.of_kind("record")]
    played = [player.by_role[role] for role in Role if role in player.by_role]
    assert records == [f"{r.wins}/{r.games}" for r in played]
    assert sum(player.by_role[role].games for role in player.by_role) == player.record.games
    (subtitle,) = picture.of_kind("subtitle")
    assert subtitle.text == "Friday club · " + t.gettext("Rank: {rank}/{n}").format(
        rank=1, n=len(board.players)
    )


def test_player_card_unranked_has_no_rank() -> None:
    player = leaderboard(history(3)).players[0]
    picture = render_player_card(player, "Anna", "Friday club", None, 0, translator("en"))
    assert [item.text for item in picture.of_kind("subtitle")] == ["Friday club"]
