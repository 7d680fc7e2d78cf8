"""What the end of a game shows besides its text: the picture of the table,
made from the stored game (its log replayed), when the end is written."""

from __future__ import annotations

import logging

from tg_mafia.render.calls import Method, Op
from tg_mafia.render.drawings import TABLE, table_picture
from tg_mafia.render.protocol import build_protocol, table_snapshot
from tg_mafia.storage import GameRecord, Tx

log = logging.getLogger(__name__)


def fill(tx: Tx, record: GameRecord, op: Op) -> bool:
    """Completes a picture request (drawings.table_request) with the table as the stored
    log tells it (the action that ended the game is written already). False when it
    cannot be made: the picture is left out, and the end goes on without it."""
    wanted = op.picture
    if op.method is not Method.PHOTO or wanted is None or wanted.get("kind") != TABLE:
        return True
    if "table" in wanted:
        return True
    try:
        protocol = build_protocol(record, tx.actions(record.id))
    except Exception:
        log.exception("game %s: the table picture cannot be made", record.id)
        return False
    op.picture = table_picture(table_snapshot(protocol), str(wanted["language"]))
    return True
