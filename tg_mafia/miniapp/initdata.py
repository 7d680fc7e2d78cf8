"""Telegram's `initData`, checked as Telegram documents it
(core.telegram.org/bots/webapps, "Validating data received via the Mini App"):
every field but `hash`, sorted by key, as `key=value` lines joined by "\\n",
signed with HMAC-SHA256 under the key HMAC-SHA256("WebAppData", bot token);
and `auth_date` no older than the age the operator allows. Only then is the
`user` in it the one who opened the page."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final
from urllib.parse import parse_qsl

DEFAULT_MAX_AGE: Final = 24 * 3600.0  # seconds a signed page stays good (MINIAPP_MAX_AGE)
MAX_LENGTH: Final = 4096  # Telegram's initData is about 500 bytes; anything longer is not it


class Rejection(StrEnum):
    UNSIGNED = "unsigned"  # no initData, no hash, or not a query string
    FORGED = "forged"  # a hash that is not the bot's signature (or another bot's)
    EXPIRED = "expired"  # signed longer ago than the allowed age (or in the future)
    NO_USER = "no_user"  # signed, but names nobody


@dataclass(frozen=True, slots=True)
class SignedUser:
    """Who opened the page, as Telegram signed it."""

    user_id: int
    name: str
    language: str | None
    start_param: str  # the `startapp` of the link that opened it ("" without one)
    auth_date: int


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def check_string(fields: Mapping[str, str]) -> str:
    return "\n".join(f"{key}={fields[key]}" for key in sorted(fields) if key != "hash")


def verify(init_data: str, token: str, now: float, max_age: float) -> SignedUser | Rejection:
    """The signed user, or why the data is refused."""
    if not init_data or len(init_data) > MAX_LENGTH:
        return Rejection.UNSIGNED
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        return Rejection.UNSIGNED
    fields = dict(pairs)
    given = fields.get("hash", "")
    if not given or len(fields) != len(pairs):  # a field twice: not Telegram's
        return Rejection.UNSIGNED
    expected = hmac.new(secret_key(token), check_string(fields).encode(), hashlib.sha256)
    if not hmac.compare_digest(expected.hexdigest(), given.lower()):
        return Rejection.FORGED
    try:
        auth_date = int(fields.get("auth_date", ""))
    except ValueError:
        return Rejection.EXPIRED
    if not now - max_age <= auth_date <= now + 60:  # a minute's skew between the clocks
        return Rejection.EXPIRED
    return _user(fields, auth_date)


def _user(fields: Mapping[str, str], auth_date: int) -> SignedUser | Rejection:
    try:
        user = json.loads(fields.get("user", ""))
        user_id = int(user["id"])
    except (ValueError, TypeError, KeyError):
        return Rejection.NO_USER
    name = " ".join(str(user.get(k) or "") for k in ("first_name", "last_name")).strip()
    language = user.get("language_code")
    return SignedUser(
        user_id,
        name or str(user.get("username") or user_id),
        language if isinstance(language, str) else None,
        fields.get("start_param", ""),
        auth_date,
    )
