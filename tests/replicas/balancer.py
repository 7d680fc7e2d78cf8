"""A round-robin load balancer for the replicas' webhooks, in the test.

The sandbox POSTs each update to the balancer, which passes it on to the
next replica in turn, with its headers (the secret token). A replica that
refuses the connection (killed, or not yet listening again) is skipped and
the next one tried, as nginx's `proxy_next_upstream error` does; when none
takes it the sandbox gets a 502 and delivers the update again later, as
Telegram does. A replica that dies after taking the request gives a 502
too: the request may have reached it, so it is not sent to another one."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter

from tg_mafia.sandbox.transport.webhook import SECRET_HEADER, post


class Balancer:
    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.port = 0
        self.turn = 0
        self.last: int | None = None  # the replica (index) given the latest update
        self.delivered: Counter[int] = Counter()  # updates answered 2xx, by replica
        self.skipped = 0  # connections refused: tried on the next replica
        self.failed = 0  # answered 502 to the sandbox
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
            path = head[0].split(" ")[1]
            headers = dict(line.split(": ", 1) for line in head[1:] if ": " in line)
            body = await reader.readexactly(int(headers.get("Content-Length", "0")))
            status, kind, content = await self._forward(path, json.loads(body), headers)
            # As a proxy does, the answer's Content-Type goes back with it: Telegram carries
            # out a call named in a webhook's answer (a press's popup) only from JSON.
            typed = f"Content-Type: {kind}\r\n" if kind else ""
            writer.write(
                f"HTTP/1.1 {status} -\r\nContent-Length: {len(content)}\r\n{typed}"
                "Connection: close\r\n\r\n".encode()
                + content
            )
            await writer.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass  # the sandbox gave up on this request: it delivers the update again
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    async def _forward(
        self, path: str, update: object, headers: dict[str, str]
    ) -> tuple[int, str, bytes]:
        secret = {SECRET_HEADER: headers[SECRET_HEADER]} if SECRET_HEADER in headers else {}
        for _ in self.ports:
            index = self.turn
            self.turn = (self.turn + 1) % len(self.ports)
            self.last = index
            try:
                status, answer_headers, content = await post(
                    f"http://127.0.0.1:{self.ports[index]}{path}", update, secret
                )
            except ConnectionRefusedError:
                self.skipped += 1
                continue
            except (OSError, TimeoutError, IndexError, ValueError):
                break
            if 200 <= status < 300:
                self.delivered[index] += 1
            return status, answer_headers.get("content-type", ""), content
        self.failed += 1
        return 502, "", b""
