"""A second, independent client reads every sandbox answer: aiogram's models (a
test-only dependency, Bot API 10.3), beside python-telegram-bot, which the bot uses.

PTB is lenient (an unknown or missing field lands in `api_kwargs` or None); aiogram's
pydantic models refuse a missing required field or a value of the wrong type, so an
object the sandbox builds that drifted from the current Bot API fails here.
"""

from __future__ import annotations

import functools
from typing import Any

import aiogram.methods
import aiogram.types
from pydantic import TypeAdapter, ValidationError


@functools.cache
def _adapter(method: str) -> TypeAdapter[Any] | None:
    model = getattr(aiogram.methods, method[:1].upper() + method[1:], None)
    returning = getattr(model, "__returning__", None)
    return None if returning is None else TypeAdapter(returning)


_UPDATE: TypeAdapter[aiogram.types.Update] = TypeAdapter(aiogram.types.Update)


def result_problem(method: str, result: Any) -> str | None:
    """Why aiogram cannot read `result` as `method`'s answer (None when it can)."""
    if method == "getUpdates":
        return None  # each update is read as it is built (injected ones may be raw)
    adapter = _adapter(method)
    if adapter is None:
        return f"aiogram has no method {method}"
    try:
        adapter.validate_python(result)
    except ValidationError as error:
        return f"{method}: {error}"
    return None


def update_problem(update: dict[str, Any]) -> str | None:
    try:
        _UPDATE.validate_python(update)
    except ValidationError as error:
        return f"update {sorted(update)}: {error}"
    return None
