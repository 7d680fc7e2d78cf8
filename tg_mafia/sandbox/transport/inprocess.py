"""The in-process way in: a python-telegram-bot request object that calls the sandbox directly.

Parameters are taken as PTB would put them on the wire (`json_parameters`: strings and
JSON text; files as multipart parts), so both transports go through the same parsing.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from telegram.error import TimedOut
from telegram.request import BaseRequest, RequestData

from tg_mafia.sandbox.world.files import Upload

if TYPE_CHECKING:
    from tg_mafia.sandbox.base import SandboxBase

# A call's timeout as PTB hands it: seconds, None, or its placeholder for "not given".
Timeout = Any


class SandboxRequest(BaseRequest):
    def __init__(self, sandbox: SandboxBase, read_timeout: float = 5.0) -> None:
        self.sandbox = sandbox
        self._read_timeout = read_timeout

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        pass  # nothing to open: the sandbox lives in this process

    async def shutdown(self) -> None:
        pass

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
        path = urlsplit(url).path.rstrip("/").split("/")
        api_method = path[-1]
        token = path[-2].removeprefix("bot") if len(path) >= 2 else ""
        params = dict(request_data.json_parameters) if request_data else {}
        files = _uploads(request_data) if request_data and request_data.contains_files else None
        given = read_timeout is None or isinstance(read_timeout, int | float)
        timeout = read_timeout if given else self._read_timeout  # else PTB's "not given"
        # shielded: a call the client stops waiting for still happens, as over a network
        call = asyncio.ensure_future(self.sandbox.call(api_method, params, token, files))
        try:
            status, body = await asyncio.wait_for(asyncio.shield(call), timeout)
        except TimeoutError:
            raise TimedOut from None
        return status, json.dumps(body).encode()


def _uploads(request_data: RequestData) -> dict[str, Upload]:
    """The request's files as multipart parts, by field name (what HTTP would carry)."""
    out = {}
    for name, (filename, content, mime_type) in request_data.multipart_data.items():
        data = content if isinstance(content, bytes) else content.read()
        out[name] = Upload(filename or name, data, mime_type or "application/octet-stream")
    return out
