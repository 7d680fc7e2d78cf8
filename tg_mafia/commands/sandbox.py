"""`tg-mafia sandbox`: run the local Bot API sandbox over HTTP until Ctrl-C."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
from typing import Any

from tg_mafia.commands.stopping import until_stopped


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sandbox",
        help="run a local Telegram Bot API sandbox on 127.0.0.1",
        description=(
            "Serve a simulated Telegram on 127.0.0.1: a supergroup with N users who have not "
            "started the bot. Prints one JSON line (base_url, token, group_chat_id, user_ids)."
        ),
    )
    parser.add_argument("--port", type=int, default=8081, help="TCP port (0: any free port)")
    parser.add_argument("--users", type=int, default=5, help="users in the group")
    parser.add_argument("--speed", type=float, default=1.0, help="sandbox clock speed factor")
    parser.set_defaults(func=run)


async def _serve(args: argparse.Namespace) -> None:
    from tg_mafia.sandbox import HttpTransport, Sandbox

    sandbox = Sandbox(speed=args.speed)
    users = sandbox.add_users(args.users)
    group = sandbox.add_group(
        "Mafia sandbox",
        members=users,
        owner=users[0] if users else None,
        bot_rights={
            "can_delete_messages": True,
            "can_restrict_members": True,
            "can_pin_messages": True,
        },
    )
    transport = HttpTransport(sandbox, port=args.port)
    await transport.start()
    info = {
        "base_url": transport.base_url,
        "token": sandbox.token,
        "bot_username": sandbox.bot_username,
        "group_chat_id": group.id,
        "user_ids": [u.id for u in users],
    }
    print(json.dumps(info), flush=True)
    try:
        await until_stopped()
    finally:
        await transport.stop()
        await sandbox.close()


def run(args: argparse.Namespace) -> int:
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(args))
    print("sandbox stopped", file=sys.stderr)
    return 0
