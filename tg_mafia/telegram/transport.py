"""The bot's Bot API calls over aiohttp: python-telegram-bot's request interface
(`BaseRequest`) on an aiohttp session, where PTB's default is httpx.

A call costs the bot a fraction of httpx's CPU (benchmarks/http_client.py): httpcore
looks at every connection of its pool when a request starts and when one ends (a
dictionary of socket details and a getpeername each time); aiohttp keeps its idle
connections by host and parses HTTP in C.

PTB's semantics are kept: the HTTP status and body go back to PTB, which turns them into
its errors (400, 403, 429...); a timeout is `TimedOut`, any other failure of the
connection `NetworkError`. aiohttp has no timeout of its own for writing a request or for
waiting for a free connection, so those bound the whole call instead: a call may last
the sum of its four timeouts at most. A proxy named in the environment carries the
calls, as over httpx. Only PTB's public interface (`telegram.request`) is used."""

from __future__ import annotations

import urllib.request
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

from tg_mafia.telegram.metered import MeteredRequest, Record, Timeout

# PTB's defaults for HTTPXRequest, kept: seconds, and connections open at once.
READ_TIMEOUT = 5.0
WRITE_TIMEOUT = 5.0
MEDIA_WRITE_TIMEOUT = 20.0
CONNECT_TIMEOUT = 5.0
POOL_TIMEOUT = 1.0
CONNECTIONS = 256


# benchmarks/load.py --without aiohttp, 100 updates/s: bot 0.43 core vs 0.58, popup p50 112/123 ms
class AiohttpRequest(BaseRequest):
    def __init__(
        self,
        connections: int = CONNECTIONS,
        *,
        read_timeout: float | None = READ_TIMEOUT,
        write_timeout: float | None = WRITE_TIMEOUT,
        connect_timeout: float | None = CONNECT_TIMEOUT,
        pool_timeout: float | None = POOL_TIMEOUT,
    ) -> None:
        self.connections = connections
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._session: aiohttp.ClientSession | None = None
        self._proxies: dict[tuple[str, str], str | None] = {}  # by (scheme, host)

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            # Made on the running loop (aiohttp binds a session to it).
            connector = aiohttp.TCPConnector(limit=self.connections, limit_per_host=0)
            self._session = aiohttp.ClientSession(
                connector=connector, headers={"User-Agent": self.USER_AGENT}
            )

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()

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
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        uploads = bool(request_data and request_data.contains_files)
        read = _given(read_timeout, self._read_timeout)
        connect = _given(connect_timeout, self._connect_timeout)
        pool = _given(pool_timeout, self._pool_timeout)
        write = _given(write_timeout, MEDIA_WRITE_TIMEOUT if uploads else self._write_timeout)
        bounds = (read, connect, pool, write)
        timeout = aiohttp.ClientTimeout(
            total=None if None in bounds else sum(b for b in bounds if b is not None),
            connect=None if pool is None or connect is None else pool + connect,
            sock_connect=connect,
            sock_read=read,
        )
        try:
            async with session.request(
                method, url, data=_body(request_data), timeout=timeout, proxy=self._proxy(url)
            ) as response:
                return response.status, await response.read()
        except TimeoutError as error:  # aiohttp's own timeouts are TimeoutErrors too
            raise TimedOut from error
        except aiohttp.ClientError as error:
            raise NetworkError(f"aiohttp.{error.__class__.__name__}: {error}") from error

    def _proxy(self, url: str) -> str | None:
        """The proxy the environment names for `url`'s scheme (HTTP_PROXY, HTTPS_PROXY;
        none for a host in NO_PROXY), as httpx honours them: read once a host, as httpx
        reads them once a client."""
        # benchmarks/http_client.py --rate 60: 0.78 ms of CPU a call, 1.5 reading them every call
        parts = urlsplit(url)
        key = (parts.scheme, parts.hostname or "")
        if key not in self._proxies:
            bypass = bool(parts.hostname) and urllib.request.proxy_bypass(key[1])
            self._proxies[key] = None if bypass else urllib.request.getproxies().get(key[0])
        return self._proxies[key]


def _given(value: Timeout, default: float | None) -> float | None:
    """A timeout the call set (a number, or None: no limit), else this request's own:
    PTB's placeholder for "not given" is neither (as HTTPXRequest reads it)."""
    return value if value is None or isinstance(value, int | float) else default


def _body(request_data: RequestData | None) -> Any:
    """The call's parameters as a form, as PTB sends them; with files, multipart."""
    if request_data is None:
        return None
    fields = request_data.json_parameters
    if not request_data.contains_files:
        return fields
    form = aiohttp.FormData()
    for name, value in fields.items():
        form.add_field(name, value)
    for name, (filename, content, mimetype) in request_data.multipart_data.items():
        form.add_field(name, content, filename=filename, content_type=mimetype)
    return form


def calls_request(record: Record) -> BaseRequest:
    """The request object of every call but getUpdates, each call counted by `record`."""
    return MeteredRequest(AiohttpRequest(), record)


def updates_request(record: Record) -> BaseRequest:
    """getUpdates' own: one connection, the long poll's."""
    return MeteredRequest(AiohttpRequest(connections=1), record)
