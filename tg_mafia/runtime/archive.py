"""/protocol and the end screen's Protocol button: a finished game's
protocol, rebuilt from its stored log, as messages in the game's language
and a JSON file, written to the outbox in one transaction. A game still
running has none: nothing of it may leak before its end."""

from __future__ import annotations

from dataclasses import dataclass

from engine import Phase
from tg_mafia.i18n import Translator, translator
from tg_mafia.render.calls import Document, DocumentFile, Op, Priority, Send
from tg_mafia.render.calls_json import to_json
from tg_mafia.render.protocol import (
    SCHEMA,
    SCHEMA_VERSION,
    build_protocol,
    protocol_file,
    protocol_json,
    protocol_text,
)
from tg_mafia.runtime.gameview import views_of
from tg_mafia.storage import Database, GameRecord, GameStatus, Tx


@dataclass(frozen=True)
class Delivery:
    """Where the protocol goes: a chat, and its forum topic (0: none)."""

    chat_id: int
    topic: int = 0


def protocol_of_chat(db: Database, chat_id: int, topic: int, now: float) -> str | None:
    """/protocol in a group: the last finished game's, into that chat (None),
    or why not (the text to answer with)."""
    with db.transaction() as tx:
        active = tx.active_game(chat_id, topic)
        if active is not None and active.status is GameStatus.RUNNING:
            return refusal(translator(active.language))
        record = tx.last_ended_game(chat_id, topic)
        if record is None:
            t = translator(db.get_settings(chat_id).language)
            return t.gettext("No game has been played to the end here yet: no protocol.")
        return enqueue_protocol(tx, record, Delivery(chat_id, topic), now)


def protocol_of_game(db: Database, game_id: int, user_id: int, now: float) -> str | None:
    """The end screen's button: the game's protocol in the presser's private
    chat (None), or why not (the text to answer with)."""
    with db.transaction() as tx:
        record = tx.game(game_id)
        if record is None or not has_protocol(record):
            return refusal(translator(record.language if record else "en"))
        return enqueue_protocol(tx, record, Delivery(user_id), now)


def has_protocol(record: GameRecord) -> bool:
    """Played to its end: won or drawn, or ended unscored at the limit of a suspension
    (its topic stayed closed), which was played all the same. Not an abandoned game, nor
    one stopped from outside (/cancel, a deleted topic)."""
    if record.status is GameStatus.ENDED:
        return True
    if record.status is not GameStatus.ABORTED or record.state is None:
        return False
    view = views_of(record).public
    return view.phase is Phase.ENDED and view.suspended


def refusal(t: Translator) -> str:
    return t.gettext("The game is still running: its protocol comes when it ends.")


def enqueue_protocol(tx: Tx, record: GameRecord, to: Delivery, now: float) -> str | None:
    """The protocol into the outbox (None), or why there is none: the game's
    log was pruned (tg_mafia/runtime/timers/retention.py)."""
    t = translator(record.language)
    actions = tx.actions(record.id)
    if not actions:
        return t.gettext("This game is too old: its record is no longer kept, only its result.")
    protocol = build_protocol(record, actions)
    ops: list[Op] = [Send(text) for text in protocol_text(protocol, t)]
    document = protocol_file(protocol_json(protocol))
    caption = t.gettext("The same protocol as data: JSON, schema {schema} version {version}.")
    ops.append(
        Document(
            caption.format(schema=SCHEMA, version=SCHEMA_VERSION),
            DocumentFile(f"protocol-{record.id}.json", document),
        )
    )
    for op in ops:
        data = to_json(op, to.topic)
        tx.enqueue(to.chat_id, data, now=now, game_id=record.id, priority=Priority.ANSWER)
    return None
