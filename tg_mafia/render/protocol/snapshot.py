"""The end-of-game picture's input from the protocol, and as plain JSON:
the outbox carries it, so the sender can draw it after a restart too."""

from __future__ import annotations

from typing import Any

from engine import Role, Side
from tg_mafia.render.fate import Fate
from tg_mafia.render.pictures.table import SeatCard, TableSnapshot
from tg_mafia.render.protocol.model import Protocol

FATES = {fate.value: fate for fate in Fate}


def table_snapshot(protocol: Protocol) -> TableSnapshot:
    cards = tuple(
        SeatCard(
            seat=s.seat,
            name=s.name,
            role=s.role,
            fate=FATES[s.fate.value],
            when=s.when.number if s.when is not None else None,
        )
        for s in protocol.seats
    )
    return TableSnapshot(protocol.title, protocol.variant, cards, protocol.winner)


def snapshot_json(snapshot: TableSnapshot) -> dict[str, Any]:
    return {
        "title": snapshot.title,
        "variant": snapshot.variant,
        "winner": snapshot.winner.value if snapshot.winner else None,
        "seats": [
            [card.seat, card.name, card.role.value, card.fate.value, card.when]
            for card in snapshot.seats
        ],
    }


def snapshot_from_json(data: dict[str, Any]) -> TableSnapshot:
    """The inverse of `snapshot_json`; ValueError (or KeyError) for a malformed one."""
    cards = tuple(
        SeatCard(int(seat), str(name), Role(role), Fate(fate), None if when is None else int(when))
        for seat, name, role, fate, when in data["seats"]
    )
    winner = data.get("winner")
    return TableSnapshot(
        str(data["title"]), str(data["variant"]), cards, Side(winner) if winner else None
    )
