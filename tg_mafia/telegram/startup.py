"""The Bot API calls `tg-mafia run` makes to start (getMe, setWebhook, getWebhookInfo,
the polling's first deleteWebhook), tried again while Telegram or the network is only
briefly unwell: a 5xx, a timeout, a refused or dropped connection, a 429. Waits grow
exponentially with random jitter (tenacity's "full jitter"), each failed attempt is
logged once, and after the last one the error is raised as it came. What cannot get
better by waiting (a rejected token, a bad URL, a bad request) is raised at once.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from telegram.error import BadRequest, NetworkError, RetryAfter
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
    wait_random_exponential,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

ATTEMPTS = 6  # the first try and five more
FIRST_WAIT = 1.0  # seconds: the first wait is up to this, each next one up to twice as long
LONGEST_WAIT = 30.0  # seconds: no single wait is longer (about a minute in all at most)


def transient(error: BaseException) -> bool:
    """A failure that waiting may cure. PTB raises NetworkError for a 5xx, a timeout and
    a connection that failed, and BadRequest (a NetworkError too) for a refused request;
    InvalidToken (401, 404) is no NetworkError."""
    if isinstance(error, RetryAfter):
        return True
    return isinstance(error, NetworkError) and not isinstance(error, BadRequest)


def _wait(state: RetryCallState) -> float:
    """The jittered wait, or longer when Telegram said how long (a 429)."""
    wait = float(wait_random_exponential(multiplier=FIRST_WAIT, max=LONGEST_WAIT)(state))
    error = state.outcome.exception() if state.outcome else None
    if isinstance(error, RetryAfter):
        told = error.retry_after
        wait = max(wait, told if isinstance(told, int | float) else told.total_seconds())
    return wait


async def with_retries(what: str, step: Callable[[], Awaitable[T]]) -> T:
    """`step()`, tried again on a transient error; `what` names it in the log."""

    def before_sleep(state: RetryCallState) -> None:
        error = state.outcome.exception() if state.outcome else None
        wait = state.next_action.sleep if state.next_action else 0.0
        log.warning(
            "%s failed (attempt %d of %d): %s; trying again in %.1f s",
            what,
            state.attempt_number,
            ATTEMPTS,
            error,
            wait,
        )

    retrying = AsyncRetrying(
        stop=stop_after_attempt(ATTEMPTS),
        wait=_wait,
        retry=retry_if_exception(transient),
        before_sleep=before_sleep,
        reraise=True,
    )

    async def attempt() -> T:  # tenacity awaits only a coroutine function's result
        return await step()

    return await retrying(attempt)
