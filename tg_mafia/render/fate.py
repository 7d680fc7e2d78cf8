"""How a player's game ended, as the protocol records it and the end's
picture draws it."""

from __future__ import annotations

from enum import StrEnum


class Fate(StrEnum):
    SURVIVED = "survived"
    KILLED = "killed"  # at night
    ELIMINATED = "eliminated"  # voted out by day
    LEFT = "left"  # left the table
    WARNINGS = "warnings"  # removed for warnings
    FOULS = "fouls"  # sport: removed at the fouls limit
    DEPARTED = "departed"  # left the group, or was removed from it
    IDLE = "idle"  # out for letting their turns pass
