"""HTTP clients for the endpoints the tests start on 127.0.0.1 (the bot's health and
metrics, the sandbox's Bot API and file downloads). They speak plain HTTP, so they are
made without a TLS context: httpx builds one for every client by default, loading the CA
bundle (20 ms each), and the tests that poll a starting bot make one per look."""

from __future__ import annotations

import httpx
from telegram.request import HTTPXRequest


def loopback_client() -> httpx.AsyncClient:
    return httpx.AsyncClient(verify=False)


def loopback_request() -> HTTPXRequest:
    """python-telegram-bot's own request object, as above."""
    return HTTPXRequest(httpx_kwargs={"verify": False})
