"""Writes the example pictures in docs/pictures/: the end of a game for each
variant (each in another language), a leaderboard and a player's card.

Run it again whenever the pictures or the catalogues change:

    .venv/bin/python docs/make_pictures.py
"""

from __future__ import annotations

from pathlib import Path

from engine import Role, Side
from tg_mafia.i18n import translator
from tg_mafia.pictures.standings import render_leaderboard, render_player_card
from tg_mafia.pictures.table import Fate, SeatCard, TableSnapshot, render_table
from tg_mafia.ratings import FinishedGame, PlayerResult, leaderboard

OUTPUT = Path(__file__).with_name("pictures")

C, M, G, D = Role.CITIZEN, Role.MAFIA, Role.GODFATHER, Role.DON
KILLED, OUT, LEFT, WARNED, ALIVE = (
    Fate.KILLED,
    Fate.ELIMINATED,
    Fate.LEFT,
    Fate.WARNINGS,
    Fate.SURVIVED,
)

# (file, language, snapshot): a plausible end of a game in each variant.
TABLES: tuple[tuple[str, str, TableSnapshot], ...] = (
    (
        "table-classic-en.png",
        "en",
        TableSnapshot(
            "Friday night club",
            "classic",
            (
                SeatCard(1, "Anna", C, KILLED, 1),
                SeatCard(2, "Ben", G, OUT, 3),
                SeatCard(3, "Chloe", Role.DETECTIVE, KILLED, 2),
                SeatCard(4, "Dmitri", C),
                SeatCard(5, "Ellie", M, OUT, 1),
                SeatCard(6, "Frank", Role.DOCTOR),
                SeatCard(7, "Grace", C, OUT, 2),
                SeatCard(8, "Harry", M, OUT, 4),
                SeatCard(9, "Isabella Montgomery-Smith", C),
            ),
            Side.TOWN,
        ),
    ),
    (
        "table-moscow-ru.png",
        "ru",
        TableSnapshot(
            "Мафия по пятницам",
            "moscow",
            (
                SeatCard(1, "Алексей", C, KILLED, 2),
                SeatCard(2, "Борис", D),
                SeatCard(3, "Вика", C, OUT, 1),
                SeatCard(4, "Глеб", Role.SHERIFF, KILLED, 3),
                SeatCard(5, "Дарья", M),
                SeatCard(6, "Евгений", C, OUT, 2),
                SeatCard(7, "Жанна", Role.MANIAC, OUT, 3),
                SeatCard(8, "Зоя", C, WARNED, 2),
                SeatCard(9, "Игорь", M, OUT, 4),
                SeatCard(10, "Кира", C, KILLED, 4),
                SeatCard(11, "Лев Николаевич", C),
            ),
            Side.MAFIA,
        ),
    ),
    (
        "table-party-ro.png",
        "ro",
        TableSnapshot(
            "Mafia la cămin",
            "party",
            (
                SeatCard(1, "Andreea", C),
                SeatCard(2, "Bogdan", M, OUT, 2),
                SeatCard(3, "Cătălina", Role.POLICE, KILLED, 1),
                SeatCard(4, "Dragoș", C, OUT, 1),
                SeatCard(5, "Elena", Role.DOCTOR),
                SeatCard(6, "Florin", C, LEFT, 2),
                SeatCard(7, "Gabriela", M, OUT, 3),
                SeatCard(8, "Horia", C, KILLED, 2),
                SeatCard(9, "Ioana", C),
                SeatCard(10, "Ștefan Țurcanu", C, KILLED, 3),
                SeatCard(11, "Mihai", C),
            ),
            Side.TOWN,
        ),
    ),
    (
        "table-club-fr.png",
        "fr",
        TableSnapshot(
            "Les Loups du jeudi",
            "club",
            (
                SeatCard(1, "Amélie", C, KILLED, 2),
                SeatCard(2, "Baptiste", D, OUT, 2),
                SeatCard(3, "Céline", Role.SHERIFF, KILLED, 3),
                SeatCard(4, "Damien", C),
                SeatCard(5, "Élodie", Role.ESCORT, OUT, 1),
                SeatCard(6, "François", M),
                SeatCard(7, "Gaëlle", Role.DOCTOR),
                SeatCard(8, "Hugo", M),
                SeatCard(9, "Inès", C, OUT, 3),
                SeatCard(10, "Jérôme", C, KILLED, 4),
            ),
            Side.MAFIA,
        ),
    ),
)

PLAYERS = {
    1: "Lan",
    2: "Minh",
    3: "Ngọc Ánh",
    4: "Quang Huy",
    5: "Thảo",
    6: "Đức",
    7: "Phương Linh",
    8: "Tuấn",
    9: "Hương",
    10: "Bảo",
    11: "Người chơi mới",
    12: "Khoa",
}
CLASSIC_DECK = (G, M, M, Role.DETECTIVE, Role.DOCTOR, C, C, C, C)


def season(games: int = 60) -> list[FinishedGame]:
    """Twelve players taking turns at a nine-seat classic table; the town
    wins two games in five, more often with players 3 and 7 in it."""
    played = []
    for g in range(games):
        users = [1 + (g * 7 + i * 5) % 12 for i in range(len(CLASSIC_DECK))]
        town = {u for u, r in zip(users, CLASSIC_DECK, strict=True) if r.side is Side.TOWN}
        town_wins = g % 5 < 2 or {3, 7} <= town
        played.append(
            FinishedGame(
                g,
                "classic",
                tuple(
                    PlayerResult(u, r, r.side, (r.side is Side.TOWN) == town_wins)
                    for u, r in zip(users, CLASSIC_DECK, strict=True)
                ),
            )
        )
    return played


def main() -> None:
    OUTPUT.mkdir(exist_ok=True)
    for name, language, snapshot in TABLES:
        (OUTPUT / name).write_bytes(render_table(snapshot, translator(language)).png)
    board = leaderboard(season())
    t = translator("vi")
    (OUTPUT / "leaderboard-vi.png").write_bytes(
        render_leaderboard(board, PLAYERS, "Hội Ma Sói Sài Gòn", t).png
    )
    best = board.players[0]
    card = render_player_card(
        best, PLAYERS[best.user_id], "Hội Ma Sói Sài Gòn", 1, len(board.players), t
    )
    (OUTPUT / "player-vi.png").write_bytes(card.png)


if __name__ == "__main__":
    main()
