"""What Telegram hands a Mini App it opens: `initData`, the user's fields
signed with the bot's token as Telegram documents it (the data-check-string
of every field but `hash`, sorted, under HMAC-SHA256 keyed with
HMAC-SHA256("WebAppData", token)). The sandbox signs with its own token, so a
page opened "from Telegram" in a test carries what a real one would."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from urllib.parse import urlencode

from tg_mafia.sandbox.world.state import User


def signed(fields: Mapping[str, str], token: str) -> str:
    key = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    check = "\n".join(f"{name}={fields[name]}" for name in sorted(fields))
    digest = hmac.new(key, check.encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def init_data(user: User, token: str, auth_date: int, start_param: str = "") -> str:
    """The initData of a page `user` opens now (`auth_date`), from a link's
    `startapp` (`start_param`) or a button."""
    about = {k: v for k, v in user.to_api().items() if k != "is_bot"}
    fields = {
        "user": json.dumps(about, separators=(",", ":"), ensure_ascii=False),
        "auth_date": str(auth_date),
        "query_id": f"AA{user.id:x}",
    }
    if start_param:
        fields["start_param"] = start_param
        seen_from = hashlib.sha256(f"{user.id}:{start_param}".encode()).hexdigest()[:15]
        fields["chat_instance"] = str(int(seen_from, 16))  # the chat it was opened from
    return signed(fields, token)
