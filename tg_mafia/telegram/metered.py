"""A Bot API request object that counts every call by method and result, around any
other request object (PTB's HTTPXRequest in production, the sandbox's in tests).

It sits below PTB's error handling, where the HTTP status is still a number: a 429, a 5xx
and a network failure are told apart exactly, for every call the bot makes (the outbox's,
the handlers' own, getUpdates)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from telegram.request import BaseRequest, RequestData

from tg_mafia.ops.metrics import api_result

Record = Callable[[str, str], None]  # (method, result)
# A call's timeout as PTB hands it to a request: seconds, None (none), or its
# placeholder for "not given" (BaseRequest.DEFAULT_NONE, typed in a private module).
Timeout = Any


class MeteredRequest(BaseRequest):
    def __init__(self, inner: BaseRequest, record: Record) -> None:
        self.inner = inner
        self.record = record

    @property
    def read_timeout(self) -> float | None:
        return self.inner.read_timeout

    async def initialize(self) -> None:
        await self.inner.initialize()

    async def shutdown(self) -> None:
        await self.inner.shutdown()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Timeout = BaseRequest.DEFAULT_NONE,
        write_timeout: Timeout = BaseRequest.DEFAULT_NONE,
        connect_timeout: Timeout = BaseRequest.DEFAULT_NONE,
        pool_timeout: Timeout = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        name = api_method(url)
        try:
            status, payload = await self.inner.do_request(
                url,
                method,
                request_data,
                read_timeout=read_timeout,
                write_timeout=write_timeout,
                connect_timeout=connect_timeout,
                pool_timeout=pool_timeout,
            )
        except Exception:
            self.record(name, api_result(None))
            raise
        self.record(name, api_result(status))
        return status, payload


def api_method(url: str) -> str:
    """The Bot API method a URL calls (`.../bot<token>/sendMessage`); "file" for a download."""
    path = urlsplit(url).path
    if "/file/bot" in path:
        return "file"
    return path.rstrip("/").rsplit("/", 1)[-1] or "unknown"
