"""A local Telegram Bot API sandbox: the unmodified bot is tested against it.

See docs/sandbox.md. The entry point is `Sandbox`; `HttpTransport` serves it on
127.0.0.1, `Sandbox.request()` plugs it into python-telegram-bot in-process.
"""

from .clock import SandboxClock
from .core import Press, Sandbox, SimUser, VisibleMessage
from .errors import ApiError, SandboxBug, SimulationError
from .faults import Fault
from .files import Upload
from .limits import Limits
from .network import Network
from .records import CallLog, CallRecord
from .schema import Schema
from .state import (
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
from .transport_http import HttpTransport
from .webhook import SECRET_HEADER, post_json

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
