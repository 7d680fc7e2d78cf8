"""Roles and the sides they play for."""

from __future__ import annotations

from enum import StrEnum


class Side(StrEnum):
    TOWN = "town"
    MAFIA = "mafia"
    MANIAC = "maniac"
    # Not a side anyone plays for: the result of a `sport` game nobody won.
    DRAW = "draw"


class Role(StrEnum):
    CITIZEN = "citizen"
    MAFIA = "mafia"
    GODFATHER = "godfather"
    DON = "don"
    DETECTIVE = "detective"
    SHERIFF = "sheriff"
    POLICE = "police"
    DOCTOR = "doctor"
    ESCORT = "escort"
    MANIAC = "maniac"

    @property
    def side(self) -> Side:
        if self in MAFIA_ROLES:
            return Side.MAFIA
        if self is Role.MANIAC:
            return Side.MANIAC
        return Side.TOWN

    @property
    def is_mafia(self) -> bool:
        return self in MAFIA_ROLES

    @property
    def is_boss(self) -> bool:
        return self in (Role.GODFATHER, Role.DON)

    @property
    def is_checker(self) -> bool:
        """Checks for the town: answers "mafia" or "not mafia"."""
        return self in (Role.DETECTIVE, Role.SHERIFF, Role.POLICE)


MAFIA_ROLES = frozenset({Role.MAFIA, Role.GODFATHER, Role.DON})
