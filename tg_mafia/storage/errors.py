"""Errors raised by the storage layer; callers catch these, never SQLAlchemy's."""

from __future__ import annotations


class StorageError(Exception):
    """Base class of every storage error."""


class DatabaseConfigError(StorageError):
    """DATABASE_URL is malformed, names an unknown driver, or the database is unreachable.

    The message is one human line with any password masked, fit to print at start.
    """


class GameNotFoundError(StorageError):
    """No game has the given id."""


class StaleGameError(StorageError):
    """The game changed since the caller read it: its version is not the expected one."""


class GameAlreadyRunningError(StorageError):
    """The chat already has a game in the lobby or running."""


class ChatTakenError(GameAlreadyRunningError):
    """The chat's game (one a chat, whichever bot runs it) is another bot's."""

    def __init__(self, bot_id: int | None) -> None:
        super().__init__(f"the chat's game is bot {bot_id}'s")
        self.bot_id = bot_id


class GameStatusError(StorageError):
    """The operation does not fit the game's status (e.g. an action on an ended game)."""


class DatabaseUnavailableError(StorageError):
    """The database failed while the bot was running (e.g. the server went away).

    Nothing of the failed operation was written; the caller must not announce it.
    """


class PlayerBusyError(StorageError):
    """The user already sits at another table that is in the lobby or running."""
