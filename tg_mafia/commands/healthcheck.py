"""`tg-mafia healthcheck`: exit 0 when the running bot's GET /healthz says ok, else 1.

For container health checks; also `python -m tg_mafia.commands.healthcheck`. Standard
library only, so it starts fast.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from typing import Any

from tg_mafia.commands.arguments import examples, positive
from tg_mafia.config import ConfigError, parse_address

WILDCARDS = ("0.0.0.0", "::", "")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "healthcheck",
        help="ask a running bot's health endpoint (exit 0 when healthy)",
        description="GET /healthz of a running `tg-mafia run` (its HEALTH_LISTEN address); "
        "exit 0 when it answers ok, 1 when it does not (the reason on one line), 2 when no "
        "address is known. The container image's HEALTHCHECK.",
        epilog=examples(
            "HEALTH_LISTEN=127.0.0.1:8081 tg-mafia healthcheck",
            "tg-mafia healthcheck --url http://127.0.0.1:8081/healthz --timeout 2",
        ),
    )
    _add_arguments(parser)
    parser.set_defaults(func=run)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--url",
        help="health URL (default: http://<HEALTH_LISTEN>/healthz, 0.0.0.0 read as 127.0.0.1)",
    )
    parser.add_argument("--timeout", type=positive, default=5.0, help="seconds (default 5)")


def default_url(env: Mapping[str, str]) -> str:
    listen = env.get("HEALTH_LISTEN", "").strip()
    if not listen:
        raise ConfigError("HEALTH_LISTEN is not set and no --url was given")
    address = parse_address("HEALTH_LISTEN", listen, "127.0.0.1")
    host = "127.0.0.1" if address.host in WILDCARDS else address.host
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{address.port}/healthz"


def run(args: argparse.Namespace) -> int:
    try:
        url = args.url or default_url(os.environ)
    except ConfigError as error:
        print(f"tg-mafia healthcheck: {error}", file=sys.stderr)
        return 2
    try:
        with urllib.request.urlopen(url, timeout=args.timeout) as response:
            body = json.load(response)
    except urllib.error.HTTPError as error:  # 503: starting, stopping, database down
        print(f"unhealthy: HTTP {error.code} {error.read().decode(errors='replace')}")
        return 1
    except (OSError, ValueError) as error:
        print(f"unhealthy: {url}: {error}")
        return 1
    if not (isinstance(body, dict) and body.get("ok") is True):
        print(f"unhealthy: {body}")
        return 1
    print(f"healthy: {body.get('games')} unfinished games")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tg_mafia.commands.healthcheck")
    _add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
