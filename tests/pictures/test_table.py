"""The picture of the table at the end of a game."""

from __future__ import annotations

import dataclasses

import pytest

from engine import Role, Side
from engine.variants import find_variant
from tests.pictures import checks
from tg_mafia.i18n import LANGUAGES, Translator, translator
from tg_mafia.render.fate import Fate
from tg_mafia.render.pictures.canvas import Picture
from tg_mafia.render.pictures.fonts import clean
from tg_mafia.render.pictures.layout import SIZE, layout
from tg_mafia.render.pictures.table import (
    MAX_SEATS,
    MIN_SEATS,
    SeatCard,
    TableSnapshot,
    render_table,
    winner_title,
)
from tg_mafia.render.texts import role_name
from tg_mafia.render.texts.names import SeatName, placeholder, seat_name

NAMES = (
    "Anna", "Борис", "Ngọc Ánh", "Ștefan", "Hélène", "Oleg", "Mai", "Țuțu", "Дима", "Léa",
    "Vika", "Gleb", "Người chơi", "Ion", "Zoé", "Кира", "Lan", "Ana", "Jean", "Ёлка",
)  # fmt: skip
FATES = (
    (Fate.KILLED, 1),
    (Fate.ELIMINATED, 1),
    (Fate.SURVIVED, None),
    (Fate.KILLED, 2),
    (Fate.LEFT, 2),
    (Fate.WARNINGS, 3),
    (Fate.ELIMINATED, 3),
)


def snapshot(variant: str, players: int, winner: Side | None = Side.TOWN) -> TableSnapshot:
    deck = find_variant(variant).deck(players, {})
    roles = sorted(deck.elements(), key=lambda r: (r.side.value, r.value))
    seats = tuple(
        SeatCard(seat, NAMES[seat - 1], role, *FATES[seat % len(FATES)])
        for seat, role in enumerate(roles, 1)
    )
    return TableSnapshot("Friday club", variant, seats, winner)


def seat_texts(picture: Picture, seat: int, kind: str) -> list[str]:
    return [item.text for item in picture.texts if item.group == seat and item.kind == kind]


def expected_name(card: SeatCard, t: Translator) -> SeatName:
    """The name as the messages show it, whole, cleaned for the fonts."""
    name = seat_name(card.name, card.seat, t, limit=None)
    if not clean(name.text):
        return SeatName(placeholder(t, card.seat))
    return SeatName(clean(name.text), name.frame)


def each_seat_shown(picture: Picture, table: TableSnapshot, language: str) -> None:
    t = translator(language)
    cards = layout(len(table.seats)).cards
    for card, box in zip(table.seats, cards, strict=True):
        assert seat_texts(picture, card.seat, "seat") == [str(card.seat)]
        (name,) = seat_texts(picture, card.seat, "name")
        expected = expected_name(card, t)
        before, after = expected.frame.split("{name}")
        assert name.startswith(before) and name.endswith(after)
        assert checks.shown_as(name[len(before) : len(name) - len(after)], expected.text)
        assert seat_texts(picture, card.seat, "role") == [role_name(t, card.role)]
        assert len(seat_texts(picture, card.seat, "fate")) == 1
        for item in picture.texts:
            if item.group == card.seat:
                assert checks.inside(item.box, box), item


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", ["classic", "moscow", "party", "club", "sport"])
def test_every_language_and_variant(language: str, variant: str) -> None:
    rules = find_variant(variant)
    table = snapshot(variant, min(rules.min_players + 3, rules.max_players))
    picture = render_table(table, translator(language))
    image = checks.sound(picture)
    assert image.size == (SIZE, SIZE)
    each_seat_shown(picture, table, language)
    winner = " ".join(item.text for item in picture.of_kind("winner"))
    assert winner == winner_title(translator(language), Side.TOWN)


@pytest.mark.parametrize("seats", range(MIN_SEATS, MAX_SEATS + 1))
def test_every_table_size(seats: int) -> None:
    cards = tuple(
        SeatCard(seat, NAMES[seat - 1], Role.MAFIA if seat % 4 == 0 else Role.CITIZEN)
        for seat in range(1, seats + 1)
    )
    table = TableSnapshot("Friday club", "classic", cards, Side.MAFIA)
    picture = render_table(table, translator("ru"))
    checks.sound(picture)
    each_seat_shown(picture, table, "ru")


def test_cards_never_touch_and_stay_in_the_picture() -> None:
    frame = (0, 0, SIZE, SIZE)
    for seats in range(MIN_SEATS, MAX_SEATS + 1):
        shape = layout(seats)
        assert shape.scale > 0.8
        for index, card in enumerate(shape.cards):
            assert checks.inside(card, frame)
            for other in shape.cards[index + 1 :]:
                assert not checks.overlap(card, other)


def test_hard_names_are_cleaned_and_cut_inside_their_card() -> None:
    hard = (
        "Người chơi Dân thường Người chơi Dân thường",  # long, stacked marks
        "Le\u200bna\u200d\u2060 Z",  # zero-width characters
        "שרה כהן מירושלים העתיקה",  # right to left, long
        "عمر الخيام",  # right to left, joined letters
        "Oleg 👍🏽👨\u200d👩\u200d👧",  # emoji the font lacks
        "Z\u0301\u0302\u0303\u0304\u0305algo",  # piled-up marks
        "Ştefan Ţepeş / Ștefan Țepeș",  # cedilla and comma below
        "x" * 300,
    )
    base = snapshot("classic", 20)
    seats = tuple(
        dataclasses.replace(card, name=hard[index % len(hard)])
        for index, card in enumerate(base.seats)
    )
    table = dataclasses.replace(base, seats=seats)
    picture = render_table(table, translator("vi"))
    checks.sound(picture)
    each_seat_shown(picture, table, "vi")
    names = [item.text for item in picture.of_kind("name")]
    assert "Lena Z" in names
    assert "Oleg 👍🏽👨\u200d👩\u200d👧" in names  # the joiners stay inside the emoji only
    assert any(name.endswith("…") for name in names)
    assert all("\u200b" not in name for name in names)
    assert all("\u200d" not in name for name in names if "Oleg" not in name)


def test_a_name_of_nothing_drawable_shows_the_seat_s_placeholder() -> None:
    base = snapshot("classic", 7)
    # Devanagari, which no shipped font has: the picture calls the seat as a blank name.
    seats = (dataclasses.replace(base.seats[0], name="\u0915\u093f \u0915"), *base.seats[1:])
    picture = render_table(dataclasses.replace(base, seats=seats), translator("en"))
    assert seat_texts(picture, 1, "name") == ["Player 1"]
    assert seat_texts(picture, 1, "seat") == ["1"]
    assert seat_texts(picture, 1, "role") == ["Godfather"]


def test_fates_and_their_night_or_day() -> None:
    table = snapshot("moscow", 9, Side.MAFIA)
    picture = render_table(table, translator("fr"))
    for card in table.seats:
        badges = seat_texts(picture, card.seat, "when")
        if card.fate is Fate.SURVIVED:
            assert badges == []
            assert seat_texts(picture, card.seat, "fate") == ["En vie"]
        else:
            assert badges == [f"{'☾' if card.fate is Fate.KILLED else '☀'} {card.when}"]


def test_a_draw() -> None:
    picture = render_table(snapshot("classic", 8, winner=None), translator("ru"))
    assert [item.text for item in picture.of_kind("winner")] == ["Ничья"]
    # sport's draw: the engine's Side.DRAW, drawn the same way.
    drawn = render_table(snapshot("sport", 10, winner=Side.DRAW), translator("ru"))
    assert [item.text for item in drawn.of_kind("winner")] == ["Ничья"]
    assert drawn.png == render_table(snapshot("sport", 10, winner=None), translator("ru")).png


def test_the_same_snapshot_gives_the_same_picture() -> None:
    table = snapshot("party", 10)
    assert render_table(table, translator("ro")).png == render_table(table, translator("ro")).png


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            dataclasses.replace(snapshot("classic", 7), seats=snapshot("classic", 7).seats[:2]),
            "3 to 20",
        ),
        (
            dataclasses.replace(
                snapshot("classic", 7),
                seats=snapshot("classic", 7).seats + snapshot("classic", 14).seats,
            ),
            "3 to 20",
        ),
        (
            dataclasses.replace(snapshot("classic", 7), seats=snapshot("classic", 7).seats[::-1]),
            "numbered",
        ),
        (
            dataclasses.replace(
                snapshot("classic", 7),
                seats=(
                    SeatCard(1, "A", Role.CITIZEN, Fate.KILLED),
                    *snapshot("classic", 7).seats[1:],
                ),
            ),
            "needs its night or day",
        ),
        (
            dataclasses.replace(
                snapshot("classic", 7),
                seats=(
                    SeatCard(1, "A", Role.CITIZEN, Fate.SURVIVED, 2),
                    *snapshot("classic", 7).seats[1:],
                ),
            ),
            "needs its night or day",
        ),
    ],
)
def test_a_snapshot_that_cannot_be_drawn(table: TableSnapshot, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        render_table(table, translator("en"))


def test_every_fate_has_its_colour() -> None:
    """A sport player removed at the fouls limit, or one who left the group, is drawn
    too (the end picture of such a game failed to draw)."""
    from tg_mafia.render.fate import Fate
    from tg_mafia.render.pictures import style

    assert {fate.value for fate in Fate} <= set(style.FATE_COLOURS)
