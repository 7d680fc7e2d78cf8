"""Simulated players live in the package (the demo uses them)."""

from tg_mafia.playtest.autoplay import AutoPlayers, find_button, prefix, press

__all__ = ["AutoPlayers", "find_button", "prefix", "press"]
