"""`tg-mafia sandbox`: run the local Bot API sandbox over HTTP until Ctrl-C."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
from typing import Any

from tg_mafia.commands.arguments import at_least, examples, fail, port, positive
from tg_mafia.commands.stopping import until_stopped


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sandbox",
        help="run a local Telegram Bot API sandbox on 127.0.0.1",
        description=(
            "Serve a simulated Telegram on 127.0.0.1: a supergroup with N users who have not "
            "started the bot. Prints one JSON line (base_url, token, bot_username, "
            "group_chat_id, user_ids) and serves until Ctrl-C; point the bot at it with "
            "`tg-mafia run --base-url BASE_URL --token TOKEN`."
        ),
        epilog=examples(
            "tg-mafia sandbox --port 8081 --users 5",
            "tg-mafia run --base-url http://127.0.0.1:8081/bot --token '<token from that line>'",
        ),
    )
    parser.add_argument("--port", type=port, default=8081, help="TCP port (0: any free port)")
    parser.add_argument("--users", type=at_least(0), default=5, help="users in the group")
    parser.add_argument("--speed", type=positive, default=1.0, help="sandbox clock speed factor")
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
    try:
        await transport.start()
    except OSError as error:
        await sandbox.close()
        raise CannotListen(f"cannot listen on 127.0.0.1:{args.port}: {error.strerror}") from error
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


class CannotListen(Exception):
    """The port is taken or not ours to take; the message is one line."""


def run(args: argparse.Namespace) -> int:
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_serve(args))
    except CannotListen as error:
        return fail("sandbox", str(error))
    print("sandbox stopped", file=sys.stderr)
    return 0
