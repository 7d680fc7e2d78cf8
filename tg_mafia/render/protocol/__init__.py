"""A finished game's protocol, as clubs keep it: the seats and roles, each
night's moves and checks, each day's nominations and votes (who raised a
hand for whom), warnings, who left when and how, and the result.

Built by replaying the stored action log in the engine (`build.py`), never
from what was sent to Telegram; shown as text in the group's language
(`text.py`), as a versioned JSON document (`schema.py`, its JSON Schema
`protocol.schema.json`, docs/protocol.md) that holds the seed and the action
log, so that the game can be played again from it (`replay.py`), and as the
picture of the table (`snapshot.py`)."""

from tg_mafia.render.protocol.build import GameNotOverError, build_protocol
from tg_mafia.render.protocol.model import Protocol
from tg_mafia.render.protocol.schema import (
    SCHEMA,
    SCHEMA_VERSION,
    protocol_file,
    protocol_json,
    schema_document,
)
from tg_mafia.render.protocol.snapshot import table_snapshot
from tg_mafia.render.protocol.text import protocol_text

__all__ = [
    "SCHEMA",
    "SCHEMA_VERSION",
    "GameNotOverError",
    "Protocol",
    "build_protocol",
    "protocol_file",
    "protocol_json",
    "protocol_text",
    "schema_document",
    "table_snapshot",
]
