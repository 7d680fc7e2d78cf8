"""The bot-on-the-sandbox harness lives in the package (the demo uses it)."""

from tg_mafia.playtest.harness import BOT_RIGHTS, Harness, running_bot

__all__ = ["BOT_RIGHTS", "Harness", "running_bot"]
