"""The bot's ceiling of 30 calls a second, on the calls Telegram counts
against it: those that send or change messages. PTB's AIORateLimiter counts
every call that names a chat, so a membership check (getChatMember) or a
deletion would wait behind a full outbox, and a player's join with it."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from telegram.ext import AIORateLimiter

JSONDict = dict[str, Any]  # a call's answer, as PTB's own (private) alias names it

LIMITED = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "sendDocument",
        "editMessageText",
        "editMessageCaption",
        "editMessageReplyMarkup",
        "pinChatMessage",
        "unpinChatMessage",
    }
)


class MessageRateLimiter(AIORateLimiter):
    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | JSONDict | list[JSONDict]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | JSONDict | list[JSONDict]:
        if endpoint not in LIMITED:
            return await callback(*args, **kwargs)
        return await super().process_request(
            callback, args, kwargs, endpoint, data, rate_limit_args
        )
