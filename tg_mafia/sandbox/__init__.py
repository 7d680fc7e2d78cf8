"""A local Telegram Bot API sandbox: the unmodified bot is tested against it.

See docs/sandbox.md. The entry point is `Sandbox`; `HttpTransport` serves it on
127.0.0.1, `Sandbox.request()` plugs it into python-telegram-bot in-process.
"""

from tg_mafia.sandbox.clock import SandboxClock
from tg_mafia.sandbox.core import Press, Sandbox, SandboxBot, SimUser, VisibleMessage
from tg_mafia.sandbox.errors import ApiError, SandboxBug, SimulationError
from tg_mafia.sandbox.limits import Limits
from tg_mafia.sandbox.records import CallLog, CallRecord
from tg_mafia.sandbox.schema import Schema
from tg_mafia.sandbox.transport.faults import Fault
from tg_mafia.sandbox.transport.http import HttpTransport
from tg_mafia.sandbox.transport.network import Network
from tg_mafia.sandbox.transport.webhook import SECRET_HEADER, post_json
from tg_mafia.sandbox.world.files import Upload
from tg_mafia.sandbox.world.state import (
    GENERAL_TOPIC_ID,
    GROUP_ANONYMOUS_BOT_ID,
    TELEGRAM_SERVICE_ID,
    Chat,
    Message,
    Topic,
    User,
    admin_rights,
    full_admin_rights,
)

__all__ = [
    "GENERAL_TOPIC_ID",
    "GROUP_ANONYMOUS_BOT_ID",
    "SECRET_HEADER",
    "TELEGRAM_SERVICE_ID",
    "ApiError",
    "CallLog",
    "CallRecord",
    "Chat",
    "Fault",
    "HttpTransport",
    "Limits",
    "Message",
    "Network",
    "Press",
    "Sandbox",
    "SandboxBot",
    "SandboxBug",
    "SandboxClock",
    "Schema",
    "SimUser",
    "SimulationError",
    "Topic",
    "Upload",
    "User",
    "VisibleMessage",
    "admin_rights",
    "full_admin_rights",
    "post_json",
]
