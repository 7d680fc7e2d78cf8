"""Hiding secrets in text: every log line and every start-up error goes through `Redactor`.

What it hides: the secrets it is given (the bot token, the webhook secret, also URL-encoded),
anything shaped like a bot token (another bot's, say), and the password of every URL.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

REDACTED: Final = "***"
TOKEN_SHAPE: Final = re.compile(r"(?<!\d)\d{5,20}(?::|%3[Aa])[A-Za-z0-9_-]{30,100}")
# scheme://user:PASSWORD@host. As urlsplit reads an authority, the user info runs to the
# *last* "@" (a raw "@" in a password included); here it also runs past a "/", which
# SQLAlchemy lets a password hold: when in doubt, hide.
URL_PASSWORD: Final = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://[^\s/?#@:'\"]*:)[^\s'\"]*@")
# Shorter secrets (a one-letter webhook secret, a test password) would garble every line
# they happen to occur in; the shapes above still catch them inside URLs.
MIN_SECRET_LENGTH: Final = 4


def mask_url_passwords(text: str) -> str:
    """`text` with the password of every URL in it replaced by ***."""
    return URL_PASSWORD.sub(rf"\1{REDACTED}@", text)


class Redactor:
    """Callable: the text with each secret, token shape and URL password replaced by ***."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        found = {s for s in secrets if len(s) >= MIN_SECRET_LENGTH}
        found |= {s.replace(":", "%3A") for s in found if ":" in s}
        # Longest first, so a secret containing another is replaced whole.
        self._secrets = tuple(sorted(found, key=len, reverse=True))

    def __call__(self, text: str) -> str:
        text = mask_url_passwords(text)
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        return TOKEN_SHAPE.sub(REDACTED, text)
