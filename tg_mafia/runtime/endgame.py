"""What the end of a game shows besides its text: the picture of the table,
made from the stored game (its log replayed), when the end is written."""

from __future__ import annotations

import logging

from tg_mafia.render.calls import Op, Photo
from tg_mafia.render.drawings import table_picture
from tg_mafia.render.pictures.data import TABLE
from tg_mafia.render.protocol import build_protocol, table_snapshot
from tg_mafia.storage import GameRecord, Tx

log = logging.getLogger(__name__)


def filled(tx: Tx, record: GameRecord, op: Op) -> Op | None:
    """The call, with a picture request (drawings.table_request) completed with the
    table as the stored log tells it (the action that ended the game is written
    already). None when it cannot be made: the picture is left out, and the end goes
    on without it."""
    if not isinstance(op, Photo):
        return op
    wanted = op.picture
    if wanted["kind"] != TABLE or "table" in wanted:
        return op
    try:
        protocol = build_protocol(record, tx.actions(record.id))
    except Exception:
        log.exception("game %s: the table picture cannot be made", record.id)
        return None
    return Photo(table_picture(table_snapshot(protocol), wanted["language"]))
