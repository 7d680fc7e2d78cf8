"""Errors as Telegram reports them, and errors of the simulation itself."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A Bot API error answer: HTTP status, `description`, optional `parameters`."""

    def __init__(
        self,
        code: int,
        description: str,
        retry_after: int | None = None,
        migrate_to_chat_id: int | None = None,
    ) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after
        self.migrate_to_chat_id = migrate_to_chat_id

    def payload(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.code,
            "description": self.description,
        }
        parameters: dict[str, int] = {}
        if self.retry_after is not None:
            parameters["retry_after"] = self.retry_after
        if self.migrate_to_chat_id is not None:
            parameters["migrate_to_chat_id"] = self.migrate_to_chat_id
        if parameters:
            body["parameters"] = parameters
        return body


def bad_request(reason: str) -> ApiError:
    return ApiError(400, f"Bad Request: {reason}")


def forbidden(reason: str) -> ApiError:
    return ApiError(403, f"Forbidden: {reason}")


def not_found() -> ApiError:
    # Telegram answers an unknown method (and a malformed token) with a bare 404
    return ApiError(404, "Not Found")


def group_migrated(new_chat_id: int) -> ApiError:
    # python-telegram-bot turns the parameter into ChatMigrated
    return ApiError(
        400,
        "Bad Request: group chat was upgraded to a supergroup chat",
        migrate_to_chat_id=new_chat_id,
    )


def too_many_requests(retry_after: int) -> ApiError:
    return ApiError(429, f"Too Many Requests: retry after {retry_after}", retry_after)


class SandboxBug(AssertionError):
    """The sandbox cannot answer truthfully: it built an object that breaks the schema, or
    the bot called something the sandbox does not model. A gap here, not a bot error."""


class SimulationError(Exception):
    """A simulated user tried something the Telegram app would not let them do."""
