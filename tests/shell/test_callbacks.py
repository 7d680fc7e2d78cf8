"""The one callback codec: every kind round-trips, and anything that is not
strictly a button of ours decodes to None (forged, stale or foreign data)."""

from __future__ import annotations

import pytest

from tg_mafia.render.callbacks import MAX_BYTES, STEPPED, Button, Kind, decode


@pytest.mark.parametrize("kind", list(Kind))
def test_every_kind_round_trips(kind: Kind) -> None:
    step = 12 if kind in STEPPED else None
    button = Button(kind, 4_000_000_001, step, ("kill", "7"))
    assert decode(button.encode()) == button


def test_the_longest_button_fits_telegrams_64_bytes() -> None:
    button = Button(Kind.NIGHT, 10**17, 10**8, ("check", "20"))
    assert len(button.encode().encode()) <= MAX_BYTES


@pytest.mark.parametrize(
    "data",
    [
        None,
        "",
        "ps",
        "ps:1",
        "zz:1:2",  # no such kind
        "ps:x:2",
        "ps:-1:2",
        "ps:1:²",  # a digit to str.isdigit, not to us
        "ps:1:2:²",
        "nt:1:2:kill:٣",  # Arabic-Indic three
        "ps:1:2:" + "a" * 60,
        "ps:1:2:a:b:c:d:e",  # too many arguments
        "ps:1:2:a b",
        "ps:1:2:",  # an empty argument
        "ps:" + "9" * 19 + ":2",  # a game id past 64 bits
        "S:v",  # the settings menu's old format
        "p:1:0.1.in.0.0.f0",  # the old stage tokens
    ],
)
def test_anything_else_is_not_a_button(data: str | None) -> None:
    assert decode(data) is None


def test_a_button_that_would_not_decode_is_never_made() -> None:
    with pytest.raises(ValueError):
        Button(Kind.VOTE, 1, 2, ("seat 3",)).encode()
    with pytest.raises(ValueError):
        Button(Kind.VOTE, 1, 2, ("x" * 50, "y" * 20)).encode()


def test_seats_are_read_strictly() -> None:
    button = Button(Kind.NIGHT, 1, 2, ("kill", "0"))
    assert button.seat(1) == 0 and button.seat(0) is None and button.seat(5) is None
