"""Errors as Telegram reports them, and errors of the simulation itself."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A Bot API error answer: HTTP status, `description`, optional `parameters`."""

    def __init__(self, code: int, description: str, retry_after: int | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after

    def payload(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.code,
            "description": self.description,
        }
        if self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        return body


def bad_request(reason: str) -> ApiError:
    return ApiError(400, f"Bad Request: {reason}")


def forbidden(reason: str) -> ApiError:
    return ApiError(403, f"Forbidden: {reason}")


def not_found() -> ApiError:
    # Telegram answers an unknown method (and a malformed token) with a bare 404
    return ApiError(404, "Not Found")


def too_many_requests(retry_after: int) -> ApiError:
    return ApiError(429, f"Too Many Requests: retry after {retry_after}", retry_after)


class SandboxBug(AssertionError):
    """The sandbox built an object that breaks the schema: a bug here, not in the bot."""


class SimulationError(Exception):
    """A simulated user tried something the Telegram app would not let them do."""
